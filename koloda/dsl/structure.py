"""The JSON Schema check of a loaded rule file, its errors in a rule writer's words.

jsonschema speaks of the schema ("is not valid under any of the given schemas", a dump of the
value); each error here names the key that is wrong, where it is written, and what would do.
Where a key has the wrong value because it is indented at the wrong level, the message says so."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.marked import MarkedDict, span_of
from koloda.dsl.splice import looks_into, splice_effects
from koloda.dsl.types import DECKS

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(resources.files("koloda.dsl").joinpath("schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def library_schema() -> dict:
    """A library holds patterns, variables, functions, procedures and values for games to import: no deck, no
    phases."""
    main = schema()
    keep = ("library", "title", "source", "notes", "patterns", "vars", "define", "procedures", "values", "melds")
    return {**main, "required": ["library"], "properties": {k: main["properties"][k] for k in keep}}


MAX_SHOWN = 40      # characters of a value quoted in a message

# the keys a file needs, and how one is written
_NEEDED = {
    "game": "a short lower-case name, as in `game: my-game`",
    "deck": "the cards played with, as in `deck: standard52` (one of " + ", ".join(DECKS) + ")",
    "phases": "at least one phase and its actions, as in `phases: {main: {actions: {pass: {do: end turn}}}}`",
    "actions": "what a player may do in this phase, as in `actions: {pass: {do: end turn}}`",
    "then": "the effects run when the condition holds: `{if: CONDITION, then: [EFFECTS]}`",
    "for": "what the loop runs over: `{for: c in my hand, do: [EFFECTS]}`",
    "do": "the effects to run, as in `do: [end turn]`",
    "when": "the condition that sets the event off, as in `when: stock.size == 0`",
    "default": "the value the option has unless the table chooses another",
    "of": "`of: rank` for sets, `of: suit` for runs",
}
_NAMES = "^[a-z][a-z0-9_-]*$"


def validate(doc: MarkedDict) -> list[RuleError]:
    """Check the file's structure against the JSON Schema; all errors, located, in the file's order."""
    rules_schema = library_schema() if "library" in doc else schema()
    splice_effects(doc, rules_schema)
    validator = _validator_class()(rules_schema)
    errors = [_schema_error(doc, meant) for err in validator.iter_errors(doc) for meant in _meant(err)]
    root = doc.span.file
    return sorted(_dedupe(errors), key=lambda e: (e.span.file != root, e.span.file, e.span.line, e.span.col))


def _dedupe(errors: list[RuleError]) -> list[RuleError]:
    seen, result = set(), []
    for e in errors:
        key = (str(e.span), e.message)
        if key not in seen:
            seen.add(key)
            result.append(e)
    return result


@lru_cache(maxsize=1)
def _validator_class() -> type:
    import jsonschema           # here, not at the top: reading a file's title (`koloda list`) needs no schema
    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"oneOf": _one_of})


_SHALLOW: dict[int, tuple[dict, dict]] = {}


def _shallow(alternative: dict) -> dict:
    """An alternative that does not look into the values of its keys: what a mapping of another kind
    is checked against, with the same shallow errors (a key it needs, a key it does not know)."""
    kept = _SHALLOW.get(id(alternative))
    if kept is None:
        shallow = {**alternative, "properties": {key: True for key in alternative.get("properties", {})}}
        kept = _SHALLOW[id(alternative)] = (alternative, shallow)    # the original kept, so its id stays its own
    return kept[1]


def _one_of(validator, one_of: list, instance: object, schema: dict):
    """jsonschema's `oneOf`, but a mapping is looked into only by the alternatives of its kind (whose first
    required key it holds): an effect has five alternatives, three of them with `do:`, and looking into
    every one made checking effects inside effects take time exponential in their nesting."""
    from jsonschema import ValidationError
    alternatives = [alt if looks_into(alt, instance) else _shallow(alt) for alt in one_of]
    errors: list = []
    for index, alternative in enumerate(alternatives):
        found = list(validator.descend(instance, alternative, schema_path=index))
        if not found:
            break
        errors.extend(found)
    else:
        yield ValidationError(f"{_shown(instance)} is not valid under any of the given schemas", context=errors)
        return
    if any(validator.evolve(schema=other).is_valid(instance) for other in alternatives[index + 1:]):
        yield ValidationError(f"{_shown(instance)} is valid under more than one of the given schemas")


# ------------------------------------------------------------ which alternative was meant
def _meant(err: ValidationError) -> list[ValidationError]:
    """For a value that fits none of a `oneOf`'s alternatives, the errors of the one the writer meant:
    the alternative of the value's kind (a list for a list) that fails deeper than the value itself.
    When no alternative stands out, the `oneOf` error itself (said as "what it may be")."""
    if err.validator not in ("oneOf", "anyOf") or not err.context:
        return [err]
    branches: dict[int, list[ValidationError]] = {}
    for e in err.context:
        branches.setdefault(int(e.relative_schema_path[0]), []).append(e)
    if len(branches) < len(err.validator_value):      # some alternative fits: the value fits several
        return [err]
    here = list(err.absolute_path)
    fitting = {i: errs for i, errs in branches.items() if not _kind_refused(errs, here)}
    scores = {i: _fit(err.validator_value[i], err.instance) for i in fitting}
    best = [i for i in fitting if scores[i] == max(scores.values())]
    if len(best) != 1:
        return [err]
    chosen = fitting[best[0]]
    if not any(_structural(e, here) for e in chosen):
        return [err]                     # a value of the right kind, but not one allowed: say what may stand
    return [m for e in chosen for m in _meant(e)]


def _kind_refused(errors: list[ValidationError], here: list) -> bool:
    """Whether an alternative refuses the value for its kind (a list where a mapping belongs)."""
    for e in errors:
        if list(e.absolute_path) != here:
            continue
        if e.validator == "type":
            return True
        if e.validator in ("oneOf", "anyOf") and e.context:
            inner: dict[int, list[ValidationError]] = {}
            for sub in e.context:
                inner.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
            if len(inner) == len(e.validator_value) and all(_kind_refused(v, here) for v in inner.values()):
                return True
    return False


def _fit(alternative, instance) -> tuple[bool, int]:
    """How well a mapping fits an alternative: it has the alternative's first key; how many of its keys."""
    if not isinstance(alternative, dict) or not isinstance(instance, dict):
        return False, 0
    required = alternative.get("required") or [None]
    known = alternative.get("properties", {})
    named = isinstance(alternative.get("additionalProperties"), dict)   # things by their names: mappings
    return required[0] in instance, sum(k in known or named and isinstance(v, dict) for k, v in instance.items())


