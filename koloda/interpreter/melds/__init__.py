"""The meld and pattern search: melds, layoffs, what a turn can put down (compiled with mypyc: compiled.py)."""
