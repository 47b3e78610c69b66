"""The static checker: every name resolved, every type and arity checked.

It walks the whole Spec and reports all errors it finds, each located in the
rule file, and returns the rules as a resolved tree (resolved.py) for the
compiler. It does not change the Spec.
"""
from __future__ import annotations

import re
from typing import Callable

from koloda.dsl import ast
from koloda.dsl import resolved as R
from koloda.dsl.builtins import STATIC_CARD_ATTRS, STATIC_FUNCTIONS
from koloda.dsl.check_lists import ListChecks
from koloda.dsl.check_effects import ControlChecks
from koloda.dsl.check_together import check_together
from koloda.dsl.clashes import clash, without_echoes
from koloda.dsl.decklist import static_ranks
from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.fixed import MOST_NUMBERS, count_of, fixed_span, too_many_numbers
from koloda.dsl.model import RESERVED, VAR_TYPES, DeckSpec, PhaseSpec, Spec
from koloda.dsl import nomoves
from koloda.dsl.params import combo_domain, uncoded_numbers, word_domain
from koloda.dsl.resolve import Resolver, Scope
from koloda.dsl.types import (ANY, BOOL, CARD, COMBO, CONSTANTS, DECKS, FRAC, INT, NONE, PARAM_TYPES, PLAN, PLAYER,
                              RANK, STR, SUIT, TYPE_NAMES, ZONE, assignable, compatible, elem, enum_words, is_enum,
                              is_list, is_number, list_of, show)

