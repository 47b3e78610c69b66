"""A watcher, run as a script of its own, that ends what a process started once that process is
gone, however it ended (the Ray processes of a local instance outlive a driver killed with SIGKILL:
two of Ray's agents wait for ever to report the death of their raylet).

While the process it watches lives, it notes that process's descendants every half second; when it
is adopted (its parent ended), it ends each of them still running — the same process, by its start
time, not another given the same number since. Linux only: it reads /proc. Only the standard
library, so that it starts at once without loading koloda: `python reaper.py PID`."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

_PAUSE = 0.5


def _processes() -> dict[int, tuple[int, str]]:
    """Every process: pid -> (its parent's pid, its start time)."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        # the name in parentheses may hold spaces or parentheses: the fields follow the last ')'
        fields = stat[stat.rfind(")") + 2:].split()
        found[int(name)] = (int(fields[1]), fields[19])
    return found


def descendants(root: int) -> dict[int, str]:
    """The processes descended from `root`: pid -> start time."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    out, todo = {}, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        out[pid] = table[pid][1]
        todo += children.get(pid, [])
    return out


def _end(known: dict[int, str]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        alive = {pid for pid, (_, start) in _processes().items() if known.get(pid) == start}
        for pid in alive:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        if not alive:
            return
        time.sleep(1.0)


def watch(parent: int) -> None:
    known: dict[int, str] = {}
    me = os.getpid()
    while os.getppid() == parent:
        known.update(descendants(parent))
        known.pop(me, None)
        time.sleep(_PAUSE)
    _end(known)


def start() -> subprocess.Popen[bytes] | None:
    """Watch this process (Linux only): returns the watcher, or None where it cannot run."""
    if not sys.platform.startswith("linux") or not os.path.isdir("/proc"):
        return None
    return subprocess.Popen([sys.executable, "-I", os.path.abspath(__file__), str(os.getpid())],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    # Ctrl-C reaches the terminal's whole group: the watcher must outlive the process it watches
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    watch(int(sys.argv[1]))
