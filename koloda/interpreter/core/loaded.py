"""What the generator reads of one loaded game besides the resolved tree: its tables, and facts of its rules.

The game's layout, cards, options, melds and patterns, as generated code reads them (constants of its
module); the open windows its effects open, in the order the generator writes them; which variables'
conditions an assignment marks (the watch's); and what the tree says about itself that the generator
asks again and again: which local names a node reads, which functions are small enough to write in
where they are called (`Expansion`), which names a function's body binds.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.builtins import CARD_SLOT
from koloda.dsl.types import CARD
from koloda.interpreter.base.cards import CardTable
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.melds.melds import MeldRules
from koloda.interpreter.melds.combos import ComboTable
from koloda.interpreter.melds.patterns import PatternRules
from koloda.interpreter.melds.reach import Reach
from koloda.interpreter.core.window import Window

# A piece of the rules as the flow calls it: (state, local bindings) -> value.
Fn = Callable[[Any, dict], Any]

MOST_INLINED = 2_000    # nodes of a function's body with the bodies of the functions it calls written in


class LoadedRules:
    """One loaded game's rules and tables, as generating its code reads them."""

    def __init__(self, layout: Layout, cards: CardTable, options: dict, rules: R.Rules,
                 melds: MeldRules | None = None, patterns: PatternRules | None = None,
                 card_deck: Sequence[int | str] | None = None, combos: ComboTable | None = None):
        self.layout = layout
        self.cards = cards
        self.options = options
        self.rules = rules
        self.melds = melds
        self.reach = Reach(melds) if melds is not None else None    # shared, so its answers are remembered once
        self.patterns = patterns
        self.combos = combos
        self.card_deck = card_deck
        self.meld_kinds = [k.name for k in rules.spec.meld_kinds]
        self.expansion = Expansion(rules.functions)        # which functions are small enough to inline
        # variable name -> the bits of the conditions that read it (see watch.py): set by an assignment
        self.var_dirt: dict[str, int] = {}
        self.windows: list[Window] = []      # the open windows, by the index their effect gives
        self._binders: dict[str, set[str]] = {}
        self._free_cache: dict[R.Node, frozenset[str]] = {}

    def free_locals(self, n: R.Node) -> frozenset[str]:
        """Local names (parameters, loop names) a node reads but does not bind itself."""
        found = self._free_cache.get(n)
        if found is not None:
            return found
        free: set[str] = set()
        if isinstance(n, R.Local):
            free.add(n.name)
        elif isinstance(n, R.UserCall):
            for a in n.args:
                free |= self.free_locals(a)
        else:
            for child in R.children(n):
                free |= self.free_locals(child)
            if isinstance(n, (R.Aggregate, R.ListComp)):
                free = (free - {n.var}) | self.free_locals(n.iterable)
            elif isinstance(n, R.BuiltinCall):
                free.discard(CARD_SLOT)      # bound by the built-in: `winner(trick, trump, power)`
        self._free_cache[n] = frozenset(free)
        return self._free_cache[n]

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

    def held_card_item(self, n: R.Aggregate) -> R.Expr | None:
        """For `any(c in m.cards and … for m in …)`: the card `c`, which a meld must hold to count, so that
        melds without it need not be made (None for any other question)."""
        if n.func != "any":          # for `all` a meld without the card decides
            return None
        first = n.cond if n.cond is not None else n.elem
        while isinstance(first, R.And):
            first = first.left
        if not (isinstance(first, R.Contains) and not first.negated and isinstance(first.container, R.PlanAttr)
                and first.container.name == "cards" and isinstance(first.container.obj, R.Local)
                and first.container.obj.name == n.var and first.item.type == CARD
                and n.var not in self.free_locals(first.item)):
            return None
        return first.item


class Expansion:
    """How large the rules' functions are once the calls in them are written in (inlined), so that only
    the small ones are: `f1(a): f0(a) + f0(a)`, `f2(a): f1(a) + f1(a)` … doubles at each step, and
    inlining all of them would make generated text exponential in the chain's length. And which
    functions call more than one (`fans_out`): those multiply the work of a call, and each of their
    calls is counted in the run's budget (work.py)."""

    def __init__(self, functions: dict[str, R.Function]):
        self.functions = functions
        self._sizes: dict[str, int] = {}
        self._fans: dict[str, bool] = {}

    def size(self, name: str) -> int:
        found = self._sizes.get(name)
        if found is None:
            found = 0
            for node in R.walk(self.functions[name].body):
                found += 1 + (self.size(node.name) if isinstance(node, R.UserCall) else 0)
                if found > MOST_INLINED:
                    break
            self._sizes[name] = found
        return found

    def inlines(self, name: str) -> bool:
        return self.size(name) <= MOST_INLINED

    def fans_out(self, name: str) -> bool:
        if name not in self._fans:
            calls = sum(isinstance(node, R.UserCall) for node in R.walk(self.functions[name].body))
            self._fans[name] = calls > 1        # (one call inside a comprehension is counted with its items)
        return self._fans[name]


def chain(n: R.Expr, kind: type[R.And] | type[R.Or]) -> list[R.Expr]:
    """`a and b and c` as [a, b, c]."""
    if isinstance(n, (R.And, R.Or)) and isinstance(n, kind):
        return chain(n.left, kind) + chain(n.right, kind)
    return [n]


def simple(n: R.Expr | None) -> bool:
    """Cheap, pure expressions that may be worked out more than once (an inlined function's arguments)."""
    if n is None or isinstance(n, (R.Local, R.Const, R.Option, R.StateValue, R.ZoneRef, R.GridRef, R.VarRef)):
        return True
    if isinstance(n, R.MeldsOf):
        return simple(n.owner)
    if isinstance(n, R.Owned):
        return simple(n.owner)
    return isinstance(n, R.Attribute) and simple(n.obj)


def locals_in(n: R.Node) -> set[str]:
    return {x.name for x in R.walk(n) if isinstance(x, R.Local)}
