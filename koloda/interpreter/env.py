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
