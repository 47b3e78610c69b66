"""A run with its length foretold: the first game here, timed, then the rest."""
from __future__ import annotations

import time
from collections.abc import Callable

from koloda.interpreter.game import Game
from koloda.sim.pool import Table, simulate_parallel
from koloda.sim.result import SimulationResult
from koloda.sim.sequential import simulate

# a run expected to last longer than this many seconds says so before it goes on
ESTIMATE_FROM = 10.0
# starting the worker processes, each of which loads the game
_SPAWN = 1.5

# plays games start..count-1 of a run elsewhere: (table, count, workers, progress, start) -> result
Backend = Callable[[Table, int, int, Callable[[int], object] | None, int], SimulationResult]


def expected_seconds(first: float, count: int, jobs: int) -> float:
    """How long `count` games will take, all told, when the first took `first` seconds and the
    others are shared out over `jobs` processes."""
    rest = count - 1
    if rest <= 0:
        return first
    workers = max(1, min(jobs, rest))
    return first + first * rest / workers + (_SPAWN if workers > 1 else 0.0)


def duration_text(seconds: float) -> str:
    """`about 40 seconds`, `about 12 minutes`, `about 1.5 hours`: as precise as an estimate is."""
    if seconds < 55:
        return f"about {max(5, 5 * round(seconds / 5))} seconds"
    if seconds < 90 * 60:
        minutes = max(1, round(seconds / 60))
        return f"about {minutes} minute{'s' if minutes > 1 else ''}"
    hours = seconds / 3600
    return f"about {hours:.1f} hours" if hours < 10 else f"about {round(hours)} hours"


def seconds_text(seconds: float) -> str:
    """A time measured, short: `2.4 s`, `12 ms`, `less than 1 ms` (never `0.0 s`)."""
    if seconds >= 10:
        return f"{seconds:.0f} s"
    if seconds >= 0.9995:
        return f"{seconds:.1f} s"
    if seconds >= 0.0005:
        return f"{1000 * seconds:.0f} ms"
    return "less than 1 ms"


def _local(table: Table, count: int, jobs: int, progress: Callable[[int], object] | None,
           start: int) -> SimulationResult:
    return simulate_parallel(table, count, jobs, progress, start)


def simulate_timed(game: Game, table: Table, count: int, jobs: int,
                   progress: Callable[[int], object] | None = None,
                   estimate: Callable[[float, float], object] | None = None,
                   clock: Callable[[], float] = time.perf_counter,
                   backend: Backend | None = None) -> SimulationResult:
    """The games of `simulate`, on `jobs` processes (or `backend`'s workers): the first one here,
    timed, and `estimate` told the seconds the whole run should take and the seconds the first game
    took — before the others start, and only when the run should take longer than `ESTIMATE_FROM`.
    The results are those of `simulate`, whatever the backend and the number of workers."""
    advance: Callable[[int], object] = progress or (lambda k: None)
    began = clock()
    result = simulate(game, 1, table.seed, table.max_moves, list(table.seats), progress=lambda: advance(1),
                      position=table.position, rotate=table.rotate)
    if count == 1 or result.stopped:
        return result
    first = clock() - began
    expected = expected_seconds(first, count, jobs)
    if estimate is not None and expected > ESTIMATE_FROM:
        estimate(expected, first)
    if backend is not None or jobs > 1:
        rest = (backend or _local)(table, count, jobs, advance, 1)
    else:
        rest = simulate(game, count - 1, table.seed, table.max_moves, list(table.seats),
                        progress=lambda: advance(1), first=1, position=table.position, rotate=table.rotate)
    return result.merge(rest)
