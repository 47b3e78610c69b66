"""Saves written beside the engine, not in its thread: a save is flushed to disk (session/files.py),
and a hundred rooms of bots saving after every move would make every move wait for the disk.

The engine's thread makes each save's text (cheap) and hands it over; one writer thread writes
them. A room saved again before its last text was written has only its newest written: the disk
is at most one write behind the game, and a stopped server writes what is left first."""
from __future__ import annotations

import logging
import threading
from pathlib import Path

from koloda.session import Session, write_atomically


def save_text(session: Session) -> str:
    """What Session.save writes (tests/test_web.py checks the two agree)."""
    return session.save_text()


class Writer:
    def __init__(self) -> None:
        self._pending: dict[Path, str] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self.failures: list[str] = []          # what could not be written, for the server to tell

    def put(self, path: Path, text: str) -> None:
        with self._lock:
            self._pending[path] = text
            self._idle.clear()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="koloda-saves", daemon=True)
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait(5.0)
            self._wake.clear()
            while True:
                with self._lock:
                    if not self._pending:
                        self._idle.set()
                        break
                    path, text = self._pending.popitem()
                try:
                    write_atomically(path, text)
                except OSError as exc:
                    self.failures.append(f"cannot save {path}: {exc.strerror}")
                    logging.getLogger("koloda.web").warning(self.failures[-1])

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every save handed over is written (True), or `timeout` seconds."""
        self._wake.set()
        return self._idle.wait(timeout)