def _structural(e: ValidationError, here: list) -> bool:
    return (len(e.absolute_path) > len(here) or "propertyNames" in e.relative_schema_path
            or e.validator in ("required", "additionalProperties", "minItems", "minProperties", "oneOf", "anyOf"))


def _locate(doc: MarkedDict, path: list) -> tuple[Span, object]:
    """The value at `path` and where to point at it: its key, or where a list's item was written."""
    node: object = doc
    span = doc.span
    for part in path:
        # every mapping of a loaded document is a MarkedDict (the loader, merge and imports make no other)
        if isinstance(node, MarkedDict) and part in node:
            span = node.key_spans.get(part, span)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            spans = getattr(node, "item_spans", None)
            span = spans[part] if spans else span_of(node[part], span)
            node = node[part]
        else:
            break
    return span, node


def _value_span(doc: MarkedDict, path: list) -> Span:
    """Where the value at `path` is written: a list's item where it stands in the list (an alias,
    `*name`, where the alias is), any other value where it begins."""
    span, node = _locate(doc, path)
    if path and isinstance(path[-1], int) and getattr(_locate(doc, path[:-1])[1], "item_spans", None):
        return span
    return span_of(node, span)


def _schema_error(doc: MarkedDict, err: ValidationError) -> RuleError:
    path = list(err.absolute_path)
    span, node = _locate(doc, path)
    at = _value_span(doc, path)
    where = ".".join(str(p) for p in path) or "the file"
    description = err.schema.get("description")
    misplaced = _misplaced(doc, path, err)
    if misplaced is not None:
        return misplaced
    if "propertyNames" in err.relative_schema_path:
        owner = err.parent.instance if err.parent else node      # the mapping whose key it is
        key_span = getattr(owner, "key_spans", {}).get(err.instance, at)
        choices = err.validator_value if err.validator == "enum" else None
        # a pattern's own schema says in words what a key must be (`sides:` has none: its keys are player counts)
        hint = (did_you_mean(str(err.instance), map(str, choices)) or "one of " + ", ".join(map(str, choices))
                if choices else description or "a number of players" if err.validator == "pattern" else description)
        return RuleError(f"`{_shown(err.instance, False)}` cannot be a key of `{where}`", key_span, hint,
                         category="schema")
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        patterns = err.schema.get("patternProperties", {})
        extra = [k for k in extra if not any(re.search(p, k) for p in patterns)]
        if extra:
            key = extra[0]
            key_span = err.instance.key_spans.get(key, span) if hasattr(err.instance, "key_spans") else span
            place = f" in `{where}`" if path else ""
            dedented = _dedented_action(path, err.instance, key)
            if dedented is not None:
                return RuleError(dedented[0], key_span, dedented[1], category="schema")
            return RuleError(f"unknown key `{_shown(key, False)}`{place}", key_span,
                             did_you_mean(key, allowed) or _home(key), category="schema")
    if err.validator == "required":
        # one error for each missing key, named in its message: "'deck' is a required property"
        key = err.message.split("'")[1] if err.message.count("'") >= 2 else err.message
        owner = "the file" if not path else f"`{where}`"
        return RuleError(f"{owner} needs `{key}:`", span, _NEEDED.get(key), category="schema")
    if err.validator == "enum":
        choices = ", ".join(map(str, err.validator_value))
        hint = did_you_mean(str(err.instance), map(str, err.validator_value)) or f"one of {choices}"
        return RuleError(f"`{where}` cannot be {_shown(err.instance)}", at, hint, category="schema")
    if err.validator == "type":
        kinds = [err.validator_value] if isinstance(err.validator_value, str) else err.validator_value
        expected = _either([_a(k) for k in kinds])
        return RuleError(f"`{where}` must be {expected}, not {_kind(err.instance)}", at, description,
                         category="schema")
    if err.validator in ("oneOf", "anyOf"):
        if _is_effect(err.schema):
            return _effect_error(doc, path, node, at)
        # not the schema's own words ("is not valid under any of the given schemas"): what would do
        kinds = _kinds_of(err.validator_value)
        what_would_do = description or (f"it may be {kinds}" if kinds else None)
        return RuleError(f"`{where}` cannot be {_shown(err.instance)}", at, what_would_do, category="schema")
    if err.validator in ("minItems", "minProperties"):
        return RuleError(f"`{where}` cannot be empty", at, description or _NEEDED.get(str(path[-1]) if path else ""),
                         category="schema")
    if err.validator == "minimum":
        return RuleError(f"`{where}` is at least {err.validator_value}, not {_shown(err.instance)}", at,
                         description, category="schema")
    if err.validator == "pattern":
        hint = ("lower-case letters, digits, `-` and `_`, beginning with a letter, as in `my-game`"
                if err.validator_value == _NAMES else description)
        return RuleError(f"`{where}` cannot be {_shown(err.instance)}", at, hint, category="schema")
    # a check this module has no words for: jsonschema's, with no value in it
    return RuleError(f"`{where}` is not allowed here ({err.validator})", at, description, category="schema")


