"""A rule file's `combos:` kinds: the combinations a move may put down from a hand, made of cards of equal
value (Dou Dizhu's pairs, chains, airplanes with wings).

A combination is groups of `same` cards of one value, the groups' values consecutive (`run:` how many), and
for each group a wing of `wings` cards of one value outside the groups. Cards of one value are one group's
cards whichever they are, so a combination is its values and how many cards of each: what the deck allows
of these is fixed before play, and each is one move (interpreter/melds/combos.py numbers them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from koloda.dsl.errors import RuleError, Span
from koloda.dsl.loader import MarkedDict, span_of

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class ComboKind:
    name: str
    same: int = 1                    # cards of one value in each group
    run_min: int = 1                 # how many groups, of consecutive values
    run_max: int = 1
    low: int | None = None           # the values the groups may have (None: any)
    high: int | None = None
    wings: int = 0                   # cards of the wing each group brings (0: no wings)
    wing_most: int = 0               # the most wing cards of one value
    help: object = None
    span: Span | None = None


def read_combos(doc: MarkedDict, errors: list[RuleError]) -> list[ComboKind]:
    """The `combos:` kinds in the order written (the structure was checked by the schema)."""
    section = doc.get("combos") or {}
    spans = getattr(section, "key_spans", {})
    kinds = []
    for name, raw in section.items():
        at = spans.get(name, doc.span)
        raw = raw or {}
        same = int(raw.get("same", 1))
        run_min, run_max = _range(name, "run", raw.get("run", 1), at, errors, lowest=1)
        low, high = _range(name, "values", raw["values"], at, errors) if "values" in raw else (None, None)
        wings = int(raw.get("wings", 0))
        most = raw.get("most of a value")
        if most is not None and not wings:
            errors.append(RuleError(f"combination `{name}`: `most of a value` says how many wing cards may share "
                                    "a value, but it has no `wings:`", span_of(most, at),
                                    "give it `wings: 1`, or leave `most of a value` out", category="type"))
        wing_most = int(most) if most is not None else wings
        if wings and wing_most < wings:
            errors.append(RuleError(f"combination `{name}`: `most of a value` {wing_most} is less than a wing "
                                    f"({wings} cards of one value)", span_of(most, at),
                                    f"write {wings} or more", category="type"))
        kinds.append(ComboKind(name, same, run_min, run_max, low, high, wings, max(wing_most, wings),
                               raw.get("help"), at))
    return kinds


def _range(name: str, key: str, raw: object, at: Span, errors: list[RuleError],
           lowest: int | None = None) -> tuple[int, int]:
    """`run: 5..12`, `run: 3` or `values: 3..14`: its least and greatest."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw, raw
    found = _RANGE.match(str(raw))
    if found is None:
        errors.append(RuleError(f"combination `{name}`: `{key}` is a range such as `3..14`, not `{raw}`",
                                span_of(raw, at), category="type"))
        return 1, 1
    low, high = int(found.group(1)), int(found.group(2))
    if high < low or (lowest is not None and low < lowest):
        errors.append(RuleError(f"combination `{name}`: `{key}: {raw}` holds no "
                                f"{'length' if key == 'run' else 'value'}", span_of(raw, at),
                                f"write the least first, as in `{high}..{low}`" if high < low
                                else "a run is 1 group or more", category="type"))
        return 1, 1
    return low, high
