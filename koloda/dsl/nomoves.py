"""`no_moves()` is asked by `deal ends:` alone.

Its answer lists the legal moves of the decision that comes next, so it must never be asked while
moves are being listed (a guard, a `with:` list, a move's text: a listing within a listing), nor while
an action's effects are half done (an effect, an event, a procedure), nor where no decision follows
(scoring, the heuristic). `deal ends:` is asked when an action is over; there the flow lists the next
decision's moves (interpreter/core/flow.py, Flow.no_moves). A function of `define:` could be called from
anywhere, so the call is written in `deal ends:` itself.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from koloda.dsl import resolved as R

NAME = "no_moves"


def _nodes(value: Any) -> Iterator[R.Node]:
    """Every resolved node under a part of the rules (expressions and effects, in order)."""
    if isinstance(value, R.Node):
        yield from R.walk(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _nodes(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _nodes(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _nodes(getattr(value, f.name))


def misplaced(rules: R.Rules) -> list[R.BuiltinCall]:
    """The calls of `no_moves()` written anywhere but in `deal ends:`."""
    found: dict[tuple, R.BuiltinCall] = {}       # by place: a guard is kept whole and in its parts
    for f in dataclasses.fields(rules):
        if f.name in ("spec", "deal_ends", "warnings", "var_types"):
            continue
        for n in _nodes(getattr(rules, f.name)):
            if isinstance(n, R.BuiltinCall) and n.name == NAME:
                found.setdefault((n.span.file, n.span.line, n.span.col), n)
    return list(found.values())


def asked(rules: R.Rules) -> bool:
    """`deal ends:` asks whether the player to move has no legal move."""
    return rules.deal_ends is not None and any(
        isinstance(n, R.BuiltinCall) and n.name == NAME for n in R.walk(rules.deal_ends))
