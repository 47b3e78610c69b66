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
    # each value's cards where it was made, and the deck's (for a value it lacks: a combination decoded)
    pool: dict[int, list[int]]
    deck: dict[int, list[int]]

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards it takes: the first of each value in the cards it was made from (worked out when
        asked: a listing makes many combinations, and its guard reads the cards of few)."""
        pool, deck = self.pool, self.deck
        return tuple(c for v, n in self.counts for c in (pool.get(v) or deck[v])[:n])
