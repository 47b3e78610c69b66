"""How a bot values a position for every player."""
from __future__ import annotations

from typing import cast

from koloda.interpreter.core.state import State

# a win or a loss at the end of the match outweighs any standing a heuristic can give
_DECIDED = 1e9


def standing(state: State, viewer: int | None = None) -> list[float]:
    """Each player's standing, higher better: the rule file's `heuristic` if it has one,
    else the match score (negated where the lowest score wins).

    `viewer` is the player whose bot judges (the heuristic's `viewer`: it may judge by what that
    player knows, such as their own hand); with none, each player judges their own standing."""
    game = state.game
    if game.heuristic is not None:
        # compiled expressions return plain objects; the checker makes `heuristic` an int
        return [float(cast(int, game.heuristic(state, {"p": p, "viewer": p if viewer is None else viewer})))
                for p in range(state.n)]
    sign = -1.0 if game.flow.lowest_wins else 1.0
    return [sign * v for v in state.scores()]


def rewards(state: State, before: list[float] | None = None, viewer: int | None = None) -> list[float]:
    """Terminal: the share of the win. Otherwise each player's standing (gained since `before`),
    scaled so the best is 1 and the worst 0; a lone player's, squashed between them."""
    if state.is_terminal():
        return state.returns()
    values = standing(state, viewer)
    if before is not None:
        values = [v - b for v, b in zip(values, before)]
    if len(values) == 1:
        # one player (a solitaire): no rival to scale against, so a gain is squashed into 0..1
        # (0.5 none), below the 1 of a match won and above the 0 of one lost
        return [0.5 + 0.49 * values[0] / (1.0 + abs(values[0]))]
    low, high = min(values), max(values)
    if high == low:
        return [0.5] * len(values)
    return [(v - low) / (high - low) for v in values]


def _over_rivals(values: list[float], player: int, state: State) -> float:
    """`player`'s value less the mean of the players of other sides (partners are not rivals)."""
    side = state.layout.side_of
    rivals = [v for p, v in enumerate(values) if side(p) != side(player)]
    return values[player] - (sum(rivals) / len(rivals) if rivals else 0.0)


def margin(state: State, player: int) -> float:
    """How far `player` stands ahead of their rivals, in the heuristic's (or the score's) own units.

    Unlike `rewards`, nothing is rescaled: a move that gains much is worth more than one that
    gains little, even when it is the only move that changes anyone's standing. A finished
    match counts its result first."""
    value = _over_rivals(standing(state, player), player, state)
    if state.is_terminal():
        value += _DECIDED * _over_rivals(state.returns(), player, state)
    return value
