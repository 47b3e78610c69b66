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
    # `search:`, the values a design search (koloda tune) tries: a range low..high of a whole
    # number, or some of the option's values; None: what `choices:`/`min:`/`max:` allow
    search: tuple[int, int] | list | None = None


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
    spec = OptionSpec(name, kind, default, choices, str(raw.get("help", "")), where, raw.get("min"), raw.get("max"))
    if raw.get("search") is not None and default is not None:
        spec.search = _search(spec, raw["search"], span_of(raw["search"], where), errors)
    return spec


def _search(opt: OptionSpec, raw: object, where: Span, errors: list) -> tuple[int, int] | list | None:
    """`search: 30..150` (a whole number's range) or `search: [5, 7]` (some of its values), each
    value one the option takes: what `koloda tune` searches when --space does not say."""
    def refuse(message: str, hint: str | None = None) -> None:
        errors.append(RuleError(f"option `{opt.name}`: `search:` {message}", where, hint, category="schema"))

    if isinstance(raw, str) and ".." in raw:
        if opt.type != "int" or opt.choices is not None:
            refuse("a range is for a whole-number option" + (" without `choices:`" if opt.type == "int" else ""),
                   "list the values to search: `search: [a, b]`")
            return None
        try:
            low, high = (int(part) for part in raw.split("..", 1))
        except ValueError:
            refuse(f"{raw!r} is not a range of whole numbers", "write it as LO..HI, as in `search: 30..150`")
            return None
        if low > high:
            refuse(f"{raw}: the low end is above the high end")
            return None
        bad = [v for v in (low, high) if not _takes(opt, v)]
        if bad:
            refuse(f"{raw} reaches {bad[0]}, a value the option does not take", _allowed(opt))
            return None
        return low, high
    values: list[object] = list(raw) if isinstance(raw, list) else [raw]
    if opt.type == "choice":
        values = [str(v) for v in values]
    wrong = [v for v in values if not _takes(opt, v)]
    if not values or wrong:
        refuse(f"{wrong[0]!r} is not a value of the option" if wrong else "lists no value", _allowed(opt))
        return None
    return list(dict.fromkeys(values))


def _takes(opt: OptionSpec, value: object) -> bool:
    if opt.type == "bool":
        return isinstance(value, bool)
    if opt.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
        return False
    if opt.choices is not None:
        return value in opt.choices
    return ((opt.low is None or value >= opt.low) and (opt.high is None or value <= opt.high)  # type: ignore[operator]
            if opt.type == "int" else True)


def _allowed(opt: OptionSpec) -> str:
    if opt.type == "bool":
        return "true or false"
    if opt.choices is not None:
        return "one of " + ", ".join(map(str, opt.choices))
    if opt.low is not None and opt.high is not None:
        return f"from {opt.low} to {opt.high}"
    return f"at least {opt.low}" if opt.low is not None else f"at most {opt.high}" if opt.high is not None \
        else "a whole number"


def kind_of(default: Any) -> str:
    """An option's kind, as its default shows it."""
    if isinstance(default, bool):
        return "bool"
    return "int" if isinstance(default, int) else "choice"
