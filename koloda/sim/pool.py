"""A run's games shared out over local processes.

Each process loads the game once, when it starts, and is then sent ranges of game numbers; each
game's record comes back as the game ends, and the records are sorted by number: the results depend
on the master seed alone, not on the number of processes or which finishes first.

The parent waits on every worker's pipe and on its process at once, so a worker that dies (killed,
out of memory, crashed) is noticed at once: its unfinished games go back to be played by another
worker (a new one takes its place), and a game that kills every worker that plays it is given up as
lost after a few tries (ledger.py) and listed. The workers die with the parent (lifeline.py)."""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any

from koloda.sim.ledger import Ledger
from koloda.sim.play import game_seed
from koloda.sim.result import SimulationResult
from koloda.sim.table import Table, ranges
from koloda.sim.worker import DONE, ERROR, READY, RECORD, work

__all__ = ["Table", "ranges", "simulate_parallel"]

Progress = Callable[[int], object] | None


@dataclass(eq=False)
class _Worker:
    process: SpawnProcess
    conn: Connection
    ready: bool = False                  # the game is loaded: it can be sent games
    job: tuple[int, int] | None = None   # the games it was sent (first, count)
    back: int = 0                        # how many of them came back

    def give(self, job: tuple[int, int]) -> None:
        self.conn.send(job)
        self.job, self.back = job, 0

    def left(self) -> tuple[int, int] | None:
        """The games it was sent that did not come back."""
        if self.job is None or self.back == self.job[1]:
            return None
        return self.job[0] + self.back, self.job[1] - self.back


def _start(context: SpawnContext, table: Table) -> _Worker:
    ours, theirs = context.Pipe()
    process = context.Process(target=work, args=(table, theirs, os.getpid()), daemon=True, name="koloda-worker")
    # Ctrl-C reaches the terminal's whole group: a worker ignores it from its first instruction on
    # (Python keeps an ignored SIGINT it inherits), not only once it has imported koloda
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        process.start()
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
    theirs.close()          # the worker's end is its own alone: when it dies, the pipe ends
    return _Worker(process, ours)


def _end(worker: _Worker, at_once: bool) -> None:
    """Stop a worker: an idle one ends when its pipe closes; a busy one (at_once) is killed."""
    worker.conn.close()
    if at_once:
        worker.process.kill()
    worker.process.join(timeout=5)
    if worker.process.exitcode is None:
        worker.process.kill()
        worker.process.join()


class _Run:
    def __init__(self, table: Table, jobs: list[tuple[int, int]], workers: int, progress: Progress):
        self.table, self.size, self.progress = table, workers, progress
        self.ledger = Ledger(jobs)
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []
        self.result = SimulationResult(seats=list(table.seats), players=table.players)

    def play(self) -> None:
        self.workers = [_start(self.context, self.table) for _ in range(self.size)]
        while self._hand_out():
            handles: dict[Any, _Worker] = {}
            for w in self.workers:
                handles[w.conn] = handles[w.process.sentinel] = w
            for handle in wait(list(handles)):
                worker = handles[handle]
                if worker in self.workers and not self._hear(worker):
                    self._bury(worker)

    def _hand_out(self) -> bool:
        """Give every idle worker a range; False when every game is played (or lost)."""
        for w in self.workers:
            if w.ready and w.job is None and (job := self.ledger.take()) is not None:
                w.give(job)
        return self.ledger.waiting or any(w.job is not None for w in self.workers)

    def _hear(self, worker: _Worker) -> bool:
        """Read what the worker sent; False if it is dead."""
        try:
            while worker.conn.poll():
                self._take(worker, worker.conn.recv())
        except (EOFError, OSError):
            return False
        return worker.process.is_alive()

    def _take(self, worker: _Worker, message: Any) -> None:
        if message == READY:
            worker.ready = True
            return
        kind, value = message
        if kind == RECORD:
            self.result.records.append(value)
            worker.back += 1
            self.ledger.finished()
            if self.progress is not None:
                self.progress(1)
        elif kind == DONE:
            worker.job = None
        elif kind == ERROR:
            raise value

    def _bury(self, worker: _Worker) -> None:
        """A worker died: what it did not send back is played again (or lost), by a new worker."""
        self.workers.remove(worker)
        _end(worker, at_once=True)
        self.ledger.died(worker.left())
        if self.ledger.waiting:
            self.workers.append(_start(self.context, self.table))

    def stop(self, at_once: bool) -> None:
        for w in self.workers:
            _end(w, at_once)
        self.workers = []


def simulate_parallel(table: Table, count: int, jobs: int, progress: Progress = None,
                      start: int = 0) -> SimulationResult:
    """Games `start` .. `count - 1` of the run on `jobs` processes. Ctrl-C (or anything raised as
    KeyboardInterrupt) stops them and returns the games finished so far (result.stopped is then
    true); games whose workers kept dying are in result.lost."""
    work_list = ranges(start, count, jobs)
    run = _Run(table, work_list, max(1, min(jobs, len(work_list))), progress)
    at_once = True
    try:
        run.play()
        at_once = False
    except KeyboardInterrupt:
        run.result.stopped = True
    finally:
        run.stop(at_once)       # the workers have nothing left to do, or are to stop
    result = run.result
    result.records.sort(key=lambda r: r.number)
    result.deaths = run.ledger.deaths
    result.lost = [(number, game_seed(table.seed, number)) for number in sorted(run.ledger.lost)]
    return result
