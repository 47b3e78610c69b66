"""The built-ins' semantics as functions of plain values, one entry each; what generated code calls."""
