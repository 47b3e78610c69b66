"""Saves and transcripts as read from disk: JSON that anyone may have written, read within bounds.

A file is read only if it is a regular file of at most MAX_FILE_BYTES, and only as UTF-8. Each
JSON document is read by koloda's one bounded reader (koloda/dsl/jsontext.py): its nesting is
counted before the parser sees it, and numbers that are infinite or thousands of digits long,
`NaN` and a key given twice are refused.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from koloda.dsl.jsontext import Bounds, JsonRefused, read_json
from koloda.session.errors import SaveError, Source

MAX_FILE_BYTES = 8 * 1024 * 1024      # a long game saves in well under 1 MB
MAX_DEPTH = 32                        # lists and mappings inside one another (a save needs 4)
MAX_CONTAINERS = 200_000              # lists and mappings in one document
MAX_DIGITS = 4_300                    # an action id of a big rummy game has about 50; Python stops at 4,300
BOUNDS = Bounds(chars=MAX_FILE_BYTES, depth=MAX_DEPTH, containers=MAX_CONTAINERS, digits=MAX_DIGITS)


def read_text(path: Path, source: Source) -> str:
    """The whole file as text, or a SaveError saying why it cannot be read."""
    try:
        # not blocking: a named pipe given as a save must be refused, not waited on
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise SaveError(f"cannot read {source.where}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise source.invalid("it is a folder")
        if not stat.S_ISREG(mode):
            raise source.invalid("it is not a regular file")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise SaveError(f"cannot read {source.where}: {exc.strerror}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks).removeprefix(b"\xef\xbb\xbf")     # a byte order mark, as some editors write
    if len(data) > MAX_FILE_BYTES:
        raise source.invalid(f"it is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise source.invalid(f"it is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})") from None


def parse(text: str, source: Source, subject: str = "it") -> Any:
    """One JSON document; `subject` names it in a refusal (`it`, or `line 3` of a transcript)."""
    try:
        return read_json(text, BOUNDS)
    except JsonRefused as exc:
        reason = exc.reason
        if exc.line is not None:
            where = f"line {exc.line}, column {exc.column}" if subject == "it" else f"column {exc.column}"
            reason = f"{reason[:-1]}; {where})"
        if subject != "it":
            reason = subject + reason[2:] if reason.startswith("it ") else f"{subject}: {reason}"
        raise source.invalid(reason) from None
