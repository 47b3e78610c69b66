"""The rule file as a model: YAML structure in, parsed AST pieces out.

This is the one place that walks the YAML document. It parses every
expression and effect string with the grammar and collects every syntax
error instead of stopping at the first.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from koloda.dsl import ast
from koloda.dsl.errors import RuleError, Span
from koloda.dsl.loader import span_of
from koloda.dsl.to_ast import parse

OPTION_TYPES = ("int", "bool", "choice")
VAR_TYPES = ("int", "bool", "card", "rank", "suit", "player", "color", "side")


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


@dataclass
class ZoneSpec:
    name: str
    each_player: bool          # one per player, or per side (then per_side is set)
    visible: str
    span: Span
    per_side: bool = False
    melds: bool = False        # a meld area: it holds the melds its owner makes
    grid: list[list[int | None]] | None = None    # rank code of each cell, top row first
    lines: tuple[str, ...] = ("rows", "columns", "diagonals")


@dataclass
class VarSpec:
    name: str
    type: str | None
    start: ast.Node | None
    each_player: bool          # one per player, or per side (then per_side is set)
    visible: str
    span: Span
    per_side: bool = False


@dataclass(frozen=True)
class MeldKind:
    name: str
    of: str                  # "rank": a set; "suit": a run
    min: int
    max: int | None
    suits: str               # sets: "distinct" or "any"
    ace: str                 # runs: "high", "low", "both" or "wrap"
    wild_max: int | None     # most wild cards in one meld; None: fewer wild than natural cards


@dataclass(frozen=True)
class Pattern:
    """A ranked hand pattern: groups of one rank, cards of one suit, consecutive ranks."""
    name: str
    groups: tuple[int, ...] = ()
    same_suit: int = 0
    run: int = 0


@dataclass
class FunctionSpec:
    signature: ast.Signature
    body: ast.Node


@dataclass
class ActionSpec:
    name: str
    params: tuple[ast.Binding, ...]
    guard: ast.Node | None
    effects: tuple[ast.Node, ...]
    text: str | None
    span: Span
    help: str = ""


@dataclass
class PhaseSpec:
    name: str
    first: ast.Node | None
    once: bool
    ends: ast.Node | None
    start: tuple[ast.Node, ...]
    after_turn: tuple[ast.Node, ...]
    actions: dict[str, ActionSpec]
    steps: dict[str, list[tuple[str, Span]]]
    span: Span
    help: str = ""


@dataclass
class EventSpec:
    name: str
    when: ast.Node
    effects: tuple[ast.Node, ...]
    span: Span


@dataclass
class DeckSpec:
    base: object          # a deck name, or an expression over options
    copies: object
    jokers: object
    span: Span
    per_player: bool = False   # every player has a deck of their own


@dataclass
class MatchSpec:
    ends: ast.Node | None
    score: ast.Node | None
    winner: str
    first_dealer: ast.Node | None   # None: chosen by lot
    rotate: bool
    span: Span


@dataclass
class Spec:
    name: str
    title: str
    source: str
    notes: str
    min_players: int
    max_players: int
    default_players: int
    deck: DeckSpec
    ace: str
    values: dict[str, int]
    options: dict[str, OptionSpec]
    zones: dict[str, ZoneSpec]
    vars: dict[str, VarSpec]
    functions: dict[str, FunctionSpec]
    setup: tuple[ast.Node, ...]
    deal: tuple[ast.Node, ...]
    events: list[EventSpec]
    phases: list[PhaseSpec]
    deal_ends: ast.Node | None
    scoring: tuple[ast.Node, ...]
    match: MatchSpec
    span: Span
    file: str
    players_span: Span | None = None
    sides: int | None = None
    show: dict[str, ast.Node] = field(default_factory=dict)
    heuristic: ast.Node | None = None
    meld_kinds: list[MeldKind] = field(default_factory=list)     # in the order written
    patterns: list[Pattern] = field(default_factory=list)        # highest first
    library: bool = False
    wild: ast.Node | None = None
    errors: list[RuleError] = field(default_factory=list)
    fingerprint: str = ""


class _Builder:
    def __init__(self, doc):
        self.doc = doc
        self.errors: list[RuleError] = []

    def parse(self, text, start: str, where: Span) -> ast.Node | None:
        if isinstance(text, bool):
            text = "true" if text else "false"
        if isinstance(text, int):
            text = str(text)
        if not isinstance(text, str):
            self.errors.append(RuleError("expected text here", span_of(text, where), category="schema"))
            return None
        try:
            return parse(text, start, span_of(text, where))
        except RuleError as exc:
            self.errors.append(exc)
            return None

    def expr(self, text, where: Span) -> ast.Node | None:
        if text is None:
            return None
        return self.parse(text, "expr_start", where)

    def effects(self, items, where: Span) -> tuple[ast.Node, ...]:
        if items is None:
            return ()
        if not isinstance(items, list):
            items = [items]
        result = []
        for item in items:
            node = self.effect(item, span_of(items, where))
            if node is not None:
                result.append(node)
        return tuple(result)

    def effect(self, item, where: Span) -> ast.Node | None:
        if isinstance(item, dict):
            span = item.span
            if "if" in item:
                cond = self.expr(item["if"], item.key_spans["if"])
                then = self.effects(item.get("then"), span)
                orelse = self.effects(item.get("else"), span)
                return ast.If(span, cond, then, orelse) if cond is not None else None
            if "for" in item:
                binding = self.parse(item["for"], "binding_start", item.key_spans["for"])
                body = self.effects(item.get("do"), span)
                if binding is None:
                    return None
                return ast.For(span, binding.var, binding.domain, body)
            self.errors.append(RuleError("an effect is a text such as `move c to pile`, "
                                         "or a mapping with `if:`/`then:`/`else:` or `for:`/`do:`", span,
                                         category="schema"))
            return None
        return self.parse(item, "effect_start", where)


_RANK_CODES = {"A": 14, "K": 13, "Q": 12, "J": 11, **{str(k): k for k in range(2, 11)}}


def _cell_rank(cell, where: Span, errors: list) -> int | None:
    """A grid cell's rank: `7`, `A`, or null/`-` for a cell that belongs to no rank."""
    if cell is None or cell == "-":
        return None
    code = _RANK_CODES.get(str(cell).upper())
    if code is None:
        errors.append(RuleError(f"a grid cell is a rank (A, 2..10, J, Q, K) or `-`, not `{cell}`",
                                span_of(cell, where), category="schema"))
    return code


