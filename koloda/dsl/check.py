"""The static checker: every name resolved, every type and arity checked.

It walks the whole Spec and reports all errors it finds, each located in the
rule file. What it learns (the type of every expression node and what each
name refers to) is handed to the compiler, so names are resolved once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from koloda.dsl import ast
from koloda.dsl.errors import RuleError, did_you_mean
from koloda.dsl.model import Spec, VAR_TYPES
from koloda.dsl.types import (AGGREGATES, ANY, BOOL, CARD, CARD_ATTRS, CONSTANTS, GRID, GRID_ATTRS, INT,
                              MELD_FUNCTIONS, NONE, PARAM_TYPES, PATTERN_FUNCTIONS, PLAN, PLAN_ATTRS, PLAYER, RANK, SIDE, STATE_NAMES,
                              STR, SUIT, TYPE_NAMES, ZONE, ZONE_ATTRS, compatible, elem, is_list, list_of, show)

BUILTINS = {"value", "next", "prev", "count", "sum", "any", "all", "max", "min", "abs", "top", "winner"} | \
    MELD_FUNCTIONS | PATTERN_FUNCTIONS
DECKS = {"standard52": 52, "piquet32": 32, "russian36": 36}
RESERVED = {"me", "dealer", "players", "others", "option", "my", "move", "to", "each", "from", "deal",
            "shuffle", "gather", "into", "let", "goto", "turn", "skip", "end", "ask", "meld", "under", "if", "else", "for", "in",
            "and", "or", "not"}


@dataclass
class Checked:
    """What the checker learnt, keyed by id(node)."""
    types: dict[int, str] = field(default_factory=dict)
    refs: dict[int, tuple] = field(default_factory=dict)
    func_types: dict[str, str] = field(default_factory=dict)


class Checker:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.errors: list[RuleError] = list(spec.errors)
        self.out = Checked()
        self.steps: set[str] | None = None
        self._func_stack: list[str] = []

    # ------------------------------------------------------------ reporting
    def error(self, message: str, node_or_span, hint: str | None = None, category: str = "error") -> None:
        span = getattr(node_or_span, "span", node_or_span)
        self.errors.append(RuleError(message, span, hint, category))

    def expect(self, node: ast.Node, scope: dict, want: str, what: str) -> str:
        t = self._coerce_rank(node, self.expr(node, scope), want)
        if t != ANY and not compatible(t, want):
            self.error(f"{what} must be {show(want)}, but this is {show(t)}", node, category="type")
        return t

    # ------------------------------------------------------------ whole file
    def run(self) -> Checked:
        s = self.spec
        self._check_structure()
        globals_scope: dict[str, str] = {}
        for var in s.vars.values():
            if var.start is not None:
                t = self.expr(var.start, {})
                if var.type is not None:
                    t = self._coerce_rank(var.start, t, TYPE_NAMES.get(var.type, var.type))
                if var.type is None:
                    var.type = t if t not in (NONE, ANY) else None
                elif t != ANY and not compatible(t, var.type):
                    self.error(f"`{var.name}` is {show(var.type)} but starts as {show(t)}", var.start,
                               category="type")
            if var.type is None:
                self.error(f"variable `{var.name}` needs a `type:` (one of {', '.join(VAR_TYPES)})", var.span,
                           category="type")
                var.type = ANY
        for fn in s.functions.values():
            self._function_type(fn.signature.name)
        self.effects(s.setup, globals_scope)
        self.effects(s.deal, globals_scope)
        for event in s.events:
            self.expect(event.when, {}, BOOL, f"the condition of event `{event.name}`")
            self.effects(event.effects, {})
        for phase in s.phases:
            self._phase(phase)
        if s.deal_ends is not None:
            self.expect(s.deal_ends, {}, BOOL, "`deal ends`")
        self.effects(s.scoring, {})
        for node in s.show.values():
            self.expr(node, {})
        if s.heuristic is not None:
            self.expect(s.heuristic, {"p": PLAYER}, INT, "`heuristic` (with `p` the player)")
        m = s.match
        if m.ends is not None:
            self.expect(m.ends, {}, BOOL, "`match: ends`")
        if m.score is not None:
            self.expect(m.score, {"p": PLAYER}, INT, "`match: score` (with `p` the player)")
        if m.first_dealer is not None:
            self.expect(m.first_dealer, {}, PLAYER, "`first dealer`")
        return self.out

    def _check_structure(self) -> None:
        s = self.spec
        where = s.players_span or s.span
        if s.min_players > s.max_players:
            self.error(f"players: the least ({s.min_players}) is more than the most ({s.max_players})", where)
        elif not s.min_players <= s.default_players <= s.max_players:
            self.error(f"players: the default {s.default_players} is outside {s.min_players}..{s.max_players}",
                       where)
        base = s.deck.base
        if isinstance(base, str) and base not in DECKS and not base.startswith("option."):
            self.error(f"unknown deck `{base}`", s.deck.span, did_you_mean(base, DECKS) or
                       "decks: " + ", ".join(DECKS))
        for field_name in ("base", "copies", "jokers"):
            value = getattr(s.deck, field_name)
            where = getattr(value, "span", s.deck.span)
            if isinstance(value, str) and value.startswith("option."):
                name = value[len("option."):]
                if name not in s.options:
                    self.error(f"unknown option `{name}`", where, did_you_mean(name, s.options), category="name")
                elif field_name != "base" and s.options[name].type != "int":
                    self.error(f"deck `{field_name}` needs a whole-number option, and `{name}` is not", where,
                               category="type")
            elif field_name != "base" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                self.error(f"deck `{field_name}` is a whole number (or `option.NAME`), not `{value}`", where,
                           category="type")
        names: dict[str, str] = {}
        for kind, table in (("zone", s.zones), ("variable", s.vars), ("function", s.functions)):
            for name, item in table.items():
                span = getattr(item, "span", None) or item.signature.span
                if name in RESERVED or name in CONSTANTS or name in STATE_NAMES or name in BUILTINS:
                    self.error(f"`{name}` is a word of the language and cannot name a {kind}", span)
                elif name in names:
                    self.error(f"`{name}` names both a {names[name]} and a {kind}", span)
                names[name] = kind
        for var in s.vars.values():
            if var.visible == "owner" and not var.each_player:
                self.error(f"`{var.name}`: `visible: owner` needs `each: player`", var.span)
        if not s.phases and not s.library:
            self.error("a game needs at least one phase", s.span)
        for p in s.patterns:
            if not (p.groups or p.same_suit or p.run) and p is not s.patterns[-1]:
                self.error(f"pattern `{p.name}` asks nothing, so every hand makes it: put it last", s.span)
        areas = [z for z in s.zones.values() if z.melds]
        if len(areas) > 1:
            self.error("a game has one meld area (a zone with `melds: true`), not several", areas[1].span)
        if areas and not s.meld_kinds:
            self.error(f"`{areas[0].name}` holds melds, but the file declares no `melds:` kinds", areas[0].span)
        for kind in s.meld_kinds:
            if kind.max is not None and kind.max < kind.min:
                self.error(f"meld `{kind.name}`: `max` {kind.max} is below `min` {kind.min}", s.span)
        if s.wild is not None:
            self.expect(s.wild, {"c": CARD}, BOOL, "`wild` (a condition on the card `c`)")

    # ------------------------------------------------------------ phases and actions
    def _phase(self, phase) -> None:
        if phase.first is not None:
            self.expect(phase.first, {}, PLAYER, f"`first` of phase `{phase.name}`")
        if phase.ends is not None:
            self.expect(phase.ends, {}, BOOL, f"`ends` of phase `{phase.name}`")
        self.effects(phase.start, {})
        self.effects(phase.after_turn, {})
        for step, listed in phase.steps.items():
            for action, span in listed:
                if action not in phase.actions:
                    self.error(f"step `{step}` lists unknown action `{action}`", span,
                               did_you_mean(action, phase.actions), category="name")
        self.steps = set(phase.steps)
        for action in phase.actions.values():
            scope: dict[str, str] = {}
            for binding in action.params:
                t = self.expr(binding.domain, scope)
                if t == ZONE or is_list(t):
                    pt = elem(t)
                    if pt not in PARAM_TYPES and pt != ANY:
                        self.error(f"a parameter cannot range over {show(t)}", binding.domain, category="type")
                    scope = {**scope, binding.var: pt}
                    self.out.types[id(binding)] = pt
                elif t != ANY:
                    self.error(f"`{binding.var}` must range over a zone or a list, not {show(t)}", binding.domain,
                               category="type")
                    scope = {**scope, binding.var: ANY}
                    self.out.types[id(binding)] = ANY
            if action.text is not None:
                for field_name in re.findall(r"{([^{}]*)}", str(action.text)):
                    if field_name not in scope:
                        self.error(f"`text:` of `{action.name}` shows `{{{field_name}}}`, but its parameters are "
                                   + (", ".join(f"`{{{p}}}`" for p in scope) or "none"),
                                   getattr(action.text, "span", action.span), category="name")
            if action.guard is not None:
                self.expect(action.guard, scope, BOOL, f"the `if:` of action `{action.name}`")
            self.effects(action.effects, scope)
        self.steps = None

    # ------------------------------------------------------------ functions
    def _function_type(self, name: str) -> str:
        if name in self.out.func_types:
            return self.out.func_types[name]
        fn = self.spec.functions[name]
        if name in self._func_stack:
            self.error(f"function `{name}` calls itself (directly or through others); "
                       "rule files have no unbounded loops", fn.signature)
            return ANY
        self._func_stack.append(name)
        scope = {}
        for p in fn.signature.params:
            if p.type not in TYPE_NAMES:
                self.error(f"unknown type `{p.type}`", p, did_you_mean(p.type, TYPE_NAMES) or
                           "types: " + ", ".join(TYPE_NAMES))
            scope[p.name] = TYPE_NAMES.get(p.type, ANY)
        t = self.expr(fn.body, scope)
        self._func_stack.pop()
        self.out.func_types[name] = t
        return t

    # ------------------------------------------------------------ effects
    def effects(self, effects, scope: dict) -> None:
        scope = dict(scope)
        for e in effects:
            self.effect(e, scope)

    def effect(self, e: ast.Node, scope: dict) -> None:
        if isinstance(e, ast.Move):
            t = self.expr(e.what, scope)
            if t not in (CARD, ZONE, list_of(CARD), ANY, NONE) and not (is_list(t) and elem(t) == ANY):
                self.error(f"`move` takes a card, a list of cards or a zone, not {show(t)}", e.what,
                           category="type")
            self.expect(e.dest, scope, ZONE, "where cards move to")
        elif isinstance(e, ast.Meld):
            self.expect(e.plan, scope, PLAN, "what `meld` carries out")
            if not self.spec.meld_kinds:
                self.error("`meld` needs `melds:` kinds and a zone with `melds: true`", e)
        elif isinstance(e, ast.Shuffle):
            self.expect(e.zone, scope, ZONE, "what is shuffled")
        elif isinstance(e, ast.Gather):
            self.expect(e.dest, scope, ZONE, "where the cards are gathered")
        elif isinstance(e, ast.Deal):
            self.expect(e.count, scope, INT, "the number of cards dealt")
            zone = self.spec.zones.get(e.family)
            if zone is None:
                self.error(f"unknown zone `{e.family}`", e, did_you_mean(e.family, self.spec.zones), category="name")
            elif not zone.each_player or zone.grid or zone.per_side:
                self.error(f"`deal ... to each {e.family}` needs a zone with `each: player`", e)
            if e.source is not None:
                self.expect(e.source, scope, ZONE, "where cards are dealt from")
            elif "stock" not in self.spec.zones:
                self.error("`deal` without `from` deals from `stock`, and there is no zone `stock`", e)
            self._check_deal_size(e)
        elif isinstance(e, ast.Assign):
            target_type = self.target(e.target, scope)
            value_type = self._coerce_rank(e.value, self.expr(e.value, scope), target_type)
            if e.op != "=":
                if target_type not in (INT, ANY):
                    self.error(f"`{e.op}` needs a number, but the target is {show(target_type)}", e.target,
                               category="type")
                if value_type not in (INT, ANY):
                    self.error(f"`{e.op}` needs a number, but this is {show(value_type)}", e.value, category="type")
            elif ANY not in (target_type, value_type) and not compatible(target_type, value_type):
                self.error(f"cannot set {show(target_type)} to {show(value_type)}", e.value, category="type")
        elif isinstance(e, ast.Let):
            scope[e.name] = self.expr(e.value, scope)
        elif isinstance(e, ast.Goto):
            if self.steps is None:
                self.error("`goto` is only for actions, to choose the next step of the turn", e)
            elif e.step not in self.steps:
                self.error(f"unknown step `{e.step}`", e, did_you_mean(e.step, self.steps), category="name")
        elif isinstance(e, ast.Ask):
            t = self.expr(e.player, scope)
            if t not in (PLAYER, list_of(PLAYER), ANY, NONE):
                self.error(f"`ask` asks a player or a list of players (in turn), not {show(t)}", e.player,
                           category="type")
            if self.steps is None:
                self.error("`ask` is only for actions: it hands one decision to another player", e)
            elif e.step not in self.steps:
                self.error(f"unknown step `{e.step}`", e, did_you_mean(e.step, self.steps), category="name")
        elif isinstance(e, (ast.TurnTo, ast.Skip)):
            self.expect(e.player, scope, PLAYER, "`turn to` and `skip` take a player, and this")
        elif isinstance(e, ast.If):
            self.expect(e.cond, scope, BOOL, "the `if:` condition")
            self.effects(e.then, scope)
            self.effects(e.orelse, scope)
        elif isinstance(e, ast.For):
            t = self.expr(e.iterable, scope)
            if not (t == ZONE or is_list(t) or t == ANY):
                self.error(f"`for` goes over a list or a zone, not {show(t)}", e.iterable, category="type")
            self.effects(e.body, {**scope, e.var: elem(t)})
        elif isinstance(e, (ast.EndDeal, ast.EndTurn)):
            pass
        else:  # an expression where an effect was expected
            self.error("this is not an effect", e)

    def _check_deal_size(self, e: ast.Deal) -> None:
        """Catch a deal that can never fit in the deck, whatever the options."""
        counts = self._constant_values(e.count)
        size = self._largest_deck()
        if counts and size:
            most = max(counts) * self.spec.max_players
            if most > size:
                self.error(f"dealing {max(counts)} cards to each of {self.spec.max_players} players needs "
                           f"{most} cards, but the deck holds {size}", e, category="deal")

    def _constant_values(self, node) -> list[int]:
        if isinstance(node, ast.Number):
            return [node.value]
        if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.name == "option":
            opt = self.spec.options.get(node.name)
            if opt is not None and opt.type == "int":
                return [c for c in (opt.choices or [opt.default]) if isinstance(c, int)]
        return []

    def _largest_deck(self) -> int | None:
        d = self.spec.deck
        bases = [d.base]
        if isinstance(d.base, str) and d.base.startswith("option."):
            opt = self.spec.options.get(d.base[7:])
            bases = opt.choices if opt and opt.choices else []
        sizes = [DECKS[b] for b in bases if b in DECKS]
        if not sizes or not isinstance(d.copies, int) or not isinstance(d.jokers, int):
            return None
        return max(sizes) * d.copies + d.jokers

    def target(self, t: ast.Node, scope: dict) -> str:
        if isinstance(t, ast.TargetVar):
            var = self.spec.vars.get(t.name)
            if var is None:
                if t.name in scope:
                    self.error(f"`{t.name}` is a parameter or a loop name and cannot be set", t)
                else:
                    self.error(f"unknown variable `{t.name}`", t, did_you_mean(t.name, self.spec.vars), category="name")
                return ANY
            if var.each_player:
                self.error(f"`{t.name}` belongs to each player: write `my {t.name}` or `p.{t.name}`", t)
            self.out.refs[id(t)] = ("var", t.name)
            return var.type
        if isinstance(t, ast.TargetAttr):
            owner = self.expr(t.obj, scope)
            if owner not in (PLAYER, SIDE, ANY):
                self.error(f"only a player or a side owns variables, not {show(owner)}", t.obj, category="type")
            var = self.spec.vars.get(t.name)
            if var is None or not var.each_player or (owner == SIDE and not var.per_side):
                per_player = [v for v, spec in self.spec.vars.items()
                              if spec.each_player and (spec.per_side or owner != SIDE) and v != t.name]
                self.error(f"`{t.name}` is not a variable of each {'side' if owner == SIDE else 'player'}", t,
                           did_you_mean(t.name, per_player))
                return ANY
            self.out.refs[id(t)] = ("side_var" if owner == SIDE else "player_var", t.name)
            return var.type
        self.error("cannot assign to this", t)
        return ANY

    # ------------------------------------------------------------ expressions
    def expr(self, node: ast.Node, scope: dict) -> str:
        t = self._expr(node, scope)
        self.out.types[id(node)] = t
        return t

    def _expr(self, n: ast.Node, scope: dict) -> str:
        if isinstance(n, ast.Number):
            return INT
        if isinstance(n, ast.String):
            return STR
        if isinstance(n, ast.Name):
            return self._name(n, scope)
        if isinstance(n, ast.My):
            me = ast.Name(n.span, "me")
            self.out.types[id(me)] = PLAYER
            return self._player_attr(n, n.name)
        if isinstance(n, ast.Attr):
            return self._attr(n, scope)
        if isinstance(n, ast.Index):
            t = self.expr(n.obj, scope)
            self.expect(n.index, scope, INT, "a list index")
            if not is_list(t) and t != ANY:
                self.error(f"only lists can be indexed, not {show(t)}", n.obj, category="type")
                return ANY
            return elem(t)
        if isinstance(n, ast.Call):
            return self._call(n, scope)
        if isinstance(n, ast.Aggregate):
            return self._aggregate(n, scope)
        if isinstance(n, ast.ListLit):
            types = [self.expr(i, scope) for i in n.items]
            if RANK in types:    # `[A, 2, 3]`: numbers beside ranks are ranks
                types = [self._coerce_rank(i, t, RANK) for i, t in zip(n.items, types)]
            known = [t for t in types if t not in (ANY, NONE)]
            for t, item in zip(types, n.items):
                if known and t not in (ANY, NONE) and t != known[0]:
                    self.error(f"a list holds one kind of thing: {show(known[0])} and {show(t)}", item,
                               category="type")
            return list_of(known[0] if known else ANY)
        if isinstance(n, ast.ListComp):
            inner = self._comprehension_scope(n, scope)
            return list_of(self.expr(n.elem, inner))
        if isinstance(n, ast.Range):
            self.expect(n.low, scope, INT, "the start of a range")
            self.expect(n.high, scope, INT, "the end of a range")
            return list_of(INT)
        if isinstance(n, ast.Arith):
            left, right = self.expr(n.left, scope), self.expr(n.right, scope)
            if n.op == "+" and is_list(left) and is_list(right):
                if not compatible(left, right):
                    self.error(f"cannot join {show(left)} and {show(right)}", n, category="type")
                return left if elem(left) != ANY else right
            for side, t in ((n.left, left), (n.right, right)):
                if t not in (INT, ANY):
                    self.error(f"`{n.op}` needs numbers, but this is {show(t)}", side, category="type")
            return INT
        if isinstance(n, ast.Compare):
            left, right = self.expr(n.left, scope), self.expr(n.right, scope)
            left, right = self._coerce_rank(n.left, left, right), self._coerce_rank(n.right, right, left)
            if not compatible(left, right):
                self.error(f"cannot compare {show(left)} with {show(right)}", n, category="type")
            elif n.op not in ("==", "!=") and not ({left, right} <= {INT, ANY} or {left, right} <= {RANK, ANY}):
                self.error(f"`{n.op}` compares numbers or ranks, not {show(left)}", n, category="type")
            return BOOL
        if isinstance(n, ast.In):
            item, container = self.expr(n.item, scope), self.expr(n.container, scope)
            if item == RANK:
                container = self._coerce_rank(n.container, container, list_of(RANK))
            if container == ZONE or is_list(container):
                if not compatible(item, elem(container)):
                    self.error(f"{show(item)} can never be in {show(container)}", n, category="type")
            elif container != ANY:
                self.error(f"`in` looks into a list or a zone, not {show(container)}", n.container,
                           category="type")
            return BOOL
        if isinstance(n, ast.And):
            self.expect(n.left, scope, BOOL, "each side of `and`")
            self.expect(n.right, scope, BOOL, "each side of `and`")
            return BOOL
        if isinstance(n, ast.Or):
            left, right = self.expr(n.left, scope), self.expr(n.right, scope)
            if left == BOOL or right == BOOL:
                for side, t in ((n.left, left), (n.right, right)):
                    if t not in (BOOL, ANY):
                        self.error(f"each side of `or` must be true/false here, but this is {show(t)}", side,
                                   category="type")
                return BOOL
            if not compatible(left, right):
                self.error(f"`or` picks between two values of one kind, not {show(left)} and {show(right)}", n,
                           category="type")
            return left if left not in (NONE, ANY) else right
        if isinstance(n, ast.Not):
            self.expect(n.operand, scope, BOOL, "what `not` negates")
            return BOOL
        if isinstance(n, ast.Neg):
            self.expect(n.operand, scope, INT, "what `-` negates")
            return INT
        if isinstance(n, ast.IfElse):
            self.expect(n.cond, scope, BOOL, "the condition after `if`")
            a, b = self.expr(n.then, scope), self.expr(n.orelse, scope)
            if not compatible(a, b):
                self.error(f"both branches must be of one kind, not {show(a)} and {show(b)}", n, category="type")
            return a if a not in (NONE, ANY) else b
        self.error("an effect cannot stand where a value is expected", n)
        return ANY

    def _coerce_rank(self, node, t: str, other: str) -> str:
        """`c.rank == 7`, `c.rank in [7, 8]`, `start: 7` for a rank: a written number where a rank
        is wanted is that rank."""
        if t == INT and other == RANK and isinstance(node, ast.Number):
            if not 2 <= node.value <= 10:
                self.error(f"there is no rank {node.value}", node, category="type")
            self.out.refs[id(node)] = ("rank_literal", node.value)
            self.out.types[id(node)] = RANK
            return RANK
        if t == list_of(INT) and other == list_of(RANK) and isinstance(node, ast.ListLit) \
                and all(isinstance(i, ast.Number) or self.out.types.get(id(i)) == RANK for i in node.items):
            for item in node.items:
                if isinstance(item, ast.Number):
                    self._coerce_rank(item, INT, RANK)
            self.out.types[id(node)] = list_of(RANK)
            return list_of(RANK)
        return t

    def _name(self, n: ast.Name, scope: dict) -> str:
        name = n.name
        if name in scope:
            self.out.refs[id(n)] = ("local", name)
            return scope[name]
        if name in CONSTANTS:
            t, value = CONSTANTS[name]
            self.out.refs[id(n)] = ("const", value)
            return t
        if name in STATE_NAMES:
            self.out.refs[id(n)] = ("state", name)
            return STATE_NAMES[name]
        zone = self.spec.zones.get(name)
        if zone is not None:
            if zone.each_player:
                self.error(f"`{name}` belongs to each {'side' if zone.per_side else 'player'}: "
                           f"write `my {name}` or `p.{name}`", n)
                return GRID if zone.grid else ZONE
            if zone.grid:
                self.out.refs[id(n)] = ("grid", name)
                return GRID
            if zone.melds:
                self.out.refs[id(n)] = ("melds_of", None)
                return list_of(ZONE)
            self.out.refs[id(n)] = ("zone", name)
            return ZONE
        var = self.spec.vars.get(name)
        if var is not None:
            if var.each_player:
                self.error(f"`{name}` belongs to each player: write `my {name}` or `p.{name}`", n)
                return var.type or ANY
            self.out.refs[id(n)] = ("var", name)
            return var.type or ANY
        if name == "option":
            self.error("`option` is followed by the option's name, as in `option.hand`", n)
            return ANY
        known = list(scope) + list(CONSTANTS) + list(STATE_NAMES) + list(self.spec.zones) + list(self.spec.vars)
        self.error(f"unknown name `{name}`", n, did_you_mean(name, known), category="name")
        return ANY

    def _attr(self, n: ast.Attr, scope: dict) -> str:
        if isinstance(n.obj, ast.Name) and n.obj.name == "option" and "option" not in scope:
            opt = self.spec.options.get(n.name)
            if opt is None:
                self.error(f"unknown option `{n.name}`", n, did_you_mean(n.name, self.spec.options), category="name")
                return ANY
            self.out.refs[id(n)] = ("option", n.name)
            return {"int": INT, "bool": BOOL, "choice": STR}[opt.type]
        t = self.expr(n.obj, scope)
        if t == ANY:
            return ANY
        if t == CARD:
            return self._lookup(n, CARD_ATTRS, "card")
        if t == ZONE:
            return self._lookup(n, ZONE_ATTRS, "zone")
        if t == GRID:
            return self._lookup(n, GRID_ATTRS, "grid")
        if t == PLAN:
            return self._lookup(n, PLAN_ATTRS, "plan")
        if t == PLAYER:
            if n.name == "side":
                self.out.refs[id(n)] = ("player_side", "side")
                return SIDE
            return self._player_attr(n, n.name)
        if t == SIDE:
            if n.name == "players":
                self.out.refs[id(n)] = ("side_players", "players")
                return list_of(PLAYER)
            return self._player_attr(n, n.name, side=True)
        if is_list(t) and n.name == "size":
            self.out.refs[id(n)] = ("list", "size")
            return INT
        self.error(f"{show(t)} has no `{n.name}`", n, category="type")
        return ANY

    def _lookup(self, n: ast.Attr, table: dict, kind: str) -> str:
        if n.name not in table:
            self.error(f"a {kind} has no `{n.name}`", n, did_you_mean(n.name, table) or
                       f"a {kind} has " + ", ".join(f"`{a}`" for a in table), category="name")
            return ANY
        self.out.refs[id(n)] = (kind, n.name)
        return table[n.name]

    def _player_attr(self, n, name: str, side: bool = False) -> str:
        """`p.hand`, `my penalty`, `s.square`: what each player (or side) owns.

        A player reaches what their side owns too: partners share it."""
        zone = self.spec.zones.get(name)
        owner = "side" if side else "player"
        if zone is not None and zone.each_player and (zone.per_side or not side) and zone.melds:
            self.out.refs[id(n)] = (f"{owner}_melds", name)
            return list_of(ZONE)
        if zone is not None and zone.each_player and (zone.per_side or not side):
            self.out.refs[id(n)] = (f"{owner}_{'grid' if zone.grid else 'zone'}", name)
            return GRID if zone.grid else ZONE
        var = self.spec.vars.get(name)
        if var is not None and var.each_player and (var.per_side or not side):
            self.out.refs[id(n)] = (f"{owner}_var", name)
            return var.type or ANY
        mine = [z for z, spec in self.spec.zones.items() if spec.each_player and (spec.per_side or not side)] + \
               [v for v, spec in self.spec.vars.items() if spec.each_player and (spec.per_side or not side)]
        self.error(f"a {owner} has no `{name}`", n, did_you_mean(name, mine) or
                   (f"each {owner} has " + ", ".join(f"`{m}`" for m in mine) if mine else None), category="name")
        return ANY

    def _comprehension_scope(self, n, scope: dict) -> dict:
        t = self.expr(n.iterable, scope)
        if not (t == ZONE or is_list(t) or t == ANY):
            self.error(f"`for` goes over a list or a zone, not {show(t)}", n.iterable, category="type")
        inner = {**scope, n.var: elem(t)}
        if n.cond is not None:
            self.expect(n.cond, inner, BOOL, "the `if` of a `for`")
        return inner

    def _aggregate(self, n: ast.Aggregate, scope: dict) -> str:
        if n.func not in AGGREGATES:
            self.error(f"`{n.func}(... for ...)` is not an aggregate", n,
                       did_you_mean(n.func, AGGREGATES) or "use " + ", ".join(sorted(AGGREGATES)))
            return ANY
        inner = self._comprehension_scope(n, scope)
        t = self.expr(n.elem, inner)
        return self._reduce_type(n, n.func, t)

    def _reduce_type(self, n, func: str, t: str) -> str:
        if func == "count":
            return INT
        if func in ("any", "all"):
            if t not in (BOOL, ANY):
                self.error(f"`{func}` needs true/false values, not {show(t)}", n, category="type")
            return BOOL
        if t not in (INT, ANY):
            self.error(f"`{func}` needs numbers, not {show(t)}", n, category="type")
        return INT

    def _call(self, n: ast.Call, scope: dict) -> str:
        name, args = n.func, n.args
        if name in self.spec.functions:
            fn = self.spec.functions[name]
            params = fn.signature.params
            if len(args) != len(params):
                self.error(f"`{name}` takes {len(params)} argument{'s' * (len(params) != 1)}, "
                           f"not {len(args)}", n, category="arity")
            for arg, p in zip(args, params):
                self.expect(arg, scope, TYPE_NAMES.get(p.type, ANY), f"argument `{p.name}` of `{name}`")
            self.out.refs[id(n)] = ("function", name)
            return self._function_type(name)
        if name not in BUILTINS:
            self.error(f"unknown function `{name}`", n, did_you_mean(name, BUILTINS | set(self.spec.functions)),
                       category="name")
            for a in args:
                self.expr(a, scope)
            return ANY
        self.out.refs[id(n)] = ("builtin", name)

        def arity(k: int) -> bool:
            if len(args) != k:
                self.error(f"`{name}` takes {k} argument{'s' * (k != 1)}, not {len(args)}", n, category="arity")
                for a in args:
                    self.expr(a, scope)
                return False
            return True

        if name == "value":
            if arity(1):
                self.expect(args[0], scope, CARD, "the argument of `value`")
            return INT
        if name in ("next", "prev"):
            if arity(1):
                self.expect(args[0], scope, PLAYER, f"the argument of `{name}`")
            return PLAYER
        if name == "abs":
            if arity(1):
                self.expect(args[0], scope, INT, "the argument of `abs`")
            return INT
        if name == "top":
            if arity(2):
                self.expect(args[0], scope, ZONE, "the first argument of `top`")
                self.expect(args[1], scope, INT, "the second argument of `top`")
            return list_of(CARD)
        if name in PATTERN_FUNCTIONS:
            if not self.spec.patterns:
                self.error(f"`{name}` needs `patterns:` (write them, or `import: [poker]`)", n, category="name")
            k = 1 if name == "hand_pattern" else 2
            if arity(k):
                for a in args:
                    t = self.expr(a, scope)
                    if t not in (ZONE, list_of(CARD), ANY) and not (is_list(t) and elem(t) == ANY):
                        self.error(f"`{name}` looks at cards: a zone or a list of cards, not {show(t)}", a,
                                   category="type")
            return STR if name == "hand_pattern" else INT
        if name in MELD_FUNCTIONS:
            if not self.spec.meld_kinds:
                self.error(f"`{name}` needs `melds:` kinds and a zone with `melds: true`", n)
            if arity(1):
                t = self.expr(args[0], scope)
                if t not in (ZONE, list_of(CARD), ANY) and not (is_list(t) and elem(t) == ANY):
                    self.error(f"`{name}` looks at cards: a zone or a list of cards, not {show(t)}", args[0],
                               category="type")
            return INT if name == "best_points" else list_of(PLAN)
        if name == "winner":
            if arity(2):
                self.expect(args[0], scope, ZONE, "the first argument of `winner` (the trick)")
                self.expect(args[1], scope, SUIT, "the second argument of `winner` (the trump suit)")
            return PLAYER
        # count, sum, any, all, max, min over a list, or max/min of several numbers
        if name in ("max", "min") and len(args) >= 2:
            for a in args:
                self.expect(a, scope, INT, f"each argument of `{name}`")
            return INT
        if not arity(1):
            return INT if name not in ("any", "all") else BOOL
        t = self.expr(args[0], scope)
        if t != ANY and t != ZONE and not is_list(t):
            self.error(f"`{name}` needs a list or a zone, not {show(t)}", args[0], category="type")
            return self._reduce_type(n, name, ANY)
        return self._reduce_type(n, name, elem(t) if t != ANY else ANY)


def check(spec: Spec) -> tuple[Checked, list[RuleError]]:
    checker = Checker(spec)
    out = checker.run()
    errors = sorted(checker.errors, key=lambda e: (e.span.file, e.span.line, e.span.col))
    return out, errors
