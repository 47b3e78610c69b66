"""A program koloda runs to play a seat: started apart, talked to within bounds, ended with all it started.

Started: through a small supervisor (agents/supervisor.py, a process of its own in a session of its
own) that starts the program with koloda's pipes as its standard input, output and error, keeps
none of them, and tells koloda on a socket of its own the program's number and, later, its exit
code. On Linux the supervisor is a child subreaper: whatever the program started, and whatever
that started, stays its descendant even when a parent in between ends (a double fork that leaves
for a session of its own with `setsid` too), so it can be found and killed.

Talked to: what koloda writes goes through a writer thread, so a program that never reads its
input (and fills the pipe) cannot block koloda: the caller's time limit still runs. What it
writes is read in chunks by a reader thread and cut into lines; a line that grows past `limit`
without a newline is reported as TOO_LONG and reading stops, so an endless line costs no memory.
The lines of one chunk are handed over together, so two answers written at once are seen as two.

Ended: its input is closed (the game is over), it is given `grace` seconds, and then koloda closes
its end of the socket: the supervisor kills every process that descends from it, as the process
table (/proc) shows them, again and again until none is left, and ends. If koloda dies instead
(SIGKILL, a crash: no code of koloda's runs), the kernel closes the socket, and the supervisor does
the same. Limits: without a subreaper (not Linux) a process that left the session and whose parent
has already ended cannot be found, and without /proc only the program's process group is ended;
where there is no POSIX (Windows) the program is started directly, and only it is ended.
"""
from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
from collections import deque
from pathlib import Path
from typing import IO, Any

TOO_LONG = object()              # in `lines`: a line grew past the limit without ending
_CHUNK = 1 << 16
SUPERVISOR = Path(__file__).with_name("supervisor.py")
_STARTING = 60.0                 # seconds for the supervisor to say it started the program: only a hang takes so long
_ENDING = 10.0                   # seconds for it to end all the program started, once told to


class Child:
    """A started program: `send` bytes to it, take its lines from `lines`, `end` it."""

    def __init__(self, args: list[str], limit: int):
        self._control: socket.socket | None = None
        self._code: int | None = None
        self._exited = threading.Event()               # its exit code is known, or will never be
        if os.name == "posix":
            self.process, self.pid = self._supervised(args)
        else:
            self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, bufsize=0)
            self.pid = self.process.pid
            threading.Thread(target=self._wait_direct, daemon=True).start()
        # batches of lines (bytes), TOO_LONG, or None once its output is closed
        self.lines: queue.Queue[Any] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=5)      # its last lines on standard error
        self._errors_closed = threading.Event()         # its standard error is read to the end
        self._out: queue.Queue[bytes | None] = queue.Queue()
        self._unwritten = 0                              # messages given to the writer, not yet written
        self._lock = threading.Lock()
        self._done = False                              # killed, with all it started
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        for target, stream in ((self._write, self.process.stdin), (self._read, self.process.stdout),
                               (self._keep, self.process.stderr)):
            threading.Thread(target=target, args=(stream, limit), daemon=True).start()

    def _supervised(self, args: list[str]) -> tuple[subprocess.Popen[bytes], int]:
        """Start the supervisor, which starts the program; its number, or the OSError starting it gave."""
        ours, theirs = socket.socketpair()
        try:
            process = subprocess.Popen([sys.executable, "-I", "-S", str(SUPERVISOR), str(theirs.fileno()),
                                        str(os.getpid()), *args],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       bufsize=0, start_new_session=True, pass_fds=(theirs.fileno(),))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.settimeout(_STARTING)
        said = ours.makefile("rb")
        try:
            first = said.readline(100).split()
        except OSError:
            first = []
        ours.settimeout(None)
        if len(first) == 2 and first[0] == b"started" and first[1].isdigit():
            self._control = ours
            threading.Thread(target=self._watch, args=(said,), daemon=True).start()
            return process, int(first[1])
        said.close()
        ours.close()
        _stop(process)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        code = int(first[1]) if len(first) == 2 and first[0] == b"failed" and first[1].isdigit() else 0
        raise OSError(code, os.strerror(code) if code else "its supervisor did not start it")

    def _watch(self, said: IO[bytes]) -> None:
        """The supervisor's word: the program's exit code once it has ended."""
        try:
            for line in said:
                words = line.split()
                if len(words) == 2 and words[0] == b"exit":
                    self._code = int(words[1])
                    break
        except (OSError, ValueError):
            pass
        finally:
            self._exited.set()
            said.close()

    def _wait_direct(self) -> None:
        self._code = self.process.wait()
        self._exited.set()

    # ------------------------------------------------------------ talking
    def send(self, data: bytes) -> None:
        with self._lock:
            self._unwritten += 1
        self._out.put(data)

    @property
    def unread(self) -> bool:
        """Something koloda sent has not been taken into the pipe: the program is not reading."""
        with self._lock:
            return self._unwritten > 0

    def _write(self, stream: IO[bytes], limit: int) -> None:
        while True:
            data = self._out.get()
            if data is None:
                break
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):       # it ended or closed its input: its output tells the rest
                break
            with self._lock:
                self._unwritten -= 1
        try:
            stream.close()
        except OSError:
            pass

    def _read(self, stream: IO[bytes], limit: int) -> None:
        pending = b""
        fd = stream.fileno()
        try:
            while True:
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    break
                pending += chunk
                *complete, pending = pending.split(b"\n")
                if complete:
                    self.lines.put(complete)
                if len(pending) > limit:
                    self.lines.put(TOO_LONG)
                    return
        except OSError:
            pass
        finally:
            stream.close()
        self.lines.put(None)

    def _keep(self, stream: IO[bytes], limit: int) -> None:
        try:
            while True:
                line = stream.readline(4096)        # a piece of a long line is a line here
                if not line:
                    break
                text = line.decode("utf-8", "replace").strip()
                if text:
                    self.errors.append(text[:200])
        except (OSError, ValueError):
            pass
        finally:
            stream.close()
            self._errors_closed.set()

    def last_words(self, seconds: float) -> list[str]:
        """Its last lines on standard error, once they are all read (waited for up to `seconds`): the
        reader of the stream may be a moment behind a program that wrote them and ended."""
        self._errors_closed.wait(seconds)
        return list(self.errors)

    # ------------------------------------------------------------ ending
    def exit_code(self, seconds: float) -> int | None:
        """Its exit code once it has ended (waited for up to `seconds`), None while it runs."""
        self._exited.wait(seconds)
        return self._code

    def end(self, grace: float) -> None:
        """The game is over: close its input, give it `grace` seconds to end, then end all that is left."""
        if self._done:
            return
        self._out.put(None)
        self.exit_code(grace)
        self.kill()

    def kill(self) -> None:
        """End the program and everything it started, at once."""
        if self._done:
            return
        self._done = True
        self._out.put(None)
        if self._control is None:
            _stop(self.process)
            return
        try:
            self._control.shutdown(socket.SHUT_WR)       # the supervisor's word to end them all
        except OSError:
            pass
        try:
            self.process.wait(timeout=_ENDING)
        except subprocess.TimeoutExpired:      # a supervisor stuck in the kernel: it, at least, is ended
            _stop(self.process)
        self._control.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    try:
        process.wait(timeout=_ENDING)
    except subprocess.TimeoutExpired:
        pass
