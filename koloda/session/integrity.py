"""The integrity check a save or transcript carries: it tells a file changed since koloda wrote it.

The check is a digest of everything that decides the game — the rules' fingerprint, the options,
the seed and deck, every move, the state, and the seats with their settings — as canonical JSON.
It is keyed (HMAC-SHA-256) with a secret kept in the state folder, the folder saves live in
(`integrity.key`, created on first use, readable by its owner alone); where no key can be kept,
it is a plain SHA-256. Each seat has a digest of its own, so that a refusal can say which seat was
changed (or that two were swapped).

What it is for: a save edited by hand, by a tool, or by accident is told from one koloda wrote,
and so is a transcript whose moves and scores were edited to agree. What it is not: proof against
a forger. Anyone who can read the key file (the user, their programs) can sign what they like, a
plain digest anyone can recompute, and a file from another machine or account, made with another
key, cannot be checked here at all (that is said, and the file is used as it is).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koloda.session.errors import shown
from koloda.session.files import FILE_MODE, default_save_dir, make_folder

KEY_FILE = "integrity.key"
KEYED, PLAIN = "hmac-sha256", "sha256"
SOUND, UNCHECKED, FOREIGN, CHANGED = "sound", "unchecked", "foreign", "changed"

_keys: dict[Path, "Key | None"] = {}       # by the key file's path: read once a process


@dataclass(frozen=True)
class Key:
    secret: bytes
    id: str           # names the key in a check without giving it away


@dataclass(frozen=True)
class Verdict:
    """What a file's check says: SOUND, UNCHECKED (it has none), FOREIGN (made with another key) or
    CHANGED, with what was changed, in words."""
    status: str
    changes: list[str] = field(default_factory=list)


def key_path() -> Path:
    return default_save_dir() / KEY_FILE


def key(create: bool = True) -> Key | None:
    """The user's key, made if it is missing and `create`; None if it cannot be read or made."""
    path = key_path()
    if path in _keys and (_keys[path] is not None or not create):
        return _keys[path]
    found = _read_key(path)
    if found is None and create and not path.exists():
        found = _make_key(path)
    _keys[path] = found
    return found


def _read_key(path: Path) -> Key | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        text = os.read(fd, 200).decode("ascii", "replace").strip()
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        return None
    if len(secret) != 32:
        return None        # damaged: not replaced, as the saves made with it would no longer check
    return Key(secret, hashlib.sha256(b"koloda key id\0" + secret).hexdigest()[:16])


def _make_key(path: Path) -> Key | None:
    """A new key, written whole beside the file and linked into place: two koloda starting at once
    both end with the one that was linked first."""
    try:
        make_folder(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
        try:
            os.write(fd, (secrets.token_hex(32) + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    except OSError:
        return None
    return _read_key(path)


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _digest(secret: Key | None, part: str, value: Any) -> str:
    data = part.encode("ascii") + b"\0" + _canonical(value)
    if secret is None:
        return hashlib.sha256(data).hexdigest()
    return hmac.new(secret.secret, data, hashlib.sha256).hexdigest()


def make(setup: Any, seats: list[str] | None = None) -> dict:
    """The check of `setup` (everything but the seats) and, if given, of each seat."""
    secret = key()
    check: dict[str, Any] = {"method": KEYED if secret is not None else PLAIN}
    if secret is not None:
        check["key"] = secret.id
    check["setup"] = _digest(secret, "setup", setup)
    if seats is not None:
        check["seats"] = [_digest(secret, f"seat {i}", seat) for i, seat in enumerate(seats)]
    return check


def verify(check: dict | None, setup: Any, seats: list[str] | None = None, what: str = "its game") -> Verdict:
    """`check` (as `make` wrote it, and its schema passed) against what the file holds now."""
    if check is None:
        return Verdict(UNCHECKED)
    secret: Key | None = None
    if check["method"] == KEYED:
        secret = key(create=False)
        if secret is None or not hmac.compare_digest(secret.id, check.get("key", "")):
            return Verdict(FOREIGN)
    changes: list[str] = []
    stored = check.get("seats")
    if seats is not None and stored is not None:
        if len(stored) != len(seats):
            changes.append(f"it has {len(seats)} seats, but it was written with {len(stored)}")
        else:
            changes += _seat_changes(secret, seats, stored)
    if not hmac.compare_digest(_digest(secret, "setup", setup), check["setup"]):
        changes.append(f"{what} is not as koloda wrote it")
    return Verdict(CHANGED if changes else SOUND, changes)


def _seat_changes(secret: Key | None, seats: list[str], stored: list[str]) -> list[str]:
    changes = []
    for i, seat in enumerate(seats):
        if hmac.compare_digest(_digest(secret, f"seat {i}", seat), stored[i]):
            continue
        was = next((j for j in range(len(seats)) if j != i and
                    hmac.compare_digest(_digest(secret, f"seat {j}", seat), stored[j])), None)
        if was is not None:
            changes.append(f"P{i + 1} is {shown(seat)}, which sat at P{was + 1} when it was written")
        else:
            changes.append(f"P{i + 1} is {shown(seat)}, which is not the seat it was written with")
    return changes
