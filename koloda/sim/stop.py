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
    interrupted: bool = False         # Ctrl-C came


# the Signals of the run inside sigterm_stops, for `stop_if_asked`
_current: list[Signals] = []


def stop_if_asked() -> None:
    """Raise the stop again if one came: an exception raised by a signal handler while Python runs a
    weakref callback or a `__del__` is printed and dropped ("Exception ignored in ..."), and the run
    would play on. A loop of long work calls this between its pieces."""
    if _current and (_current[-1].terminated or _current[-1].interrupted):
        raise Terminated() if _current[-1].terminated else KeyboardInterrupt()


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

    def interrupt(signum: int, frame: FrameType | None) -> None:
        seen.interrupted = True       # noted, in case the exception is dropped (stop_if_asked)
        raise KeyboardInterrupt()
    before = signal.signal(signal.SIGTERM, stop)
    before_int = signal.signal(signal.SIGINT, interrupt)
    _current.append(seen)
    try:
        yield seen
    finally:
        _current.remove(seen)
        signal.signal(signal.SIGTERM, before)
        signal.signal(signal.SIGINT, before_int)
