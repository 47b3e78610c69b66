"""The resolved tree -> Python closures, once per game load.

Every closure takes (s, b): the State and a dict of local bindings
(parameters, loop names, `let`). Names were resolved by the checker, options
are constants by now, and rule text never reaches eval or exec.

There is one `_<Class>` method per resolved expression class here, and one
per effect class in effects.py; built-in functions, attributes and state
names are looked up in builtins.py. A class with no method fails at load.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.builtins import CARD_SLOT
from koloda.dsl.types import BOOL, CARD, RANK, ZONE, is_list
from koloda.interpreter import builtin_runtime, builtins, meld_calls
from koloda.interpreter.cards import CardTable
from koloda.interpreter.effects import EffectCompiler
from koloda.interpreter.env import TOP, Env, Expansion, Fn
from koloda.interpreter.errors import RuleRuntimeError, located
from koloda.interpreter.layout import Layout
from koloda.interpreter.melds import MeldRules
from koloda.interpreter.patterns import PatternRules
from koloda.interpreter.reach import Reach
from koloda.interpreter.window import Window
from koloda.interpreter.work import charged, checked_number, counted

_MISSING = object()

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
_COSTLY = (R.Aggregate, R.ListComp, R.BuiltinCall, R.UserCall)


class UnknownNode(Exception):
    """A resolved node the compiler has no method for: a construct added to the checker only."""


class Compiler(EffectCompiler):
    def __init__(self, layout: Layout, cards: CardTable, options: dict, rules: R.Rules,
                 melds: MeldRules | None = None, patterns: PatternRules | None = None,
                 card_deck: Sequence[int | str] | None = None):
        self.layout = layout
        self.cards = cards
        self.options = options
        self.rules = rules
        self.melds = melds
        self.reach = Reach(melds) if melds is not None else None    # shared, so its answers are remembered once
        self.patterns = patterns
        self.card_deck = card_deck
        self.meld_kinds = [k.name for k in rules.spec.meld_kinds]
        self.functions: dict[tuple[str, bool], Fn] = {}      # (name, in a guard) -> the compiled body
        self.procedure_bodies: dict[str, Fn] = {}           # procedure name -> its compiled effects
        self.constants: dict[Fn, object] = {}       # closures that always give the same value, and that value
        self._binders: dict[str, set[str]] = {}
        self.expansion = Expansion(rules.functions)        # which functions are small enough to inline
        self._free_cache: dict[R.Node, frozenset[str]] = {}
        self._dispatch: dict[tuple[str, type], Callable[[Any, Env], Fn]] = {}
        # variable name -> the bits of the conditions that read it (see flow.Flow.watch): set by an assignment
        self.var_dirt: dict[str, int] = {}
        self.windows: list[Window] = []

    def method(self, cls: type, prefix: str) -> Callable[[Any, Env], Fn]:
        """The compile method for a resolved class: `_Arith`, `_do_Move` ... (cached)."""
        key = (prefix, cls)
        found = self._dispatch.get(key)
        if found is None:
            found = getattr(self, prefix + cls.__name__, None)
            if found is None:
                raise UnknownNode(f"the compiler has no method for {cls.__name__}")
            self._dispatch[key] = found
        return found

    def constant(self, value: object) -> Fn:
        f: Fn = lambda s, b: value
        self.constants[f] = value
        return f

    def is_constant(self, f: Fn) -> bool:
        return f in self.constants

    # ------------------------------------------------------------ entry points
    def expr(self, n: R.Expr, env: Env = TOP) -> Fn:
        f = self.method(type(n), "_")(n, env)
        if env.hoisting and isinstance(n, _COSTLY) and not self._free_locals(n):
            return self._once_per_decision(f)
        return f

    def located(self, n: R.Expr) -> Fn:
        """An expression the flow evaluates on its own (a start, an end, a condition of an event):
        a failure in it stops the game with a rule error at its place, like a failing effect."""
        return located(self.expr(n), n.span, "this failed")

    def guard(self, n: R.Expr) -> Fn:
        return self.expr(n, Env(hoisting=True))

    def action_guard(self, n: R.Expr, params: bool) -> tuple[Fn | None, Fn]:
        """An action's guard, and the part of it that comes before anything reading the action's
        parameters (`may_take()` in `may_take() and uses_row(m)`), or None. While that part is false
        the action has no move and its `with:` list need not be made; it is worked out once per
        listing of the moves, for the flow and the guard alike."""
        parts = _chain(n, R.And)
        k = 0
        while params and k < len(parts) and not self._free_locals(parts[k]):
            k += 1
        if k == 0:
            return None, self.guard(n)
        first = [self.guard(part) for part in parts[:k]]
        lead = self._once_per_decision(lambda s, b: all(f(s, b) for f in first))
        if k == len(parts):
            return lead, lead
        rest = [self.guard(part) for part in parts[k:]]
        return lead, lambda s, b: lead(s, b) and all(f(s, b) for f in rest)

    def sequence(self, node: R.Expr, env: Env = TOP) -> Fn:
        """A closure giving the items of a list- or zone-valued expression."""
        f = self.expr(node, env)
        if node.type == ZONE:
            return lambda s, b: s.zones[f(s, b)]
        return f

    # ------------------------------------------------------------ once per decision
    # While legal moves are listed the state does not change, so a costly part of a guard that
    # does not depend on the action's parameters (`any(d.suit == led() for d in my hand)`) is
    # worked out once per listing (each listing stamps the state with a number never used before).
    @staticmethod
    def _once_per_decision(f: Fn) -> Fn:
        memo: list = [-1, None]

        def once(s, b):
            if memo[0] == s.listing:
                return memo[1]
            value = f(s, b)
            memo[0], memo[1] = s.listing, value
            return value
        return once

    def _free_locals(self, n: R.Node) -> frozenset[str]:
        """Local names (parameters, loop names) a node reads but does not bind itself."""
        found = self._free_cache.get(n)
        if found is not None:
            return found
        free: set[str] = set()
        if isinstance(n, R.Local):
            free.add(n.name)
        elif isinstance(n, R.UserCall):
            for a in n.args:
                free |= self._free_locals(a)
        else:
            for child in R.children(n):
                free |= self._free_locals(child)
            if isinstance(n, (R.Aggregate, R.ListComp)):
                free = (free - {n.var}) | self._free_locals(n.iterable)
            elif isinstance(n, R.BuiltinCall):
                free.discard(CARD_SLOT)      # bound by the built-in: `winner(trick, trump, power)`
        self._free_cache[n] = frozenset(free)
        return self._free_cache[n]

    # ------------------------------------------------------------ names
    def _Invalid(self, n: R.Invalid, env: Env) -> Fn:
        raise UnknownNode(f"an expression the checker rejected reached the compiler at {n.span}")

    def _Const(self, n: R.Const, env: Env) -> Fn:
        return self.constant(n.value)

    def _Option(self, n: R.Option, env: Env) -> Fn:
        return self.constant(self.options[n.name])

    def _Local(self, n: R.Local, env: Env) -> Fn:
        name = n.name
        if name in env.subst:
            return env.subst[name]
        return lambda s, b: b[name]

    def _StateValue(self, n: R.StateValue, env: Env) -> Fn:
        return _implementation(builtins.STATE_VALUES, n.name, "state name")(self)

    def _ZoneRef(self, n: R.ZoneRef, env: Env) -> Fn:
        return self.constant(self.layout.zone_base[n.name])

    def _GridRef(self, n: R.GridRef, env: Env) -> Fn:
        return self.constant(self.layout.grid_base[n.name])

    def _VarRef(self, n: R.VarRef, env: Env) -> Fn:
        index = self.layout.var_base[n.name]
        return lambda s, b: s.vars[index]

    def owner_index(self, n: R.Owned, env: Env) -> Fn:
        """Where a player's (or side's) own zone, grid or variable sits: base + owner.

        A player reaches their side's things through the side: partners share them."""
        layout = self.layout
        base = (layout.var_base if isinstance(n, R.OwnedVar) else
                layout.grid_base if isinstance(n, R.OwnedGrid) else layout.zone_base)[n.name]
        nsides = layout.num_sides if n.per_side and not n.by_side else 0
        owner, span, name, who = self.expr(n.owner, env), n.span, n.name, "side" if n.by_side else "player"

        def index(s, b):
            p = owner(s, b)
            if p is None:
                raise RuleRuntimeError(f"`{name}` of no {who}", span)
            return base + (p % nsides if nsides else p)
        return index

    def _OwnedZone(self, n: R.OwnedZone, env: Env) -> Fn:
        return self.owner_index(n, env)

    def _OwnedGrid(self, n: R.OwnedGrid, env: Env) -> Fn:
        return self.owner_index(n, env)

    def _OwnedVar(self, n: R.OwnedVar, env: Env) -> Fn:
        index = self.owner_index(n, env)
        return lambda s, b: s.vars[index(s, b)]

    def _MeldsOf(self, n: R.MeldsOf, env: Env) -> Fn:
        """The melds on the table, in the order made (all of them, or one owner's)."""
        slot_zone = self.layout.slot_zone
        if n.owner is None:
            return lambda s, b: builtin_runtime.table_melds(s.slot_kind, None, slot_zone, None, True)
        player = self.expr(n.owner, env)
        if n.by_side:
            owner = player
        else:
            meld_owner_of = self.layout.meld_owner_of
            owner = lambda s, b: meld_owner_of(player(s, b))
        return lambda s, b: builtin_runtime.table_melds(s.slot_kind, s.slot_owner, slot_zone, owner(s, b), False)

    # ------------------------------------------------------------ attributes and calls
    def _attribute(self, table: dict[str, builtins.AttrImpl], n: R.Attribute, env: Env) -> Fn:
        impl = _implementation(table, n.name, f"{type(n).__name__} attribute")
        return impl(self, n, self.expr(n.obj, env), env)

    def _CardAttr(self, n: R.CardAttr, env: Env) -> Fn:
        return self._attribute(builtins.CARD_ATTRS, n, env)

    def _ZoneAttr(self, n: R.ZoneAttr, env: Env) -> Fn:
        return self._attribute(builtins.ZONE_ATTRS, n, env)

    def _GridAttr(self, n: R.GridAttr, env: Env) -> Fn:
        return self._attribute(builtins.GRID_ATTRS, n, env)

    def _PlanAttr(self, n: R.PlanAttr, env: Env) -> Fn:
        return self._attribute(builtins.PLAN_ATTRS, n, env)

    def _PlayerAttr(self, n: R.PlayerAttr, env: Env) -> Fn:
        return self._attribute(builtins.PLAYER_ATTRS, n, env)

    def _SideAttr(self, n: R.SideAttr, env: Env) -> Fn:
        return self._attribute(builtins.SIDE_ATTRS, n, env)

    def _ListAttr(self, n: R.ListAttr, env: Env) -> Fn:
        return self._attribute(builtins.LIST_ATTRS, n, env)

    def _BuiltinCall(self, n: R.BuiltinCall, env: Env) -> Fn:
        impl = _implementation(builtins.FUNCTIONS, n.name, "built-in function")
        return impl(self, n, [self.expr(a, env) for a in n.args], env)

    def _UserCall(self, n: R.UserCall, env: Env) -> Fn:
        fn = self.rules.functions[n.name]
        args = [self.expr(a, env) for a in n.args]
        if all(_simple(a) for a in n.args) and self.expansion.inlines(n.name):
            used = set().union(*(_locals_in(a) for a in n.args)) if n.args else set()
            if not used & self.binders(n.name):
                # Inline: the body reads the caller's argument closures directly, with no frame of its own.
                # Safe because arguments are cheap and pure, and the body binds none of the caller's names.
                return self.expr(fn.body, Env(dict(zip(fn.params, args)), env.hoisting))
        key = (n.name, env.hoisting)         # a body compiled for a guard may hold per-decision memos
        if key not in self.functions:        # (the checker rejected recursion, so this never re-enters)
            self.functions[key] = self.expr(fn.body, Env({}, env.hoisting))   # on its own: only its parameters
        body = charged(self.functions[key], n) if self.expansion.fans_out(n.name) else self.functions[key]
        params = fn.params
        if not params:
            return lambda s, b: body(s, {})
        if len(params) == 1:
            (p0,), (a0,) = params, args
            return lambda s, b: body(s, {p0: a0(s, b)})
        pairs = list(zip(params, args))
        return lambda s, b: body(s, {p: a(s, b) for p, a in pairs})

    def binders(self, name: str) -> set[str]:
        """Names a function's body binds (loop names), through every function it calls."""
        if name not in self._binders:
            self._binders[name] = set()
            found: set[str] = set()
            for node in R.walk(self.rules.functions[name].body):
                if isinstance(node, (R.Aggregate, R.ListComp)):
                    found.add(node.var)
                elif isinstance(node, R.UserCall):
                    found |= self.binders(node.name)
            self._binders[name] = found
        return self._binders[name]

    # ------------------------------------------------------------ lists
    def iterate(self, var: str, iterable: R.Expr, cond: R.Expr | None, item: R.Expr | Fn, env: Env) -> Fn:
        items = self.sequence(iterable, env)
        inner = env.without(var)
        test = self.expr(cond, inner) if cond is not None else None
        elem = self.expr(item, inner) if isinstance(item, R.Expr) else item
        span = iterable.span

        def gen(s, b):
            saved = b.get(var, _MISSING)
            out = []
            for x in counted(s, list(items(s, b)), span):
                b[var] = x
                if test is None or test(s, b):
                    out.append(elem(s, b))
            if saved is _MISSING:
                b.pop(var, None)
            else:
                b[var] = saved
            return out
        return gen

    def _Aggregate(self, n: R.Aggregate, env: Env) -> Fn:
        if n.func in ("any", "all"):
            return self._decide(n, env)
        if n.func == "count":
            # `count(c.rank == J for c in hand)` counts the true ones; `count(c for c in hand if ...)` the items
            true: Fn = lambda s, b: True
            if n.elem.type == BOOL:
                test = n.elem if n.cond is None else R.And(n.span, BOOL, n.cond, n.elem)
                values = self.iterate(n.var, n.iterable, test, true, env)
            else:
                values = self.iterate(n.var, n.iterable, n.cond, true, env)
        else:
            values = self.iterate(n.var, n.iterable, n.cond, n.elem, env)
        return builtins.reduce(n.func, values, n.span)

    def _decide(self, n: R.Aggregate, env: Env) -> Fn:
        """`any`/`all` over a comprehension: stops at the first value that decides it, and a list of
        melds in it is made only as far as that (`stream`)."""
        items = self.stream(n.iterable, env, self._held_card(n, env))
        inner = env.without(n.var)
        test = self.expr(n.cond, inner) if n.cond is not None else None
        elem = self.expr(n.elem, inner)
        var, wanted, span = n.var, n.func == "any", n.iterable.span

        def decide(s, b):
            saved = b.get(var, _MISSING)
            found = not wanted
            for x in counted(s, items(s, b), span):
                b[var] = x
                if (test is None or test(s, b)) and bool(elem(s, b)) == wanted:
                    found = wanted
                    break
            if saved is _MISSING:
                b.pop(var, None)
            else:
                b[var] = saved
            return found
        return decide

    def _held_card(self, n: R.Aggregate, env: Env) -> Fn | None:
        """For `any(c in m.cards and … for m in …)`: the card `c`, which a meld must hold to count,
        so that melds without it need not be made (None for any other question)."""
        item = self.held_card_item(n)
        return None if item is None else self.expr(item, env.without(n.var))

    def held_card_item(self, n: R.Aggregate) -> R.Expr | None:
        """The expression of the card `_held_card` works out, or None."""
        if n.func != "any":          # for `all` a meld without the card decides
            return None
        first = n.cond if n.cond is not None else n.elem
        while isinstance(first, R.And):
            first = first.left
        if not (isinstance(first, R.Contains) and not first.negated and isinstance(first.container, R.PlanAttr)
                and first.container.name == "cards" and isinstance(first.container.obj, R.Local)
                and first.container.obj.name == n.var and first.item.type == CARD
                and n.var not in self._free_locals(first.item)):
            return None
        return first.item

    def stream(self, n: R.Expr, env: Env, card: Fn | None = None) -> Fn:
        """The items of a list for a question that may not need them all: the melds of `melds_in`
        come a group at a time (with `card`, only groups that hold it), and a list joined with `+`
        one part after the other."""
        if isinstance(n, R.BuiltinCall) and n.name == "melds_in":
            return meld_calls.meld_stream(self, n, env, card)
        if isinstance(n, R.Arith) and n.op == "+" and is_list(n.type):
            left, right = self.stream(n.left, env, card), self.stream(n.right, env, card)

            span = n.span
            return lambda s, b: builtin_runtime.joined(left(s, b), right(s, b), span)
        items = self.sequence(n, env)
        return lambda s, b: list(items(s, b))

    def _ListLit(self, n: R.ListLit, env: Env) -> Fn:
        items = [self.expr(i, env) for i in n.items]
        return lambda s, b: [f(s, b) for f in items]

    def _ListComp(self, n: R.ListComp, env: Env) -> Fn:
        return self.iterate(n.var, n.iterable, n.cond, n.elem, env)

    def _Flatten(self, n: R.Flatten, env: Env) -> Fn:
        lists = self.expr(n.lists, env)
        return lambda s, b: [x for items in lists(s, b) for x in items]

    def _Range(self, n: R.Range, env: Env) -> Fn:
        low, high, span = self.expr(n.low, env), self.expr(n.high, env), n.span
        step = self.expr(n.step, env) if n.step is not None else lambda s, b: 1

        def numbers(s, b):
            by = step(s, b)
            if by <= 0:          # before the bounds are worked out, as it has always been
                raise RuleRuntimeError(f"a range goes up by a whole number above 0, not by {by}", span)
            return builtin_runtime.numbers(s, low(s, b), high(s, b), by, span)
        return numbers

    def _Index(self, n: R.Index, env: Env) -> Fn:
        obj, index, span = self.expr(n.obj, env), self.expr(n.index, env), n.span

        def at(s, b):
            items = obj(s, b)
            i = index(s, b)
            if not -len(items) <= i < len(items):
                raise RuleRuntimeError(f"index {i} is outside a list of {len(items)}", span)
            return items[i]
        return at

    # ------------------------------------------------------------ operators
    def _Arith(self, n: R.Arith, env: Env) -> Fn:
        left, right, op, span, sign = self.expr(n.left, env), self.expr(n.right, env), _ARITH[n.op], n.span, n.op
        grows = sign == "*"             # the sign that squares: its numbers are bounded

        def arith(s, b):
            x, y = left(s, b), right(s, b)
            if x is None or y is None:
                raise RuleRuntimeError(f"`{sign}` with none", span)
            if y == 0 and sign in ("//", "%"):
                raise RuleRuntimeError("division by zero", span)
            return checked_number(op(x, y), "`*`", span) if grows else op(x, y)
        return arith

    def _Compare(self, n: R.Compare, env: Env) -> Fn:
        left, right, op, sign = self.expr(n.left, env), self.expr(n.right, env), _COMPARE[n.op], n.op
        if sign in ("==", "!="):
            equal = sign == "=="
            if self.is_constant(right):
                k = self.constants[right]
                if k is None:
                    return (lambda s, b: left(s, b) is None) if equal else (lambda s, b: left(s, b) is not None)
                return (lambda s, b: left(s, b) == k) if equal else (lambda s, b: left(s, b) != k)
            if equal:
                return lambda s, b: left(s, b) == right(s, b)
            return lambda s, b: left(s, b) != right(s, b)
        span = n.span
        if meld_calls.asks_reach(n):
            return meld_calls.reach_test(self, n, env, self._plain_compare(left, right, sign, span))
        if n.left.type == RANK:
            order = self.cards.order

            def rank_compare(s, b):
                x, y = left(s, b), right(s, b)
                if x is None or y is None:
                    raise RuleRuntimeError(f"`{sign}` with none", span)
                return op(order[x], order[y])
            return rank_compare
        return self._plain_compare(left, right, sign, span)

    @staticmethod
    def _plain_compare(left: Fn, right: Fn, sign: str, span: Any) -> Fn:
        op = _COMPARE[sign]

        def compare(s, b):
            x, y = left(s, b), right(s, b)
            if x is None or y is None:
                raise RuleRuntimeError(f"`{sign}` with none", span)
            return op(x, y)
        return compare

    def _Contains(self, n: R.Contains, env: Env) -> Fn:
        item, negated = self.expr(n.item, env), n.negated
        if n.container.type == ZONE:
            zone = self.expr(n.container, env)

            def in_zone(s, b):
                x = item(s, b)
                return (x is not None and s.loc[x] == zone(s, b)) != negated
            return in_zone
        if isinstance(n.container, R.PlanAttr) and n.container.name == "cards":
            plan = self.expr(n.container.obj, env)     # `c in m.cards`: the plan's own cards, not a copy

            def in_plan(s, b):
                x, p = item(s, b), plan(s, b)
                return (x in (None if p is None else p.cards)) != negated    # none: the same failure as before
            return in_plan
        container = self.expr(n.container, env)
        return lambda s, b: (item(s, b) in container(s, b)) != negated

    def _And(self, n: R.And, env: Env) -> Fn:
        parts = [self.expr(x, env) for x in _chain(n, R.And)]
        if len(parts) == 2:
            left, right = parts
            return lambda s, b: left(s, b) and right(s, b)

        def all_of(s, b):
            for f in parts:
                if not f(s, b):
                    return False
            return True
        return all_of

    def _Or(self, n: R.Or, env: Env) -> Fn:
        if n.type == BOOL:
            parts = [self.expr(x, env) for x in _chain(n, R.Or)]
            if len(parts) == 2:
                left, right = parts
                return lambda s, b: left(s, b) or right(s, b)

            def any_of(s, b):
                for f in parts:
                    if f(s, b):
                        return True
                return False
            return any_of
        left, right = self.expr(n.left, env), self.expr(n.right, env)

        def coalesce(s, b):            # `named_suit or pile.top.suit`: the first that is not none
            x = left(s, b)
            return right(s, b) if x is None else x
        return coalesce

    def _Not(self, n: R.Not, env: Env) -> Fn:
        operand = self.expr(n.operand, env)
        return lambda s, b: not operand(s, b)

    def _Neg(self, n: R.Neg, env: Env) -> Fn:
        operand, span = self.expr(n.operand, env), n.span

        def neg(s, b):
            x = operand(s, b)
            if x is None:
                raise RuleRuntimeError("`-` of none", span)
            return -x
        return neg

    def _IfElse(self, n: R.IfElse, env: Env) -> Fn:
        then, cond, orelse = self.expr(n.then, env), self.expr(n.cond, env), self.expr(n.orelse, env)
        return lambda s, b: then(s, b) if cond(s, b) else orelse(s, b)

    def _SeatOrder(self, n: R.SeatOrder, env: Env) -> Fn:
        start, others, span = self.expr(n.start, env), n.others, n.span
        return lambda s, b: builtin_runtime.seat_order(start(s, b), others, s.direction, s.n, span)


def _implementation(table: dict[str, Any], name: str, what: str) -> Any:
    impl = table.get(name)
    if impl is None:
        raise UnknownNode(f"the engine has no implementation of the {what} `{name}`")
    return impl


def _chain(n: R.Expr, kind: type[R.And] | type[R.Or]) -> list[R.Expr]:
    """`a and b and c` as [a, b, c]."""
    if isinstance(n, (R.And, R.Or)) and isinstance(n, kind):
        return _chain(n.left, kind) + _chain(n.right, kind)
    return [n]


def _simple(n: R.Expr | None) -> bool:
    """Cheap, pure expressions that may be evaluated more than once."""
    if n is None or isinstance(n, (R.Local, R.Const, R.Option, R.StateValue, R.ZoneRef, R.GridRef, R.VarRef)):
        return True
    if isinstance(n, R.MeldsOf):
        return _simple(n.owner)
    if isinstance(n, R.Owned):
        return _simple(n.owner)
    return isinstance(n, R.Attribute) and _simple(n.obj)


def _locals_in(n: R.Node) -> set[str]:
    return {x.name for x in R.walk(n) if isinstance(x, R.Local)}
