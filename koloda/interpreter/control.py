"""Effects -> closures for procedures, loops, `check events` and `turn X face up/down`.

A part of the EffectCompiler (effects.py): one `_do_<Class>` method per resolved class, as there.
"""
from __future__ import annotations

from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.types import ZONE, is_list
from koloda.interpreter.effect_runtime import repeat_rounds
from koloda.interpreter.env import TOP, Env, Fn
from koloda.interpreter.errors import RuleRuntimeError
from koloda.interpreter.work import spend


class ControlEffects:
    rules: R.Rules
    procedure_bodies: dict[str, Fn]

    # provided by the Compiler
    def expr(self, n: R.Expr, env: Env) -> Fn:
        raise NotImplementedError

    def effects(self, nodes: tuple[R.Effect, ...], env: Env = TOP) -> Fn:
        raise NotImplementedError

    # ------------------------------------------------------------ procedures
    def _do_Perform(self, e: R.Perform, env: Env) -> Fn:
        proc = self.rules.procedures[e.name]
        if e.name not in self.procedure_bodies:
            # compiled once, on its own: its body sees its parameters only (the checker refused recursion)
            self.procedure_bodies[e.name] = self.effects(proc.body, TOP)
        body = self.procedure_bodies[e.name]
        pairs = list(zip(proc.params, [self.expr(a, env) for a in e.args]))
        what, span = f"running `{e.name}`", e.span

        def perform(s, b):
            s.work -= 1             # procedures running procedures twice each multiply too
            if s.work < 0:
                spend(s, 0, what, span)
            body(s, {p: a(s, b) for p, a in pairs})
        return perform

    # ------------------------------------------------------------ loops
    def _do_Repeat(self, e: R.Repeat, env: Env) -> Fn:
        count, body, limit, span = self.expr(e.count, env), self.effects(e.body, env), e.limit, e.span

        def repeat(s, b):
            for _ in range(repeat_rounds(s, count(s, b), limit, span)):
                body(s, b)
        return repeat

    def _do_While(self, e: R.While, env: Env) -> Fn:
        cond, body, limit, span = self.expr(e.cond, env), self.effects(e.body, env), e.limit, e.span

        def while_(s, b):
            for _ in range(limit):
                if not cond(s, b):
                    return
                s.work -= 1
                if s.work < 0:
                    spend(s, 0, "`while:` running its `do:` once more", span)
                body(s, b)
            if cond(s, b):
                raise RuleRuntimeError(f"`while:` has run its `do:` {limit} times and its condition still holds, so "
                                       "the game was stopped: its `do:` must make the condition false (or raise "
                                       "`limit:` if the rules mean it)", span)
        return while_

    # ------------------------------------------------------------ events and cards
    def _do_CheckEvents(self, e: R.CheckEvents, env: Env) -> Fn:
        span, events = e.span, len(self.rules.events)

        def check_events(s, b):
            spend(s, 1 + events, "`check events`", span)
            s.flow.check_events(s)
        return check_events

    def _do_Flip(self, e: R.Flip, env: Env) -> Fn:
        what, kind, face_up, span = self.expr(e.what, env), e.what.type, e.face_up, e.span

        def flip(s: Any, b: dict) -> None:
            x = what(s, b)
            if kind == ZONE:
                cards = list(s.zones[x])
            elif is_list(kind):
                cards = [c for c in x if c is not None]
            elif x is None:
                raise RuleRuntimeError("there is no card to turn over", span)
            else:
                cards = [x]
            for c in cards:
                s.turn_over(c, face_up)
        return flip
