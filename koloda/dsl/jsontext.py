"""JSON from outside — a bot's answer, a save, a transcript, an editor's message — read within bounds.

`json.loads` recurses once per level of nesting, so a document nested 100,000 deep exhausts
Python's stack (RecursionError), and it reads numbers of any length. Here the text is measured
and its nesting counted without recursion before the parser sees it, and the parser's hooks
refuse what no koloda file or message holds: numbers Python would read as infinity (`1e400`) or
slowly (thousands of digits), `NaN`, and a key given twice (parsers disagree on which one
counts). Every refusal is a JsonRefused with a reason in words (and, where the parser knows it,
the line and column), for the caller to put in its own message.

This module sits in `dsl`, the lowest layer, so that every part of koloda can use it.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

# a string, or an unterminated one up to the end of the text: linear whatever the text holds
# (a pattern that had to find a closing quote would try again from every later quote)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


@dataclass(frozen=True)
class Bounds:
    """How much JSON a reader takes: characters, nesting, lists and mappings, digits of a number."""
    chars: int = 8 * 1024 * 1024
    depth: int = 32
    containers: int = 200_000
    digits: int = 4_300          # Python itself refuses to read longer integers


class JsonRefused(ValueError):
    """JSON that is not read: `reason` says why; `line` and `column` where the parser stopped, if known."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None):
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


class _Hook(ValueError):
    """A value a parser hook will not take; json.loads lets it through unchanged."""


def read_json(text: str, bounds: Bounds = Bounds()) -> Any:
    """One JSON document from `text`, or a JsonRefused saying why not."""
    if len(text) > bounds.chars:
        raise JsonRefused(f"it is longer than {_size(bounds.chars)}")
    if not text.strip():
        raise JsonRefused("it is empty")
    _check_nesting(text, bounds)
    try:
        return json.loads(text, parse_int=lambda t: _integer(t, bounds.digits), parse_float=_float,
                          parse_constant=_constant, object_pairs_hook=_mapping)
    except _Hook as exc:
        raise JsonRefused(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise JsonRefused(f"it is not JSON, or it was cut short ({exc.msg})", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:       # bounded above; kept so that no input gives a traceback
        raise JsonRefused(f"it cannot be read as JSON ({type(exc).__name__})") from None


def _check_nesting(text: str, bounds: Bounds) -> None:
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) > 2 * bounds.containers:
        raise JsonRefused(f"it holds more than {bounds.containers:,} lists and mappings")
    depth = 0
    for c in brackets:
        if c in "[{":
            depth += 1
            if depth > bounds.depth:
                raise JsonRefused(f"it is nested more than {bounds.depth} deep")
        else:
            depth -= 1      # a bracket too many is json.loads' to report, with its place


def _size(chars: int) -> str:
    if chars >= 1024 * 1024:
        return f"{chars / (1024 * 1024):g} MB"
    return f"{chars / 1024:g} KB" if chars >= 1024 else f"{chars} characters"


def _shown(key: str, width: int = 40) -> str:
    """A key as JSON, with what cannot be printed escaped and cut short: it came from outside."""
    text = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in json.dumps(key, ensure_ascii=False)[:width * 7])
    return text if len(text) <= width else text[:width - 1] + "…"


def _integer(text: str, digits: int) -> int:
    if len(text) > digits:
        raise _Hook(f"a number has more than {digits:,} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Hook(f"the number {text[:40]} is too large")
    return value


def _constant(name: str) -> float:
    raise _Hook(f"`{name}` is not a number")


def _mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    for key, value in pairs:
        if key in mapping:
            raise _Hook(f"the key {_shown(key)} is given twice")
        mapping[key] = value
    return mapping
