"""`whole: true` on a meld kind: whole sets and maximal runs only.

A meld of such a kind is offered only when no further natural card among the cards asked about could
join it and leave a meld of the same kind: a set takes every card of its rank that can go in it (each
suit once with `suits: distinct`, up to `max:`), a run cannot be extended at either end by a card held.
Wild cards never have to be added. Worked out on one group of melds (one kind; the natural cards of
one rank or one suit, and the wild cards), which holds every card that could join its melds.
"""
from __future__ import annotations

from typing import Sequence, TypeVar

# (code, kind, cards, wild cards with what they stand for, points), as meldlist.Record
R = TypeVar("R", bound=tuple)


def whole_only(records: Sequence[R], naturals: Sequence[int]) -> list[R]:
    """The melds of one group that no natural card of the group can join (see the module)."""
    masks = {_mask(r[2]) for r in records}
    out = []
    for r in records:
        mask = _mask(r[2])
        if not any(not mask >> c & 1 and mask | 1 << c in masks for c in naturals):
            out.append(r)
    return out


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask
