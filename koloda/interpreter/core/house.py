"""The result of a game against the house: each player wins, draws or loses against it alone."""
from __future__ import annotations

WON, LEVEL, LOST = 1.0, 0.5, 0.0


def against_house(scores: list[int], house: int, lowest_wins: bool) -> list[float]:
    """Each player's share of the win against the house: 1 for a score better than the house's
    (higher, or lower with `winner: lowest`), 0.5 for a level one (the stake back: neither side
    wins), 0 for a worse one. Players are not judged against each other, so several may win."""
    if lowest_wins:
        return [WON if s < house else LEVEL if s == house else LOST for s in scores]
    return [WON if s > house else LEVEL if s == house else LOST for s in scores]
