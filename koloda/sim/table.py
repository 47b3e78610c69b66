"""What every worker of a run is sent once, and the ranges of game numbers it is then sent."""
from __future__ import annotations

from dataclasses import dataclass

from koloda.api import load
from koloda.interpreter.game import Game
from koloda.report.records import GameRecord
from koloda.sim.play import Position, play_game


@dataclass(frozen=True)
class Table:
    """Everything a worker needs to play any game of a run, sent to it once."""
    game_ref: str
    options: dict[str, str]
    players: int
    seed: int
    max_moves: int
    seats: tuple[str, ...]
    position: Position = Position()
    rotate: bool = False

    def load(self) -> Game:
        return load(self.game_ref, self.options, self.players)

    def play_one(self, game: Game, number: int) -> GameRecord:
        return play_game(game, number, self.seed, self.seats, self.max_moves, self.position, self.rotate)

    def play(self, game: Game, first: int, count: int) -> list[GameRecord]:
        return [self.play_one(game, number) for number in range(first, first + count)]


def ranges(start: int, count: int, workers: int) -> list[tuple[int, int]]:
    """Game numbers start..count-1 in ranges small enough to keep every worker busy to the end and
    to move the progress bar, large enough that sending them costs little."""
    size = max(1, min(50, (count - start) // (workers * 8) or 1))
    return [(first, min(size, count - first)) for first in range(start, count, size)]
