"""A run's games on a Ray cluster (the extra `koloda[ray]`): the same games, the same records, as
on local processes (docs/simulate.md says how to point it at a cluster).

Each worker is an actor that loads the game once; ranges of game numbers go to whichever actor is
free, and records are sorted by number when they are all back. An actor that dies (its process
killed, out of memory, its node lost) is replaced by a new one, and the games it held go back to be
played again, one at a time, so that a game that kills every actor that plays it is the only one
given up as lost (ledger.py)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import ray
from ray.exceptions import OutOfMemoryError, RayActorError, WorkerCrashedError

from koloda.interpreter.game import Game
from koloda.report.records import GameRecord
from koloda.sim import reaper
from koloda.sim.ledger import Ledger
from koloda.sim.play import game_seed
from koloda.sim.result import SimulationResult
from koloda.sim.table import Table, ranges

# what Ray raises when the process of an actor is gone, whatever ended it
_LOST_ACTOR = (RayActorError, WorkerCrashedError, OutOfMemoryError)


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
            reaper.start()      # the instance started here ends with this process, even killed
            ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR)
    return workers or max(1, int(ray.cluster_resources().get("CPU", 1)))


def simulate_ray(table: Table, count: int, jobs: int, progress: Callable[[int], object] | None = None,
                 start: int = 0) -> SimulationResult:
    """Games `start` .. `count - 1` of the run on `jobs` actors of the connected cluster (connect()
    first). Ctrl-C stops them and returns the games finished so far; games whose actors kept dying
    are in result.lost."""
    result = SimulationResult(seats=list(table.seats), players=table.players)
    ledger = Ledger(ranges(start, count, jobs))
    # the actors are not restarted by Ray, nor their calls retried: a dead one is replaced here,
    # where its games are counted, so that a game that kills them is given up rather than tried forever
    remote: Any = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Player)
    idle = [remote.remote(table) for _ in range(max(1, jobs))]
    running: dict[Any, tuple[Any, tuple[int, int]]] = {}
    try:
        while True:
            while idle and (job := ledger.take()) is not None:
                actor = idle.pop()
                running[actor.play.remote(job)] = (actor, job)
            if not running:
                break
            [ready], _ = ray.wait(list(running), num_returns=1)
            actor, job = running.pop(ready)
            try:
                part: list[GameRecord] = ray.get(ready)
            except _LOST_ACTOR:
                ray.kill(actor)
                actor = remote.remote(table)
                ledger.died(job, known=False)
                idle.append(actor)
                continue
            idle.append(actor)
            ledger.finished()
            result.records.extend(part)
            if progress is not None:
                progress(len(part))
    except KeyboardInterrupt:
        result.stopped = True
    finally:
        for actor in idle + [actor for actor, _ in running.values()]:
            ray.kill(actor)
    result.records.sort(key=lambda r: r.number)
    result.deaths = ledger.deaths
    result.lost = [(number, game_seed(table.seed, number)) for number in sorted(ledger.lost)]
    return result
