"""The user's cache folder, shared by the parser's tables, the checked rules and the compiled code.

It is `$KOLODA_CACHE` if set (set and empty: no cache at all), otherwise `$XDG_CACHE_HOME/koloda`,
otherwise `~/.cache/koloda`. What is kept there is read back as code or as pickles, so the folder is
made for its owner only and a file is read only if it is `trusted`. This module imports nothing
heavy: `koloda list` asks it before anything else is needed.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO, Callable

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def cache_dir() -> Path | None:
    """Where cached things are kept; None when the cache is turned off."""
    own = os.environ.get("KOLODA_CACHE")
    if own is not None:
        return Path(own) if own else None
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache_home) / "koloda"


def trusted(st: os.stat_result) -> bool:
    """A file that the user alone could have written: reading a pickle or code can run it."""
    if not hasattr(os, "getuid"):
        return True
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def write_entry(path: Path, write: Callable[[BinaryIO], object]) -> bool:
    """Write a cached thing beside its place and rename it into it, so that a reader never meets half
    of one, readable and writable by the owner alone. A cache that cannot be written only costs the
    next start its time: False, with nothing left behind, where it could not be."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        os.fchmod(fd, FILE_MODE)              # a file left by an earlier process keeps its mode otherwise
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(temporary, path)
        return True
    except Exception:        # noqa: BLE001 — unwritable, full, or a value that cannot be written
        try:
            temporary.unlink()
        except OSError:
            pass
        return False
