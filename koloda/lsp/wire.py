"""What an editor sends on standard input, read within bounds: frames (header lines, a blank line, a
body of Content-Length bytes) and the JSON-RPC message in each body.

Nothing here trusts the sender. A header line is kept to its last MAX_LINE bytes, a body to
MAX_BODY, a message to MAX_DEPTH levels of nesting; a body that stops arriving for `stall` seconds
is taken as cut short. After any fault the reader finds its way back to the next message by the
next `Content-Length:` it sees, even in the middle of a line or of a body that could not be read:
an editor's next message is not lost because the one before it was garbage.

The JSON bound here is the same kind as the save reader's (koloda/session/jsonfile.py), written
again because the language server may import only the language (tests/test_architecture.py).
"""
from __future__ import annotations

from dataclasses import dataclass
import json
import math
import os
import re
import select
from typing import Any, BinaryIO

MAX_LINE = 8 * 1024                  # one header line: `Content-Length: 1234` is 20 bytes
MAX_BODY = 16 * 1024 * 1024          # a rule file is at most 1 MB (dsl/limits.py), in JSON at most 6 times that
MAX_DEPTH = 64                       # an initialize's capabilities nest about 6 deep
MAX_CONTAINERS = 200_000             # lists and mappings in one message
MAX_DIGITS = 1_000                   # an LSP number is below 2^31
STALL = 5.0                          # seconds a body may stop arriving before it is taken as cut short
CHUNK = 64 * 1024

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
NOT_INITIALIZED = -32002

_NAME = b"content-length:"
_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\d{1,20})[ \t]*", re.IGNORECASE)
_HEADER = re.compile(rb"[!-9;-~]+[ \t]*:.*")          # `Name: value`, as HTTP writes headers
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class Source:
    """Bytes from a stream, waiting for them at most a given time where the platform can wait on a
    pipe (select() on POSIX); elsewhere, or for a stream with no descriptor, reads simply block."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        try:
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None
        self.can_wait = self.fd is not None and os.name == "posix"

    def read(self, timeout: float | None) -> bytes | None:
        """Up to CHUNK bytes; b"" at the end of the input; None if nothing came within `timeout`."""
        try:
            if self.fd is None:
                read1 = getattr(self.stream, "read1", None)
                return bytes(read1(CHUNK) if read1 is not None else self.stream.read(CHUNK))
            if timeout is not None and self.can_wait:
                ready, _, _ = select.select([self.fd], [], [], timeout)
                if not ready:
                    return None
            return os.read(self.fd, CHUNK)
        except OSError:          # a closed or broken input ends it, as its end would
            return b""


@dataclass(frozen=True)
class Frame:
    """One frame: its body, or (body None) what was wrong with it; `skipped` counts the bytes before
    it that were part of no frame."""
    body: bytes | None
    problem: str | None = None
    skipped: int = 0


class Framer:
    """Frames, one by one, from a Source."""

    def __init__(self, source: Source, stall: float = STALL) -> None:
        self.source, self.stall = source, stall
        self.buffer = bytearray()
        self.ended = False
        self.faulted = False        # after a fault only a Content-Length line starts a frame

    def recover(self, body: bytes) -> None:
        """A body that could not be read may hold the start of the next message (its length was
        claimed too long): read again from there."""
        at = header_start(body)
        if at >= 0:
            self.buffer[:0] = body[at:]

    def next(self) -> Frame | None:
        """The next frame, or None at the end of the input."""
        skipped, length, headers = 0, None, 0
        while True:
            got = self._line()
            if got is None:
                if headers:
                    return Frame(None, "the input ended inside a message's headers", skipped)
                return Frame(None, None, skipped) if skipped else None
            line, dropped = got
            at = _last_name(line)
            if at > 0 or (at == 0 and dropped):          # a header after other bytes on its line
                skipped += dropped + at
                line, dropped, at = line[at:], 0, 0
                if headers:
                    headers, length = 0, None
            text = line.strip()
            if dropped or (text and at < 0 and not _HEADER.fullmatch(text)):
                skipped += dropped + len(line)           # not a header: bytes of no frame
                headers, length, self.faulted = 0, None, True
                continue
            if not text:                                 # the blank line that ends the headers
                if length is not None:
                    break
                skipped += len(line)
                if headers:
                    self.faulted = True
                    return Frame(None, "a message's headers have no Content-Length", skipped)
                continue
            if at == 0:
                found = _LENGTH.fullmatch(text)
                if found is None:
                    self.faulted = True
                    return Frame(None, f"a Content-Length that is not a number: {_shown(text)}", skipped)
                claimed = int(found.group(1))
                if claimed > MAX_BODY:
                    self.faulted = True
                    return Frame(None, f"a message of {claimed:,} bytes, more than the {MAX_BODY:,} this server "
                                       "reads, was skipped", skipped)
                length, headers, self.faulted = claimed, headers + 1, False
            elif self.faulted:
                skipped += len(line)                     # a Content-Type of a frame already refused
            else:
                headers += 1
        body = self._body(length)
        if len(body) < length:
            self.recover(body)
            return Frame(None, f"a message was cut short: {len(body):,} of its {length:,} bytes came", skipped)
        return Frame(body, None, skipped)

    def _fill(self, timeout: float | None) -> bool:
        """More bytes into the buffer; False at the end of the input or when none came in time."""
        if self.ended:
            return False
        chunk = self.source.read(timeout)
        if chunk is None:
            return False
        if not chunk:
            self.ended = True
            return False
        self.buffer += chunk
        return True

    def _line(self) -> tuple[bytes, int] | None:
        """The next line (its newline included) and how many bytes of its start were dropped to keep
        its last MAX_LINE; None at the end of the input."""
        dropped, searched = 0, 0
        while True:
            end = self.buffer.find(b"\n", searched)
            if end >= 0:
                line = bytes(self.buffer[:end + 1])
                del self.buffer[:end + 1]
                return line, dropped
            if len(self.buffer) > MAX_LINE:
                cut = len(self.buffer) - MAX_LINE
                del self.buffer[:cut]
                dropped += cut
            searched = len(self.buffer)
            if not self._fill(None):
                if not self.buffer and not dropped:
                    return None
                line = bytes(self.buffer)
                self.buffer.clear()
                return line, dropped

    def _body(self, length: int) -> bytes:
        while len(self.buffer) < length and self._fill(self.stall):
            pass
        body = bytes(self.buffer[:length])
        del self.buffer[:length]
        return body


def _last_name(line: bytes) -> int:
    return line.lower().rfind(_NAME)


def header_start(data: bytes) -> int:
    """Where the first `Content-Length:` in data starts, or else where a tail of data starts that
    could be the beginning of one (its rest still to come); -1 if neither."""
    low = data.lower()
    at = low.find(_NAME)
    if at >= 0:
        return at
    for size in range(min(len(_NAME) - 1, len(low)), 0, -1):
        if _NAME.startswith(low[-size:]):
            return len(low) - size
    return -1


def _shown(text: bytes) -> str:
    return repr(text[:60].decode("utf-8", "replace"))


@dataclass(frozen=True)
class Refusal:
    """A message that is not taken: the JSON-RPC error it gets, the id it is answered with where one
    could be read, and whether it is answered at all (a notification or a response never is)."""
    code: int
    message: str
    id: int | str | None = None
    answered: bool = True


class _Refused(ValueError):
    pass


def decode(body: bytes) -> dict[str, Any] | Refusal:
    """The JSON-RPC message of a body, or why it is refused."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Refusal(PARSE_ERROR, f"the message is not UTF-8 (byte 0x{body[exc.start]:02x} at {exc.start:,})")
    problem = _nesting(text)
    if problem is not None:
        return Refusal(PARSE_ERROR, problem)
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant,
                           object_pairs_hook=_mapping)
    except _Refused as exc:
        return Refusal(PARSE_ERROR, f"the message cannot be taken: {exc}")
    except json.JSONDecodeError as exc:
        return Refusal(PARSE_ERROR, f"the message is not JSON, or it was cut short ({exc.msg} at line "
                                    f"{exc.lineno}, column {exc.colno})")
    except (ValueError, RecursionError, MemoryError) as exc:      # bounded above; kept so that none escapes
        return Refusal(PARSE_ERROR, f"the message cannot be read as JSON ({type(exc).__name__})")
    return shaped(value)


