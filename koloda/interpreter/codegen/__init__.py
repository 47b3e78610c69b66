"""The resolved tree as generated Python source: one method per class, fast or checked, compiled and cached."""
