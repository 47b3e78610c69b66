"""Whole numbers fixed before play: constants, options and the table's size, folded.

A number parameter drawn from a range fixed this way has its values known before play,
so its action ids can be its places in the range (interpreter/core/codec.py), and the checker
can bound how many there are.
"""
from __future__ import annotations

from math import gcd
from typing import Callable

from koloda.dsl import resolved as R
from koloda.dsl.limits import MOST_NUMBERS

__all__ = ["fixed_int", "fixed_range", "fixed_span", "too_many_numbers", "MOST_NUMBERS"]

_FOLD: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "//": lambda a, b: a // b, "%": lambda a, b: a % b}


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def fixed_int(e: R.Expr, options: dict, known: dict[str, int]) -> int | None:
    """The value of a whole-number expression fixed before play (constants, options, and the names
    in `known`: the player count, the deck's size), or None if it reads anything else."""
    if isinstance(e, R.Const):
        return _whole(e.value)
    if isinstance(e, R.Option):
        return _whole(options.get(e.name))
    if isinstance(e, R.StateValue):
        return known.get(e.name)
    if isinstance(e, R.Neg):
        inner = fixed_int(e.operand, options, known)
        return None if inner is None else -inner
    if isinstance(e, R.Arith) and e.op in _FOLD:
        left, right = fixed_int(e.left, options, known), fixed_int(e.right, options, known)
        if left is None or right is None or (right == 0 and e.op in ("//", "%")):
            return None
        return _FOLD[e.op](left, right)
    return None


def fixed_range(domain: R.Expr, options: dict, known: dict[str, int]) -> tuple[int, int, int] | None:
    """(low, high, step) of a range fixed before play; None for any other domain."""
    if not isinstance(domain, R.Range):
        return None
    low, high = fixed_int(domain.low, options, known), fixed_int(domain.high, options, known)
    step = 1 if domain.step is None else fixed_int(domain.step, options, known)
    if low is None or high is None or step is None or step <= 0:
        return None
    return low, high, step


def fixed_span(domain: R.Expr, options: dict, known: dict[str, int]) -> tuple[int, int, int] | None:
    """(low, high, step) covering a domain fixed before play: a range's own, or for a list of fixed
    whole numbers (`[18, 20, 22, 23]`) the range from its least to its greatest by the greatest step
    that meets every one of them (18..23 by 1). None for any other domain."""
    if not isinstance(domain, R.ListLit) or not domain.items:
        return fixed_range(domain, options, known)
    values = [fixed_int(item, options, known) for item in domain.items]
    if any(v is None for v in values):
        return None
    whole = [v for v in values if v is not None]
    low, high = min(whole), max(whole)
    step = 0
    for v in whole:
        step = gcd(step, v - low)
    return low, high, step or 1


def count_of(span: tuple[int, int, int]) -> int:
    low, high, step = span
    return max((high - low) // step + 1, 1)


def too_many_numbers(var: str, count: int, listed: bool = False) -> tuple[str, str]:
    """The message and hint for a number parameter with more values than ids allow."""
    if listed:
        return (f"parameter `{var}` takes numbers from a list that spreads over {count} places, "
                f"more than {MOST_NUMBERS}",
                f"a listed number's id is its place from the least listed to the greatest (by the steps "
                f"between them): keep them within {MOST_NUMBERS} places")
    return (f"parameter `{var}` takes {count} numbers, more than {MOST_NUMBERS}",
            f"a number chosen in a move comes from at most {MOST_NUMBERS} values: narrow the range "
            "or give it a step (`by 5`)")
