"""A rule file's `melds:` kinds: sets of a rank and runs in a suit, their sizes a number or a table option."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.loader import MarkedDict, span_of
from koloda.dsl.options import OptionSpec

class _Zone(Protocol):
    """What the meld kinds ask of a zone: is it a meld area (model's ZoneSpec, which imports this module)."""
    name: str
    melds: bool
    span: Span


@dataclass(frozen=True)
class MeldKind:
    name: str
    of: str                  # "rank": a set; "suit": a run
    min: int
    max: int | None
    suits: str               # sets: "distinct" or "any"
    ace: str                 # runs: "high", "low", "both" or "wrap"
    wild_max: int | None     # most wild cards in one meld; None: fewer wild than natural cards
    repeat_from: int | None = None   # sets with distinct suits: from this size on, suits may repeat
    whole: bool = False      # whole sets, maximal runs: no meld that another card held could join
    # `min: option.NAME` / `max: option.NAME`: the option that sets it at each table; until bound, `min` is
    # the least and `max` the most the option allows (None: no limit), so that tables' layouts fit any value
    min_option: str | None = None
    max_option: str | None = None
    # what the table calls a meld of this kind from a size on (`named: {7: canasta}`), largest first
    named: tuple[tuple[int, str], ...] = ()
    # `layoffs past max: true`: `max` bounds only the melds put down; layoffs may lengthen one past it
    layoffs_past_max: bool = False

    def bound(self, options: dict[str, object]) -> "MeldKind":
        """The kind at a table: `min` and `max` read from their options."""
        if self.min_option is None and self.max_option is None:
            return self
        low = options.get(self.min_option, self.min) if self.min_option else self.min
        high = options.get(self.max_option, self.max) if self.max_option else self.max
        kind = replace(self, min=int(low), max=None if high is None else int(high))  # type: ignore[call-overload]
        if kind.max is not None and kind.max < kind.min:
            raise RuleError(f"meld `{self.name}`: with these options `max` {kind.max} is below `min` {kind.min}",
                            hint="choose option values that leave `max` at least `min`", category="runtime")
        return kind


def _meld_size(name: str, key: str, raw: object, options: dict[str, OptionSpec], at: Span,
               errors: list[RuleError]) -> tuple[int | None, str | None]:
    """A meld kind's `min` or `max`: a number, or `option.NAME` for a whole-number option; with an option,
    the least (`min`) or the most (`max`, None: no limit) the option allows, and the option's name."""
    if raw is None:
        return None, None
    if isinstance(raw, str) and raw.startswith("option."):
        option = raw[len("option."):]
        spec = options.get(option)
        if spec is None:
            errors.append(RuleError(f"meld `{name}`: unknown option `{option}` for `{key}`", span_of(raw, at),
                                    did_you_mean(option, options), category="name"))
            return None, None
        if spec.type != "int":
            errors.append(RuleError(f"meld `{name}`: `{key}` needs a whole-number option, and `{option}` is not",
                                    span_of(raw, at), "declare it as `{default: 5, min: 3}`", category="type"))
            return None, None
        if key == "min":
            return max(spec.low if spec.low is not None else 1, 1), option
        return spec.high, option
    if isinstance(raw, bool) or not isinstance(raw, int):
        errors.append(RuleError(f"meld `{name}`: `{key}` is a whole number or `option.NAME`, not `{raw}`",
                                span_of(raw, at), category="type"))
        return None, None
    return raw, None


def read_melds(doc: MarkedDict, zones: Mapping[str, _Zone], options: dict[str, OptionSpec],
           errors: list[RuleError]) -> list[MeldKind]:
    kinds = []
    for name, raw in (doc.get("melds") or {}).items():
        at = getattr(doc.get("melds"), "key_spans", {}).get(name, doc.span)
        low, min_option = _meld_size(name, "min", raw.get("min", 3), options, at, errors)
        high, max_option = _meld_size(name, "max", raw.get("max"), options, at, errors)
        kind = MeldKind(name, raw["of"], low if low is not None else 3, high,
                        str(raw.get("suits", "distinct")), str(raw.get("ace", "high")),
                        int(raw["wild max"]) if raw.get("wild max") is not None else None,
                        int(raw["repeat suits from"]) if raw.get("repeat suits from") is not None else None,
                        raw.get("whole") is True, min_option, max_option,
                        tuple(sorted(((int(k), str(v)) for k, v in (raw.get("named") or {}).items()), reverse=True)),
                        raw.get("layoffs past max") is True)
        if kind.max is not None and kind.max < kind.min and not (min_option or max_option):
            errors.append(RuleError(f"meld `{name}`: `max` {kind.max} is below `min` {kind.min}", doc.span))
        if kind.repeat_from is not None and (kind.of != "rank" or kind.suits != "distinct"):
            where = getattr(doc.get("melds"), "key_spans", {}).get(name, doc.span)
            errors.append(RuleError(f"meld `{name}`: `repeat suits from` is for sets with `suits: distinct`", where))
        if kind.layoffs_past_max and kind.max is None:
            errors.append(RuleError(f"meld `{name}`: `layoffs past max` needs a `max:`", at))
        kinds.append(kind)
    areas = [z for z in zones.values() if z.melds]
    if areas and not kinds:
        errors.append(RuleError(f"`{areas[0].name}` holds melds, but the file declares no `melds:` kinds",
                                areas[0].span))
    return kinds