# ------------------------------------------------------------ keys at the wrong level
def _misplaced(doc: MarkedDict, path: list, err: ValidationError) -> RuleError | None:
    """A key of a phase written at the level of the phase names (or an action's key at the level of
    the action names …): YAML reads it as a phase of its own, whose value is then all wrong."""
    if len(path) < 2 or not isinstance(path[-1], str):
        return None
    *outer, key = path
    kind = _named_kind(outer)
    if kind is None:
        return None
    word, item, owner = kind
    container = _locate(doc, outer)[1]
    if not isinstance(container, MarkedDict) or key not in container:
        return None
    value = container[key]
    if isinstance(value, dict) and key not in ("actions", "steps"):
        return None                  # a mapping there is one of the named things; its own errors say what is wrong
    if err.validator not in ("type", "oneOf", "anyOf", "required", "additionalProperties"):
        return None
    a = "an" if word[0] in "aeiou" else "a"
    message = f"`{key}:` is indented like {a} {word} name, so it reads as {a} {word} of its own"
    names = list(container)
    before = names[:names.index(key)]
    if key in item.get("properties", {}):
        if before:
            line = container.key_spans[before[-1]].line
            hint = f"`{key}:` belongs to {word} `{before[-1]}`, on line {line}: indent it under that name"
        else:
            hint = f"`{key}:` belongs inside {a} {word}: indent it under the {word}'s name"
    elif owner is not None and key in owner[1].get("properties", {}):
        owner_word, _, owner_name = owner
        line = _locate(doc, outer)[0].line
        hint = f"`{key}:` belongs to {owner_word} `{owner_name}`: line it up with `{outer[-1]}:`, on line {line}"
    else:
        return None
    return RuleError(message, container.key_spans[key], hint, category="schema")


