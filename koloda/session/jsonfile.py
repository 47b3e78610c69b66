"""Saves and transcripts as read from disk: JSON that anyone may have written, read within bounds.

A file is read only if it is a regular file of at most MAX_FILE_BYTES, and only as UTF-8. Each
JSON document is scanned for its nesting depth, without recursion, before `json.loads` sees it:
the parser recurses once per level, and a file nested 100,000 deep would exhaust Python's stack.
Numbers Python would read as infinity (`1e400`), or slowly (thousands of digits), and `NaN` are
refused while parsing, as is a key given twice (parsers disagree on which one counts).
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from koloda.session.errors import SaveError, Source, shown

MAX_FILE_BYTES = 8 * 1024 * 1024      # a long game saves in well under 1 MB
MAX_DEPTH = 32                        # lists and mappings inside one another (a save needs 4)
MAX_CONTAINERS = 200_000              # lists and mappings in one document
MAX_DIGITS = 4_300                    # an action id of a big rummy game has about 50; Python stops at 4,300

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class _Refused(ValueError):
    """A value the parser hooks will not take; json.loads lets it through unchanged."""


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
    if not text.strip():
        raise source.invalid(f"{subject} is empty")
    _check_nesting(text, source, subject)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant,
                          object_pairs_hook=_mapping)
    except _Refused as exc:
        raise source.invalid(str(exc) if subject == "it" else f"{subject}: {exc}") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if subject == "it" else f"column {exc.colno}"
        raise source.invalid(f"{subject} is not JSON, or it was cut short ({exc.msg}; {where})") from None
    except (ValueError, RecursionError) as exc:       # bounded above; kept so that no input gives a traceback
        raise source.invalid(f"{subject} cannot be read as JSON ({type(exc).__name__})") from None


def _check_nesting(text: str, source: Source, subject: str) -> None:
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) > 2 * MAX_CONTAINERS:
        raise source.invalid(f"{subject} holds more than {MAX_CONTAINERS:,} lists and mappings")
    depth = 0
    for c in brackets:
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise source.invalid(f"{subject} is nested more than {MAX_DEPTH} deep")
        else:
            depth -= 1      # a bracket too many is json.loads' to report, with its place


def _integer(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise _Refused(f"a number has more than {MAX_DIGITS:,} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:40]} is too large")
    return value


def _constant(name: str) -> float:
    raise _Refused(f"`{name}` is not a number")


def _mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    for key, value in pairs:
        if key in mapping:
            raise _Refused(f"the key {shown(key)} is given twice")
        mapping[key] = value
    return mapping
