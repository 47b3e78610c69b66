"""A worker process that dies with the process that started it, however that one ends: a killed
parent (SIGKILL cannot be caught, so it cannot stop its workers itself) must leave nothing running."""
from __future__ import annotations

import ctypes
import os
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1        # <linux/prctl.h>
_SIGKILL = 9


def _kernel_watch() -> bool:
    """On Linux, ask the kernel to kill this process when its parent ends; True if it will."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def bind_to_parent(parent: int) -> None:
    """End this process when `parent` (its parent's pid, as the parent knew it) ends: at once where
    the kernel can do it, elsewhere within a second by a thread that watches for being adopted."""
    watched = _kernel_watch()
    if os.getppid() != parent:        # the parent ended before the kernel was asked: adopted already
        os._exit(1)
    if not watched:
        threading.Thread(target=_watch, args=(parent,), daemon=True, name="lifeline").start()