def _dedented_action(path: list, phase: dict, key: str) -> tuple[str, str] | None:
    """An action written at the level of its phase's keys (dedented out of `actions:`): YAML reads it
    as a key of the phase. Told as a key indented at the wrong level is (`after turn:` under
    `actions:`), with where it belongs. None if the key's value does not look like an action."""
    if len(path) != 2 or path[0] != "phases":
        return None
    value = phase.get(key)
    action_keys = schema()["$defs"]["action"]["properties"]
    if not isinstance(value, dict) or not value or any(k not in action_keys for k in value):
        return None
    message = f"`{key}:` is indented like a key of phase `{path[1]}`, so it reads as one, and a phase has no `{key}:`"
    spans = getattr(phase, "key_spans", {})
    if "actions" in phase and "actions" in spans:
        hint = (f"`{key}:` looks like an action: indent it under `actions:`, on line {spans['actions'].line}, "
                "lined up with the other actions")
    else:
        hint = f"`{key}:` looks like an action: put it under the phase's `actions:`, indented under it"
    return message, hint


def _named_kind(outer: list) -> tuple[str, dict, tuple[str, dict, str] | None] | None:
    """What a mapping of named things at `outer` holds: (its word, the schema of one, the owner of the
    mapping if it is itself a named thing's key: (word, schema, name))."""
    s = schema()
    defs = s["$defs"]
    if len(outer) == 3 and outer[0] == "phases" and outer[2] == "actions":
        return "action", defs["action"], ("phase", defs["phase"], str(outer[1]))
    if len(outer) != 1:
        return None
    if outer[0] == "phases":
        return "phase", defs["phase"], None
    item = s["properties"].get(outer[0], {}).get("additionalProperties")
    if outer[0] in ("zones", "events", "melds", "patterns", "combos") and isinstance(item, dict):
        return outer[0][:-1], item, None
    return None


