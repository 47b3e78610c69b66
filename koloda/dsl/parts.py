"""What the resolver's and the checker's parts (resolve_ops.py, check_effects.py, check_lists.py) ask of
the whole class they are mixed into: typing.Protocols, so that mypy checks each part's calls against the
Resolver's and the Checker's real signatures, with no stubs at run time.

A part names its protocol as its base for mypy only (`if TYPE_CHECKING`): at run time the base is
`object`, since a protocol's empty methods would otherwise sit in the Checker's method order and could
shadow a sibling part's real ones.
"""
from __future__ import annotations

from typing import Protocol

from koloda.dsl import ast
from koloda.dsl import resolved as R
from koloda.dsl.errors import Span

Scope = dict[str, str]


class Resolving(Protocol):
    """The Resolver's (resolve.py): reporting, resolving an expression, and the words and ranks of a type."""

    def error(self, message: str, where: ast.Node | R.Node | Span, hint: str | None = None,
              category: str = "error") -> None: ...

    def expr(self, node: ast.Node, scope: Scope) -> R.Expr: ...

    def expect(self, node: ast.Node, scope: Scope, want: str, what: str) -> R.Expr: ...

    def coerce_rank(self, node: ast.Node, r: R.Expr, other: str) -> R.Expr: ...

    def word_for(self, node: ast.Node, scope: Scope, t: str) -> R.Expr: ...

    def check_word(self, r: R.Expr, t: str) -> None: ...

    def target(self, t: ast.Node, scope: Scope) -> R.Expr: ...

    def signature_scope(self, params: tuple[ast.Param, ...]) -> Scope: ...

    def arguments(self, name: str, args: tuple[ast.Node, ...], params: tuple[ast.Param, ...],
                  scope: Scope) -> tuple[R.Expr, ...]: ...


class Checking(Resolving, Protocol):
    """The Checker's (check.py): the Resolver's, and checking a list of effects."""

    def effects(self, effects: tuple[ast.Node, ...], scope: Scope) -> tuple[R.Effect, ...]: ...
