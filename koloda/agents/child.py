"""A program koloda runs to play a seat: started apart, talked to within bounds, ended with all it started.

Started: in a session (and so a process group) of its own, so that ending it ends what it started
in that group too; on Linux, with PR_SET_PDEATHSIG, so that the kernel kills it if koloda itself
dies without a word (SIGKILL, a crash). The kernel gives that signal when the *thread* that started
the program ends, so it is asked for only when the program is started from the main thread.

Talked to: what koloda writes goes through a writer thread, so a program that never reads its
input (and fills the pipe) cannot block koloda: the caller's time limit still runs. What it
writes is read in chunks by a reader thread and cut into lines; a line that grows past `limit`
without a newline is reported as TOO_LONG and reading stops, so an endless line costs no memory.
The lines of one chunk are handed over together, so two answers written at once are seen as two.

Ended: its input is closed (the game is over), it is given `grace` seconds, and then everything
left of it is killed: its process group, and every process that descends from it or sits in its
session, as the process table (/proc) shows them. Limits: a descendant that leaves the session
(`setsid`) and whose parent has already ended is no longer anyone's descendant and cannot be found
(PR_SET_PDEATHSIG is not inherited either); nor is anything found where there is no /proc. A
process killed between two looks may leave a child started in between: the look is done twice.
"""
from __future__ import annotations

import ctypes
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from typing import IO, Any, Callable

TOO_LONG = object()              # in `lines`: a line grew past the limit without ending
_CHUNK = 1 << 16
_PR_SET_PDEATHSIG = 1


def _prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()      # looked up here: after fork, in the child, only the call itself is made


class Child:
    """A started program: `send` bytes to it, take its lines from `lines`, `end` it."""

    def __init__(self, args: list[str], limit: int):
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, bufsize=0, start_new_session=True,
                                        preexec_fn=_die_with(os.getpid()))
        self.pid = self.process.pid
        # batches of lines (bytes), TOO_LONG, or None once its output is closed
        self.lines: queue.Queue[Any] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=5)      # its last lines on standard error
        self._out: queue.Queue[bytes | None] = queue.Queue()
        self._unwritten = 0                              # messages given to the writer, not yet written
        self._lock = threading.Lock()
        self._done = False                              # killed, with all it started
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        for target, stream in ((self._write, self.process.stdin), (self._read, self.process.stdout),
                               (self._keep, self.process.stderr)):
            threading.Thread(target=target, args=(stream, limit), daemon=True).start()

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

    # ------------------------------------------------------------ ending
    def exit_code(self, seconds: float) -> int | None:
        """Its exit code once it has ended (waited for up to `seconds`), None while it runs. It is not
        reaped here: until it is, its number is not given to another process, so what `kill` looks up
        by that number is still its own."""
        end = time.monotonic() + seconds
        while True:
            if self.process.returncode is not None:
                return self.process.returncode
            try:
                found = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:           # reaped already
                return self.process.poll()
            if found is not None:
                return found.si_status if found.si_code == os.CLD_EXITED else -found.si_status
            if time.monotonic() >= end:
                return None
            time.sleep(0.01)

    def end(self, grace: float) -> None:
        """The game is over: close its input, give it `grace` seconds to end, then end all that is left."""
        if self._done:
            return
        left = _family(self.pid)              # seen while it runs: once it ends, its children are orphans
        self._out.put(None)
        self.exit_code(grace)
        self.kill(left)

    def kill(self, seen: dict[int, int] | None = None) -> None:
        """End the program and everything it started, at once (once: its number may be reused after)."""
        if self._done:
            return
        self._done = True
        family = {**(seen or {}), **_family(self.pid)}
        _kill_group(self.pid)
        _kill(family)
        self._out.put(None)
        self.exit_code(5.0)                    # SIGKILL is not refused; a process stuck in the kernel is left
        _kill(_family(self.pid))               # started between the first look and the kill
        try:
            self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass


def _kill(family: dict[int, int]) -> None:
    for pid, start in family.items():
        if _started(pid) == start:             # not another process that was given the number since
            _signal(pid)


def _die_with(parent: int) -> Callable[[], None] | None:
    if _PRCTL is None or threading.current_thread() is not threading.main_thread():
        return None

    def in_child() -> None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:         # koloda ended before the line above: nobody to play for
            os._exit(1)
    return in_child


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _signal(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _stat(pid: str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (which may hold spaces and parentheses)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def _started(pid: int) -> int | None:
    fields = _stat(str(pid))
    return int(fields[19]) if fields and len(fields) > 19 else None


def _family(root: int) -> dict[int, int]:
    """Every living process that descends from `root` or sits in its session, with its start time."""
    table: dict[int, tuple[int, int, int]] = {}        # pid -> (parent, session, start time)
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if not name.isdigit():
            continue
        fields = _stat(name)
        if fields is None or len(fields) < 20 or fields[0] == "Z":
            continue
        table[int(name)] = (int(fields[1]), int(fields[3]), int(fields[19]))
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = {pid for pid, (_, session, _) in table.items() if session == root}
    stack = [root, *found]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    found.discard(root)
    found.discard(os.getpid())
    return {pid: table[pid][2] for pid in found}