@lru_cache(maxsize=1)
def _homes() -> dict[str, str]:
    """Where a key belongs, for keys that belong in one place only."""
    s = schema()
    defs = s["$defs"]
    places = {"the top of the file, not indented": s["properties"],
              "a phase, lined up with its `actions:`": defs["phase"]["properties"],
              "an action, indented under the action's name": defs["action"]["properties"],
              "an effect": {k: 1 for alt in defs["effect"]["oneOf"] for k in alt.get("properties", {})},
              "an event": s["properties"]["events"]["additionalProperties"]["properties"]}
    homes: dict[str, list[str]] = {}
    for place, keys in places.items():
        for key in keys:
            homes.setdefault(key, []).append(place)
    return {key: found[0] for key, found in homes.items() if len(found) == 1}


def _home(key: str) -> str | None:
    place = _homes().get(key)
    return f"`{key}:` belongs to {place}: check its indentation" if place else None


# ------------------------------------------------------------ effects
def _is_effect(alternatives) -> bool:
    """Whether a schema is that of one effect, or of effects (one, or a list) given something else."""
    defs = schema()["$defs"]
    return alternatives == defs["effect"] or alternatives == defs["effects"]


def _effect_error(doc: MarkedDict, path: list, node, at: Span) -> RuleError:
    if isinstance(node, list):
        parent = _locate(doc, path[:-1])[1] if path and isinstance(path[-1], int) else None
        anchor = getattr(parent, "aliases", {}).get(path[-1]) if parent is not None else None
        if anchor is not None:
            written = span_of(node, at)
            hint = (f"`*{anchor}` stands for the list written at line {written.line}; an effect list takes in "
                    "the effects of an alias written as one of its items (`- *name`), not one inside a list")
        else:
            hint = ("take away the inner brackets or dashes, so that each effect is one item; to use effects "
                    "written elsewhere, write their alias as an item (`- *name`), or name them under `procedures:`")
        return RuleError("effects must be a flat list, not a list inside a list", at, hint, category="schema")
    if node is None:
        return RuleError("an effect cannot be empty", at, "write the effect, or take the empty item away",
                         category="schema")
    return RuleError("an effect is a text such as `move c to pile`, or a mapping with `if:`/`then:`/`else:`, "
                     "`for:`/`do:`, `repeat:`/`do:` or `while:`/`do:` (with `limit:`)", at, category="schema")


def _shown(value, quoted: bool = True) -> str:
    """A value as a message quotes it: short, on one line; a list or mapping by its kind."""
    if isinstance(value, (dict, list)) or value is None:
        return _kind(value)
    text = str(value).replace("\n", " ")
    if len(text) > MAX_SHOWN:
        text = text[:MAX_SHOWN - 1] + "…"
    return repr(text) if quoted and isinstance(value, str) else text


def _either(words: list[str]) -> str:
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else ""


def _kinds_of(choices: list) -> str:
    """`a whole number, a string or a mapping`: what the alternatives of a schema accept."""
    kinds: list[str] = []
    for choice in _alternatives(choices):
        t = choice.get("type") if isinstance(choice, dict) else None
        for k in ([t] if isinstance(t, str) else t or []):
            pattern = str(choice.get("pattern", ""))
            word = "a text such as `2..6`" if k == "string" and "\\.\\." in pattern else _a(k)
            if word not in kinds:
                kinds.append(word)
    return ", ".join(kinds[:-1]) + (" or " if len(kinds) > 1 else "") + kinds[-1] if kinds else ""


def _alternatives(choices: list) -> list:
    """The alternatives of a `oneOf`, with those it refers to (`$ref`) or nests read in place."""
    result = []
    for choice in choices:
        ref = choice.get("$ref", "") if isinstance(choice, dict) else ""
        if ref.startswith("#/$defs/"):
            choice = schema()["$defs"].get(ref[len("#/$defs/"):], {})
        if isinstance(choice, dict) and "oneOf" in choice and "type" not in choice:
            result += _alternatives(choice["oneOf"])
        else:
            result.append(choice)
    return result


def _a(kind: str) -> str:
    words = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
             "boolean": "true or false", "number": "a number", "null": "empty"}
    return words.get(kind, kind)


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "empty" if value is None else type(value).__name__