def _players(value, span: Span, errors: list) -> tuple[int, int, int]:
    if isinstance(value, int):
        return value, value, value
    if isinstance(value, dict):
        low, high = value.get("min", 2), value.get("max", value.get("min", 2))
        return low, high, value.get("default", low)
    text = str(value)
    try:
        if ".." in text:
            a, b = text.split("..")
            low, high = int(a), int(b)
        else:
            low = high = int(text)
    except ValueError:
        errors.append(RuleError(f"`players` must be a number or a range such as `2..6`, not `{text}`",
                                span_of(value, span), category="schema"))
        return 2, 2, 2
    return low, high, low


def _option(name: str, raw, span: Span, errors: list) -> OptionSpec:
    if not isinstance(raw, dict):
        raw_default = raw
        raw = {"default": raw_default}
        where = span_of(raw_default, span)
    else:
        where = raw.span
    default = raw.get("default")
    choices = list(raw["choices"]) if raw.get("choices") is not None else None
    kind = raw.get("type")
    if kind is None:
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        else:
            kind = "choice"
    if kind == "choice" and choices is None and default is not None:
        choices = [default]
    if kind == "choice":
        default = None if default is None else str(default)
        choices = [str(c) for c in choices] if choices else []
    if default is None:
        errors.append(RuleError(f"option `{name}` needs a `default:`", where, category="schema"))
    elif choices is not None and default not in choices:
        errors.append(RuleError(f"option `{name}`: default {default!r} is not one of its choices",
                                span_of(raw.get("default"), where), category="schema"))
    elif (kind == "int" and (not isinstance(default, int) or isinstance(default, bool))
          or kind == "bool" and not isinstance(default, bool)):
        errors.append(RuleError(f"option `{name}` is {kind}, but its default is {default!r}",
                                span_of(raw.get("default"), where), category="type"))
    elif kind == "int" and (raw.get("min") is not None and default < raw["min"]
                            or raw.get("max") is not None and default > raw["max"]):
        errors.append(RuleError(f"option `{name}`: default {default} is outside "
                                f"{raw.get('min', '')}..{raw.get('max', '')}",
                                span_of(raw.get("default"), where), category="schema"))
    return OptionSpec(name, kind, default, choices, str(raw.get("help", "")), where,
                      raw.get("min"), raw.get("max"))


