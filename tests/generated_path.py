"""The compliance cases run through generated code (koloda/interpreter/generate.py), as play runs them.

The generator leaves to the closures whatever it does not handle (a node it has no method for, an
effect it has no `_do_` method for), and when generated code fails it asks the closure again, which
raises the located error. Either way a case may pass having run on the closures alone. So each run
here says which path ran:

- GENERATED: every node was generated, and no closure was called while it ran;
- FALLBACK: the generator left some part of it to its closure (`Generator.fallbacks`);
- RECOVERED: all of it was generated, but it failed and a closure worked it out again (this is how a
  runtime error gets its place in the file, so it is what a case that expects one should give).

The compiler the generator reads is wrapped so that the closures it hands out say when they are called.
"""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.interpreter.codecache import compiled
from koloda.interpreter.gen_frag import Frag
from koloda.interpreter.gen_source import Function, Module, unsafe_names
from koloda.interpreter.generate import NAMESPACE, Generator

GENERATED, FALLBACK, RECOVERED = "generated", "fallback", "recovered"


class Calls:
    """How many times the closures handed to generated code were called."""

    def __init__(self) -> None:
        self.count = 0

    def wrap(self, closure: Callable) -> Callable:
        def called(*args: Any) -> Any:
            self.count += 1
            return closure(*args)
        return called


def label(node: Any) -> str:
    """A node's class, with the built-in or state value it names."""
    name = getattr(node, "func", None) or getattr(node, "name", None)
    return type(node).__name__ + (f" {name}" if isinstance(name, str) else "")


class Watched:
    """The game's compiler, but its closures (of expressions and effects) count their calls, and an
    effect's closure and a stream of melds, which the generator asks for only to leave that part to the
    closures, are noted."""

    def __init__(self, compiler: Any, calls: Calls, left: set[str]) -> None:
        self._compiler, self._calls, self._left = compiler, calls, left

    def expr(self, *args: Any, **kwargs: Any) -> Callable:
        return self._calls.wrap(self._compiler.expr(*args, **kwargs))

    def effect(self, node: Any, *args: Any, **kwargs: Any) -> Callable:
        self._left.add(label(node))
        return self._calls.wrap(self._compiler.effect(node, *args, **kwargs))

    def stream(self, node: Any, *args: Any, **kwargs: Any) -> Callable:
        """The melds of a list a group at a time, as the closures list them (for `any`/`all`)."""
        self._left.add(f"stream of {label(node)}")
        return self._compiler.stream(node, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._compiler, name)


class Run:
    """One case compiled by the generator: `function(s, b)`, the nodes left to the closures (`left`, as
    `label` names them), and after it has run, the path it took."""

    def __init__(self, function: Callable, fallbacks: int, left: set[str], calls: Calls) -> None:
        self.function, self.fallbacks, self.calls = function, fallbacks, calls
        self.left = ", ".join(sorted(left))

    def __call__(self, s: Any, b: dict) -> Any:
        return self.function(s, b)

    def path(self) -> str:
        if self.fallbacks:
            return FALLBACK
        return RECOVERED if self.calls.count else GENERATED


def _bound(gen: Generator, names: list[str]) -> dict[str, Frag]:
    """The case's bound names as locals of the function being written, read from `b`."""
    scope = {}
    for name in names:
        local = gen.m.local(name)
        gen.fn.emit(f"{local} = b[{gen.m.literal(name)}]", 1)
        scope[name] = Frag(local, frozenset({local}), True, True)
    return scope


def _compiled(game: Any, write: Callable[[Generator], str]) -> Run:
    calls, left = Calls(), set()
    gen = Generator(Watched(game.compiler, calls, left), Module(NAMESPACE), game.watch)
    leave = gen.fallback

    def fallback(n: Any, scope: Any) -> Frag:        # an expression the generator leaves to its closure
        left.add(label(n))
        return leave(n, scope)
    gen.fallback = fallback         # type: ignore[method-assign]
    name = write(gen)
    source = gen.m.source()
    namespace = gen.m.namespace
    assert unsafe_names(source, namespace) == [], unsafe_names(source, namespace)    # its names are the engine's
    exec(compiled(source, "<koloda generated compliance case>"), namespace)
    assert bool(left) == bool(gen.fallbacks), (left, gen.fallbacks)
    return Run(namespace[name], gen.fallbacks, left, calls)


def expression(game: Any, node: R.Expr, names: list[str]) -> Run:
    """An expression as the flow's conditions are generated: its checked function is asked only if it fails."""
    def write(gen: Generator) -> str:
        return gen.condition(node, tuple(names))
    return _compiled(game, write)


def effects(game: Any, nodes: tuple[R.Effect, ...], names: list[str]) -> Run:
    """A list of effects as an action's `do:` is generated, its bound names read from `b`."""
    def write(gen: Generator) -> str:
        name = gen.m.name("run")
        gen.fn = Function(gen.m, name, "s, b", pure=False)
        gen.listing = gen.hoisting = gen.memo = False
        scope = _bound(gen, names)
        gen.block(nodes, scope, set(scope), 1)
        gen.m.add(gen.fn.text())
        return name
    return _compiled(game, write)
