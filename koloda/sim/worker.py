"""One worker process of a local run: it loads the game once, then plays the ranges of game numbers
it is sent, sending each game's record back as the game ends (so that a worker that dies loses only
the game it was playing).

Messages to the parent: READY once the game is loaded; (RECORD, record) per game; (DONE, None) at
the end of a range; (ERROR, exception) when something other than the rules failed (an outside
program playing a seat, say), after which the worker ends. The parent sends (first, count), or None
to end it; a closed connection ends it too."""
from __future__ import annotations

import pickle
import signal
from multiprocessing.connection import Connection

from koloda.sim.lifeline import bind_to_parent
from koloda.sim.table import Table

READY, RECORD, DONE, ERROR = "ready", "record", "done", "error"


def _sendable(exc: BaseException) -> BaseException:
    """The exception itself if it survives the pipe, else its words in a RuntimeError."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:       # noqa: BLE001 — anything that cannot be pickled or rebuilt
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def work(table: Table, conn: Connection, parent: int) -> None:
    bind_to_parent(parent)
    # Ctrl-C reaches every process of the terminal's group: the parent stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        game = table.load()
        conn.send(READY)
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                return
            if job is None:
                return
            first, count = job
            for number in range(first, first + count):
                conn.send((RECORD, table.play_one(game, number)))
            conn.send((DONE, None))
    except (BrokenPipeError, EOFError):        # the parent is gone or has stopped listening
        return
    except Exception as exc:        # noqa: BLE001 — the parent raises it, as if it had played the game
        try:
            conn.send((ERROR, _sendable(exc)))
        except OSError:
            pass
    finally:
        conn.close()
