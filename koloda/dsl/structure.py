"""The JSON Schema check of a loaded rule file, its errors in a rule writer's words."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

import jsonschema

from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.marked import MarkedDict, MarkedList, span_of


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(resources.files("koloda.dsl").joinpath("schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def library_schema() -> dict:
    """A library holds patterns, functions and values for games to import: no deck, no phases."""
    main = schema()
    keep = ("library", "title", "source", "notes", "patterns", "define", "values", "melds")
    return {**main, "required": ["library"], "properties": {k: main["properties"][k] for k in keep}}


def validate(doc: MarkedDict) -> list[RuleError]:
    """Check the file's structure against the JSON Schema; all errors, located."""
    validator = jsonschema.Draft202012Validator(library_schema() if "library" in doc else schema())
    errors = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        errors.append(_schema_error(doc, err))
    return _dedupe(errors)


def _dedupe(errors: list[RuleError]) -> list[RuleError]:
    seen, result = set(), []
    for e in errors:
        key = (str(e.span), e.message)
        if key not in seen:
            seen.add(key)
            result.append(e)
    return result


def _locate(doc: MarkedDict, path: list) -> tuple[Span, object]:
    node: object = doc
    span = doc.span
    for part in path:
        # every mapping of a loaded document is a MarkedDict (the loader, merge and imports make no other)
        if isinstance(node, MarkedDict) and part in node:
            span = node.key_spans.get(part, span)
            node = node[part]
            if isinstance(node, (MarkedDict, MarkedList)) and len(node) == 0:
                pass
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
            span = span_of(node, span)
        else:
            break
    return span, node


def _schema_error(doc, err: jsonschema.ValidationError) -> RuleError:
    path = list(err.absolute_path)
    span, node = _locate(doc, path)
    where = ".".join(str(p) for p in path) or "the file"
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        patterns = err.schema.get("patternProperties", {})
        extra = [k for k in extra if not any(re.search(p, k) for p in patterns)]
        if extra:
            key = extra[0]
            key_span = err.instance.key_spans.get(key, span) if hasattr(err.instance, "key_spans") else span
            place = f" in `{where}`" if path else ""
            return RuleError(f"unknown key `{key}`{place}", key_span, did_you_mean(key, allowed), category="schema")
    if err.validator == "required":
        # one error for each missing key, named in its message: "'deck' is a required property"
        key = err.message.split("'")[1] if err.message.count("'") >= 2 else err.message
        owner = "the file" if not path else f"`{where}`"
        return RuleError(f"{owner} needs `{key}:`", span, category="schema")
    if err.validator == "enum":
        choices = ", ".join(map(str, err.validator_value))
        hint = did_you_mean(str(err.instance), map(str, err.validator_value)) or f"one of {choices}"
        return RuleError(f"`{where}` cannot be {err.instance!r}", span_of(node, span), hint, category="schema")
    if err.validator == "type":
        kinds = [err.validator_value] if isinstance(err.validator_value, str) else err.validator_value
        expected = " or ".join(_a(k) for k in kinds)
        return RuleError(f"`{where}` must be {expected}, not {_kind(err.instance)}", span_of(node, span),
                         category="schema")
    description = err.schema.get("description")
    if err.validator in ("oneOf", "anyOf"):
        # not the schema's own words ("is not valid under any of the given schemas"): what would do
        kinds = _kinds_of(err.validator_value)
        what_would_do = description or (f"it may be {kinds}" if kinds else None)
        shown = repr(err.instance) if isinstance(err.instance, (str, int, float, bool)) else _kind(err.instance)
        return RuleError(f"`{where}` cannot be {shown}", span_of(node, span), what_would_do, category="schema")
    message = f"`{where}`: {err.message}"
    return RuleError(message, span_of(node, span), description, category="schema")


def _kinds_of(choices: list) -> str:
    """`a whole number, a string or a mapping`: what the alternatives of a schema accept."""
    kinds: list[str] = []
    for choice in choices:
        t = choice.get("type") if isinstance(choice, dict) else None
        for k in ([t] if isinstance(t, str) else t or []):
            pattern = str(choice.get("pattern", ""))
            word = "a text such as `2..6`" if k == "string" and "\\.\\." in pattern else _a(k)
            if word not in kinds:
                kinds.append(word)
    return ", ".join(kinds[:-1]) + (" or " if len(kinds) > 1 else "") + kinds[-1] if kinds else ""


def _a(kind: str) -> str:
    words = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
             "boolean": "true or false", "number": "a number", "null": "empty"}
    return words.get(kind, kind)


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "empty" if value is None else type(value).__name__
