"""The checker's part for procedures, loops, `check events`, `turn X face up` and computed move text.

A mixin of the Checker (check.py), kept apart so that each part stays small: one `_do_<Class>`
method per syntax class here, as there.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from koloda.dsl import ast
from koloda.dsl import resolved as R
from koloda.dsl.builtins import FUNCTIONS, STATIC_CARD_ATTRS, STATIC_FUNCTIONS
from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.fixed import fixed_int
from koloda.dsl.limits import MAX_PROCEDURE_DEPTH, MAX_WORK
from koloda.dsl.model import ActionSpec, Spec
from koloda.dsl.to_ast import parse
from koloda.dsl.types import (ANY, BOOL, CARD, GRID, INT, NONE, PLAN, ZONE, elem, is_list, list_of,
                              show)


if TYPE_CHECKING:                 # the class this part is mixed into (parts.py)
    from koloda.dsl.parts import Checking as _Whole
else:
    _Whole = object

Scope = dict[str, str]
_FIELD = re.compile(r"\{([^{}]*)\}")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# what a computed field of a move's text may read: the parameters, the options and what a card is
_STATIC_NODES = (R.Const, R.Option, R.Local, R.ListLit, R.ListComp, R.Flatten, R.Aggregate, R.Range, R.Arith, R.Compare,
                 R.Contains, R.And, R.Or, R.Not, R.Neg, R.IfElse, R.Index, R.UserCall, R.ListAttr)


def text_fields(text: str) -> list[tuple[int, str]]:
    """The `{...}` fields of a move's text: (where the field's text starts, the field's text)."""
    return [(m.start(1), m.group(1)) for m in _FIELD.finditer(text)]


