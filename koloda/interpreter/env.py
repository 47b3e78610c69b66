"""What compiling one part of the rules needs to know: the scope it is compiled in, and the context.

Kept apart from compile.py so that the built-ins and the effects, which the
compiler uses, can name these types without importing the compiler.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Callable, Protocol

from koloda.dsl import resolved as R
from koloda.interpreter.cards import CardTable
from koloda.interpreter.layout import Layout
from koloda.interpreter.melds import MeldRules
from koloda.interpreter.patterns import PatternRules
from koloda.interpreter.reach import Reach

# A compiled piece of the rules: (state, local bindings) -> value.
Fn = Callable[[Any, dict], Any]


@dataclass(frozen=True)
class Env:
    """How a part of the rules is being compiled.

    subst: while a user function is compiled inline, its parameters -> the caller's argument closures.
    hoisting: inside an action's guard, where costly parts that do not depend on the action's
    parameters are worked out once per decision."""
    subst: dict[str, Fn] = field(default_factory=dict)
    hoisting: bool = False

    def without(self, name: str) -> "Env":
        """A loop name hides an inlined parameter of the same name."""
        if name not in self.subst:
            return self
        return Env({k: v for k, v in self.subst.items() if k != name}, self.hoisting)


TOP = Env()


class Context(Protocol):
    """The compiler as the built-ins see it."""
    layout: Layout
    cards: CardTable
    melds: MeldRules | None
    reach: Reach | None
    patterns: PatternRules | None
    card_deck: Sequence[int | str] | None
    meld_kinds: list[str]

    def expr(self, n: R.Expr, env: Env = ...) -> Fn: ...

    def constant(self, value: object) -> Fn: ...

    def sequence(self, node: R.Expr, env: Env = ...) -> Fn: ...


MOST_INLINED = 2_000    # nodes of a function's body with the bodies of the functions it calls written in


class Expansion:
    """How large the rules' functions are once the calls in them are written in (inlined), so that only
    the small ones are: `f1(a): f0(a) + f0(a)`, `f2(a): f1(a) + f1(a)` … doubles at each step, and
    inlining all of them would make closures (and generated text) exponential in the chain's length.
    And which functions call more than one (`fans_out`): those multiply the work of a call, and each
    of their calls is counted in the run's budget (work.py)."""

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
