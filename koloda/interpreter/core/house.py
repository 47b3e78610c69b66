"""The result of a game against the house: each player wins, draws or loses against it alone; and of
a game of rivals: the share of the win by the scores."""
from __future__ import annotations

from typing import Callable

WON, LEVEL, LOST = 1.0, 0.5, 0.0


def against_house(scores: list[int], house: int, lowest_wins: bool) -> list[float]:
    """Each player's share of the win against the house: 1 for a score better than the house's
    (higher, or lower with `winner: lowest`), 0.5 for a level one (the stake back: neither side
    wins), 0 for a worse one. Players are not judged against each other, so several may win."""
    if lowest_wins:
        return [WON if s < house else LEVEL if s == house else LOST for s in scores]
    return [WON if s > house else LEVEL if s == house else LOST for s in scores]


def shares(scores: Callable[[], list[int]], n: int, side: Callable[[int], int], capped: bool,
           lowest_wins: bool) -> list[float]:
    """The share of the win: 1 for a sole winner, split among tied winners, 0 otherwise. Partners win
    together: each player of a winning side gets that side's share. Drawn by the turn cap (`capped`):
    every side shares the win, whatever the scores (not worked out then)."""
    if capped:
        sides = {side(p) for p in range(n)}
        return [1.0 / len(sides)] * n
    found = scores()
    best = min(found) if lowest_wins else max(found)
    winning = {side(p) for p in range(n) if found[p] == best}
    return [1.0 / len(winning) if side(p) in winning else 0.0 for p in range(n)]
