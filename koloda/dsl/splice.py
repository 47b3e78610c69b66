"""YAML anchors spliced into effect lists: `- *refill` in a `do:` list stands for the effects of the
list written at `&refill`, as if they were written out there.

YAML has no splice: an alias of a list, written as an item of another list, is a list inside a list.
An effect list is flat, so such an item can only mean its effects; this runs before the structure
check, guided by the JSON Schema to the places that hold effects. A list written out inside an effect
list (`- [end turn]`) is not an alias and is left for the structure check to refuse.
"""
from __future__ import annotations

from typing import Any

from koloda.dsl.marked import MarkedList

_EFFECTS = "#/$defs/effects"


def looks_into(alternative: Any, value: Any) -> bool:
    """Whether a mapping is read as an alternative of a `oneOf`: only if it holds the alternative's first
    required key (`repeat:` for a `repeat:` loop), so that an effect inside effects is walked once, not
    once for every kind of effect that has a `do:` (which is exponential in their nesting)."""
    if not isinstance(value, dict) or not isinstance(alternative, dict):
        return True
    required = alternative.get("required")
    return not required or required[0] in value


def splice_effects(doc: dict, schema: dict) -> None:
    """Splice aliased lists into every effect list of `doc`, in place."""
    _walk(doc, schema, schema["$defs"])


def _walk(value, node: dict, defs: dict) -> None:
    ref = node.get("$ref")
    if ref is not None:
        if not ref.startswith("#/$defs/"):
            return
        _walk(value, defs[ref[len("#/$defs/"):]], defs)
        return
    for alternative in node.get("oneOf", ()):
        if looks_into(alternative, value):
            _walk(value, alternative, defs)
    if isinstance(value, dict):
        properties = node.get("properties", {})
        extra = node.get("additionalProperties")
        for key in list(value):
            inner = properties.get(key, extra if isinstance(extra, dict) else None)
            if inner is None:
                continue
            if inner.get("$ref") == _EFFECTS and isinstance(value[key], list):
                value[key] = spliced(value[key])
            _walk(value[key], inner, defs)
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        items = node["items"]
        for i, item in enumerate(value):
            if items.get("$ref") == _EFFECTS and isinstance(item, list):
                value[i] = spliced(item)
            _walk(value[i], items, defs)


def spliced(items: Any) -> Any:
    """The list with each item that is an alias of a whole list replaced by that list's items (spliced
    in turn); the same list if it has none."""
    aliases = getattr(items, "aliases", None)
    if not aliases or not any(isinstance(items[i], list) for i in aliases if i < len(items)):
        return items
    out = MarkedList()
    spans: list = []
    for i, item in enumerate(items):
        at = items.item_spans[i]
        if i in aliases and isinstance(item, list):
            inner = spliced(item)
            out.extend(inner)
            spans.extend(getattr(inner, "item_spans", [at] * len(inner)))
        else:
            out.append(item)
            spans.append(at)
    out.span, out.item_spans, out.aliases = items.span, spans, {}
    return out
