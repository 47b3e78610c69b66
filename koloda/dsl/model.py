"""The rule file as a model: YAML structure in, parsed AST pieces out.

This is the one place that walks the YAML document. It parses every
expression and effect string with the grammar and collects every syntax
error instead of stopping at the first.
"""
from __future__ import annotations

import hashlib, json
from dataclasses import dataclass, field

from koloda.dsl import ast
from koloda.dsl.about import players, title_of
from koloda.dsl.builtins import NAMES_TAKEN
from koloda.dsl.clashes import clash, echo_lines
from koloda.dsl.limits import LOOP_LIMIT, MAX_LOOP_LIMIT, MAX_PLAYERS
from koloda.dsl.errors import RuleError, Span
from koloda.dsl.labels import Help, Label, read_help, read_label, without_labels
from koloda.dsl.loader import MarkedDict, span_of
from koloda.dsl.options import OptionSpec, option_spec
from koloda.dsl.to_ast import guarded_binding, parse
from koloda.dsl.deckspec import DeckSpec, cell_rank, read_deck
from koloda.dsl.matchspec import HouseSpec, MatchSpec, read_house, read_match
from koloda.dsl.combokinds import ComboKind, read_combos
from koloda.dsl.meldkinds import MeldKind, read_melds
from koloda.dsl.rows import expand as expand_row
from koloda.dsl.types import ANY, CONSTANTS, enum_of, list_of

# Words of the language that a rule file cannot use to name its own zones, variables and functions.
RESERVED = {"me", "dealer", "players", "others", "option", "my", "to", "each", "from", "deal", "shuffle", "gather",
            "into", "let", "goto", "turn", "skip", "end", "ask", "under", "if", "else", "for", "in", "and", "or", "not"}
# `move`/`meld` are effects only at an effect's start (not before `=`, `+=`, `.`): free names, but not of a procedure
EFFECT_WORDS = {"move", "meld"}
LIST_ITEM_TYPES = ("int", "fraction", "bool", "rank", "suit", "player", "color", "side")
VAR_TYPES = LIST_ITEM_TYPES[:3] + ("card",) + LIST_ITEM_TYPES[3:]


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
    label: Label | None = None
    arrange: str | None = None  # how the table lays its cards out: `pairs`, `sorted` (display only)
    count: int | None = None    # a row of this many like zones (dsl/rows.py); none: one zone
    row: str | None = None      # the row this zone is one of


@dataclass
class VarSpec:
    name: str
    type: str | None
    start: ast.Node | None
    each_player: bool          # one per player, or per side (then per_side is set)
    visible: str
    span: Span
    per_side: bool = False
    label: Label | None = None
    internal: bool = False      # kept off the table (a helper of the rules); who may know it is `visible`
    # the words the table shows for some values, by the value as written (`{1: no, 2: yes, 4: redoubled}`)
    shown_as: dict[str, Label] = field(default_factory=dict)


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
class ProcedureSpec:
    """`refill(player p): [...]` under `procedures:`: effects with a name and parameters."""
    signature: ast.Signature
    body: tuple[ast.Node, ...]


@dataclass
class ActionSpec:
    name: str
    params: tuple[ast.Binding, ...]
    guard: ast.Node | None
    effects: tuple[ast.Node, ...]
    text: str | None
    span: Span
    help: str = ""              # a Help (a str: its English text) as read; "" if none
    # `if:` written as a list: each condition, and the `help:` text said when it fails ("" if none)
    conditions: tuple[tuple[ast.Node, str], ...] = ()
    label: Label | None = None


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
    label: Label | None = None
    when: ast.Node | None = None       # `if:`: asked when the phase would begin; false: it is not played
    playout: int | None = None         # bots' random playouts play at most this many moves of the phase
    show_moves: bool = False           # the table lists the phase's moves so far (an auction)
    together: bool = False             # `turns: together`: one turn each, chosen at the same time (§8.7)