class ControlChecks(_Whole):
    spec: Spec
    steps: set[str] | None
    procedures: dict[str, R.Procedure]
    _proc_stack: list[str]
    collecting: list[tuple[str, Span]] | None     # steps named by `goto`/`ask` in the procedure being checked
    in_event: bool
    rounds: int            # the rounds known to multiply around the effect being checked (nested `repeat: N`)
    functions: dict[str, R.Function]

    # ------------------------------------------------------------ procedures
    def procedure(self, name: str) -> R.Procedure | None:
        """A rule file's own procedure, resolved once (None if it runs itself)."""
        if name in self.procedures:
            return self.procedures[name]
        spec = self.spec.procedures[name]
        if name in self._proc_stack:
            self.error(f"procedure `{name}` runs itself (directly or through others); rule files have no "
                       "unbounded loops", spec.signature, "to do something again, use `repeat:` or `while:`",
                       category="name")
            return None
        if len(self._proc_stack) >= MAX_PROCEDURE_DEPTH:
            # refused before its body is read: a chain of procedures each running the next is checked
            # one inside another, so a long one would run out of Python's stack
            first = self.spec.procedures[self._proc_stack[0]]
            self.error(f"procedure `{first.signature.name}` runs procedures more than {MAX_PROCEDURE_DEPTH} deep "
                       f"(`{first.signature.name}` runs `{self._proc_stack[1] if len(self._proc_stack) > 1 else name}`"
                       f", which runs … `{name}`)", first.signature,
                       "write it with fewer procedures inside one another", category="limit")
            return None
        scope = self.signature_scope(spec.signature.params)
        self._proc_stack.append(name)
        saved = self.collecting, self.in_event, self.rounds
        self.collecting, self.in_event, self.rounds = [], False, 1     # (checked once, on its own)
        try:
            body = self.effects(spec.body, scope)
            steps = tuple(self.collecting)
        finally:
            self.collecting, self.in_event, self.rounds = saved
            self._proc_stack.pop()
        depth = 1 + max((self.procedures[n.name].depth for e in body for n in R.walk(e)
                         if isinstance(n, R.Perform) and n.name in self.procedures), default=0)
        if depth > MAX_PROCEDURE_DEPTH:
            self.error(f"procedure `{name}` runs procedures {depth} deep, more than {MAX_PROCEDURE_DEPTH}",
                       spec.signature, "write it with fewer procedures inside one another", category="limit")
        checks = any(isinstance(n, R.CheckEvents) or isinstance(n, R.Perform) and n.name in self.procedures
                     and self.procedures[n.name].checks_events for e in body for n in R.walk(e))
        resolved = R.Procedure(name, tuple(scope), tuple(scope.values()), body, steps, depth, checks)
        self.procedures[name] = resolved
        return resolved

    def _do_Perform(self, e: ast.Perform, scope: Scope) -> R.Effect | None:
        name, args = e.name, e.args
        spec = self.spec.procedures.get(name)
        if spec is None:
            for a in args:
                self.expr(a, scope)
            if name in self.spec.functions or name in FUNCTIONS:
                self.error(f"`{name}` is a function: it gives a value, and a value alone is not an effect", e,
                           "an effect that runs a list of effects by name is a procedure, declared under "
                           "`procedures:`", category="name")
            else:
                self.error(f"unknown procedure `{name}`", e, did_you_mean(name, self.spec.procedures) or
                           "procedures are declared under `procedures:`", category="name")
            return None
        params = spec.signature.params
        if len(args) != len(params):
            self.error(f"`{name}` takes {len(params)} argument{'s' * (len(params) != 1)}, not {len(args)}", e,
                       category="arity")
        resolved = self.arguments(name, args, params, scope)
        proc = self.procedure(name)
        if proc is None or len(args) != len(params):
            return None
        for step, where in proc.steps:
            if self.collecting is not None:
                self.collecting.append((step, where))
            elif self.steps is None:
                self.error(f"procedure `{name}` says `goto {step}` or `ask … to {step}`, which only an action "
                           "may do, to choose the next step of the turn", e,
                           f"run `{name}` from an action, or take the `goto`/`ask` out of it")
            elif step not in self.steps:
                self.error(f"procedure `{name}` names step `{step}`, which this phase does not have", e,
                           did_you_mean(step, self.steps), category="name")
        if proc.checks_events and self.in_event:
            self.error(f"procedure `{name}` says `check events`, which an event's `do:` cannot: events are "
                       "checked again as soon as it has run", e)
        return R.Perform(e.span, name, resolved)

    # ------------------------------------------------------------ loops
    def _do_Repeat(self, e: ast.Repeat, scope: Scope) -> R.Effect:
        count = self.expect(e.count, scope, INT, "the number of times `repeat:` runs `do:`")
        known, outer = fixed_int(count, {}, {}), self.rounds
        if known is not None and known > 0:
            # `repeat:`s written with their counts inside one another: their rounds are known to multiply
            self.rounds = outer * known
            if self.rounds > MAX_WORK:
                self.error(f"`repeat:` runs its `do:` {self.rounds:,} times in all with the `repeat:`s around it, "
                           f"more than one action may take ({MAX_WORK:,} steps)", e,
                           "loops inside loops multiply: make them fewer or shorter", category="limit")
        try:
            return R.Repeat(e.span, count, self.effects(e.body, scope), e.limit)
        finally:
            self.rounds = outer

    def _do_While(self, e: ast.While, scope: Scope) -> R.Effect:
        cond = self.expect(e.cond, scope, BOOL, "the `while:` condition")
        if isinstance(cond, R.Const):
            self.error(f"`while: {str(cond.value).lower()}` never changes: the loop would run "
                       f"{'its whole limit' if cond.value else 'never'}", e.cond,
                       "loop while a condition on the game holds, or use `repeat: N`")
        return R.While(e.span, cond, self.effects(e.body, scope), e.limit)

    # ------------------------------------------------------------ events and cards
    def _do_CheckEvents(self, e: ast.CheckEvents, scope: Scope) -> R.Effect:
        if self.in_event:
            self.error("an event's `do:` cannot `check events`: events are checked again as soon as it has run",
                       e, "take `check events` out of the event")
        return R.CheckEvents(e.span)

    def _do_Flip(self, e: ast.Flip, scope: Scope) -> R.Effect:
        what = self.expr(e.what, scope)
        t = what.type
        if t not in (CARD, ZONE, list_of(CARD), ANY, NONE) and not (is_list(t) and elem(t) == ANY):
            self.error(f"`turn … face {'up' if e.face_up else 'down'}` turns a card, a list of cards or a "
                       f"zone's cards over, not {show(t)}", e.what, category="type")
        return R.Flip(e.span, what, e.face_up)

    # ------------------------------------------------------------ move text
    def text_values(self, action: ActionSpec, scope: Scope) -> dict[str, R.Expr]:
        """The fields of an action's `text:` that are expressions (`{value(c)}`), each checked: they
        may read the action's parameters, the options and what a card is, not the state of play."""
        text = action.text
        if text is None:
            return {}
        where: Span = getattr(text, "span", action.span)
        values: dict[str, R.Expr] = {}
        for start, field in text_fields(str(text)):
            if field in scope or field in values:
                continue
            origin = _place(text, start, where)
            if _IDENTIFIER.fullmatch(field.strip()) and field.strip() not in self.spec.functions:
                self.error(f"`text:` of `{action.name}` shows `{{{field}}}`, but its parameters are "
                           + (", ".join(f"`{{{p}}}`" for p in scope) or "none"), origin, category="name")
                continue
            try:
                node = parse(field, "expr_start", origin)
            except RuleError as exc:
                self.error(exc.message, exc.span, exc.hint, category=exc.category)
                continue
            value = self.expr(node, scope)
            if value.type in (ZONE, GRID, PLAN) or is_list(value.type) and elem(value.type) in (ZONE, PLAN):
                self.error(f"a move's text shows values such as numbers, cards and players, not {show(value.type)}",
                           node, category="type")
            elif self._reads_state(value):
                self.error("a move's text is the same wherever the move is offered, so a `{…}` in it may read the "
                           "move's parameters, the options and what a card is, not the state of play", node,
                           "show `value(c)`, `c.rank`, `option.NAME` …; the state is on the table already",
                           category="type")
            else:
                values[field] = value
        return values

    def help_values(self, action: ActionSpec, scope: Scope) -> dict[str, R.Expr]:
        """The `{…}` fields of an action's help texts and of its conditions' (in every language), each
        checked as an expression of the action's parameters: worked out when a refusal says the text, so
        they may read the state of play (`{short(m)} points short of the opening`)."""
        values: dict[str, R.Expr] = {}
        helps = [action.help] + [h for _, h in action.conditions]
        for h in helps:
            where: Span = getattr(h, "span", None) or action.span
            for text in (h.all_texts() if hasattr(h, "all_texts") else [str(h)]):
                for start, field in text_fields(text):
                    if field in values:
                        continue
                    try:
                        node = parse(field, "expr_start", where)
                    except RuleError as exc:
                        self.error(f"in the help of `{action.name}`: {exc.message}", exc.span, exc.hint,
                                   category=exc.category)
                        continue
                    value = self.expr(node, scope)
                    if is_list(value.type) and elem(value.type) in (ZONE, GRID, PLAN):
                        self.error(f"a help text shows values such as numbers, cards and players, not "
                                   f"{show(value.type)}", node, category="type")
                    else:
                        values[field] = value
        return values

    def _reads_state(self, node: R.Expr) -> bool:
        for n in R.walk(node):
            if isinstance(n, R.UserCall) and self._reads_state(self.functions[n.name].body):
                return True
            ok = isinstance(n, _STATIC_NODES) \
                or isinstance(n, R.CardAttr) and n.name in STATIC_CARD_ATTRS \
                or isinstance(n, R.BuiltinCall) and n.name in STATIC_FUNCTIONS
            if not ok:
                return True
        return False


def _place(text: Any, offset: int, where: Span) -> Span:
    """Where the character at `offset` of a rule-file string was written (by its segments, see loader)."""
    segments = getattr(text, "segments", None)
    if not segments:
        return Span(where.file, where.line, where.col + offset)
    seg_offset, line, col = segments[0]
    for seg in segments:
        if seg[0] <= offset:
            seg_offset, line, col = seg
    return Span(where.file, line, col + offset - seg_offset)