def shaped(value: Any) -> dict[str, Any] | Refusal:
    """A JSON value as a JSON-RPC 2.0 request, notification or response, or why it is none."""
    if not isinstance(value, dict):
        return Refusal(INVALID_REQUEST, f"a message must be a JSON object, not {_kind(value)}"
                       + (" (LSP sends no batches)" if isinstance(value, list) else ""))
    has_id, ident = "id" in value, value.get("id")
    if has_id and not (ident is None or (isinstance(ident, (int, str)) and not isinstance(ident, bool))):
        said = "a fraction" if isinstance(ident, float) else _kind(ident)
        return Refusal(INVALID_REQUEST, f"a message's id must be a whole number or a string, not {said}")
    method = value.get("method")
    is_call = "method" in value
    answered = has_id or not is_call
    if value.get("jsonrpc") != "2.0":
        return Refusal(INVALID_REQUEST, 'a message must say "jsonrpc": "2.0"', ident, answered)
    if is_call:
        if not isinstance(method, str):
            return Refusal(INVALID_REQUEST, f"a message's method must be a string, not {_kind(method)}",
                           ident, has_id)
        if has_id and ident is None:
            return Refusal(INVALID_REQUEST, f"a request's id must be a whole number or a string, not null ({method})")
        if value.get("params") is None:
            value.pop("params", None)        # null for none, as some editors send it
        elif not isinstance(value["params"], (dict, list)):
            return Refusal(INVALID_PARAMS, f"{method}: params must be an object or a list, not "
                                           f"{_kind(value['params'])}", ident, has_id)
        return value
    error = value.get("error")
    if not has_id or not ("result" in value or "error" in value):
        return Refusal(INVALID_REQUEST, "a message has no method and is no answer (an id with a result or an error)",
                       ident)
    if "error" in value and not (isinstance(error, dict) and isinstance(error.get("code"), int)
                                 and isinstance(error.get("message"), str)):
        return Refusal(INVALID_REQUEST, "an answer's error must hold a code and a message", ident, False)
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)


def _nesting(text: str) -> str | None:
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) > 2 * MAX_CONTAINERS:
        return f"the message holds more than {MAX_CONTAINERS:,} lists and objects"
    depth = 0
    for c in brackets:
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"the message is nested more than {MAX_DEPTH} deep"
        else:
            depth -= 1          # a bracket too many is the parser's to report
    return None


def _integer(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise _Refused(f"a number has more than {MAX_DIGITS:,} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise _Refused(f"a number has more than {MAX_DIGITS:,} digits")
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
            raise _Refused(f"the key {json.dumps(key[:40])} is given twice")
        mapping[key] = value
    return mapping
