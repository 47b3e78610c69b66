"""Expressions of the resolved tree -> Python expression text (see generate.py).

One `_<Class>` method per resolved expression class (its parts: gen_attrs.py
for attributes, gen_calls.py for built-in calls; the walk that calls them,
gen_walk.py). Each returns a Frag: the
text, and what the text reads. Every class and built-in has its method
(tests/test_architecture.py); a node no method writes cannot run (UnknownNode).

Each method writes in two modes. Fast (the code play runs) checks nothing it
need not: `a + b` is Python's `+`. Checked (`self.checked`, the code asked when
fast code fails) tests the operands of each part that can fail and raises the
rules' located error (gen_checks.py). The contract between them: both give the
same value, and fast code fails wherever checked code fails (with another
message: the caller then asks the checked code). Fast code may fail where
checked code does not only at the cost of speed. Values are worked out in the
same order in both.
"""
from __future__ import annotations

from koloda.dsl import resolved as R
from koloda.dsl.types import BOOL, RANK, ZONE
from koloda.interpreter.runtime import builtin_runtime as rt
from koloda.interpreter.core.loaded import chain
from koloda.interpreter.melds.meld_calls import asks_reach
from koloda.interpreter.codegen.gen_calls import CallGen
from koloda.interpreter.codegen.gen_frag import NOTHING, Frag, NotGenerated, Scope, UnknownNode, atom, deps_of, seats

_ARITH = {"+", "-", "*", "/", "//", "%"}
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}


