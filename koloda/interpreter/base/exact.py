"""Numbers that may be fractions (`pot / 2`): Python's exact `Fraction`, as the rules make, show and save them.

A whole number is a plain `int` everywhere, as it always was: `/` gives an int when the division comes
out even, so only a number that is really a fraction is a `Fraction`. (Fractions that add up to a whole
number stay a `Fraction` equal to it: equal values compare and hash alike, and are shown and saved as
the whole number.) A save is JSON, which has no fractions: one is written `{"fraction": [15, 2]}`, which
no other value of a save looks like, and read back exactly.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from koloda.dsl.limits import MAX_VALUE

FRACTION_KEY = "fraction"


def quotient(x: Any, y: Any) -> Any:
    """`x / y`, exact: an int when it comes out even. Raises ZeroDivisionError for y == 0 (the checked
    code tells it at its place) and ValueError past the bound of numbers in play."""
    if type(x) is int and type(y) is int and y and not x % y:      # whole numbers that divide: no Fraction made
        whole = x // y
    else:
        made = Fraction(x) / y
        if made.denominator != 1:
            if abs(made.numerator) > MAX_VALUE or made.denominator > MAX_VALUE:
                # a fraction divided again and again grows without end, as a number squared does
                raise ValueError(f"`/` gives a fraction of {len(str(made.denominator))} digits below the line")
            return made
        whole = made.numerator
    if not -MAX_VALUE <= whole <= MAX_VALUE:
        raise ValueError(f"`/` gives a number of {len(str(abs(whole)))} digits")
    return whole


def number_text(value: Any) -> str:
    """A number as players read it, and as the rules write it: `7`, `15/2`, `-1/3`."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    return str(value)


def scores_text(scores: list) -> str:
    """Scores as a list is written: `[-1, 1/2, 1/2]`."""
    return "[" + ", ".join(number_text(v) for v in scores) + "]"


def saved(value: Any) -> Any:
    """A value as a save holds it: a fraction as `{"fraction": [n, d]}`, a whole one as its int, a list
    item by item; anything else as it is."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else {FRACTION_KEY: [value.numerator, value.denominator]}
    if isinstance(value, list):
        return [saved(v) for v in value]
    return value


def restored(value: Any) -> Any:
    """A value of a save read back (the other way of `saved`)."""
    if isinstance(value, dict) and set(value) == {FRACTION_KEY}:
        n, d = value[FRACTION_KEY]
        if type(n) is not int or type(d) is not int or d <= 0:
            raise ValueError(f"a saved fraction is two whole numbers, the second above 0, not {value[FRACTION_KEY]!r}")
        return Fraction(n, d)
    if isinstance(value, list):
        return [restored(v) for v in value]
    return value