class Checker(Resolver, ControlChecks, ListChecks):
    def __init__(self, spec: Spec, var_types: dict[str, str] | None = None,
                 functions: dict[str, R.Function] | None = None):
        super().__init__(spec, dict(var_types or {}), functions)
        self.errors = list(spec.errors)
        self.steps: set[str] | None = None
        # step -> the actions it lists, in the phase being checked: an open window names its pass among them
        self.step_actions: dict[str, set[str]] = {}
        self.warnings: list[RuleError] = []
        self._effect_dispatch: dict[type, Callable[[ast.Node, Scope], R.Effect | None]] = {}
        self.procedures: dict[str, R.Procedure] = {}
        self._proc_stack: list[str] = []
        self.collecting: list[tuple[str, Span]] | None = None
        self.in_event = False
        self.rounds = 1

    # ------------------------------------------------------------ whole file
    def run(self) -> R.Rules:
        s = self.spec
        starts = self._variables()
        for fn in s.functions.values():
            self.function(fn.signature.name)
        for name in s.procedures:
            self.procedure(name)
        wild = None
        if s.wild is not None:
            wild = self.expect(s.wild, {"c": CARD}, BOOL, "`wild` (a condition on the card `c`)")
            self._card_alone(wild)
        setup = self.effects(s.setup, {})
        deal = self.effects(s.deal, {})
        self.in_event = True
        events = tuple(R.Event(e.name, self.expect(e.when, {}, BOOL, f"the condition of event `{e.name}`"),
                               self.effects(e.effects, {})) for e in s.events)
        self.in_event = False
        phases = tuple(self._phase(phase) for phase in s.phases)
        m = s.match
        rules = R.Rules(
            spec=s, var_types=dict(self.var_types), var_starts=starts, functions=dict(self.functions),
            setup=setup, deal=deal, events=events, phases=phases,
            deal_ends=self._optional(s.deal_ends, {}, BOOL, "`deal ends`"),
            scoring=self.effects(s.scoring, {}),
            show={label: self.expr(node, self._viewer()) for label, node in s.show.items()},
            heuristic=self._optional(s.heuristic, {"p": PLAYER, **self._viewer()}, FRAC,
                                     "`heuristic` (with `p` the player)"),
            counters={name: self.expect(node, {}, BOOL, f"counter `{name}`") for name, node in s.counters.items()},
            match_ends=self._optional(m.ends, {}, BOOL, "`match: ends`"),
            match_score=self._optional(m.score, {"p": PLAYER}, FRAC, "`match: score` (with `p` the player)"),
            match_won=self._optional(m.won, {"p": PLAYER}, BOOL, "`match: won` (with `p` the player)"),
            first_dealer=self._optional(m.first_dealer, {}, PLAYER, "`first dealer`"),
            wild=wild, next_dealer=self._optional(m.next_dealer, {}, PLAYER, "`next dealer`"),
            turn_cap=self._optional(s.turn_cap, {}, INT, "`turn cap` (the most turns a deal may last)"),
            procedures=dict(self.procedures),
            house_score=self._optional(m.house_score, {}, FRAC, "`match: house score`"))
        self._house(m)
        if m.next_dealer is not None and not m.rotate:
            self.error("`next dealer:` says who deals next, and `dealer rotates: false` that the dealer stays: "
                       "give one of them", m.next_dealer, "to keep the dealer, write `next dealer: dealer`")
        self._runaways(rules)
        for call in nomoves.misplaced(rules):
            self.error("`no_moves()` is asked only in `deal ends:`: it lists the moves of the decision that "
                       "comes next, which only an action that is over has", call,
                       "write it in `deal ends:` itself (`deal ends: no_moves()`), not in a function, guard or effect",
                       category="type")
        check_together(s, rules, lambda message, where, hint: self.error(message, where, hint))
        return rules

    def _house(self, m) -> None:
        """A game against the house names the house (`house:`) and the score players are judged against
        (`house score:`): one without the other is a mistake, told where it is written."""
        house = self.spec.house
        if m.house_score is not None and house is None:
            self.error("`house score:` judges each player against the house, but the file declares no house",
                       m.house_score, "declare it at the top level: `house: {label: dealer}`")
        elif house is not None and m.house_score is None:
            self.error("a game against the house needs `match: house score:`, the score each player's "
                       "`match: score` is judged against", house.span,
                       "for a player's winnings from the house, write `score: p.won` and `house score: 0`")

    def _viewer(self) -> Scope:
        """`show:` values are worked out for each player who looks, and `heuristic` for the player whose
        bot judges: `viewer` is that player (unless the file already gives the name `viewer` a meaning
        of its own, which it keeps)."""
        s = self.spec
        if "viewer" in s.vars or "viewer" in s.zones or "viewer" in s.functions:
            return {}
        return {"viewer": PLAYER}

    def _optional(self, node: ast.Node | None, scope: Scope, want: str, what: str) -> R.Expr | None:
        return None if node is None else self.expect(node, scope, want, what)

    def _variables(self) -> dict[str, R.Expr | None]:
        """Each variable's type (declared, or that of its start) and its resolved start."""
        starts: dict[str, R.Expr | None] = {}
        for var in self.spec.vars.values():       # a declared type is known before any start is read
            if var.type is not None:
                self.var_types[var.name] = var.type
        for var in self.spec.vars.values():
            declared = TYPE_NAMES.get(var.type, var.type) if var.type is not None else None
            start = None
            t = declared
            if var.start is not None:
                start = self.word_for(var.start, {}, declared) if declared is not None else self.expr(var.start, {})
                if declared is not None:
                    start = self.coerce_rank(var.start, start, declared)
                if declared is None:
                    t = start.type if start.type not in (NONE, ANY) else None
                elif start.type != ANY and not assignable(declared, start.type):
                    self.error(f"`{var.name}` is {show(declared)} but starts as {show(start.type)}", var.start,
                               category="type")
            if start is None and t is not None and is_list(t):
                start = R.ListLit(var.span, t, ())       # a list variable starts empty
            if t is None:
                self.error(f"variable `{var.name}` needs a `type:` (one of {', '.join(VAR_TYPES)})", var.span,
                           category="type")
                t = ANY
            self.var_types[var.name] = var.type if var.type is not None else t
            starts[var.name] = start
        return starts

    # ------------------------------------------------------------ games that may never end
    def warn(self, message: str, where: ast.Node | R.Node | Span) -> None:
        span = where if isinstance(where, Span) else where.span
        self.warnings.append(RuleError(f"warning: {message}", span, category="warning"))

    def _runaways(self, rules: R.Rules) -> None:
        """What can be seen without playing of a deal or a phase that can never end (warnings: a
        file may still mean it, and play stops a runaway game with a report anyway)."""
        if rules.deal_ends is not None and self._constant(rules.deal_ends):
            self.warn("`deal ends` reads nothing of the game, so it is always true or always false", rules.deal_ends)
        if rules.match_ends is not None and self._constant(rules.match_ends):
            self.warn("`match: ends` reads nothing of the game, so it is always true or always false",
                      rules.match_ends)
        for phase, spec in zip(rules.phases, self.spec.phases):
            never = set()
            for action in phase.actions.values():
                if action.guard is not None and _always_false(action.guard):
                    never.add(action.name)
                    self.warn(f"action `{action.name}` can never be taken: its `if:` is always false",
                              action.guard)
            for step, listed in phase.steps.items():
                if all(name in never for name in listed if name in phase.actions):
                    self.warn(f"step `{step}` of phase `{phase.name}` never offers a move: a player who "
                              "reaches it is stuck", spec.span)
        if rules.deal_ends is not None or self._anywhere(rules, R.EndDeal):
            return
        for phase, spec in zip(rules.phases, self.spec.phases):
            if phase.ends is None and not phase.once:
                self.warn(f"nothing ends phase `{phase.name}`: it has no `ends:` or `turns: once`, no action "
                          "or event does `end deal`, and the file has no `deal ends`", spec.span)

    def _numbers(self, var: str, domain: R.Expr) -> None:
        """A number parameter from a range or a list fixed before play (with the options' defaults) has
        at most MOST_NUMBERS values: its ids are its places in the range (interpreter/core/codec.py)."""
        defaults = {name: o.default for name, o in self.spec.options.items()}
        fixed = fixed_span(domain, defaults, {})
        if fixed is not None and count_of(fixed) > MOST_NUMBERS:
            message, hint = too_many_numbers(var, count_of(fixed), isinstance(domain, R.ListLit))
            self.error(message, domain, hint, category="type")
        self.errors += uncoded_numbers(var, domain, self.spec)

    def _constant(self, node: R.Expr) -> bool:
        """True if the expression reads nothing that changes during play."""
        return all(isinstance(n, (R.Const, R.Option, R.ListLit, R.Range, R.Arith, R.Compare, R.And, R.Or, R.Not,
                                  R.Neg, R.IfElse, R.Contains))
                   or isinstance(n, R.StateValue) and n.name in ("player_count", "deck_size", "suits", "ranks")
                   for n in R.walk(node))

    @staticmethod
    def _anywhere(rules: R.Rules, cls: type) -> bool:
        effects = [*rules.setup, *rules.deal, *rules.scoring, *(e for ev in rules.events for e in ev.effects),
                   *(e for p in rules.procedures.values() for e in p.body)]
        for phase in rules.phases:
            effects += [*phase.start, *phase.after_turn, *(e for a in phase.actions.values() for e in a.effects)]
        return any(isinstance(n, cls) for e in effects for n in R.walk(e))

    def _card_alone(self, node: R.Expr) -> None:
        """`wild:` is worked out once per card at load, before any deal: it may read the card, the
        options and constants, but not the state of play."""
        for n in R.walk(node):
            if isinstance(n, R.UserCall):
                self._card_alone(self.functions[n.name].body)
            ok = isinstance(n, (R.Const, R.Option, R.Local, R.ListLit, R.ListComp, R.Flatten, R.Aggregate, R.Range, R.Arith,
                                R.Compare, R.Contains, R.And, R.Or, R.Not, R.Neg, R.IfElse, R.Index, R.UserCall,
                                R.ListAttr)) \
                or isinstance(n, R.CardAttr) and n.name in STATIC_CARD_ATTRS \
                or isinstance(n, R.BuiltinCall) and n.name in STATIC_FUNCTIONS
            if not ok:
                self.error("`wild` is decided by the card alone (its rank, suit, colour or deck, the options): "
                           "it cannot read the state of play", n, "write it with `c.rank`, `c.suit`, `c.color`, "
                           "`c.deck`, `value(c)` and `option.NAME`", category="type")
                return

    # ------------------------------------------------------------ phases and actions
    def _phase(self, phase: PhaseSpec) -> R.Phase:
        first = self._optional(phase.first, {}, PLAYER, f"`first` of phase `{phase.name}`")
        ends = self._optional(phase.ends, {}, BOOL, f"`ends` of phase `{phase.name}`")
        start = self.effects(phase.start, {})
        after_turn = self.effects(phase.after_turn, {})
        for step, listed in phase.steps.items():
            for listed_name, span in listed:
                if listed_name not in phase.actions:
                    self.error(f"step `{step}` lists unknown action `{listed_name}`", span,
                               did_you_mean(listed_name, phase.actions), category="name")
        self.steps = set(phase.steps)
        self.step_actions = {step: {name for name, _ in listed} for step, listed in phase.steps.items()}
        actions: dict[str, R.Action] = {}
        for action in phase.actions.values():
            mark = len(self.errors)
            scope: Scope = {}
            params = []
            clashing = [clash(b.var, "parameter", b.span) for b in action.params
                        if b.var in RESERVED or b.var in CONSTANTS]
            unread: set[tuple[str, int]] = set()
            for binding in action.params:
                domain = self.expr(binding.domain, scope)
                t = domain.type
                pt = ANY
                if t == ZONE or is_list(t):
                    pt = elem(t)
                    if pt == STR:           # a word parameter: `g in ["grand", "null"]`
                        pt, domain, wrong = word_domain(binding.var, domain)
                        self.errors += wrong
                        if pt == STR:       # no words to check its uses by: only what is wrong where it is bound
                            unread.add((binding.span.file, binding.span.line))
                    elif pt not in PARAM_TYPES and pt != ANY:
                        self.error(f"a parameter cannot range over {show(t)}", binding.domain, category="type")
                    elif pt == COMBO:
                        self.errors += combo_domain(binding.var, domain)
                elif t != ANY:
                    self.error(f"`{binding.var}` must range over a zone or a list, not {show(t)}", binding.domain,
                               category="type")
                scope = {**scope, binding.var: pt}
                if pt == INT:
                    self._numbers(binding.var, domain)
                params.append(R.Param(binding.var, pt, domain))
            text_values = self.text_values(action, scope)
            help_values = self.help_values(action, scope)
            what = f"the `if:` of action `{action.name}`"
            guard = self._optional(action.guard, scope, BOOL, what)
            conditions = tuple((self.expect(node, scope, BOOL, what), text) for node, text in action.conditions)
            for part, _ in conditions:
                guard = part if guard is None else R.And(part.span, BOOL, guard, part)
            effects = self.effects(action.effects, scope)
            self.errors[mark:] = _unbound(action.name, self.errors[mark:], set(scope))
            if clashing:        # its uses read the language's own word: told once, where it is bound (clashes.py)
                self.errors[mark:] = clashing[:1]
            elif unread:
                self.errors[mark:] = [e for e in self.errors[mark:] if (e.span.file, e.span.line) in unread]
            actions[action.name] = R.Action(action.name, tuple(params), guard, effects, action.text, action.span,
                                            conditions, text_values, help_values)
        self.steps = None
        steps = {step: tuple(name for name, _ in listed) for step, listed in phase.steps.items()}
        when = self._optional(phase.when, {}, BOOL, f"the `if:` of phase `{phase.name}`")
        return R.Phase(phase.name, first, phase.once, ends, start, after_turn, actions, steps, when, phase.together)

    # ------------------------------------------------------------ effects
    def effects(self, effects: tuple[ast.Node, ...], scope: Scope) -> tuple[R.Effect, ...]:
        scope = dict(scope)       # a `let` is seen by the effects after it, not outside the list
        out = []
        for e in effects:
            r = self.effect(e, scope)
            if r is not None:
                out.append(r)
        return tuple(out)

    def effect(self, e: ast.Node, scope: Scope) -> R.Effect | None:
        cls = type(e)
        method = self._effect_dispatch.get(cls)
        if method is None:
            method = getattr(self, "_do_" + cls.__name__, None) or self._not_an_effect
            self._effect_dispatch[cls] = method
        return method(e, scope)

    def _not_an_effect(self, e: ast.Node, scope: Scope) -> None:
        self.error("this is not an effect", e)      # an expression where an effect was expected

    def _do_Move(self, e: ast.Move, scope: Scope) -> R.Effect:
        what = self.expr(e.what, scope)
        t = what.type
        if t not in (CARD, ZONE, list_of(CARD), ANY, NONE) and not (is_list(t) and elem(t) == ANY):
            self.error(f"`move` takes a card, a list of cards or a zone, not {show(t)}", e.what, category="type")
        dest = self.expect(e.dest, scope, ZONE, "where cards move to")
        return R.Move(e.span, what, dest, e.face_down, e.under)

    def _do_Meld(self, e: ast.Meld, scope: Scope) -> R.Effect:
        plan = self.expect(e.plan, scope, PLAN, "what `meld` carries out")
        if not self.spec.meld_kinds:
            self.error("`meld` needs `melds:` kinds and a zone with `melds: true`", e)
        return R.Meld(e.span, plan)

    def _do_Shuffle(self, e: ast.Shuffle, scope: Scope) -> R.Effect:
        return R.Shuffle(e.span, self.expect(e.zone, scope, ZONE, "what is shuffled"))

    def _do_Gather(self, e: ast.Gather, scope: Scope) -> R.Effect:
        return R.Gather(e.span, self.expect(e.dest, scope, ZONE, "where the cards are gathered"))

    def _do_Deal(self, e: ast.Deal, scope: Scope) -> R.Effect:
        count = self.expect(e.count, scope, INT, "the number of cards dealt")
        zone = self.spec.zones.get(e.family)
        if zone is None:
            self.error(f"unknown zone `{e.family}`", e, did_you_mean(e.family, self.spec.zones), category="name")
        elif not zone.each_player or zone.grid or zone.per_side:
            self.error(f"`deal ... to each {e.family}` needs a zone with `each: player`", e)
        source: R.Expr
        if e.source is not None:
            source = self.expect(e.source, scope, ZONE, "where cards are dealt from")
        elif "stock" not in self.spec.zones:
            self.error("`deal` without `from` deals from `stock`, and there is no zone `stock`", e)
            source = R.Invalid(e.span, ZONE)
        else:
            source = R.ZoneRef(e.span, ZONE, "stock")
        self._check_deal_size(e)
        return R.Deal(e.span, count, e.family, source)

    def _do_Assign(self, e: ast.Assign, scope: Scope) -> R.Effect | None:
        if e.op in ("append", "remove") or isinstance(e.target, ast.TargetItem):
            return self.list_change(e, scope)
        target = self.target(e.target, scope)
        value = self.coerce_rank(e.value, self.word_for(e.value, scope, target.type), target.type)
        tt, vt = target.type, value.type
        if e.op != "=":
            if not is_number(tt) and tt != ANY:
                self.error(f"`{e.op}` needs a number, but the target is {show(tt)}", e.target, category="type")
            if not is_number(vt) and vt != ANY:
                self.error(f"`{e.op}` needs a number, but this is {show(vt)}", e.value, category="type")
            elif tt == INT and vt == FRAC:
                self._fraction_into_whole(tt, e.value)
        elif tt == INT and vt == FRAC:
            self._fraction_into_whole(tt, e.value)
        elif ANY not in (tt, vt) and not assignable(tt, vt) and not (is_enum(tt) and is_enum(vt)):
            self.error(f"cannot set {show(tt)} to {show(vt)}", e.value, category="type")
        elif is_enum(tt) and is_enum(vt) and not set(enum_words(vt)) <= set(enum_words(tt)):
            missing = ", ".join(w for w in enum_words(vt) if w not in enum_words(tt))
            self.error(f"this may be {missing}, which {'is' if ',' not in missing else 'are'} not among the "
                       f"words of the target ({', '.join(enum_words(tt))})", e.value,
                       "give the target those words too, or leave them out of the list", category="type")
        if not isinstance(target, (R.VarRef, R.OwnedVar)):
            return None
        return R.Assign(e.span, target, e.op, value)

    def _fraction_into_whole(self, target: str, value: ast.Node) -> None:
        self.error("this may be a fraction, and the variable holds whole numbers", value,
                   "declare it `type: fraction`, or round with `//` (`pot // 2`)", category="type")

    def _do_Score(self, e: ast.Score, scope: Scope) -> R.Effect | None:
        target = self.target(e.target, scope)
        if not is_number(target.type) and target.type != ANY:
            self.error(f"`score:` adds numbers, but the target is {show(target.type)}", e.target, category="type")
        part = FRAC if target.type == FRAC else INT
        values = tuple(self.expect(v, scope, part, f"the part `{label}`") for label, v in zip(e.labels, e.values))
        if not isinstance(target, (R.VarRef, R.OwnedVar)):
            return None
        return R.Score(e.span, target, e.labels, values)

    def _do_Let(self, e: ast.Let, scope: Scope) -> R.Effect:
        value = self.expr(e.value, scope)
        scope[e.name] = value.type
        return R.Let(e.span, e.name, value)

    def _check_step(self, e: ast.Goto | ast.Ask | ast.AskWindow, what: str) -> None:
        if self.collecting is not None:       # in a procedure: checked where it is run
            self.collecting.append((e.step, e.span))
        elif self.steps is None:
            self.error(what, e)
        elif e.step not in self.steps:
            self.error(f"unknown step `{e.step}`", e, did_you_mean(e.step, self.steps), category="name")

    def _do_Goto(self, e: ast.Goto, scope: Scope) -> R.Effect:
        self._check_step(e, "`goto` is only for actions, to choose the next step of the turn")
        return R.Goto(e.span, e.step)

    def _do_Ask(self, e: ast.Ask, scope: Scope) -> R.Effect:
        player = self.expr(e.player, scope)
        if player.type not in (PLAYER, list_of(PLAYER), ANY, NONE):
            self.error(f"`ask` asks a player or a list of players (in turn), not {show(player.type)}", e.player,
                       category="type")
        self._check_step(e, "`ask` is only for actions: it hands one decision to another player")
        return R.Ask(e.span, player, e.step)

    def _do_AskWindow(self, e: ast.AskWindow, scope: Scope) -> R.Effect:
        players = self.expr(e.players, scope)
        if players.type not in (list_of(PLAYER), ANY):
            self.error(f"an open window asks a list of players (`others`, `[a, b]`), not {show(players.type)}",
                       e.players, category="type")
        self._check_step(e, "`ask … until all pass` is only for actions: it opens a window of decisions")
        listed = self.step_actions.get(e.step) if self.steps is not None else None
        if listed is not None and e.passing not in listed:
            self.error(f"step `{e.step}` has no action `{e.passing}`: `until all {e.passing}` names the action "
                       f"by which a player passes in the window", e.passing_span,
                       did_you_mean(e.passing, sorted(listed))
                       or "it lists " + ", ".join(f"`{name}`" for name in sorted(listed)), category="name")
        closes = self._optional(e.closes, scope, BOOL, "the `or` condition that closes the window")
        return R.AskWindow(e.span, players, e.step, e.passing, closes)

    def _do_TurnTo(self, e: ast.TurnTo, scope: Scope) -> R.Effect:
        return R.TurnTo(e.span, self.expect(e.player, scope, PLAYER, "`turn to` and `skip` take a player, and this"))

    def _do_Skip(self, e: ast.Skip, scope: Scope) -> R.Effect:
        return R.Skip(e.span, self.expect(e.player, scope, PLAYER, "`turn to` and `skip` take a player, and this"))

    def _do_If(self, e: ast.If, scope: Scope) -> R.Effect:
        cond = self.expect(e.cond, scope, BOOL, "the `if:` condition")
        return R.If(e.span, cond, self.effects(e.then, scope), self.effects(e.orelse, scope))

    def _do_For(self, e: ast.For, scope: Scope) -> R.Effect:
        iterable = self.expr(e.iterable, scope)
        t = iterable.type
        if not (t == ZONE or is_list(t) or t == ANY):
            self.error(f"`for` goes over a list or a zone, not {show(t)}", e.iterable, category="type")
        return R.For(e.span, e.var, iterable, self.effects(e.body, {**scope, e.var: elem(t)}))

    def _do_EndDeal(self, e: ast.EndDeal, scope: Scope) -> R.Effect:
        return R.EndDeal(e.span)

    def _do_EndTurn(self, e: ast.EndTurn, scope: Scope) -> R.Effect:
        return R.EndTurn(e.span)

    # ------------------------------------------------------------ what players are told
    def _audience(self, node: ast.Node | None, scope: Scope, what: str) -> R.Expr | None:
        if node is None:
            return None
        to = self.expr(node, scope)
        if to.type not in (PLAYER, list_of(PLAYER), ANY) and not (is_list(to.type) and elem(to.type) == ANY):
            self.error(f"`{what}` tells a player, a list of players or `all`, not {show(to.type)}", node,
                       "write `to all`, `to p` or `to [p for p in players if ...]`", category="type")
        return to

    def _do_Say(self, e: ast.Say, scope: Scope) -> R.Effect:
        values = tuple(self.expr(v, scope) for v in e.values)
        for node, value in zip(e.values, values):
            if value.type == PLAN or is_list(value.type) and elem(value.type) == PLAN:
                self.error(f"`say` writes values as text, and {show(value.type)} has no short text", node,
                           category="type")
        return R.Say(e.span, e.parts, values, self._audience(e.to, scope, "say"))

    def _do_Reveal(self, e: ast.Reveal, scope: Scope) -> R.Effect:
        what = self.expr(e.what, scope)
        t = what.type
        if t not in (CARD, ZONE, list_of(CARD), ANY) and not (is_list(t) and elem(t) == ANY):
            self.error(f"`reveal` shows a card, a list of cards or a zone, not {show(t)}", e.what, category="type")
        return R.Reveal(e.span, what, self._audience(e.to, scope, "reveal"))

    def _do_Tell(self, e: ast.Tell, scope: Scope) -> R.Effect:
        zone = self.expect(e.zone, scope, ZONE, "what a fact is about (the zone that holds the cards)")
        value = self.expr(e.value, scope)
        if isinstance(e.value, ast.Number):
            value = self.coerce_rank(e.value, value, RANK)
        if value.type not in (RANK, SUIT, ANY):
            self.error(f"a fact says that a zone holds a rank or a suit, not {show(value.type)}", e.value,
                       "write `p.hand holds r` with `r` a rank (`c.rank`, `7`, `Q`) or a suit (`hearts`)",
                       category="type")
        return R.Tell(e.span, self._audience(e.to, scope, "tell"), zone, e.holds, value)

    def _do_ReverseDirection(self, e: ast.ReverseDirection, scope: Scope) -> R.Effect:
        return R.ReverseDirection(e.span)

    # ------------------------------------------------------------ deals that cannot fit
    def _check_deal_size(self, e: ast.Deal) -> None:
        """Catch a deal that can never fit in the deck, whatever the options."""
        counts = self._constant_values(e.count)
        size = self._largest_deck()
        if counts and size:
            most = max(counts) * self.spec.max_players
            if most > size:
                self.error(f"dealing {max(counts)} cards to each of {self.spec.max_players} players needs "
                           f"{most} cards, but the deck holds {size}", e, category="deal")

    def _constant_values(self, node: ast.Node) -> list[int]:
        if isinstance(node, ast.Number):
            return [node.value]
        if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.name == "option":
            opt = self.spec.options.get(node.name)
            if opt is not None and opt.type == "int":
                return [c for c in (opt.choices or [opt.default]) if isinstance(c, int)]
        return []

    def _largest_deck(self) -> int | None:
        parts = [part for _, part in self.spec.deck.named] or [self.spec.deck]
        sizes = [self._largest(part) for part in parts]
        return None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None)

    def _largest(self, d: DeckSpec) -> int | None:
        if d.rank_items is not None or d.listed:      # a deck built from a list: its size, where it is fixed
            fixed = d.listed and all(static_ranks(s.ranks) is not None for s in d.suit_list)
            return d.size({}, 1) if fixed and isinstance(d.copies, int) and isinstance(d.jokers, int) else None
        bases = [d.base]
        if isinstance(d.base, str) and d.base.startswith("option."):
            opt = self.spec.options.get(d.base[7:])
            bases = list(opt.choices) if opt and opt.choices else []
        sizes = [DECKS[b] for b in bases if isinstance(b, str) and b in DECKS]
        if not sizes or not isinstance(d.copies, int) or not isinstance(d.jokers, int):
            return None
        return max(sizes) * d.copies + d.jokers