class ExprGen(CallGen):
    """The methods of the resolved expression classes: names, lists and operators (attributes and
    built-in calls in the classes it derives from; the walk and its state in ExprWalk, gen_walk.py)."""

    # ------------------------------------------------------------ names
    def _Invalid(self, n: R.Invalid, scope: Scope) -> Frag:
        raise UnknownNode(f"an expression the checker rejected reached the generator at {n.span}")

    def _Const(self, n: R.Const, scope: Scope) -> Frag:
        return Frag(self.m.literal(n.value), NOTHING, True, n.value is not None)

    def _Option(self, n: R.Option, scope: Scope) -> Frag:
        value = self.c.options[n.name]
        return Frag(self.m.literal(value), NOTHING, True, value is not None)

    def _Local(self, n: R.Local, scope: Scope) -> Frag:
        f = scope.get(n.name)
        if f is None:
            raise NotGenerated
        return f

    def _StateValue(self, n: R.StateValue, scope: Scope) -> Frag:
        name = n.name
        if name in ("me", "dealer", "player_count", "deal_number"):
            attr = {"me": "current", "dealer": "dealer", "player_count": "n", "deal_number": "deal_number"}[name]
            return Frag(f"s.{attr}", NOTHING, True, True)
        if name == "last_meld":
            return Frag("s.last_meld", NOTHING, True)
        if name == "direction":
            return Frag("s.direction", NOTHING, True, True)
        if name == "players":
            return Frag("list(range(s.n))", NOTHING, True, True)
        if name == "others":
            return Frag("_others(s)", NOTHING, True, True)
        if name == "suits":
            return Frag(repr(list(self.c.cards.deck_suits)), NOTHING, True, True)
        if name == "deck_size":
            return Frag(repr(self.c.cards.size), NOTHING, True, True)
        if name == "sides":
            return Frag(f"list(range({self.c.layout.num_sides}))", NOTHING, True, True)
        if name == "all_cards":
            return Frag(f"list(range({self.c.cards.size}))", NOTHING, True, True)
        if name == "melds":
            return Frag(f"_melds(s.slot_kind, None, {self.m.const(self.c.layout.slot_zone, 'slot_zone')}, None, True)",
                        NOTHING, True, True)
        if name == "ranks":
            return Frag(repr(list(self.c.cards.deck_ranks)), NOTHING, True, True)
        raise NotGenerated

    def _ZoneRef(self, n: R.ZoneRef, scope: Scope) -> Frag:
        return Frag(repr(self.c.layout.zone_base[n.name]), NOTHING, True, True)

    def _GridRef(self, n: R.GridRef, scope: Scope) -> Frag:
        return Frag(repr(self.c.layout.grid_base[n.name]), NOTHING, True, True)

    def _VarRef(self, n: R.VarRef, scope: Scope) -> Frag:
        return Frag(f"{self.fn.state('_V')}[{self.c.layout.var_base[n.name]}]", NOTHING, True)

    def owner_index(self, n: R.Owned, scope: Scope) -> Frag:
        """Where a player's or side's own zone, grid or variable sits: base + owner (a player reaches their side's things through the side)."""
        layout = self.c.layout
        base = (layout.var_base if isinstance(n, R.OwnedVar) else
                layout.grid_base if isinstance(n, R.OwnedGrid) else layout.zone_base)[n.name]
        nsides = layout.num_sides if n.per_side and not n.by_side else 0
        owner = self.gen(n.owner, scope)
        text = owner.text
        if self.checked and not owner.nonnull:
            who = "side" if n.by_side else "player"
            text = f"_ck_owner({text}, {self.m.literal(n.name)}, {self.m.literal(who)}, {self.at(n)})"
        index = f"({base} + {text} % {nsides})" if nsides else f"({base} + {text})"
        return Frag(index, owner.deps, owner.safe and owner.nonnull, True)

    def _OwnedZone(self, n: R.OwnedZone, scope: Scope) -> Frag:
        return self.owner_index(n, scope)

    def _OwnedGrid(self, n: R.OwnedGrid, scope: Scope) -> Frag:
        return self.owner_index(n, scope)

    def _OwnedVar(self, n: R.OwnedVar, scope: Scope) -> Frag:
        index = self.owner_index(n, scope)
        return Frag(f"{self.fn.state('_V')}[{index.text}]", index.deps, index.safe)

    # ------------------------------------------------------------ attributes
    def _UserCall(self, n: R.UserCall, scope: Scope) -> Frag:
        fn = self.c.rules.functions[n.name]
        if self.inlines(n):        # the body reads the arguments where it uses them
            inner = {p: self.gen(a, scope) for p, a in zip(fn.params, n.args)}
            return self.gen(fn.body, inner)
        args = [self.gen(a, scope) for a in n.args]
        name = self.function(fn)
        texts = ["s"] + [a.text for a in args]
        if self.checked and self.c.expansion.fans_out(fn.name):     # its calls counted at the caller's place
            texts.append(self.at(n))
        return Frag(f"{name}({', '.join(texts)})", deps_of(args))

    # ------------------------------------------------------------ lists
    def comprehension(self, var: str, iterable: R.Expr, cond: R.Expr | None, elem: R.Expr | None,
                      scope: Scope, items: Frag | None = None
                      ) -> tuple[str, Frag | None, Frag | None, frozenset[str], bool]:
        """`for v in items if cond` as text, with the element's and the condition's frags (`items`: the
        iterable's text, made already)."""
        made = items is not None        # (a stream of melds, or of lists joined: gone through as it is)
        if items is None:
            self._in_iterable += 1
            try:
                items = self.sequence(iterable, scope)
            finally:
                self._in_iterable -= 1
        local = self.m.local(var)
        inner = dict(scope)
        inner[var] = Frag(local, frozenset({local}), True, iterable.type == ZONE or seats(iterable))
        saved = self._inside_cell
        self._inside_cell = False      # an element is worked out once per item
        hoisted: list[tuple[str, str]] = []
        self._loops.append((local, hoisted))
        try:
            test = self.gen(cond, inner) if cond is not None else None
            value = self.gen(elem, inner) if elem is not None else None
        finally:
            self._inside_cell = saved
            self._loops.pop()
        deps = items.deps | ((test.deps if test else NOTHING) | (value.deps if value else NOTHING)) - {local}
        safe = items.safe and (test is None or test.safe) and (value is None or value.safe)
        # `for t in [x]` binds t once: Python makes it an assignment (the items are then worked out after x,
        # which cannot fail and changes nothing)
        before = "".join(f"for {name} in [{text}] " for name, text in hoisted)
        listed = items.text
        if self.checked:          # every list gone through is counted, at the place of the list
            listed = f"_counted_at(s, {listed if made else f'list({listed})'}, {self.at(iterable)})"
        elif not seats(iterable):
            listed = f"_counted(s, {listed})"     # the run's work (work.py)
        return f"{before}for {local} in {listed}", test, value, deps, safe

    def loop_invariant(self, text: str, deps: frozenset[str]) -> str:
        """`text`, which cannot fail and changes nothing, worked out once before the innermost comprehension
        being generated when it does not read that comprehension's local (else where it stands)."""
        if not self._loops or self._loops[-1][0] in deps or ":=" in text:     # (no `:=` in a loop's items)
            return text
        hoisted = self._loops[-1][1]
        for name, known in hoisted:
            if known == text:
                return name
        name = self.fn.temp()
        hoisted.append((name, text))
        return name

    def _Aggregate(self, n: R.Aggregate, scope: Scope) -> Frag:
        if n.func in ("any", "all"):
            return self.decide(n, scope)
        if n.func in ("count", "sum", "max", "min") and self.unrolls(n):
            return self.unrolled_values(n, scope)
        if n.func == "count":
            if n.elem.type == BOOL:
                loop, test, value, deps, safe = self.comprehension(n.var, n.iterable, n.cond, n.elem, scope)
                assert value is not None
                cond = value.text if test is None else f"({test.text} and {value.text})"
                return Frag(f"len([1 {loop} if {cond}])", deps, False, True)
            if n.cond is None:      # each item counts, and the element is never worked out
                items = self.sequence(n.iterable, scope)
                if self.checked:
                    return Frag(f"len(_counted_at(s, list({items.text}), {self.at(n.iterable)}))", items.deps,
                                False, True)
                return Frag(f"len({items.text})", items.deps, items.safe, True)
            loop, test, _, deps, safe = self.comprehension(n.var, n.iterable, n.cond, None, scope)
            assert test is not None
            return Frag(f"len([1 {loop} if {test.text}])", deps, False, True)
        loop, test, value, deps, safe = self.comprehension(n.var, n.iterable, n.cond, n.elem, scope)
        assert value is not None
        where = f" if {test.text}" if test is not None else ""
        if n.func == "product" or (self.checked and n.func == "sum"):
            return Frag(f"{self.runtime(n.func)}([{value.text} {loop}{where}], {n.func!r}, {self.at(n)})", deps,
                        False, True)
        if self.checked and n.func in ("max", "min"):
            return Frag(f"_ck_extreme([{value.text} {loop}{where}], {n.func!r}, {self.at(n)})", deps, False, True)
        return Frag(f"{n.func}([{value.text} {loop}{where}])", deps, False, True)

    def decide(self, n: R.Aggregate, scope: Scope) -> Frag:
        """`any`/`all` over a comprehension stops at the first value that decides it; melds are listed for
        it a group at a time (`stream`)."""
        items = None
        if self.checked or any(isinstance(x, R.BuiltinCall) and x.name == "melds_in" for x in R.walk(n.iterable)):
            items = self.stream(n, scope)
        elif self.over_players(n):
            return self.unrolled(n, scope)
        loop, test, value, deps, safe = self.comprehension(n.var, n.iterable, n.cond, n.elem, scope, items)
        assert value is not None
        where = f" if {test.text}" if test is not None else ""
        return Frag(f"{n.func}({value.text} {loop}{where})", deps, safe, True, True)

    def stream(self, n: R.Aggregate, scope: Scope) -> Frag:
        """The items of `any`/`all` over a list with melds in it (all lists, checked): the melds a group at a time, and for `any(c in m.cards and …)` only the groups that
        hold `c` (where working `c` out cannot fail: else every group, which gives the same answer)."""
        item = self.c.held_card_item(n)
        card = None
        if item is not None:
            card = self.gen(item, scope)
            if not card.safe:
                card = None
        self._in_iterable += 1
        try:
            return self.stream_items(n.iterable, scope, card)
        finally:
            self._in_iterable -= 1

    def each_player(self, n: R.Aggregate | R.ListComp, scope: Scope
                    ) -> tuple[list[tuple[Frag | None, Frag]], frozenset[str]]:
        """An aggregate's (or a list's) condition and element for each player, worked out once per player,
        and the locals they read."""
        saved = self._inside_cell
        self._inside_cell = False
        parts: list[tuple[Frag | None, Frag]] = []
        try:
            for p in range(self.c.layout.num_players):
                inner = dict(scope)
                inner[n.var] = Frag(str(p), NOTHING, True, True)        # (a number: kept parts may hold it)
                parts.append((self.gen(n.cond, inner) if n.cond is not None else None, self.gen(n.elem, inner)))
        finally:
            self._inside_cell = saved
        return parts, deps_of([f for t, v in parts for f in ((t, v) if t is not None else (v,))])

    def unrolled_values(self, n: R.Aggregate, scope: Scope) -> Frag:
        """`count`, `sum`, `max`, `min` over the players, written out player by player: the values a
        comprehension would give, in its order, without the cost of its function (a failure falls to the
        checked function, as the comprehension's would)."""
        parts, deps = self.each_player(n, scope)
        if n.func == "count":
            def counted(test: Frag | None, value: Frag) -> str:
                if test is not None and n.elem.type == BOOL:
                    cond = f"({test.text} and {value.text})"
                elif test is not None:
                    cond = test.text
                else:
                    cond = value.text
                return f"(1 if {cond} else 0)"
            if n.cond is None and n.elem.type != BOOL:      # each player counts
                return Frag(str(len(parts)), deps, True, True)
            safe = all(v.safe and (t is None or t.safe) for t, v in parts)
            return Frag("(" + " + ".join(counted(t, v) for t, v in parts) + ")", deps, safe, True)
        if n.func == "sum":         # as `sum` adds: from 0, in order
            added = " + ".join(f"({v.text})" if t is None else f"({v.text} if {t.text} else 0)" for t, v in parts)
            return Frag(f"(0 + {added})", deps, False, True)
        if any(t is not None for t, _ in parts):        # those whose condition holds, in order
            kept = ", ".join(f"*(({v.text},) if {t.text} else ())" if t is not None else v.text for t, v in parts)
            return Frag(f"{n.func}([{kept}])", deps, False, True)
        return Frag(f"{n.func}(({', '.join(v.text for _, v in parts)},))", deps, False, True)

    def unrolled(self, n: R.Aggregate, scope: Scope) -> Frag:
        """`any`/`all` over the players, written out player by player (a loaded game's table keeps its
        number of players): `or`s and `and`s that stop where `any`/`all` stop, without a generator's cost."""
        each, deps = self.each_player(n, scope)
        parts: list[Frag] = []
        for test, value in each:
            if test is None:
                parts.append(value)
            elif n.func == "any":
                parts.append(Frag(f"({test.text} and {value.text})", test.deps | value.deps,
                                  test.safe and value.safe, True, test.boolean and value.boolean))
            else:
                parts.append(Frag(f"(not {test.text} or {value.text})", test.deps | value.deps,
                                  test.safe and value.safe, True, value.boolean))
        text = f" {'or' if n.func == 'any' else 'and'} ".join(p.text for p in parts) \
            or ("False" if n.func == "any" else "True")
        text = f"({text})" if all(p.boolean for p in parts) else f"bool({text})"
        return Frag(text, deps, all(p.safe for p in parts), True, True)

    def _ListComp(self, n: R.ListComp, scope: Scope) -> Frag:
        if not self.checked and self.over_players(n):       # written out player by player, as aggregates are
            parts, deps = self.each_player(n, scope)
            kept = ", ".join(v.text if t is None else f"*(({v.text},) if {t.text} else ())" for t, v in parts)
            return Frag(f"[{kept}]", deps, False, True)
        loop, test, value, deps, safe = self.comprehension(n.var, n.iterable, n.cond, n.elem, scope)
        assert value is not None
        where = f" if {test.text}" if test is not None else ""
        return Frag(f"[{value.text} {loop}{where}]", deps, False, True)

    def _Flatten(self, n: R.Flatten, scope: Scope) -> Frag:
        lists = self.gen(n.lists, scope)
        part, item = self.m.local("part of the lists"), self.m.local("item of the lists")   # never a rule name
        return Frag(f"[{item} for {part} in {lists.text} for {item} in {part}]", lists.deps, False, True)

    def _ListLit(self, n: R.ListLit, scope: Scope) -> Frag:
        items = [self.gen(i, scope) for i in n.items]
        return Frag(f"[{', '.join(i.text for i in items)}]", deps_of(items), all(i.safe for i in items), True)

    def _Range(self, n: R.Range, scope: Scope) -> Frag:
        if self.checked:          # the step first (tested above 0), then the bounds
            by = self.gen(n.step, scope) if n.step is not None else None
            by_text = "1" if by is None else f"_ck_range_step({by.text}, {self.at(n)})"
            low, high = self.gen(n.low, scope), self.gen(n.high, scope)
            return Frag(f"_ck_numbers(s, {by_text}, {low.text}, {high.text}, {self.at(n)})",
                        low.deps | high.deps | (by.deps if by is not None else NOTHING), False, True)
        low, high = self.gen(n.low, scope), self.gen(n.high, scope)
        if n.step is not None:          # checked above 0
            step = self.gen(n.step, scope)
            return Frag(f"{self.bound(rt.numbers, 'numbers')}(s, {low.text}, {high.text}, {step.text}, {self.at(n)})",
                        low.deps | high.deps | step.deps, False, True)
        return Frag(f"list(_range(s, {low.text}, {high.text}))", low.deps | high.deps, False, True)

    def _Index(self, n: R.Index, scope: Scope) -> Frag:
        items, index = self.gen(n.obj, scope), self.gen(n.index, scope)
        if self.checked:
            return Frag(f"_ck_index({items.text}, {index.text}, {self.at(n)})", items.deps | index.deps)
        return Frag(f"{items.text}[{index.text}]", items.deps | index.deps)

    # ------------------------------------------------------------ operators
    def _Arith(self, n: R.Arith, scope: Scope) -> Frag:
        if n.op not in _ARITH:
            raise NotGenerated
        left, right = self.gen(n.left, scope), self.gen(n.right, scope)
        if self.checked:
            return Frag(f"_ck_arith({left.text}, {right.text}, {n.op!r}, {self.at(n)})", left.deps | right.deps,
                        False, True)
        if n.op == "*":         # the sign that squares: bounded
            return Frag(f"_times({left.text}, {right.text})", left.deps | right.deps, False, True)
        if n.op == "/":         # exact, and whole where it comes out even (base/exact.py)
            return Frag(f"_quotient({left.text}, {right.text})", left.deps | right.deps, False, True)
        return Frag(f"({left.text} {n.op} {right.text})", left.deps | right.deps, False, True)

    def _Compare(self, n: R.Compare, scope: Scope) -> Frag:
        if asks_reach(n) and not self.checked:      # (checked, the call and the comparison as written)
            return self.reach_test(n, scope)
        if n.op not in _COMPARE:
            raise NotGenerated
        left, right = self.gen(n.left, scope), self.gen(n.right, scope)
        deps = left.deps | right.deps
        if n.op in ("==", "!="):
            if right.text == "None" and not isinstance(n.left, (R.Const, R.Option)):
                return Frag(f"({left.text} is {'' if n.op == '==' else 'not '}None)", deps, left.safe, True, True)
            return Frag(f"({left.text} {n.op} {right.text})", deps, left.safe and right.safe, True, True)
        if self.checked:
            order = f"{self.m.const(self.c.cards.order, 'order')}, " if n.left.type == RANK else ""
            return Frag(f"_ck_{'rank_' if order else ''}compare({order}{left.text}, {right.text}, {n.op!r}, "
                        f"{self.at(n)})", deps, False, True, True)
        if n.left.type == RANK:
            order = self.m.const(self.c.cards.order, "order")
            return Frag(f"({order}[{left.text}] {n.op} {order}[{right.text}])", deps, False, True, True)
        return Frag(f"({left.text} {n.op} {right.text})", deps, False, True, True)

    def _Contains(self, n: R.Contains, scope: Scope) -> Frag:
        item = self.gen(n.item, scope)
        if isinstance(n.container, R.PlanAttr) and n.container.name == "cards":
            plan = self.gen(n.container.obj, scope)
            # `c in m.cards`: the plan's own cards, not a copy (none fails as `in` of none does)
            read = f"{plan.text}.cards" if plan.nonnull else f"_plan_cards({plan.text})"
            cards = self.loop_invariant(read, plan.deps) if plan.safe else read
            return Frag(f"({item.text} {'not in' if n.negated else 'in'} {cards})",
                        item.deps | plan.deps, False, True)
        container = self.gen(n.container, scope)
        deps = item.deps | container.deps
        if n.container.type == ZONE:
            loc = self.fn.state("_L")
            if item.nonnull:
                return Frag(f"({loc}[{item.text}] {'!=' if n.negated else '=='} {container.text})", deps,
                            item.safe and container.safe, True, True)
            if atom(item.text):
                test = f"({item.text} is not None and {loc}[{item.text}] == {container.text})"
            else:
                test = f"_in_zone({loc}, {item.text}, {container.text})"
            return Frag(f"(not {test})" if n.negated else test, deps, False, True, True)
        return Frag(f"({item.text} {'not in' if n.negated else 'in'} {container.text})", deps, False, True, True)

    def _And(self, n: R.And, scope: Scope) -> Frag:
        parts = [self.gen(x, scope) for x in chain(n, R.And)]
        return _logic(parts, "and")

    def _Or(self, n: R.Or, scope: Scope) -> Frag:
        if n.type == BOOL:
            return _logic([self.gen(x, scope) for x in chain(n, R.Or)], "or")
        left, right = self.gen(n.left, scope), self.gen(n.right, scope)
        t = self.fn.temp()
        if self._in_iterable:          # no `:=` in a comprehension's iterable: the left side bound by a loop of one
            return Frag(f"[({right.text} if {t} is None else {t}) for {t} in [{left.text}]][0]",
                        left.deps | right.deps, left.safe and right.safe, right.nonnull)
        return Frag(f"({right.text} if ({t} := {left.text}) is None else {t})", left.deps | right.deps,
                    left.safe and right.safe, right.nonnull)

    def _Not(self, n: R.Not, scope: Scope) -> Frag:
        operand = self.gen(n.operand, scope)
        if operand.text in ("True", "False"):
            return Frag("False" if operand.text == "True" else "True", NOTHING, True, True)
        return Frag(f"(not {operand.text})", operand.deps, operand.safe, True, True)

    def _Neg(self, n: R.Neg, scope: Scope) -> Frag:
        operand = self.gen(n.operand, scope)
        if self.checked:
            return Frag(f"_ck_negated({operand.text}, {self.at(n)})", operand.deps, False, True)
        return Frag(f"(-{operand.text})", operand.deps, False, True)

    def _IfElse(self, n: R.IfElse, scope: Scope) -> Frag:
        cond = self.gen(n.cond, scope)
        if cond.text in ("True", "False"):
            return self.gen(n.then if cond.text == "True" else n.orelse, scope)
        then, orelse = self.gen(n.then, scope), self.gen(n.orelse, scope)
        return Frag(f"({then.text} if {cond.text} else {orelse.text})", cond.deps | then.deps | orelse.deps,
                    cond.safe and then.safe and orelse.safe, then.nonnull and orelse.nonnull)


def _logic(parts: list[Frag], op: str) -> Frag:
    """`a and b` gives what Python's `and` gives; three or more give true or false.
    Parts known from the options fold away: `false and x` is false without x, `true and x` is x."""
    many = len(parts) > 2
    stop, go = ("False", "True") if op == "and" else ("True", "False")
    while parts and parts[0].text in (stop, go):
        if parts[0].text == stop:
            return Frag(stop, NOTHING, True, True)
        parts = parts[1:]
    if not parts:
        return Frag(go, NOTHING, True, True)
    if len(parts) == 1 and not many:
        return parts[0]
    safe = all(p.safe for p in parts)
    if safe and all(p.boolean for p in parts):
        # true or false each, and none can fail: the order changes nothing but the time, so loops go last
        parts = sorted(parts, key=lambda p: " for " in p.text)
    text = f" {op} ".join(p.text for p in parts)
    if len(parts) == 2 and not many:
        return Frag(f"({text})", deps_of(parts), safe, all(p.nonnull for p in parts), all(p.boolean for p in parts))
    return Frag(f"(True if ({text}) else False)", deps_of(parts), safe, True, True)
