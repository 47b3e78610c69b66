"""A run's games on a Ray cluster (the extra `koloda[ray]`): the same games, the same records, as
on local processes (docs/simulate.md says how to point it at a cluster).

Each worker is an actor that loads the game once; ranges of game numbers go to whichever actor is
free, and records are sorted by number when they are all back."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import ray
from ray.util import ActorPool

from koloda.interpreter.game import Game
from koloda.report.records import GameRecord
from koloda.sim.pool import Table, ranges
from koloda.sim.result import SimulationResult


class _Player:
    def __init__(self, table: Table):
        self.table = table
        self.game: Game = table.load()

    def play(self, job: tuple[int, int]) -> list[GameRecord]:
        return self.table.play(self.game, *job)


def connect(address: str | None, workers: int) -> int:
    """Join the cluster at `address`, or start one on this machine with `workers` CPUs; returns the
    number of workers to run (`workers`, or every CPU of the cluster when 0)."""
    if not ray.is_initialized():
        # the report is the output: Ray says only what went wrong
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR)
    return workers or max(1, int(ray.cluster_resources().get("CPU", 1)))


def simulate_ray(table: Table, count: int, jobs: int, progress: Callable[[int], object] | None = None,
                 start: int = 0) -> SimulationResult:
    """Games `start` .. `count - 1` of the run on `jobs` actors of the connected cluster (connect()
    first). Ctrl-C stops them and returns the games finished so far."""
    result = SimulationResult(seats=list(table.seats), players=table.players)
    remote: Any = ray.remote(num_cpus=1)(_Player)
    actors = [remote.remote(table) for _ in range(max(1, jobs))]
    try:
        work = ActorPool(actors).map_unordered(lambda actor, job: actor.play.remote(job), ranges(start, count, jobs))
        for part in work:
            result.records.extend(part)
            if progress is not None:
                progress(len(part))
    except KeyboardInterrupt:
        result.stopped = True
    finally:
        for actor in actors:
            ray.kill(actor)
    result.records.sort(key=lambda r: r.number)
    return result
