"""What checked generated code calls: the checks that raise the located errors of the rules.

Play runs fast generated code, which checks nothing it need not (a `+` of none fails as Python
fails). When a fast function fails, its node's checked function is generated from the same
generator methods in a checked mode (generate.py `Checked`) and asked instead: each operator that
can fail works its operands out and tests them here, in the order the rules have always tested them
(none, then zero or bounds, then the size a product may grow to), raising `RuleRuntimeError` at the
node's place. The built-ins' functions of plain values raise their own located errors already; what
is here is what an operator, a loop or a listing says.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

from koloda.dsl.errors import Span
from koloda.interpreter.runtime import builtin_runtime as rt
from koloda.interpreter.melds import meld_calls
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.exact import quotient
from koloda.interpreter.base.work import checked_number, spend, too_much

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": quotient, "//": operator.floordiv,
          "%": operator.mod}
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class Checked:
    """A node's checked function, generated the first time it is asked (its fast function failed)
    and kept: the fast path never pays for it."""
    __slots__ = ("make", "fn")

    def __init__(self, make: Callable[[], Callable[..., Any]]):
        self.make: Callable[[], Callable[..., Any]] | None = make
        self.fn: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        fn = self.fn
        if fn is None:
            assert self.make is not None
            fn = self.fn = self.make()
            self.make = None
        return fn(*args)


def arith(x: Any, y: Any, sign: str, at: Span) -> Any:
    if x is None or y is None:
        raise RuleRuntimeError(f"`{sign}` with none", at)
    if y == 0 and sign in ("/", "//", "%"):
        raise RuleRuntimeError("division by zero", at)
    if sign == "/":
        try:
            return quotient(x, y)
        except ValueError as exc:
            raise RuleRuntimeError(f"{exc}; numbers in play stay within ±10^18", at,
                                   "a number divided every round has no end: bound it") from None
    made = _ARITH[sign](x, y)
    return checked_number(made, "`*`", at) if sign == "*" else made


def compare(x: Any, y: Any, sign: str, at: Span) -> bool:
    if x is None or y is None:
        raise RuleRuntimeError(f"`{sign}` with none", at)
    return _COMPARE[sign](x, y)


def rank_compare(order: Any, x: Any, y: Any, sign: str, at: Span) -> bool:
    if x is None or y is None:
        raise RuleRuntimeError(f"`{sign}` with none", at)
    return _COMPARE[sign](order[x], order[y])


def negated(x: Any, at: Span) -> Any:
    if x is None:
        raise RuleRuntimeError("`-` of none", at)
    return -x


def index(items: Any, i: Any, at: Span) -> Any:
    if not -len(items) <= i < len(items):
        raise RuleRuntimeError(f"index {i} is outside a list of {len(items)}", at)
    return items[i]


def owner(p: Any, name: str, who: str, at: Span) -> Any:
    """The owner of a player's (or side's) own zone, grid or variable, which must be someone."""
    if p is None:
        raise RuleRuntimeError(f"`{name}` of no {who}", at)
    return p


def range_step(by: Any, at: Span) -> Any:
    """A range's step, tested before its bounds are worked out, as it has always been."""
    if by <= 0:
        raise RuleRuntimeError(f"a range goes up by a whole number above 0, not by {by}", at)
    return by


def numbers(s: Any, by: Any, low: Any, high: Any, at: Span) -> list[int]:
    return rt.numbers(s, low, high, by, at)


def top_after(zones: list, k: Any, zone: Any, at: Span) -> list:
    """`top(zone, k)`, the count worked out before the zone."""
    return rt.top_cards(zones[zone], k, at)


def trick(cards: list, name: str, at: Span) -> list:
    """A trick's cards, which must be some before the trump is worked out."""
    if not cards:
        raise RuleRuntimeError(f"`{name}` of an empty trick", at)
    return cards


def keeping(k: Any, name: str, at: Span) -> Any:
    """`best_points`' cards to keep, tested before the cards are worked out."""
    if k is None:
        raise RuleRuntimeError(f"`{name}` keeping none", at)
    return k


def best(reach: Any, k: Any, cards: Any, enough: Any, at: Span) -> int:
    return meld_calls.best_points(reach, cards, k, enough, at)


def best_after(reach: Any, s: Any, k: Any, plan: Any, cards: Any, enough: Any, at: Span) -> int:
    return meld_calls.best_points_after(reach, s, plan, cards, k, enough, at)


def call(s: Any, what: str, at: Span) -> None:
    """One call of a function of the rules that calls others more than once (work.py)."""
    s.work -= 1
    if s.work < 0:
        raise too_much(what, at)


def listed(s: Any, values: Any, what: str, at: Span) -> list:
    """The values of an action's parameter, listed, their number spent from the listing's budget."""
    values = list(values)
    s.work -= len(values)
    if s.work < 0:
        spend(s, 0, what, at)
    return values


def digit(value: Any, low: int, step: int, radix: int, var: str, action: str, at: Span) -> int:
    """A parameter's value as its digit of the action's id, or the located error of a value outside its ids."""
    d, off = divmod(int(value) - low, step)
    if not 0 <= d < radix or off:
        high = low + (radix - 1) * step
        raise RuleRuntimeError(f"parameter `{var}` of `{action}` takes {value}, "
                               f"outside {low}..{high}" + (f" by {step}" if step > 1 else ""),
                               at, "a number's ids are fixed before play: draw it from a range "
                               "or a list whose numbers are constants or options (`b in [18, 20, 22]`, "
                               "`b in 100..300 by 5`), and let `if:` say which of them may be taken")
    return d


def failed(what: str, exc: Exception, at: Span) -> RuleRuntimeError:
    """A Python failure in checked code: `what failed: …` at the place of the part that failed."""
    return RuleRuntimeError(f"{what}: {exc}", at)


CHECKS: dict[str, Any] = {"_ck_" + f.__name__: f for f in (
    arith, compare, rank_compare, negated, index, owner, range_step, numbers, top_after, trick, keeping, best,
    best_after, call, listed, digit, failed)}
CHECKS["_ck_total"] = rt.total
CHECKS["_ck_extreme"] = rt.extreme
