"""What an effect does once its expressions are worked out, as functions of plain values that
generated code calls (gen_runtime.RUNTIME), fast and checked alike, so that each is written once."""
from __future__ import annotations

from typing import Any

from koloda.dsl.errors import Span
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.work import spend


def repeat_rounds(s: Any, n: Any, limit: int, span: Span) -> int:
    """The rounds of a `repeat:` checked against its limit and spent from the budget, before the first."""
    if n is None:
        raise RuleRuntimeError("`repeat:` was given none, not a number", span)
    if n > limit:
        raise RuleRuntimeError(f"`repeat:` would run its `do:` {n} times, more than its limit of {limit} "
                               "(raise `limit:` if the rules mean it)", span)
    if n > 0:
        spend(s, n, f"`repeat:` running its `do:` {n} times", span)
    return n


def add_score(s: Any, i: int, labels: tuple, parts: list, dirt: int, span: Span) -> None:
    """`score:` once its place and its parts are worked out: their sum added, the parts noted for the table."""
    old = s.vars[i]
    if old is None or None in parts:
        raise RuleRuntimeError("`score:` with none", span)
    s.vars[i] = old + sum(parts)
    s.dirty |= dirt
    deal = s.deal_number
    s.scored = tuple(x for x in s.scored if x[0] == deal) + ((deal, i, tuple(zip(labels, parts))),)
