"""Effects -> closures: one `_do_<Class>` method per resolved effect class.

A part of the Compiler (compile.py), kept apart because effects change the
state where expressions only read it. Every effect runs inside a wrapper
that turns a Python failure into a rule error located in the file.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import INT, SUIT, ZONE, is_list
from koloda.interpreter.control import ControlEffects
from koloda.interpreter.effect_runtime import add_score
from koloda.interpreter.env import TOP, Env, Fn
from koloda.interpreter.errors import RuleRuntimeError, located
from koloda.interpreter.knowledge import RANK_FACT, SUIT_FACT, audience, is_true, told
from koloda.interpreter.layout import Layout
from koloda.interpreter.watch import ALL
from koloda.interpreter.window import END_TURN, Window
from koloda.interpreter.work import checked_number, counted

_MISSING = object()
_ARITH_UPDATE = {"+=": operator.add, "-=": operator.sub, "*=": operator.mul}


def _nothing(s: Any, b: dict) -> None:
    return None


class EffectCompiler(ControlEffects):
    layout: Layout
    var_dirt: dict[str, int]
    windows: list[Window]       # the open windows compiled so far: their effects name them by index

    # provided by the Compiler
    def method(self, cls: type, prefix: str) -> Callable[[Any, Env], Fn]:
        raise NotImplementedError

    def expr(self, n: R.Expr, env: Env) -> Fn:
        raise NotImplementedError

    def sequence(self, node: R.Expr, env: Env) -> Fn:
        raise NotImplementedError

    def owner_index(self, n: R.Owned, env: Env) -> Fn:
        raise NotImplementedError

    # ------------------------------------------------------------ lists of effects
    def effects(self, nodes: tuple[R.Effect, ...], env: Env = TOP) -> Fn:
        steps = [self.effect(e, env) for e in nodes]
        if not steps:
            return _nothing
        if len(steps) == 1:
            return steps[0]

        def run_all(s, b):
            for step in steps:
                step(s, b)
        return run_all

    def effect(self, e: R.Effect, env: Env) -> Fn:
        return located(self.method(type(e), "_do_")(e, env), e.span, "this effect failed")

    # ------------------------------------------------------------ cards
    def _do_Move(self, e: R.Move, env: Env) -> Fn:
        what, dest, kind, span = self.expr(e.what, env), self.expr(e.dest, env), e.what.type, e.span
        face_up, under = not e.face_down, e.under
        public = self.layout.public       # what leaves these zones is noted for the table, before it moves

        def move(s, b):
            target = dest(s, b)
            x = what(s, b)
            if kind == ZONE:
                s.move_zone(x, target, s.actor, face_up, under)
                return
            if is_list(kind):
                cards = list(x)
                loc = s.loc
                leaving = [c for c in cards if loc[c] >= 0 and public[loc[c]]]
                if leaving:
                    s.note_leaving(leaving, target)
            else:
                if x is None:
                    raise RuleRuntimeError("there is no card to move", span)
                cards = [x]
                if s.loc[x] >= 0 and public[s.loc[x]]:
                    s.note_leaving(cards, target)
            who = s.actor
            for c in (reversed(cards) if under else cards):      # under: the cards keep their order
                s.move(c, target, who, face_up, under)
        return move

    def _do_Meld(self, e: R.Meld, env: Env) -> Fn:
        plan, span = self.expr(e.plan, env), e.span

        def meld(s, b):
            p = plan(s, b)
            if p is None:
                raise RuleRuntimeError("nothing to meld", span)
            s.meld(p, s.actor)
        return meld

    def _do_Shuffle(self, e: R.Shuffle, env: Env) -> Fn:
        zone = self.expr(e.zone, env)
        return lambda s, b: s.shuffle(zone(s, b))

    def _do_Gather(self, e: R.Gather, env: Env) -> Fn:
        zone = self.expr(e.dest, env)
        return lambda s, b: s.gather(zone(s, b))

    def _do_Deal(self, e: R.Deal, env: Env) -> Fn:
        count, source = self.expr(e.count, env), self.expr(e.source, env)
        base, span = self.layout.zone_base[e.family], e.span
        return lambda s, b: s.deal(count(s, b), base, source(s, b), span)

    # ------------------------------------------------------------ variables
    def _var_index(self, target: R.VarRef | R.OwnedVar, env: Env) -> Fn:
        """Where the variable an assignment or a `score:` writes sits in the state's list."""
        if isinstance(target, R.VarRef):
            base = self.layout.var_base[target.name]
            return lambda s, b: base
        return self.owner_index(target, env)

    def _do_Assign(self, e: R.Assign, env: Env) -> Fn:
        value = self.expr(e.value, env)
        index = self._var_index(e.target, env)
        dirt = self.var_dirt.get(e.target.name, 0)      # the conditions that read it must be asked again
        sign, span, what = e.op, e.span, f"`{e.target.name} {e.op}`"
        if e.op == "=" and e.value.type != INT:
            def plain(s, b):
                s.vars[index(s, b)] = value(s, b)
                s.dirty |= dirt
            return plain
        if e.op == "=":
            def assign(s, b):
                s.vars[index(s, b)] = checked_number(value(s, b), what, span)
                s.dirty |= dirt
            return assign
        op = _ARITH_UPDATE[e.op]

        def update(s, b):
            i = index(s, b)
            old, x = s.vars[i], value(s, b)
            if old is None or x is None:
                raise RuleRuntimeError(f"`{sign}` with none", span)
            s.vars[i] = checked_number(op(old, x), what, span)
            s.dirty |= dirt
        return update

    def _do_Score(self, e: R.Score, env: Env) -> Fn:
        """The parts' sum added to the target, and the parts noted for the table (State.scored)."""
        values = [self.expr(v, env) for v in e.values]
        labels, span = e.labels, e.span
        index = self._var_index(e.target, env)
        dirt = self.var_dirt.get(e.target.name, 0)

        def score(s, b):
            i = index(s, b)
            add_score(s, i, labels, [f(s, b) for f in values], dirt, span)
        return score

    def _do_Let(self, e: R.Let, env: Env) -> Fn:
        value, name = self.expr(e.value, env), e.name

        def let(s, b):
            b[name] = value(s, b)
        return let

    # ------------------------------------------------------------ the turn
    def _do_Goto(self, e: R.Goto, env: Env) -> Fn:
        step = e.step

        def goto(s, b):
            s.goto = step
        return goto

    def _do_TurnTo(self, e: R.TurnTo, env: Env) -> Fn:
        player = self.expr(e.player, env)

        def turn_to(s, b):
            s.next_player = player(s, b)
        return turn_to

    def _do_Skip(self, e: R.Skip, env: Env) -> Fn:
        player = self.expr(e.player, env)

        def skip(s, b):
            s.skips[player(s, b)] += 1
        return skip

    def _do_Ask(self, e: R.Ask, env: Env) -> Fn:
        player, step, span = self.expr(e.player, env), e.step, e.span
        many = is_list(e.player.type)

        def ask(s, b):
            p = player(s, b)
            if p is None:
                raise RuleRuntimeError("nobody to ask", span)
            s.asked = ([q for q in p if q is not None] if many else [p], step)
        return ask

    def _do_AskWindow(self, e: R.AskWindow, env: Env) -> Fn:
        players, step, span = self.expr(e.players, env), e.step, e.span
        index = len(self.windows)
        self.windows.append(Window(e.passing, self.expr(e.closes, env) if e.closes is not None else None, e))

        def ask_window(s, b):
            listed = players(s, b)
            if listed is None:
                raise RuleRuntimeError("nobody to ask", span)
            s.asked = ([q for q in listed if q is not None], step, index)
        return ask_window

    def _do_EndDeal(self, e: R.EndDeal, env: Env) -> Fn:
        def end_deal(s, b):
            s.deal_over = True
        return end_deal

    def _do_EndTurn(self, e: R.EndTurn, env: Env) -> Fn:
        def end_turn(s, b):
            s.goto = END_TURN
        return end_turn

    # ------------------------------------------------------------ what players are told
    def _audience(self, to: R.Expr | None, env: Env) -> Fn:
        if to is None:
            return lambda s, b: (1 << s.n) - 1
        players = self.expr(to, env)
        return lambda s, b: audience(players(s, b), s.n)

    def _do_Say(self, e: R.Say, env: Env) -> Fn:
        to, parts = self._audience(e.to, env), e.parts
        values = [(self.expr(v, env), v.type) for v in e.values]

        def say(s, b):
            mask = to(s, b)
            if mask:
                text = parts[0] + "".join(s.game.value_text(f(s, b), t) + part
                                          for (f, t), part in zip(values, parts[1:]))
                s.said += ((s.moves, mask, text),)
        return say

    def _do_Reveal(self, e: R.Reveal, env: Env) -> Fn:
        what, to, kind = self.expr(e.what, env), self._audience(e.to, env), e.what.type

        def reveal(s, b):
            x = what(s, b)
            cards = list(s.zones[x]) if kind == ZONE else list(x) if isinstance(x, list) else [] if x is None else [x]
            mask = to(s, b)
            for c in cards:
                s.known[c] |= mask
                s.shown[c] = s.shown.get(c, 0) | mask
        return reveal

    def _do_Tell(self, e: R.Tell, env: Env) -> Fn:
        to, zone, value, holds, span = self._audience(e.to, env), self.expr(e.zone, env), self.expr(e.value, env), \
            e.holds, e.span
        kind = SUIT_FACT if e.value.type == SUIT else RANK_FACT

        def tell(s, b):
            z, v = zone(s, b), value(s, b)
            if v is None:
                raise RuleRuntimeError("a fact needs a rank or a suit, and this is none", span)
            if not is_true(s.game.cards, s.zones[z], kind, v, holds):
                raise RuleRuntimeError("this fact is not true: a fact told must be true when it is told "
                                       "(to say something that may be false, use `say`)", span)
            mask = to(s, b)
            if mask:
                s.facts = told(s.facts, (z, kind, v, holds, mask))
        return tell

    def _do_ReverseDirection(self, e: R.ReverseDirection, env: Env) -> Fn:
        def reverse(s, b):
            s.direction = -s.direction
            s.dirty = ALL          # rare: every condition asked again rather than a bit for whatever reads it
        return reverse

    # ------------------------------------------------------------ control
    def _do_If(self, e: R.If, env: Env) -> Fn:
        cond, then, orelse = self.expr(e.cond, env), self.effects(e.then, env), self.effects(e.orelse, env)

        def if_(s, b):
            if cond(s, b):
                then(s, b)
            else:
                orelse(s, b)
        return if_

    def _do_For(self, e: R.For, env: Env) -> Fn:
        items, body, var = self.sequence(e.iterable, env), self.effects(e.body, env.without(e.var)), e.var

        span = e.span

        def for_(s, b):
            saved = b.get(var, _MISSING)
            for x in counted(s, list(items(s, b)), span):
                b[var] = x
                body(s, b)
            if saved is _MISSING:
                b.pop(var, None)
            else:
                b[var] = saved
        return for_
