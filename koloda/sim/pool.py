"""A run's games shared out over local processes.

Each process loads the game once, when it starts, and is then sent only ranges of game numbers;
records come back as ranges finish, in any order, and are sorted by number: the results depend on
the master seed alone, not on the number of processes or which finishes first."""
from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from dataclasses import dataclass

from koloda.api import load
from koloda.interpreter.game import Game
from koloda.report.records import GameRecord
from koloda.sim.play import Position, play_game
from koloda.sim.result import SimulationResult


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

    def play(self, game: Game, first: int, count: int) -> list[GameRecord]:
        return [play_game(game, number, self.seed, self.seats, self.max_moves, self.position, self.rotate)
                for number in range(first, first + count)]


def ranges(start: int, count: int, workers: int) -> list[tuple[int, int]]:
    """Game numbers start..count-1 in ranges small enough to keep every worker busy to the end and
    to move the progress bar, large enough that sending them costs little."""
    size = max(1, min(50, (count - start) // (workers * 8) or 1))
    return [(first, min(size, count - first)) for first in range(start, count, size)]


_table: Table | None = None
_game: Game | None = None


def _start_worker(table: Table) -> None:
    global _table, _game
    # Ctrl-C reaches every process of the terminal's group: the parent stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _table, _game = table, table.load()


def _play_range(job: tuple[int, int]) -> list[GameRecord]:
    assert _table is not None and _game is not None, "the worker was not started"
    return _table.play(_game, *job)


def simulate_parallel(table: Table, count: int, jobs: int, progress: Callable[[int], object] | None = None,
                      start: int = 0) -> SimulationResult:
    """Games `start` .. `count - 1` of the run on `jobs` processes. Ctrl-C stops them and returns
    the games finished so far (result.stopped is then true)."""
    result = SimulationResult(seats=list(table.seats), players=table.players)
    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_start_worker, initargs=(table,))
    try:
        for part in pool.imap_unordered(_play_range, ranges(start, count, jobs)):
            result.records.extend(part)
            if progress is not None:
                progress(len(part))
    except KeyboardInterrupt:
        result.stopped = True
    finally:
        pool.terminate()        # the workers have nothing left to do, or are to stop
        pool.join()
    result.records.sort(key=lambda r: r.number)
    return result
