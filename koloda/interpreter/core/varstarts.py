"""The variables' values at the start of a match (the flow sets them; generate.py writes each start)."""
from __future__ import annotations

from typing import Any, Callable

Fn = Callable[[Any, dict], Any]


class VarStarts:
    """The variables' values at the start of a match, in file order: a start that reads a variable sees the
    starts before it (none after it). Per variable: its place in the list, how many own it, and its start
    (None: none), its generated function (generate.py)."""

    def __init__(self, size: int, starts: list[tuple[int, int, Fn | None]]):
        self.size = size
        self.starts = starts

    def __call__(self, s: Any) -> list:          # a State (state.py imports the flow, which imports this)
        values: list = [None] * self.size
        s.vars = values
        for base, owners, start in self.starts:
            for k in range(owners):
                values[base + k] = start(s, {}) if start is not None else None
        return values
