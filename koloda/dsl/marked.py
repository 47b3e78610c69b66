"""Values read from a rule file that remember where they were written."""
from __future__ import annotations

from pathlib import Path

from koloda.dsl.errors import Span


class MarkedDict(dict):
    """A YAML mapping that knows where it and each of its keys were written. One laid over a base
    (`extends:`, `import:`) keeps in `replaced` the base's value of each key it overrides (a key
    it removes keeps its place in `key_spans`), and in `base_span` where the base's mapping was
    written; a whole file that extends another, in `base_path`, the file it extends."""
    span: Span
    key_spans: dict
    replaced: dict
    base_span: Span | None
    base_path: Path
    flow: bool                 # written `{a: b, c: d}`


class MarkedList(list):
    """A YAML list that knows where each of its items was written; an item written as an alias
    (`- *common`) is placed at the alias, and `aliases` names its anchor."""
    span: Span
    item_spans: list[Span]
    aliases: dict[int, str]
    flow: bool                 # written `[a, b]` (not as `- ` items)


class MarkedStr(str):
    """A YAML string with the position of its first character of content."""
    span: Span
    plain: bool
    segments: list[tuple[int, int, int]]


class MarkedInt(int):
    span: Span


def span_of(value, default: Span) -> Span:
    return getattr(value, "span", default)
