"""Where saves live and how they are written: a private folder, unique names, whole files or nothing.

A save is written to a temporary file beside it, flushed to disk and renamed over the old one, so a
crash or a kill at any moment leaves either the old save or the new one. A kill between the two
leaves the temporary file behind; the next start tidies those whose writer is gone. Saves show a
player's hand, so the folder is made for its owner only (0700) and each file is readable by its
owner only (0600).
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from koloda.session.errors import SaveError, Source
from koloda.session.jsonfile import parse, read_text

FOLDER_MODE = 0o700
FILE_MODE = 0o600
STALE_AFTER = 3600.0          # seconds; a temporary file this old is no write in progress, whoever made it

_TEMPORARY = re.compile(r"^\.(?P<target>.+)\.(?P<pid>\d+)\.tmp$")
_tidied: set[Path] = set()    # the folders tidied by this process: once each is enough


def default_save_dir() -> Path:
    base = os.environ.get("KOLODA_HOME")
    if base:
        return Path(base)
    state_home = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state_home) / "koloda"


def new_save_path(game_name: str, folder: Path | None = None) -> Path:
    """A new save file for a game started now, `GAME-DATE-TIME.save.json` in the save folder; a game
    started in the same second gets `-2`, `-3`, …. The name is taken by creating the file, so two
    games starting at once never share it."""
    folder = Path(folder) if folder is not None else default_save_dir()
    make_folder(folder)
    tidy(folder)
    stem = f"{re.sub(r'[^A-Za-z0-9_-]+', '-', game_name).strip('-') or 'game'}-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1, 10_000):
        path = folder / (f"{stem}.save.json" if n == 1 else f"{stem}-{n}.save.json")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"no free save name for {stem} in {folder}")


@dataclass(frozen=True)
class SaveEntry:
    """A save as `koloda saves` lists it: read from the file's header, without replaying it."""
    path: Path
    game: str
    seats: tuple[str, ...]
    moves: int
    over: bool
    when: float                # the time it was last written

    @property
    def id(self) -> str:
        return self.path.name.removesuffix(".save.json")

    @property
    def someone_waits(self) -> bool:
        """A person sits at the table and the game is not over."""
        return not self.over and any(seat.split(":")[0] == "human" for seat in self.seats)


def list_saves() -> list[SaveEntry]:
    """The saves in the save folder that can be read, newest first."""
    folder = default_save_dir()
    tidy(folder)
    entries = []
    for path in folder.glob("*.save.json"):
        source = Source(str(path), "save")
        try:
            when = path.stat().st_mtime
            data = parse(read_text(path, source), source)
        except (SaveError, OSError):
            continue
        if not isinstance(data, dict):
            continue
        seats, moves, state = data.get("seats"), data.get("moves"), data.get("state")
        entries.append(SaveEntry(path, str(data.get("game", "?")),
                                 tuple(str(x) for x in seats) if isinstance(seats, list) else (),
                                 len(moves) if isinstance(moves, list) else 0,
                                 isinstance(state, dict) and state.get("terminal") is True, when))
    return sorted(entries, key=lambda e: e.when, reverse=True)


def latest_save() -> Path | None:
    """The newest save in which a person is waiting to play (never a game between bots only)."""
    for entry in list_saves():
        if entry.someone_waits:
            return entry.path
    return None


def find_save(name: str) -> Path:
    """A save given as a path, or by its id in the save folder (`koloda saves` lists them)."""
    path = Path(name)
    if path.is_file():
        return path
    for candidate in (default_save_dir() / name, default_save_dir() / f"{name}.save.json"):
        if candidate.is_file():
            return candidate
    return path


def make_folder(folder: Path) -> None:
    """Create the folder (and its parents) if it is missing; the folder itself only for its owner."""
    if not folder.is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:
            pass


def write_atomically(path: Path, text: str) -> None:
    """Write the whole file or nothing: a temporary file, flushed to disk, then renamed over."""
    path = Path(path)
    make_folder(path.parent)
    if path.parent not in _tidied:
        tidy(path.parent, only=None if path.parent == default_save_dir() else path.name)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    data = text.encode("utf-8")
    try:
        fd = _create(tmp)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _sync_folder(path.parent)


def tidy(folder: Path, only: str | None = None) -> list[Path]:
    """Remove the temporary files that interrupted writes left in `folder` (of the save `only`, if
    given: other files in a folder the user chose are not ours to judge). A file is left alone
    while the process that wrote it runs, unless it is older than an hour. Returns what it removed."""
    folder = Path(folder)
    _tidied.add(folder)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or (only is not None and match["target"] != only):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            fresh = now - entry.stat(follow_symlinks=False).st_mtime < STALE_AFTER
        except OSError:
            continue
        if fresh and _running(int(match["pid"])):
            continue
        if _remove(Path(entry.path)):
            removed.append(Path(entry.path))
    return removed


def _create(tmp: Path) -> int:
    """The temporary file, new and for its owner only. One of the same name is left from a dead
    process whose number this one now has (or from an earlier failed write): it is replaced."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(tmp, flags, FILE_MODE)
    except FileExistsError:
        _remove(tmp)
        return os.open(tmp, flags, FILE_MODE)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0          # someone else's process: alive as far as we can tell
    except OSError:
        return False
    return True


def _remove(path: Path) -> bool:
    try:
        path.unlink()
        return True
    except OSError:
        return False


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk (where the system allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
