"""How a bot values a position for every player, as rewards in [0, 1]."""
from __future__ import annotations

from typing import cast

from koloda.interpreter.state import State


def standing(state: State) -> list[float]:
    """Each player's standing, higher better: the rule file's `heuristic` if it has one,
    else the match score (negated where the lowest score wins)."""
    game = state.game
    if game.heuristic is not None:
        # compiled expressions return plain objects; the checker makes `heuristic` an int
        return [float(cast(int, game.heuristic(state, {"p": p}))) for p in range(state.n)]
    sign = -1.0 if game.flow.lowest_wins else 1.0
    return [sign * v for v in state.scores()]


def rewards(state: State, before: list[float] | None = None) -> list[float]:
    """Terminal: the share of the win. Otherwise each player's standing (gained since `before`),
    scaled so the best is 1 and the worst 0."""
    if state.is_terminal():
        return state.returns()
    values = standing(state)
    if before is not None:
        values = [v - b for v, b in zip(values, before)]
    low, high = min(values), max(values)
    if high == low:
        return [0.5] * len(values)
    return [(v - low) / (high - low) for v in values]
