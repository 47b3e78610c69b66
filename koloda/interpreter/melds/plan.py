"""A play with melds: an int, its stable action code, that also carries what it does.

Kept apart from melds.py, which is compiled (setup.py): a compiled module cannot define a subclass of
int, and a plan is made and read by plain Python as well (generated code reads its attributes).
"""
from __future__ import annotations


class Plan(int):
    """One way to put cards on the table; its int value is the action code."""
    kind: int
    type: int
    cards: tuple[int, ...]           # in table order for a new meld or a run
    wild: tuple[tuple[int, int], ...]  # (wild card, identity it stands for)
    target: int                      # meld slot for a layoff or swap; owner for a new meld
    at_start: bool                   # a layoff at the low end of a run
    points: int
    taken: int | None                # the wild card a swap takes back