@dataclass
class EventSpec:
    name: str
    when: ast.Node
    effects: tuple[ast.Node, ...]
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
    # event counters (`count:`): name -> a condition asked at the end of every deal, for reports only
    counters: dict[str, ast.Node] = field(default_factory=dict)
    meld_kinds: list[MeldKind] = field(default_factory=list)     # in the order written
    patterns: list[Pattern] = field(default_factory=list)        # highest first
    combo_kinds: list[ComboKind] = field(default_factory=list)   # `combos:`, in the order written
    library: bool = False
    wild: ast.Node | None = None
    errors: list[RuleError] = field(default_factory=list)
    rows: dict[str, ZoneSpec] = field(default_factory=dict)     # rows of like zones, by the row's name
    echoes: frozenset[tuple[str, int]] = frozenset()    # lines naming a word a declaration clashed with
    fingerprint: str = ""
    title_label: Label | None = None     # the title in each language it is given in
    turn_cap: ast.Node | None = None     # `turn cap:` the most turns a deal may last
    cap_ends: str = "match"              # what reaching it ends: "match" (drawn) or "deal"
    procedures: dict[str, ProcedureSpec] = field(default_factory=dict)
    # `values:` written as named tables: name -> rank name -> value (`values` is then the first of them)
    value_tables: dict[str, dict[str, int]] = field(default_factory=dict)
    value_spans: dict[str, Span] = field(default_factory=dict)
    house: HouseSpec | None = None       # `house:`: a party that is no seat, which every player plays against


