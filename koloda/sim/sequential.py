"""A run's games one after another in this process."""
from __future__ import annotations

from collections.abc import Callable

from koloda.interpreter.game import Game
from koloda.sim.play import Position, play_game
from koloda.sim.result import SimulationResult


def simulate(game: Game, count: int, seed: int = 0, max_moves: int = 100_000, seats: list[str] | None = None,
             progress: Callable[[], object] | None = None, first: int = 0,
             position: Position = Position(), rotate: bool = False) -> SimulationResult:
    """Play games `first` .. `first + count - 1` of a run with master seed `seed`; seats are agent
    descriptions (default: random). `position`: a dealer, hands or deck orders every game starts
    from (the seed deals the rest). Ctrl-C stops after the game being played, which is left out."""
    result = SimulationResult(seats=list(seats or []), players=game.num_players)
    try:
        for number in range(first, first + count):
            result.records.append(play_game(game, number, seed, result.seats, max_moves, position, rotate))
            if progress is not None:
                progress()
    except KeyboardInterrupt:
        result.stopped = True
    return result
