"""`pot_shares(stakes, hands)`: a pot split into a main pot and side pots, each to the best hand that may win it.

A player who is all in for less than the others can win only what every player matched of their stake:
the chips are cut into layers at each stake of a player still in the deal, and each layer goes to the best
hand among the players who put at least that much in. The layers are worked out from the stakes alone, so
a rule file keeps only what each player put in (poker's `put`), not a list of pots.
"""
from __future__ import annotations

from typing import Any

from koloda.dsl.errors import Span
from koloda.interpreter.base.errors import RuleRuntimeError

__all__ = ["pot_shares"]


def pot_shares(patterns: Any, stakes: Any, hands: Any, at: Span) -> list[int]:
    """What each player takes from the pot, in the order of `stakes`: `hands[i]` is player i's cards, empty for
    a player who folded (they win nothing). A layer that several best hands tie for is split evenly; the chips
    left over go one each to the tied players first in the lists' order (a rule file lists its players from
    the dealer's left, as the rulebooks give the odd chip). With nobody left to win, each takes back their own."""
    stakes, hands = list(stakes), list(hands)
    if len(stakes) != len(hands):
        raise RuleRuntimeError(f"`pot_shares` of {len(stakes)} stakes and {len(hands)} hands: give one hand for "
                               "each stake, in the same order", at)
    for stake in stakes:
        if stake is None or stake < 0:
            raise RuleRuntimeError(f"`pot_shares` with a stake of {stake}: each stake is a number from 0", at)
    live = [i for i, hand in enumerate(hands) if hand is not None and any(c is not None for c in hand)]
    if not live:
        return stakes
    strength = {i: patterns.strength([c for c in hands[i] if c is not None]) for i in live}
    levels = sorted({stakes[i] for i in live})
    won = [0] * len(stakes)
    below = 0
    for j, level in enumerate(levels):
        # the last layer takes the chips above every live stake too (put in by players who folded since)
        top = max(stakes) if j == len(levels) - 1 else level
        layer = sum(min(stake, top) - min(stake, below) for stake in stakes)
        eligible = [i for i in live if stakes[i] >= level]
        best = max(strength[i] for i in eligible)
        winners = [i for i in eligible if strength[i] == best]
        share, odd = divmod(layer, len(winners))
        for place, i in enumerate(winners):
            won[i] += share + (place < odd)
        below = top
    return won
