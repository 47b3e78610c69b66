"""A combination of `combos:`: an int, its place among every combination the deck allows, that also carries
what it is.

Kept apart from combos.py as plan.py is from melds.py: a compiled module cannot define a subclass of int.
"""
from __future__ import annotations


class Combo(int):
    """Cards of a hand put down together; its int value is its code (combos.py)."""
    kind: str                        # the kind's name in `combos:`
    low: int                         # the least and greatest value of its groups
    high: int
    length: int                      # how many groups
    counts: tuple[tuple[int, int], ...]   # (value, how many cards of it), groups then wings
    cards: tuple[int, ...]           # the cards it takes: the first of each value in the cards it was made from
