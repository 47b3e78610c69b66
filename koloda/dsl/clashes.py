"""A name that clashes with a word of the language is told once, where it is declared.

`dealer:` as a zone is refused where it is written; its uses (`deal 2 to dealer`,
`dealer.size`) then read the language's own `dealer` (a player) and fail to parse or to type,
one echo of the same mistake at every use. Those echoes are left out: the lines of rule text
that name a clashing word are not reported on until it is renamed.
"""
from __future__ import annotations

import re

from koloda.dsl.errors import RuleError, Span
from koloda.dsl.marked import MarkedDict, MarkedStr

CLASH = "is a word of the language and cannot name a"


def clash(name: str, what: str, span: Span) -> RuleError:
    """The error of a declaration that takes a word of the language as its name."""
    hint = f"give the {what} another name, such as `{name}_{what.split()[-1]}`, and use that name"
    if name == "dealer":        # `dealer` is the player who deals; a casino's dealer is the house
        hint += ("; for a dealer who is no player (a game against the house), declare `house: {label: dealer}` "
                 "and keep its cards in a zone such as `dealer_cards`")
    return RuleError(f"`{name}` {CLASH} {what}", span, hint)


def echo_lines(doc: MarkedDict, names: set[str]) -> frozenset[tuple[str, int]]:
    """(file, line) of every line of a string in the document that names one of `names` as a word."""
    if not names:
        return frozenset()
    word = re.compile(r"(?<![\w.])(" + "|".join(re.escape(n) for n in sorted(names)) + r")(?!\w)")
    found: set[tuple[str, int]] = set()
    stack: list[object] = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, MarkedStr) and word.search(value):
            lines = [value.span.line] + [line for _, line, _ in getattr(value, "segments", None) or ()]
            found.update((value.span.file, line) for line in range(min(lines), max(lines) + 1))
    return frozenset(found)


def without_echoes(errors: list[RuleError], echoes: frozenset[tuple[str, int]]) -> list[RuleError]:
    """The errors but those on a line that names a clashing word (the clash itself is kept)."""
    return [e for e in errors if CLASH in e.message or (e.span.file, e.span.line) not in echoes]


__all__ = ["CLASH", "clash", "echo_lines", "without_echoes"]
