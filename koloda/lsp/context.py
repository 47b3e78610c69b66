"""Where in a rule file a position is: under which keys, and what is written there (a key, an
expression or an effect), read from the text's indentation and the file's JSON Schema.

The text is read line by line, not parsed as YAML: while a line is being typed the file is often not
valid YAML, and completion is wanted most just then.
"""
from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Any

from koloda.dsl.structure import schema

KEY = "key"            # the position is where a key of a mapping is written
EFFECT = "effect"      # in an effect (`move c to pile`)
EXPR = "expr"          # in an expression, a binding (`c in my hand`) or a signature
TEXT = "text"          # in a value of another kind: a help text, a number, a word from a list

_KEY_LINE = re.compile(r"^(?P<indent>\s*)(?P<dashes>(?:-\s+)*)(?P<key>[^\s#:\[\]{}\"'-][^:#\[\]{}\"']*?)\s*:(?:\s|$)")
_ITEM = re.compile(r"^(?P<indent>\s*)(?P<dashes>(?:-\s+)+)")


@dataclass(frozen=True)
class Place:
    path: tuple[str, ...]     # the keys above the position; "[]" for an item of a list
    kind: str                 # KEY, EFFECT, EXPR or TEXT
    keys: tuple[str, ...]     # where kind is KEY: the keys the schema allows there
    before: str               # the line's text before the position


def place(lines: list[str], line: int, col: int) -> Place:
    """The place of a position (0-based line and column) in the text given as lines."""
    text = lines[line] if line < len(lines) else ""
    before = text[:col]
    own, threshold, in_item = _own(before)
    path = _above(lines, line, threshold)
    if in_item:
        path = path + ("[]",)
    if own is None:
        node = _walk(path)
        if re.fullmatch(r"\s*(?:-\s+)*[\w ]*", before) and not in_item and _props(node):
            return Place(path, KEY, tuple(_props(node)), before)
        return Place(path, _kind(node, path), (), before)
    node = _walk(path + (own,))
    return Place(path + (own,), _kind(node, path + (own,)), (), before)


def _own(before: str) -> tuple[str | None, int, bool]:
    """The key the line's own text before the position is the value of (None if none), the column
    under which the lines above hold the keys around it, and whether the line starts a list item."""
    m = _KEY_LINE.match(before)
    if m:
        key_col = len(m.group("indent")) + len(m.group("dashes"))
        threshold = len(m.group("indent")) if m.group("dashes") else key_col
        return m.group("key").strip(), threshold, bool(m.group("dashes"))
    item = _ITEM.match(before)
    if item:
        return None, len(item.group("indent")), True
    return None, len(before) - len(before.lstrip(" ")), False


def _above(lines: list[str], line: int, threshold: int) -> tuple[str, ...]:
    """The keys of the mappings and lists that hold a line whose keys stand at column `threshold`."""
    path: list[str] = []
    for k in range(line - 1, -1, -1):
        text = lines[k]
        stripped = text.strip()
        if not stripped or stripped.startswith("#") or threshold == 0:
            if threshold == 0:
                break
            continue
        indent = len(text) - len(text.lstrip(" "))
        m = _KEY_LINE.match(text)
        item = _ITEM.match(text)
        if item and indent < threshold:
            key_col = len(item.group("indent")) + len(item.group("dashes"))
            if m and key_col < threshold:       # `- if: x` above `  then:`: a key of the item's mapping
                path.append(m.group("key").strip())
                threshold = key_col
                continue
            path.append("[]")
            threshold = indent
        elif m and indent < threshold:
            path.append(m.group("key").strip())
            threshold = indent
    return tuple(reversed(path))


def effect_keys() -> tuple[str, ...]:
    """The keys of the effects written as mappings (`if:`/`then:`, `for:` ...)."""
    return tuple(dict.fromkeys(_props(schema()["$defs"]["effect"])))


def _resolve(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _alternatives(node: Any) -> list[Any]:
    node = _resolve(node)
    if not isinstance(node, dict):
        return []
    options = node.get("oneOf") or node.get("anyOf")
    if options:
        return [alt for option in options for alt in _alternatives(option)]
    return [node]


def _walk(path: tuple[str, ...]) -> Any:
    """The schema of what stands at a path; {} where the schema says nothing."""
    nodes: list[Any] = [schema()]
    for key in path:
        found: list[Any] = []
        for node in (alt for n in nodes for alt in _alternatives(n)):
            if key == "[]":
                if "items" in node:
                    found.append(node["items"])
            elif key in node.get("properties", {}):
                found.append(node["properties"][key])
            elif isinstance(node.get("additionalProperties"), dict):
                found.append(node["additionalProperties"])
            elif "patternProperties" in node:
                found.extend(node["patternProperties"].values())
        nodes = found
        if not nodes:
            return {}
    return {"oneOf": nodes} if len(nodes) > 1 else nodes[0]


def _props(node: Any) -> list[str]:
    return [k for alt in _alternatives(node) for k in alt.get("properties", {})]


def _refs(node: Any, seen: int = 0) -> set[str]:
    """The names of the schema's definitions a node is, through `oneOf`s."""
    if not isinstance(node, dict) or seen > 4:
        return set()
    names = {node["$ref"].rsplit("/", 1)[-1]} if "$ref" in node else set()
    inner = _resolve(node)
    for option in inner.get("oneOf", []) + inner.get("anyOf", []) if isinstance(inner, dict) else []:
        names |= _refs(option, seen + 1)
    return names


# Keys whose values are words for people or names of files, never expressions.
_PROSE = {"help", "notes", "source", "title", "label", "game", "text", "extends", "import", "library", "en", "ru"}


def _kind(node: Any, path: tuple[str, ...]) -> str:
    refs = _refs(node)
    if refs & {"effect", "effects"}:
        return EFFECT
    if "expr" in refs:
        return EXPR
    if (path and path[-1] in _PROSE) or "label" in refs or any("enum" in alt for alt in _alternatives(node)):
        return TEXT
    if not node:                 # a construct the schema does not describe: most values are expressions
        return EXPR
    return EXPR if any("string" in _types(alt) for alt in _alternatives(node)) else TEXT


def _types(node: dict) -> list[str]:
    t = node.get("type", [])
    return [t] if isinstance(t, str) else list(t)
