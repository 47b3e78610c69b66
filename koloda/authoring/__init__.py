"""Tools for people writing rule files: the formatter (`koloda fmt`) and the starter (`koloda new`)."""
