"""Items of a `[...]` list (and values of a `{...}` mapping) that YAML cut at a comma inside an expression.

Inside `[...]` YAML splits at every comma, so `do: [high = max(high, b), spoken += 1]` is the
three items `high = max(high`, `b)` and `spoken += 1`. Each piece then fails to parse, twice
the errors for one slip and none naming it. A run of plain items whose brackets open in the
first and close in the last is one such cut: it is told once, where it starts, with the ways
out (quote the item, or write a block list).
"""
from __future__ import annotations

from koloda.dsl.errors import MAX_QUOTED, RuleError
from koloda.dsl.marked import MarkedStr

_OPEN, _CLOSE = "([{", ")]}"


def _depth(text: str) -> int:
    return sum(text.count(c) for c in _OPEN) - sum(text.count(c) for c in _CLOSE)


def cut_items(doc: object) -> list[RuleError]:
    """One error for each expression that YAML cut in pieces at its commas, in the file's order."""
    errors: list[RuleError] = []
    stack: list[object] = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
            if getattr(value, "flow", False):
                errors.extend(_cut_values(value))
        elif isinstance(value, list):
            stack.extend(value)
            if getattr(value, "flow", False):
                errors.extend(_cuts(value))
    return sorted(errors, key=lambda e: (e.span.file, e.span.line, e.span.col))


def _cuts(items: list) -> list[RuleError]:
    errors = []
    i = 0
    while i < len(items):
        first = items[i]
        depth = _depth(first) if isinstance(first, MarkedStr) and first.plain else 0
        j = i
        while depth > 0 and j + 1 < len(items) and isinstance(items[j + 1], MarkedStr) and items[j + 1].plain:
            j += 1
            depth += _depth(items[j])
        if j > i and depth == 0:
            whole = ", ".join(str(item) for item in items[i:j + 1])
            shown = whole if len(whole) <= MAX_QUOTED else whole[:MAX_QUOTED - 1] + "…"
            errors.append(RuleError(
                f"YAML cut `{shown}` in {j - i + 1} at its commas: inside `[...]` every comma starts a new item",
                first.span, f"put the item in quotes ({_quoted(shown)}) or write the list as a block list, one "
                "`- ` item a line", category="yaml"))
            i = j + 1
        else:
            i += 1
    return errors


def _cut_values(mapping: dict) -> list[RuleError]:
    """`{if: max(a, b) > 0, do: end turn}` is `if: max(a` and a key `b) > 0` with no value."""
    errors = []
    entries = list(mapping.items())
    for i, (_, value) in enumerate(entries):
        if not (isinstance(value, MarkedStr) and value.plain and _depth(value) > 0):
            continue
        depth, j = _depth(value), i
        while depth > 0 and j + 1 < len(entries) and entries[j + 1][1] is None:
            j += 1
            depth += _depth(entries[j][0])
        if j > i and depth == 0:
            whole = ", ".join([str(value)] + [key for key, _ in entries[i + 1:j + 1]])
            shown = whole if len(whole) <= MAX_QUOTED else whole[:MAX_QUOTED - 1] + "…"
            errors.append(RuleError(
                f"YAML cut `{shown}` in {j - i + 1} at its commas: inside `{{...}}` every comma starts a new key",
                value.span, f"put the value in quotes ({_quoted(shown)}) or write the mapping as a block, one "
                "`key: value` a line", category="yaml"))
    return errors


def _quoted(text: str) -> str:
    """The text as YAML quotes it: in double quotes, or in single quotes where it holds a double quote
    (`'say("a, b")'`), a single quote inside them written twice."""
    if '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


__all__ = ["cut_items"]
