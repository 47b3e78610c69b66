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

from koloda.dsl import resolved as R
from koloda.dsl.nodes import nodes_in

NAME = "no_moves"


def misplaced(rules: R.Rules) -> list[R.BuiltinCall]:
    """The calls of `no_moves()` written anywhere but in `deal ends:`."""
    found: dict[tuple, R.BuiltinCall] = {}       # by place: a guard is kept whole and in its parts
    for f in dataclasses.fields(rules):
        if f.name in ("spec", "deal_ends", "warnings", "var_types"):
            continue
        for n in nodes_in(getattr(rules, f.name)):
            if isinstance(n, R.BuiltinCall) and n.name == NAME:
                found.setdefault((n.span.file, n.span.line, n.span.col), n)
    return list(found.values())


def asked(rules: R.Rules) -> bool:
    """`deal ends:` asks whether the player to move has no legal move."""
    return rules.deal_ends is not None and any(
        isinstance(n, R.BuiltinCall) and n.name == NAME for n in R.walk(rules.deal_ends))