def build(doc) -> Spec:
    """Turn a schema-valid document into a Spec; syntax errors go to spec.errors."""
    b = _Builder(doc)
    top = doc.span
    keys = doc.key_spans
    errors = b.errors

    low, high, default = _players(doc.get("players", "2"), keys.get("players", top), errors)

    raw_deck = doc.get("deck", "standard52")
    if isinstance(raw_deck, dict):
        deck = DeckSpec(raw_deck.get("base", "standard52"), raw_deck.get("copies", 1),
                        raw_deck.get("jokers", 0), raw_deck.span, raw_deck.get("each") == "player")
    else:
        deck = DeckSpec(raw_deck, 1, 0, span_of(raw_deck, keys.get("deck", top)))

    options = {name: _option(name, raw, doc["options"].key_spans[name], errors)
               for name, raw in (doc.get("options") or {}).items()}

    zones = {}
    for name, raw in (doc.get("zones") or {}).items():
        raw = raw or {}
        each = raw.get("each") in ("player", "side")
        visible = raw.get("visible", "owner" if each else "all")
        span = doc["zones"].key_spans[name]
        zone = ZoneSpec(name, each, visible, span, per_side=raw.get("each") == "side", melds=bool(raw.get("melds")))
        if raw.get("grid") is not None:
            zone.grid = [[_cell_rank(cell, span_of(raw["grid"], span), errors) for cell in row] for row in raw["grid"]]
            if len({len(row) for row in zone.grid}) != 1:
                errors.append(RuleError(f"grid `{name}`: every row needs the same number of cells",
                                        span_of(raw["grid"], span), category="schema"))
            if raw.get("lines") is not None:
                zone.lines = tuple(raw["lines"])
        elif raw.get("lines") is not None:
            errors.append(RuleError(f"`lines` belong to a grid, and `{name}` has no `grid:`", span, category="schema"))
        zones[name] = zone

    variables = {}
    for name, raw in (doc.get("vars") or {}).items():
        span = doc["vars"].key_spans[name]
        if not isinstance(raw, dict):
            raw = {"start": raw}
        start = raw.get("start")
        start_node = None if start is None else b.expr(start, span_of(start, span))
        each = raw.get("each") in ("player", "side")
        variables[name] = VarSpec(name, raw.get("type"), start_node, each,
                                  raw.get("visible", "all"), span, per_side=raw.get("each") == "side")

    functions = {}
    for head, body in (doc.get("define") or {}).items():
        span = doc["define"].key_spans[head]
        signature = b.parse(head, "signature_start", span)
        body_node = b.expr(body, span_of(body, span))
        if signature is not None and body_node is not None:
            functions[signature.name] = FunctionSpec(signature, body_node)

    events = []
    for name, raw in (doc.get("events") or {}).items():
        span = doc["events"].key_spans[name]
        when = b.expr(raw.get("when"), raw.key_spans.get("when", span))
        if when is not None:
            events.append(EventSpec(name, when, b.effects(raw.get("do"), raw.span), span))

    phases = []
    for name, raw in (doc.get("phases") or {}).items():
        span = doc["phases"].key_spans[name]
        ks = raw.key_spans
        actions = {}
        for aname, araw in (raw.get("actions") or {}).items():
            aspan = raw["actions"].key_spans[aname]
            if not araw:
                from koloda.dsl.loader import MarkedDict
                araw = MarkedDict()
                araw.span, araw.key_spans = aspan, {}
            with_ = araw.get("with")
            if with_ is None:
                with_ = []
            elif not isinstance(with_, list):
                with_ = [with_]
            params = tuple(p for p in (b.parse(w, "binding_start", span_of(w, aspan)) for w in with_)
                           if p is not None)
            guard = b.expr(araw.get("if"), araw.key_spans.get("if", aspan)) if "if" in araw else None
            effects = b.effects(araw.get("do"), araw.key_spans.get("do", aspan))
            actions[aname] = ActionSpec(aname, params, guard, effects, araw.get("text"), aspan,
                                        str(araw.get("help", "")))
        steps: dict[str, list[tuple[str, Span]]] = {}
        raw_steps = raw.get("steps")
        if raw_steps:
            for sname, listed in raw_steps.items():
                sspan = raw_steps.key_spans[sname]
                if not isinstance(listed, list):
                    listed = [listed]
                steps[sname] = [(str(a), span_of(a, sspan)) for a in listed]
        else:
            steps["main"] = [(a, actions[a].span) for a in actions]
        turns = raw.get("turns")
        phases.append(PhaseSpec(
            name=name,
            first=b.expr(raw.get("first"), ks.get("first", span)) if "first" in raw else None,
            once=turns == "once",
            ends=b.expr(raw.get("ends"), ks.get("ends", span)) if "ends" in raw else None,
            start=b.effects(raw.get("start"), ks.get("start", span)),
            after_turn=b.effects(raw.get("after turn"), ks.get("after turn", span)),
            actions=actions, steps=steps, span=span, help=str(raw.get("help", ""))))

    raw_match = doc.get("match") or {}
    mks = getattr(raw_match, "key_spans", {})
    mspan = keys.get("match", top)
    first_dealer = raw_match.get("first dealer", "random")
    match = MatchSpec(
        ends=b.expr(raw_match.get("ends"), mks.get("ends", mspan)) if "ends" in raw_match else None,
        score=b.expr(raw_match.get("score"), mks.get("score", mspan)) if "score" in raw_match else None,
        winner=str(raw_match.get("winner", "highest")),
        first_dealer=None if first_dealer == "random" else b.expr(first_dealer, mks.get("first dealer", mspan)),
        rotate=bool(raw_match.get("dealer rotates", True)),
        span=mspan)

    title = doc.get("title", doc.get("game"))
    if isinstance(title, dict):
        title = title.get("en") or next(iter(title.values()))

    spec = Spec(
        name=str(doc.get("game")), title=str(title), source=str(doc.get("source", "")),
        notes=str(doc.get("notes", "")),
        min_players=low, max_players=high, default_players=default,
        deck=deck, ace=str(doc.get("ace", "high")),
        values={str(k): int(v) for k, v in (doc.get("values") or {}).items()},
        options=options, zones=zones, vars=variables, functions=functions,
        setup=b.effects(doc.get("setup"), keys.get("setup", top)),
        deal=b.effects(doc.get("deal"), keys.get("deal", top)),
        events=events, phases=phases,
        deal_ends=b.expr(doc.get("deal ends"), keys.get("deal ends", top)) if "deal ends" in doc else None,
        scoring=b.effects(doc.get("scoring"), keys.get("scoring", top)),
        match=match, span=top, file=top.file)
    spec.sides = doc.get("sides")
    for name, raw in (doc.get("melds") or {}).items():
        spec.meld_kinds.append(MeldKind(name, raw["of"], int(raw.get("min", 3)),
                                        int(raw["max"]) if raw.get("max") is not None else None,
                                        str(raw.get("suits", "distinct")), str(raw.get("ace", "high")),
                                        int(raw["wild max"]) if raw.get("wild max") is not None else None))
    for name, raw in (doc.get("patterns") or {}).items():
        spec.patterns.append(Pattern(name, tuple(int(g) for g in raw.get("groups") or ()),
                                     int(raw.get("same suit", 0)), int(raw.get("run", 0))))
    spec.library = "library" in doc
    if spec.library:
        spec.name = str(doc["library"])
    if "wild" in doc:
        spec.wild = b.expr(doc["wild"], keys["wild"])
    if "heuristic" in doc:
        spec.heuristic = b.expr(doc["heuristic"], keys["heuristic"])
    spec.players_span = span_of(doc.get("players"), keys.get("players", top))
    for label, text in (doc.get("show") or {}).items():
        node = b.expr(text, doc["show"].key_spans[label])
        if node is not None:
            spec.show[label] = node
    spec.errors = errors
    # Saved games and transcripts name the exact rules they were played under.
    spec.fingerprint = hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return spec
