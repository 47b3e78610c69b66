"""A row of like zones declared once: `pile: {count: 7}`.

The row's zones are ordinary shared zones, named by the row and their number from 1 (`pile 1` …
`pile 7`: the space keeps them apart from any name a rule file can write), labelled the same way
(`стопка 3`), so the table, saves, the views and move texts take them as any zone. The rules reach
them through the row's name, a list of the zones first to last (`pile[0]`, `y in pile`); dsl/resolve.py
writes it so.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from koloda.dsl.errors import RuleError, Span
from koloda.dsl.labels import Label


class ZoneSpec(Protocol):
    """What a row is read from: dsl/model.py's ZoneSpec (which reads the rows with this module)."""
    name: str
    each_player: bool
    per_side: bool
    span: Span
    grid: Any
    melds: bool
    label: Label | None
    count: int | None


def member(row: str, k: int) -> str:
    """The name of the k-th zone of a row, counting from 1."""
    return f"{row} {k}"


def members(row: ZoneSpec) -> list[str]:
    return [member(row.name, k) for k in range(1, (row.count or 0) + 1)]


def _numbered(label: Label | None, k: int) -> Label | None:
    if label is None:
        return None
    return Label(tuple((code, f"{text} {k}") for code, text in label.texts),
                 None if label.any is None else f"{label.any} {k}")


def expand(row: Any, errors: list[RuleError]) -> list[Any]:
    """The zones of a row (ZoneSpecs, as `row` is), or none where the row cannot be one (the error
    said where)."""
    if row.each_player:
        errors.append(RuleError(f"zone `{row.name}`: a row of zones (`count:`) is shared, so it cannot be "
                                f"`each: {'side' if row.per_side else 'player'}`", row.span, category="schema"))
        return []
    if row.grid is not None or row.melds:
        errors.append(RuleError(f"zone `{row.name}`: `count:` makes a row of stacks; a "
                                f"{'grid' if row.grid is not None else 'meld area'} cannot be one",
                                row.span, category="schema"))
        return []
    return [dataclasses.replace(row, name=member(row.name, k), label=_numbered(row.label, k), count=None,
                                row=row.name) for k in range(1, (row.count or 0) + 1)]
