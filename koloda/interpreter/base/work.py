"""The counted budget of one run of the rules (`MAX_WORK` steps, koloda/dsl/limits.py).

Every loop the rules can ask for is bounded by itself (a zone's cards, a `limit:`), but loops inside
loops multiply: a comprehension inside a comprehension, a `repeat:` inside a `repeat:`, an action whose
parameters' values make millions of moves. So the flow gives each listing of legal moves, each action
and each deal `MAX_WORK` steps (`State.work`), and each construct that goes through many items spends
as many steps as it has items, once, before it starts (a range or `combinations` before its list is
made, so that a list too large is never built): a run that would pass the budget stops with a located
error naming the construct, however its loops are nested. The count is per list, not per expression:
a loop of many rounds costs one subtraction a round at most.

Fast generated code spends through gen_runtime's helpers, checked code through these (gen_checks.py),
which raise the located error.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from koloda.dsl.errors import Span
from koloda.dsl.limits import MAX_VALUE, MAX_WORK
from koloda.interpreter.base.errors import RuleRuntimeError

__all__ = ["MAX_WORK", "MAX_VALUE", "spend", "too_much", "checked_number", "choices_count"]


def too_much(what: str, span: Span) -> RuleRuntimeError:
    return RuleRuntimeError(f"{what} would pass the work one listing of moves, action or deal may take "
                            f"({MAX_WORK:,} steps: items of lists made or gone through, rounds of loops), so the "
                            "game was stopped: loops inside loops multiply", span,
                            "make fewer or shorter lists inside one another")


def spend(s: Any, steps: int, what: str, span: Span) -> None:
    """Take `steps` from the run's budget, or stop the run at `span`."""
    s.work -= steps
    if s.work < 0:
        raise too_much(what, span)


def charged(body: Any, call: Any) -> Any:
    """A function of the rules that calls others more than once, each of its calls counted (two calls of
    a function that makes two calls … are exponential in their chain)."""
    what, span = f"calling `{call.name}`", call.span

    def counted_call(s: Any, b: dict) -> Any:
        s.work -= 1
        if s.work < 0:
            raise too_much(what, span)
        return body(s, b)
    return counted_call


def checked_number(value: Any, what: str, span: Span) -> Any:
    """A whole number in play, refused past ±MAX_VALUE (a number squared each round grows without end);
    a fraction likewise, by its numerator and its denominator (a third of a third ... each round)."""
    if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
        raise RuleRuntimeError(f"{what} gives a number of {len(str(abs(value)))} digits; numbers in play stay "
                               f"within ±10^{len(str(MAX_VALUE)) - 1}", span,
                               "a number that grows every round (squared, doubled) has no end: bound it")
    if type(value) is Fraction and (abs(value.numerator) > MAX_VALUE or value.denominator > MAX_VALUE):
        raise RuleRuntimeError(f"{what} gives a fraction of {len(str(max(abs(value.numerator), value.denominator)))} "
                               f"digits; numbers in play stay within ±10^{len(str(MAX_VALUE)) - 1} above and below "
                               "the line", span, "a number divided or multiplied by a fraction every round has no "
                               "end: bound it, or round it with `//`")
    return value


def choices_count(n: int, k: int, most: int) -> int:
    """C(n, k), or `most + 1` as soon as it is known to pass `most` (C of large numbers is slow to work out)."""
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    made = 1
    for i in range(k):
        made = made * (n - i) // (i + 1)
        if made > most:
            return most + 1
    return made

