"""The JSON Schemas of saves and transcripts (schemas/*.schema.json), and their refusals in words.

The schemas check each field's type and range; what depends on the game (that the seats are one per
player, that card ids are of this deck, that moves are legal) is checked once the game is loaded.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from importlib import resources
from itertools import islice
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from koloda.session.errors import Source, printable, shown


def _whole_number(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 3.0 as an integer, and Python counts True as one: neither is a seed or a move
    return isinstance(instance, int) and not isinstance(instance, bool)


_DRAFT = jsonschema.Draft202012Validator


def _items(validator: Any, items: Any, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """`items`, quick for a list of whole numbers (a save's moves, a deck order): jsonschema takes some
    microseconds an element, and a file of 8 MB holds millions. Each is checked here, and the first
    that does not fit, if any, is handed to jsonschema for its error."""
    bounds = _whole_number_bounds(items)
    if bounds is None or not isinstance(instance, list) or "prefixItems" in schema:
        yield from _DRAFT.VALIDATORS["items"](validator, items, instance, schema)
        return
    low, high = bounds
    for index, item in enumerate(instance):
        if type(item) is not int or not low <= item <= high:
            yield from validator.descend(item, items, path=index)
            return


def _unique_items(validator: Any, unique: Any, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """`uniqueItems`, quick for whole numbers (jsonschema compares them pair by pair, after sorting)."""
    if unique and isinstance(instance, list) and all(type(item) is int for item in instance):
        if len(set(instance)) != len(instance):
            yield ValidationError("has the same element twice")
        return
    yield from _DRAFT.VALIDATORS["uniqueItems"](validator, unique, instance, schema)


def _whole_number_bounds(items: Any) -> tuple[float, float] | None:
    if not isinstance(items, dict) or items.get("type") != "integer" or \
            not set(items) <= {"type", "minimum", "maximum", "description"}:
        return None
    return items.get("minimum", -math.inf), items.get("maximum", math.inf)


_Validator = jsonschema.validators.extend(
    _DRAFT, validators={"items": _items, "uniqueItems": _unique_items},
    type_checker=_DRAFT.TYPE_CHECKER.redefine("integer", _whole_number))

# what a pattern asks for (`pattern`), or what it forbids (`not: {pattern}`: JSON Schema's `$` would let a
# trailing newline through in Python's regular expressions, so forbidden characters are matched anywhere)
_PATTERN_WORDS = {"^[0-9a-f]{16}$": "16 hexadecimal digits", "^[0-9a-f]{64}$": "64 hexadecimal digits",
                  "[^\\u0020-\\u007e]": "printable ASCII", "[\\u0000-\\u001f\\u007f]": "free of control characters"}
_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "null"}


@lru_cache(maxsize=None)
def _document(name: str) -> dict:
    """`save` or `transcript`: the schema as shipped in the package."""
    text = resources.files("koloda.session").joinpath(f"schemas/{name}.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def _validator(name: str, part: str | None) -> Any:
    document = _document(name)
    # the references resolved once, here: following a `$ref` for every line of a long transcript is
    # half the time of checking it (the schemas refer only to their own `$defs`, never in a cycle, and a
    # `$ref` stands alone in its object)
    return _Validator(_inlined(document if part is None else document["$defs"][part], document["$defs"]))


def _inlined(node: Any, definitions: dict) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inlined(definitions[node["$ref"].removeprefix("#/$defs/")], definitions)
        return {key: _inlined(value, definitions) for key, value in node.items() if key != "$defs"}
    if isinstance(node, list):
        return [_inlined(item, definitions) for item in node]
    return node


def check(data: Any, source: Source, name: str, part: str | None = None, subject: str = "") -> None:
    """Raise the clearest refusal if `data` does not fit the schema `name` (or its definition `part`)."""
    error = best_match(islice(_validator(name, part).iter_errors(data), 100))
    if error is not None:
        raise source.invalid(subject + describe(error))


def describe(error: ValidationError) -> str:
    """One schema error as a sentence: the field by its path (`deck[0][3]`), and what it should be."""
    field = _path(error.absolute_path)
    value, rule, kind = error.instance, error.validator_value, error.validator
    if kind == "required":
        missing = next((k for k in rule if isinstance(value, dict) and k not in value), "?")
        return f"`{missing}` is missing" + (f" from `{field}`" if field else "")
    if kind in ("additionalProperties", "unevaluatedProperties"):
        known = error.schema.get("properties", {})
        extra = next((k for k in value if k not in known), "?") if isinstance(value, dict) else "?"
        return f"it has a key {shown(extra)} it should not" + (f" in `{field}`" if field else "")
    name = f"`{field}`" if field else "it"
    if "propertyNames" in error.absolute_schema_path:
        name = f"a key of `{field}`" if field else "a key"
    if kind == "type":
        wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in ([rule] if isinstance(rule, str) else rule))
        return f"{name} must be {wanted}, not {_kind_of(value)}"
    if kind in ("minimum", "maximum"):
        return f"{name} must be at {'least' if kind == 'minimum' else 'most'} {rule}, not {shown(value)}"
    if kind in ("const", "enum"):
        wanted = " or ".join(shown(v) for v in ([rule] if kind == "const" else rule))
        return f"{name} must be {wanted}, not {shown(value)}"
    if kind in ("maxItems", "maxLength", "maxProperties"):
        return f"{name} is too long (at most {rule})"
    if kind in ("minItems", "minLength"):
        return f"{name} is empty" if rule == 1 else f"{name} is too short (at least {rule})"
    if kind == "uniqueItems":
        return f"{name} gives the same card twice"
    if kind == "pattern" or kind == "not" and isinstance(rule, dict) and "pattern" in rule:
        wanted = _PATTERN_WORDS.get(rule if kind == "pattern" else rule["pattern"], "of another form")
        return f"{name} must be {wanted}, not {shown(value)}"
    return f"{name}: {error.message[:120]}"


def _path(parts: Iterable[Any]) -> str:
    text = ""
    for part in parts:
        key = printable(str(part))
        text += f"[{part}]" if isinstance(part, int) else (f".{key}" if text else key)
    return text


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return shown(value)
    if isinstance(value, float) and value.is_integer():
        return f"the decimal {shown(value)}"
    words = {dict: "a mapping", list: "a list", str: "a string", int: "a number", float: "a number"}
    return f"{words.get(type(value), 'null')} ({shown(value)})" if value is not None else "null"
