"""The result as a file writes it: `match:` (when the match ends, each player's score, who wins) and
`house:` (the party a game against the house is played against: a casino's dealer, a bank)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from koloda.dsl import ast
from koloda.dsl.errors import RuleError, Span
from koloda.dsl.labels import Label, read_label

Parse = Callable[[object, Span], "ast.Node | None"]


@dataclass
class MatchSpec:
    ends: ast.Node | None
    score: ast.Node | None
    winner: str
    first_dealer: ast.Node | None   # None: chosen by lot
    rotate: bool
    span: Span
    next_dealer: ast.Node | None = None   # `next dealer:`; None: as `dealer rotates` says
    house_score: ast.Node | None = None   # `house score:`: what each player's score is judged against
    won: ast.Node | None = None   # `won:`, a goal for each player `p`; None: the best score wins


@dataclass
class HouseSpec:
    """The house has no seat, no moves and no score of its own but `match: house score:`: the rules
    play its part (its cards lie in shared zones, its memory is in variables), and each player's
    result is judged against it alone."""
    label: Label | None
    span: Span


def read_match(doc, expr: Parse) -> MatchSpec:
    raw = doc.get("match") or {}
    ks = getattr(raw, "key_spans", {})
    span = doc.key_spans.get("match", doc.span)

    def given(key: str) -> ast.Node | None:
        return expr(raw.get(key), ks.get(key, span)) if key in raw else None

    first_dealer = raw.get("first dealer", "random")
    return MatchSpec(
        ends=given("ends"), score=given("score"), winner=str(raw.get("winner", "highest")),
        first_dealer=None if first_dealer == "random" else given("first dealer"),
        rotate=bool(raw.get("dealer rotates", True)), span=span,
        next_dealer=given("next dealer"), house_score=given("house score"), won=given("won"))


def read_house(doc, errors: list[RuleError]) -> HouseSpec | None:
    if "house" not in doc:
        return None
    span = doc.key_spans["house"]
    return HouseSpec(read_label((doc["house"] or {}).get("label"), span, "the house", errors), span)
