"""Between koloda and a program that plays a seat: it starts the program, and ends all it started.

Run by agents/child.py as `python -I -S supervisor.py CONTROL KOLODA PROGRAM ARGS...`, as a process
of its own (it needs nothing but the standard library and imports nothing of koloda's, so it starts
in a few milliseconds). Its standard input, output and error are the program's pipes to koloda: it
hands them to the program and keeps none of them, so what koloda reads and writes is the program's
alone and the protocol does not change. CONTROL is a socket to koloda, on which it says
`started PID` (or `failed ERRNO`) and then `exit CODE` when the program ends.

On Linux it is a child subreaper (PR_SET_CHILD_SUBREAPER): a process the program started whose
parent ends is given to it, not to init, so everything the program ever started and that still
runs descends from it, even a process that left for a session of its own (`setsid`) after its
parent ended (a double fork). When koloda closes CONTROL (the game is over), or dies in any way
(SIGKILL too: the kernel closes the socket, and this process's parent changes), it kills all its
descendants, over and over until none is left, and ends. Where there is no subreaper or no /proc,
it ends the program's process group and what it can still see of its session instead.
"""
from __future__ import annotations

import ctypes
import os
import select
import sys
import time

import _signal as signal    # the signal module without its enums, which would double the time this takes to start

_PR_SET_CHILD_SUBREAPER = 36
_ROUNDS = 500            # looks for what is left, 10 ms apart: a process that forks faster than it is killed is bounded


def main(argv: list[str]) -> int:
    control, koloda, args = int(argv[1]), int(argv[2]), argv[3:]
    os.set_inheritable(control, False)           # the program must not hold koloda's end open
    _become_subreaper()
    wake_r, wake_w = os.pipe()                    # a child's end wakes the loop below
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    try:
        # in a process group of its own, with the signals Python ignores given back their defaults
        program = os.posix_spawnp(args[0], args, dict(os.environ), setpgroup=0,
                                  setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except OSError as exc:
        _say(control, f"failed {exc.errno or 0}")
        return 1
    _say(control, f"started {program}")
    null = os.open(os.devnull, os.O_RDWR)         # the pipes are the program's: they close when it and its own close them
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    while os.getppid() == koloda:
        ready, _, _ = select.select([control, wake_r], [], [], 1.0)
        if wake_r in ready:
            os.read(wake_r, 512)
        _reap(program, control)
        if control in ready:
            try:
                if not os.read(control, 512):     # closed: the game is over, or koloda died
                    break
            except OSError:
                break
    _end_all(program)
    return 0


def _become_subreaper() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _say(control: int, text: str) -> None:
    try:
        os.write(control, text.encode("ascii") + b"\n")
    except OSError:              # koloda is gone: what it would be told does not matter
        pass


def _reap(program: int, control: int) -> None:
    """Collect every child that has ended (orphans given to this process too); tell koloda when the
    program does."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid == program:
            _say(control, f"exit {os.waitstatus_to_exitcode(status)}")


def _end_all(program: int) -> None:
    me = os.getpid()
    for _ in range(_ROUNDS):
        _kill_group(program)
        left = _family(me)
        if not left:
            break
        for pid, start in left.items():
            if _started(pid) == start:    # not another process that was given the number since
                _kill(pid)
        time.sleep(0.01)
        _reap_quietly()
    _reap_quietly()


def _reap_quietly() -> None:
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
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
        if fields is None or len(fields) < 20 or fields[0] in ("Z", "X"):
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
    return {pid: table[pid][2] for pid in found}


if __name__ == "__main__":
    sys.exit(main(sys.argv))