def _always_false(node: R.Expr) -> bool:
    """A condition written so that it can never hold: `false`, `not true`, `false and …`."""
    if isinstance(node, R.Const):
        return node.value is False
    if isinstance(node, R.Not):
        return isinstance(node.operand, R.Const) and node.operand.value is True
    if isinstance(node, R.And):
        return _always_false(node.left) or _always_false(node.right)
    if isinstance(node, R.Or):
        return _always_false(node.left) and _always_false(node.right)
    return False


def check(spec: Spec) -> tuple[R.Rules, list[RuleError]]:
    """The resolved rules and every error; warnings are in `rules.warnings`."""
    checker = Checker(spec)
    rules = checker.run()
    errors = sorted(without_echoes(checker.errors, spec.echoes), key=lambda e: (e.span.file, e.span.line, e.span.col))
    rules.warnings.extend(sorted(checker.warnings, key=lambda e: (e.span.file, e.span.line, e.span.col)))
    return rules, errors


_UNKNOWN = re.compile(r"unknown name `([^`]+)`$")
_SHOWN = re.compile(r"`text:` of `[^`]+` shows `\{([^`{}]+)\}`")


def _unbound(action: str, errors: list[RuleError], bound: set[str]) -> list[RuleError]:
    """An action's errors, with a name it uses in several places but never binds (a `with:` taken out)
    told once, where it is first used, with the way to bind it, in place of an error at every use."""
    uses: dict[str, list[RuleError]] = {}
    for e in errors:
        m = _UNKNOWN.match(e.message)
        if m and e.hint is None and m.group(1) not in bound:      # not a typo of a known name
            uses.setdefault(m.group(1), []).append(e)
    shown = {m.group(1) for e in errors if (m := _SHOWN.match(e.message))}
    unbound = {name for name, found in uses.items() if len(found) > 1 or name in shown}
    if not unbound:
        return errors
    out = []
    for e in errors:
        m = _UNKNOWN.match(e.message) or _SHOWN.match(e.message)
        name = m.group(1) if m else None
        if name not in unbound:
            out.append(e)
            continue
        first = uses.get(name, [e])[0]
        if e is first:
            count = len(uses.get(name, []))
            out.append(RuleError(f"unknown name `{name}`: action `{action}` uses it"
                                 + (f" {count} times" if count > 1 else "") + " but never binds it", e.span,
                                 f"bind it with `with:`, as in `with: {name} in my hand`", category="name"))
    return out
