"""Targets, as a designer writes them: `advantage.max <= 0.03`, `turns.median in 20..40`,
`counter.jack_finish >= 5%`; and objectives, `--maximize drama`, `--minimize forced`.

    target    := measure ("<=" | "<" | ">=" | ">") number
               | measure "in" number ".." number
    number    := a decimal number, or one followed by % (a hundredth)

The grammar is this small, so it is read by hand here, and every mistake is told with the column
it is at and, for a measure's name, the nearest known one (did-you-mean). A target is checked
against the game's measures before any game is played."""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from koloda.dsl.errors import did_you_mean
from koloda.tune.measures import Estimate

OPERATORS = ("<=", ">=", "<", ">")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMBER = re.compile(r"[-+]?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?%?")
_SPACE = re.compile(r"\s*")
# a violation is measured relative to the bound, but never relative to less than this (a bound of 0)
_SCALE = 0.01


class TargetError(ValueError):
    """A target that cannot be read, located: the text, the column (from 1) and what is wrong."""

    def __init__(self, flag: str, text: str, column: int, message: str, width: int = 1):
        super().__init__(message)
        self.flag, self.text, self.column, self.message, self.width = flag, text, column, message, width

    def format(self) -> str:
        caret = " " * (self.column - 1) + "^" * max(1, self.width)
        return f"{self.flag} {self.text!r}, column {self.column}: {self.message}\n  {self.text}\n  {caret}"

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True)
class Target:
    """A constraint (`op` one of OPERATORS or "in") or an objective (`op` "max" or "min")."""
    measure: str
    op: str
    low: float = -math.inf        # the accepted region is low..high (ends included or not by op)
    high: float = math.inf
    text: str = ""

    @property
    def objective(self) -> bool:
        return self.op in ("max", "min")

    def accepts(self, value: float) -> bool:
        if self.op == "<":
            return value < self.high
        if self.op == ">":
            return value > self.low
        return self.low <= value <= self.high

    def violation(self, value: float) -> float:
        """How far outside the accepted region a value is, relative to the bound it passes (0: inside)."""
        if self.objective or self.accepts(value):
            return 0.0
        if value >= self.high:
            return (value - self.high) / max(abs(self.high), _SCALE) + 1e-9
        return (self.low - value) / max(abs(self.low), _SCALE) + 1e-9

    def verdict(self, e: Estimate) -> str:
        """"met" when the whole interval is accepted, "missed" when none of it is, else "open"."""
        if self.objective:
            return "open"
        if self.accepts(e.low) and self.accepts(e.high):
            return "met"
        below = e.high < self.low or self.op == ">" and e.high <= self.low
        above = e.low > self.high or self.op == "<" and e.low >= self.high
        return "missed" if below or above else "open"


def _number(flag: str, text: str, at: int) -> tuple[float, int]:
    m = _NUMBER.match(text, at)
    if not m:
        word = re.match(r"\S+", text[at:])
        raise TargetError(flag, text, at + 1, "a number was expected here" if at < len(text) else
                          "a number was expected at the end", len(word.group()) if word else 1)
    token = m.group()
    value = float(token.rstrip("%")) / (100 if token.endswith("%") else 1)
    if not math.isfinite(value):
        raise TargetError(flag, text, at + 1, "the number is too large", len(token))
    return value, m.end()


def _skip(text: str, at: int) -> int:
    m = _SPACE.match(text, at)
    return m.end() if m else at


def _measure(flag: str, text: str, at: int, known: Sequence[str]) -> tuple[str, int]:
    at = _skip(text, at)
    m = _NAME.match(text, at)
    if not m:
        raise TargetError(flag, text, at + 1, "a measure's name was expected here (for instance advantage.max)")
    name = m.group()
    if name not in known:
        hint = did_you_mean(name, known)
        raise TargetError(flag, text, at + 1, f"unknown measure `{name}`" + (f"; {hint}" if hint else
                          " (koloda tune --measures GAME lists them)"), len(name))
    return name, m.end()


def parse_target(text: str, known: Sequence[str], flag: str = "--target") -> Target:
    """One --target; `known`: the game's measure names."""
    name, at = _measure(flag, text, 0, known)
    at = _skip(text, at)
    op = next((o for o in OPERATORS if text.startswith(o, at)), None)
    if op is None and re.match(r"in\b", text[at:]):
        low, at = _number(flag, text, _skip(text, at + 2))
        at = _skip(text, at)
        if not text.startswith("..", at):
            raise TargetError(flag, text, at + 1, "`..` was expected here, as in `in 20..40`")
        high_at = _skip(text, at + 2)
        high, at = _number(flag, text, high_at)
        if low > high:
            raise TargetError(flag, text, high_at + 1, f"the range's high end is below its low end ({low:g})")
        target = Target(name, "in", low, high, text.strip())
    elif op is None:
        found = re.match(r"\S+", text[at:])
        message = ("write <= or >= (a target is a bound, not an exact value)" if found and found.group() in ("=", "==")
                   else "a comparison was expected here: <=, <, >=, > or in LO..HI" if at < len(text)
                   else "a comparison was expected at the end: <=, <, >=, > or in LO..HI")
        raise TargetError(flag, text, at + 1, message, len(found.group()) if found else 1)
    else:
        value, at = _number(flag, text, _skip(text, at + len(op)))
        target = (Target(name, op, high=value, text=text.strip()) if op in ("<=", "<")
                  else Target(name, op, low=value, text=text.strip()))
    at = _skip(text, at)
    if at < len(text):
        raise TargetError(flag, text, at + 1, f"unexpected `{text[at:].strip()}` after the target",
                          len(text[at:].strip()))
    return target


def parse_objective(text: str, known: Sequence[str], direction: str) -> Target:
    """`--maximize drama` (direction "max") or `--minimize forced` ("min")."""
    flag = "--maximize" if direction == "max" else "--minimize"
    name, at = _measure(flag, text, 0, known)
    at = _skip(text, at)
    if at < len(text):
        raise TargetError(flag, text, at + 1, f"{flag} takes a measure's name alone", len(text) - at)
    return Target(name, direction, text=f"{direction}imize {name}")


def read_targets(targets: Sequence[str], maximize: Sequence[str], minimize: Sequence[str],
                 known: Sequence[str]) -> list[Target]:
    """Every target and objective, checked; at least one is needed."""
    out = [parse_target(t, known) for t in targets]
    out += [parse_objective(t, known, "max") for t in maximize]
    out += [parse_objective(t, known, "min") for t in minimize]
    return out
