"""Sets of card ids as int bit masks: a mask from ids, the ids of a mask, and a sum over them.

These run at every listing of melds and at every step of the opening search, hundreds of thousands
of times a match, so they work a byte of the mask at a time through tables made once: a loop over
eight cards costs one step of Python instead of eight. Tables grow as masks of bigger decks are met.
"""
from __future__ import annotations

from typing import Iterable, Sequence

# 1 << id, by id: a mask is the sum of its ids' entries
_BIT: list[int] = [1 << i for i in range(128)]
# by byte position, by byte value: the ids of the bits set in that byte of a mask, lowest first
_IDS: list[tuple[tuple[int, ...], ...]] = []


def _ids_row(at: int) -> tuple[tuple[int, ...], ...]:
    while len(_IDS) <= at:
        base = 8 * len(_IDS)
        _IDS.append(tuple(tuple(base + j for j in range(8) if value >> j & 1) for value in range(256)))
    return _IDS[at]


def bits(mask: int) -> list[int]:
    """The card ids in a mask, lowest first."""
    out: list[int] = []
    rows, at = _IDS, 0
    while mask:
        try:
            row = rows[at]
        except IndexError:
            row = _ids_row(at)
        out += row[mask & 255]
        mask >>= 8
        at += 1
    return out


def mask_of(cards: Iterable[int]) -> int:
    """The mask of card ids given once each (a sum: quicker than or-ing them one by one)."""
    if type(cards) is not list:
        cards = list(cards)
    try:
        return sum(map(_BIT.__getitem__, cards))
    except IndexError:           # an id past the table: a bigger deck than met so far
        _BIT.extend(1 << i for i in range(len(_BIT), max(cards) + 1))
        return sum(map(_BIT.__getitem__, cards))


class ByteSums:
    """A sum of one number per card id over the ids of a mask, by a table of the sums of each byte's
    cards: the packed counts of a hand's card names (plays.py) one lookup per eight cards."""

    def __init__(self, weights: Sequence[int]):
        self.rows: list[list[int]] = []
        for base in range(0, len(weights), 8):
            row = [0] * 256
            for value in range(1, 256):       # a byte's sum: that of the byte less its lowest bit, and that bit's
                low = value & -value
                card = base + low.bit_length() - 1
                row[value] = row[value ^ low] + (weights[card] if card < len(weights) else 0)
            self.rows.append(row)

    def of(self, mask: int) -> int:
        """The sum of the weights of the ids in `mask` (ids past the weights given count nothing)."""
        total = 0
        for row in self.rows:
            if not mask:
                break
            total += row[mask & 255]
            mask >>= 8
        return total
