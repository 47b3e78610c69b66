"""Table options (`options:`): each one's kind, default and choices, checked."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koloda.dsl.errors import RuleError, Span
from koloda.dsl.marked import MarkedDict, span_of

OPTION_TYPES = ("int", "bool", "choice")
KIND_WORDS = {"int": "a whole number", "bool": "true or false", "choice": "a word"}


@dataclass
class OptionSpec:
    name: str
    type: str
    default: object
    choices: list | None
    help: str
    span: Span
    low: int | None = None
    high: int | None = None


def option_spec(name: str, raw, span: Span, errors: list) -> OptionSpec:
    if not isinstance(raw, MarkedDict):
        raw_default = raw
        raw = {"default": raw_default}
        where = span_of(raw_default, span)
    else:
        where = raw.span
    default = raw.get("default")
    choices = list(raw["choices"]) if raw.get("choices") is not None else None
    # A variant that changes a default keeps the option's kind: the base's rules read it as that kind.
    base_default = getattr(raw, "replaced", {}).get("default")
    kind = raw.get("type") or kind_of(default if base_default is None else base_default)
    inherited = raw.get("type") is None and base_default is not None and kind_of(default) != kind
    base_file = Path((getattr(raw, "base_span", None) or span_of(base_default, where)).file).stem
    hint = f"`{name}` is {KIND_WORDS[kind]} in {base_file}, the game this file extends" if inherited else None
    if kind == "choice" and choices is None and default is not None:
        choices = [default]
    if kind == "choice":
        default = None if default is None else str(default)
        choices = [str(c) for c in choices] if choices else []
    if default is None:
        errors.append(RuleError(f"option `{name}` needs a `default:`", where, category="schema"))
    elif choices is not None and default not in choices:
        errors.append(RuleError(f"option `{name}`: default {default!r} is not one of its choices",
                                span_of(raw.get("default"), where),
                                hint or "one of " + ", ".join(map(str, choices)), category="schema"))
    elif (kind == "int" and (not isinstance(default, int) or isinstance(default, bool))
          or kind == "bool" and not isinstance(default, bool)):
        errors.append(RuleError(f"option `{name}` is {kind}, but its default is {default!r}",
                                span_of(raw.get("default"), where), hint, category="type"))
    elif kind == "int" and (raw.get("min") is not None and default < raw["min"]
                            or raw.get("max") is not None and default > raw["max"]):
        low, high = raw.get("min"), raw.get("max")
        bounds = (f"from {low} to {high}" if low is not None and high is not None
                  else f"at least {low}" if low is not None else f"at most {high}")
        errors.append(RuleError(f"option `{name}`: default {default} is outside "
                                f"{raw.get('min', '')}..{raw.get('max', '')}",
                                span_of(raw.get("default"), where), f"`{name}` is {bounds}", category="schema"))
    return OptionSpec(name, kind, default, choices, str(raw.get("help", "")), where,
                      raw.get("min"), raw.get("max"))


def kind_of(default: Any) -> str:
    """An option's kind, as its default shows it."""
    if isinstance(default, bool):
        return "bool"
    return "int" if isinstance(default, int) else "choice"