class _Builder:
    def __init__(self, doc) -> None:
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

    def binding(self, text, where: Span, key: str) -> ast.Binding | None:
        """`NAME in LIST`, for an action's `with:` or an effect's `for:` (`key`)."""
        node = self.parse(text, "binding_start", where)
        found = guarded_binding(text, span_of(text, where), key) if node is None and isinstance(text, str) else None
        if found is not None:
            node, self.errors[-1] = found      # the binding is kept: what uses its name is checked as usual
        return node if isinstance(node, ast.Binding) else None

    def effect(self, item, where: Span) -> ast.Node | None:
        if isinstance(item, MarkedDict):
            span = item.span
            if "if" in item:
                cond = self.expr(item["if"], item.key_spans["if"])
                then = self.effects(item.get("then"), span)
                orelse = self.effects(item.get("else"), span)
                return ast.If(span, cond, then, orelse) if cond is not None else None
            if "for" in item:
                binding = self.binding(item["for"], item.key_spans["for"], "for")
                body = self.effects(item.get("do"), span)
                if binding is None:
                    return None
                return ast.For(span, binding.var, binding.domain, body)
            if "repeat" in item or "while" in item:
                return self.loop(item)
            if "score" in item:
                return self.score(item)
            self.errors.append(RuleError("an effect is a text such as `move c to pile`, or a mapping with "
                                         "`if:`/`then:`/`else:`, `for:`/`do:`, `repeat:`/`do:`, `while:`/`do:` "
                                         "or `score:`/`parts:`",
                                         span, category="schema"))
            return None
        return self.parse(item, "effect_start", where)


    def score(self, item: MarkedDict) -> ast.Node | None:
        """`{score: t.score, parts: {NAME: EXPR, ...}}`: the number the parts are added to, and the parts."""
        where = item.key_spans["score"]
        head = self.expr(item["score"], where)
        target: ast.Node | None = ast.as_target(head) if head is not None else None
        if target is None and head is not None:
            self.errors.append(RuleError("`score:` names the number the parts are added to: a variable, as "
                                         "`score`, `my score` or `t.score`", span_of(item["score"], where)))
        parts = item.get("parts")
        if not isinstance(parts, MarkedDict) or not parts:
            self.errors.append(RuleError("`score:` needs `parts:`, each a name and the number it adds "
                                         "(`parts: {melds: side_points(t), going out: 100}`)",
                                         item.key_spans.get("parts", item.span), category="schema"))
            return None
        labels, values = [], []
        for name, text in parts.items():
            node = self.expr(text, parts.key_spans[name])
            if node is None:
                return None
            labels.append(str(name))
            values.append(node)
        if target is None:
            return None
        return ast.Score(item.span, target, tuple(labels), tuple(values))

    def loop(self, item: MarkedDict) -> ast.Node | None:
        """`{repeat: N, do: [...]}` or `{while: COND, do: [...]}`, with an optional `limit:`."""
        key = "repeat" if "repeat" in item else "while"
        head = self.expr(item[key], item.key_spans[key])
        body = self.effects(item.get("do"), item.span)
        limit = item.get("limit", LOOP_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LOOP_LIMIT:
            self.errors.append(RuleError(f"`limit:` is a whole number from 1 to {MAX_LOOP_LIMIT:,}, not `{limit}`",
                                         item.key_spans.get("limit", item.span), category="schema"))
            return None
        if head is None:
            return None
        if key == "repeat":
            return ast.Repeat(item.span, head, body, limit)
        return ast.While(item.span, head, body, limit)


def build(doc: MarkedDict) -> Spec:
    """Turn a schema-valid document into a Spec; syntax and structure errors go to spec.errors.

    One function per section of the file; each reads its keys and reports what
    is wrong with their structure (what the JSON Schema cannot say) on the spot."""
    b = _Builder(doc)
    top = doc.span
    keys = doc.key_spans
    errors = b.errors
    low, high, default = players(doc.get("players", "2"), keys.get("players", top), errors)
    players_span = span_of(doc.get("players"), keys.get("players", top))
    if high > MAX_PLAYERS or low < 1:
        errors.append(RuleError(f"players: a game has 1 to {MAX_PLAYERS} players, not {low}..{high}", players_span,
                                category="limit"))
        low, high, default = min(max(low, 1), MAX_PLAYERS), min(max(high, 1), MAX_PLAYERS), 1
    if low > high:
        errors.append(RuleError(f"players: the least ({low}) is more than the most ({high})", players_span))
    elif not low <= default <= high:
        errors.append(RuleError(f"players: the default {default} is outside {low}..{high}", players_span))
    options = {name: option_spec(name, raw, doc["options"].key_spans[name], errors)
               for name, raw in (doc.get("options") or {}).items()}
    value_tables: dict[str, dict[str, int]] = {}
    rows: dict[str, ZoneSpec] = {}
    title_label = read_label(doc.get("title", doc.get("game")), top, "the game", [])   # its keys are not checked: it always had any
    spec = Spec(
        name=str(doc.get("game")), title=title_of(doc), source=str(doc.get("source", "")),
        notes=str(doc.get("notes", "")),
        min_players=low, max_players=high, default_players=default,
        deck=read_deck(doc, options, errors, b.expr, lambda w: w.isidentifier() and w not in RESERVED
                       and w not in CONSTANTS), ace=str(doc.get("ace", "high")),
        values=_value_tables(doc.get("values") or {}, value_tables),
        options=options, zones=_zones(doc, errors, rows), rows=rows, vars=_vars(doc, b), functions=_functions(doc, b),
        procedures=_procedures(doc, b),
        setup=b.effects(doc.get("setup"), keys.get("setup", top)),
        deal=b.effects(doc.get("deal"), keys.get("deal", top)),
        events=_events(doc, b), phases=[_phase(name, raw, doc["phases"].key_spans[name], b)
                                         for name, raw in (doc.get("phases") or {}).items()],
        deal_ends=b.expr(doc.get("deal ends"), keys.get("deal ends", top)) if "deal ends" in doc else None,
        scoring=b.effects(doc.get("scoring"), keys.get("scoring", top)),
        match=read_match(doc, b.expr), span=top, file=top.file)
    spec.value_tables = value_tables
    if value_tables:
        spec.value_spans = {name: doc["values"].key_spans[name] for name in value_tables}
    spec.sides = doc.get("sides")
    spec.house = read_house(doc, errors)
    spec.title_label = title_label
    spec.meld_kinds = read_melds(doc, spec.zones, spec.options, errors)
    spec.patterns = _patterns(doc, errors)
    spec.combo_kinds = read_combos(doc, errors)
    spec.library = "library" in doc
    if spec.library:
        spec.name = str(doc["library"])
    elif not spec.phases:
        errors.append(RuleError("a game needs at least one phase", top))
    if "wild" in doc:
        spec.wild = b.expr(doc["wild"], keys["wild"])
    if "heuristic" in doc:
        spec.heuristic = b.expr(doc["heuristic"], keys["heuristic"])
    spec.players_span = players_span
    if "turn cap" in doc:
        cap = doc["turn cap"]
        at = getattr(cap, "key_spans", {})
        spec.turn_cap = b.expr(cap.get("turns"), at.get("turns", keys["turn cap"])) if isinstance(cap, dict) \
            else b.expr(cap, keys["turn cap"])
        spec.cap_ends = str(cap.get("ends", "match")) if isinstance(cap, dict) else "match"
    for name, text in (doc.get("count") or {}).items():
        node = b.expr(text, doc["count"].key_spans[name])
        if node is not None:
            spec.counters[str(name)] = node
    for label, text in (doc.get("show") or {}).items():
        node = b.expr(text, doc["show"].key_spans[label])
        if node is not None:
            spec.show[label] = node
    spec.echoes = echo_lines(doc, _names(spec, errors))
    spec.errors = errors
    # Saved games and transcripts name the exact rules they were played under.
    spec.fingerprint = hashlib.sha256(json.dumps(without_labels(doc), sort_keys=True, default=str).encode()).hexdigest()[:16]
    return spec


def _zones(doc: MarkedDict, errors: list[RuleError], rows: dict[str, ZoneSpec]) -> dict[str, ZoneSpec]:
    zones: dict[str, ZoneSpec] = {}
    for name, raw in (doc.get("zones") or {}).items():
        raw = raw or {}
        each = raw.get("each") in ("player", "side")
        visible = raw.get("visible", "owner" if each else "all")
        span = doc["zones"].key_spans[name]
        zone = ZoneSpec(name, each, visible, span, per_side=raw.get("each") == "side", melds=bool(raw.get("melds")),
                        label=read_label(raw.get("label"), span, f"zone `{name}`", errors),
                        arrange=raw.get("arrange"), count=raw.get("count"))
        if raw.get("grid") is not None:
            zone.grid = [[cell_rank(cell, span_of(raw["grid"], span), errors) for cell in row] for row in raw["grid"]]
            if len({len(row) for row in zone.grid}) != 1:
                errors.append(RuleError(f"grid `{name}`: every row needs the same number of cells",
                                        span_of(raw["grid"], span), category="schema"))
            if raw.get("lines") is not None:
                zone.lines = tuple(raw["lines"])
        elif raw.get("lines") is not None:
            errors.append(RuleError(f"`lines` belong to a grid, and `{name}` has no `grid:`", span, category="schema"))
        if zone.count is not None:
            rows[name] = zone
            zones.update((z.name, z) for z in expand_row(zone, errors))
            continue
        zones[name] = zone
    areas = [z for z in zones.values() if z.melds]
    if len(areas) > 1:
        errors.append(RuleError("a game has one meld area (a zone with `melds: true`), not several", areas[1].span))
    return zones


def _vars(doc: MarkedDict, b: _Builder) -> dict[str, VarSpec]:
    variables = {}
    for name, raw in (doc.get("vars") or {}).items():
        span = doc["vars"].key_spans[name]
        if not isinstance(raw, dict):
            raw = {"start": raw}
        start = raw.get("start")
        start_node = None if start is None else b.expr(start, span_of(start, span))
        each = raw.get("each") in ("player", "side")
        var = VarSpec(name, _var_type(raw.get("type"), span_of(raw.get("type"), span), b.errors), start_node, each, raw.get("visible", "all"), span,
                      per_side=raw.get("each") == "side",
                      label=read_label(raw.get("label"), span, f"variable `{name}`", b.errors),
                      internal=raw.get("internal") is True,
                      shown_as={_value_word(k): label for k, w in (raw.get("shown as") or {}).items()
                                if (label := read_label(w, span, f"variable `{name}`", b.errors)) is not None})
        if var.visible == "owner" and not var.each_player:
            b.errors.append(RuleError(f"`{name}`: `visible: owner` needs `each: player`", span))
        variables[name] = var
    return variables


def _value_tables(raw: dict, named: dict[str, dict[str, int]]) -> dict[str, int]:
    """The card values `value(c)` reads; named tables (`{points: {A: 11}, order: {A: 14}}`) go to `named`,
    and the first of them is the one `value(c)` reads."""
    if raw and all(isinstance(v, dict) for v in raw.values()):
        for name, table in raw.items():
            named[str(name)] = {str(k): int(v) for k, v in table.items()}
        return dict(next(iter(named.values())))
    return {str(k): int(v) for k, v in raw.items()}


def _var_type(raw: object, where: Span, errors: list[RuleError]) -> str | None:
    """A type's name, or for a word variable (`type: [check, bet, raise, fold]`) the type of its words;
    a list variable's (`type: list of player`, `type: {list of: [check, bet]}`) is `list:` and its items'."""
    if isinstance(raw, dict) and set(raw) == {"list of"}:
        inner = _var_type(raw["list of"], span_of(raw["list of"], where), errors)
        return None if inner is None else list_of(inner)
    if isinstance(raw, str) and raw.startswith("list of "):
        inner = raw[len("list of "):].strip()
        if inner not in LIST_ITEM_TYPES:
            errors.append(RuleError(f"a list variable holds {', '.join(LIST_ITEM_TYPES)} or words, not `{inner}`"
                                    + (": cards lie in zones" if inner in ("card", "cards") else ""), where,
                                    "`type: list of player`; words as `type: {list of: [check, bet]}`"
                                    + ("; for cards declare a zone" if inner in ("card", "cards") else ""),
                                    category="type"))
            return ANY          # told once: its uses are not checked against a type it lacks
        return list_of(inner)
    if not isinstance(raw, list):
        return None if raw is None else str(raw)
    words = [str(w) for w in raw]
    spans = getattr(raw, "item_spans", None) or [where] * len(words)
    for w, at in zip(words, spans):
        if not w.isidentifier() or w in RESERVED or w in CONSTANTS:
            errors.append(RuleError(f"`{w}` cannot be a word of a variable: a word is a name such as `bet`, "
                                    "and not a word of the language", at, category="type"))
    if len(set(words)) != len(words):
        errors.append(RuleError("a variable's words must differ from each other", where, category="type"))
    return enum_of(words)


def _functions(doc: MarkedDict, b: _Builder) -> dict[str, FunctionSpec]:
    functions = {}
    for head, body in (doc.get("define") or {}).items():
        span = doc["define"].key_spans[head]
        signature = b.parse(head, "signature_start", span)
        body_node = b.expr(body, span_of(body, span))
        if isinstance(signature, ast.Signature) and body_node is not None:
            functions[signature.name] = FunctionSpec(signature, body_node)
    return functions


def _procedures(doc: MarkedDict, b: _Builder) -> dict[str, ProcedureSpec]:
    procedures = {}
    for head, body in (doc.get("procedures") or {}).items():
        span = doc["procedures"].key_spans[head]
        signature = b.parse(head, "signature_start", span)
        effects = b.effects(body, span_of(body, span))
        if isinstance(signature, ast.Signature):
            procedures[signature.name] = ProcedureSpec(signature, effects)
    return procedures


def _events(doc: MarkedDict, b: _Builder) -> list[EventSpec]:
    events = []
    for name, raw in (doc.get("events") or {}).items():
        span = doc["events"].key_spans[name]
        when = b.expr(raw.get("when"), raw.key_spans.get("when", span))
        if when is not None:
            events.append(EventSpec(name, when, b.effects(raw.get("do"), raw.span), span))
    return events


def _phase(name: str, raw: MarkedDict, span: Span, b: _Builder) -> PhaseSpec:
    ks = raw.key_spans
    actions = {aname: _action(aname, araw, raw["actions"].key_spans[aname], b)
               for aname, araw in (raw.get("actions") or {}).items()}
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
    return PhaseSpec(
        name=name, first=b.expr(raw.get("first"), ks.get("first", span)) if "first" in raw else None,
        once=raw.get("turns") in ("once", "together"),
        ends=b.expr(raw.get("ends"), ks.get("ends", span)) if "ends" in raw else None,
        start=b.effects(raw.get("start"), ks.get("start", span)),
        after_turn=b.effects(raw.get("after turn"), ks.get("after turn", span)),
        actions=actions, steps=steps, span=span,
        help=read_help(raw.get("help"), raw.key_spans.get("help", span), f"phase `{name}`", b.errors),
        label=read_label(raw.get("label"), span, f"phase `{name}`", b.errors),
        when=b.expr(raw.get("if"), ks.get("if", span)) if "if" in raw else None,
        playout=int(raw["playout"]) if isinstance(raw.get("playout"), int) else None,
        show_moves=raw.get("show moves") is True, together=raw.get("turns") == "together")


def _action(name: str, raw: MarkedDict | None, span: Span, b: _Builder) -> ActionSpec:
    if not raw:
        raw = MarkedDict()
        raw.span, raw.key_spans = span, {}
    with_ = raw.get("with")
    if with_ is None:
        with_ = []
    elif not isinstance(with_, list):
        with_ = [with_]
    params = tuple(p for p in (b.binding(w, span_of(w, span), "with") for w in with_) if p is not None)
    raw_if = raw.get("if")
    where = raw.key_spans.get("if", span)
    guard, conditions = None, []
    if isinstance(raw_if, list):
        # conditions that must all hold, each a text or `{if: CONDITION, help: TEXT}`
        for item in raw_if:
            if isinstance(item, dict):
                node = b.expr(item.get("if"), getattr(item, "key_spans", {}).get("if", span_of(item, where)))
                item_spans = getattr(item, "key_spans", {})
                conditions.append((node, read_help(item.get("help"), item_spans.get("help", span_of(item, where)),
                                                   f"a condition of action `{name}`", b.errors)))
            else:
                conditions.append((b.expr(item, span_of(item, where)), Help()))
    elif "if" in raw:
        guard = b.expr(raw_if, where)
    effects = b.effects(raw.get("do"), raw.key_spans.get("do", span))
    return ActionSpec(name, params, guard, effects, raw.get("text"), span,
                      read_help(raw.get("help"), raw.key_spans.get("help", span), f"action `{name}`", b.errors),
                      conditions=tuple((node, text) for node, text in conditions if node is not None),
                      label=read_label(raw.get("label"), span, f"action `{name}`", b.errors))


def _patterns(doc: MarkedDict, errors: list[RuleError]) -> list[Pattern]:
    patterns = [Pattern(name, tuple(int(g) for g in raw.get("groups") or ()),
                        int(raw.get("same suit", 0)), int(raw.get("run", 0)))
                for name, raw in (doc.get("patterns") or {}).items()]
    for p in patterns[:-1]:
        if not (p.groups or p.same_suit or p.run):
            errors.append(RuleError(f"pattern `{p.name}` asks nothing, so every hand makes it: put it last",
                                    doc.span))
    return patterns


def _names(spec: Spec, errors: list[RuleError]) -> set[str]:
    """Zones, variables and functions share one space of names, apart from the language's own words."""
    names: dict[str, str] = {}
    clashed: set[str] = set()
    tables: tuple[tuple[str, dict], ...] = (("zone", spec.rows), ("zone", spec.zones), ("variable", spec.vars),
                                            ("function", spec.functions), ("procedure", spec.procedures),
                                            ("value table", spec.value_tables))
    for what, table in tables:
        for name, item in table.items():
            span = getattr(item, "span", None) or getattr(getattr(item, "signature", None), "span", None) or \
                spec.value_spans.get(name, spec.span)
            if name in RESERVED or name in CONSTANTS or name in NAMES_TAKEN:
                errors.append(clash(name, what, span))
                clashed.add(name)
            elif what == "procedure" and name in EFFECT_WORDS:
                errors.append(RuleError(f"`{name}` cannot name a procedure: `{name}(…)` in effects is the "
                                        f"`{name}` effect", span, f"call it `{name}s` or `do_{name}`"))
            elif name in names:
                errors.append(RuleError(f"`{name}` names both a {names[name]} and a {what}", span))
            names[name] = what
    return clashed


def _value_word(key: object) -> str:
    """A value as the table writes it, for `shown as:`'s keys: `true`, `none`, `4`, `clubs`."""
    if isinstance(key, bool):
        return "yes" if key else "no"
    return "none" if key is None else str(key)
