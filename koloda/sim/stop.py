"""SIGTERM taken as Ctrl-C is: a run asked to end stops its games and reports those it played.

A terminal's Ctrl-C raises KeyboardInterrupt, which every part of a run already answers by stopping
with the games finished so far. SIGTERM (`kill`, a batch system's time limit, a service manager)
would end the process at once, without a report: while a run plays, it raises the same exception."""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM came: the run stops as it does on Ctrl-C."""


@dataclass
class Signals:
    terminated: bool = False          # SIGTERM came (else any stop was Ctrl-C)


@contextmanager
def sigterm_stops() -> Iterator[Signals]:
    """While inside, SIGTERM raises Terminated; the yielded Signals says whether it came. Outside
    the main thread (where Python cannot take signals) nothing changes."""
    seen = Signals()
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        if not seen.terminated:       # once: a second one must not break off the stopping itself
            seen.terminated = True
            raise Terminated()
    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGTERM, before)
