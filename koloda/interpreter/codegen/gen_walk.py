"""How an expression of the resolved tree is walked into Python expression text (see gen_expr.py).

The generator's state while it writes one function (`fn` of the module `m`), the walk itself (`gen`:
each node to its `_<Class>` method, a part that reads no local name kept in a cell, a node nested too
deep written apart), and a rule file's function written as a generated function of its own. The
methods for each class are in gen_attrs.py, gen_calls.py and gen_expr.py, which derive from this.
"""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import ZONE, is_list
from koloda.interpreter.core.loaded import locals_in, simple
from koloda.interpreter.codegen.gen_frag import (NOTHING, Frag, NotGenerated, Scope, UnknownNode, costly, deps_of,
                                                 is_literal, trivial)
from koloda.interpreter.codegen.gen_fixed import fixed
from koloda.interpreter.codegen.gen_source import Function, Module, lazy_use

# `any`, `all`, `count`, `sum`, `max` and `min` over this many players or fewer are written out player by player
UNROLLED_PLAYERS = 8
MAX_DEPTH = 40      # nodes inside one another in one generated expression; deeper is a function of its own
_COSTLY = (R.Aggregate, R.ListComp, R.BuiltinCall, R.UserCall)
_KEPT = (R.Aggregate, R.Index, R.BuiltinCall, R.UserCall)      # the nodes whose value may be kept (`keeps`)


class ExprWalk:
    """Expressions, generated into the function `self.fn` of the module `self.m`.

    listing: inside the listing of legal moves, where the state does not change, so that a
    function's costly parts that do not depend on its parameters are kept for the listing.
    hoisting: the function evaluates on one state throughout (a listing, a condition), so a part
    that reads no local name is worked out once per call (in a cell), where it would be repeated."""

    def __init__(self, loaded: Any, module: Module):
        self.c = loaded
        self.m = module
        self.fn: Function = Function(module, "_unused", "s", True)
        self.listing = False
        self.hoisting = False
        self.share = False              # in a listing: costly parts another action's `if:` may ask too are kept
        # in one expression (an effect's value, a condition): costly parts inside kept parts are kept too, and
        # those asked for once are written back in place (Function.fold_single)
        self.share_inner = False
        self.memo = False               # in a function's body during a listing: costly parts kept per listing
        # checked (gen_checks.py): each part that can fail tests its operands and raises the rules' located error
        self.checked = False
        self._inside_cell = False
        self._root = False              # in an expression worked out once (not in a cell): costly parts shared
        self._in_iterable = 0
        self._depth = 0
        self._functions: dict[tuple[str, bool], str] = {}
        self._bound_names: dict[tuple[int, str], str] = {}
        # per comprehension being generated, innermost last: its local, and the parts of its condition and
        # element that do not read it, worked out once before its loop ((name, text) pairs)
        self._loops: list[tuple[str, list[tuple[str, str]]]] = []
        # the locals that hold a combination's code, not its Combo (gen_listing.py, gen_effects.py): the
        # text that gives its cards (a new list each time), and the text of its Combo, for code it is passed to
        self.coded: dict[str, tuple[str, str]] = {}

    # ------------------------------------------------------------ entry points
    def gen(self, n: R.Expr, scope: Scope) -> Frag:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                return self.apart(n, scope)
            method: Callable[[Any, Scope], Frag] | None = getattr(self, "_" + type(n).__name__, None)
            if method is None:
                return self.fallback(n, scope)
            if self.keeps(n):
                # it reads nothing of the play (gen_fixed.py): worked out the first time it is asked, then
                # kept with the generated code for every state of the loaded game
                frag = self.written(method, n, scope)
                return Frag(lazy_use(self.m.const([], "once"), frag.text), NOTHING, frag.safe, frag.nonnull, frag.boolean)
            if (self.hoisting and not trivial(n) and not self.varies(n, scope)
                    and (not self._inside_cell or (self.share and costly(n) and self._depth > 1
                                                   and (self._root or self.share_inner)))):
                saved = self._inside_cell, self._root
                self._inside_cell, self._root = True, False
                try:
                    frag = self.written(method, n, scope)
                finally:
                    self._inside_cell, self._root = saved
                if self.fn.is_cell(frag.text) or is_literal(frag.text):     # kept already (an inlined body), or known
                    return frag
                # a part that cannot fail and costs little is worked out before it is needed; others when first needed
                eager = frag.safe and not self.heavy(n)
                return Frag(self.fn.cell(frag.text, eager), NOTHING, frag.safe, frag.nonnull)
            if self.memo and isinstance(n, _COSTLY) and not self.c.free_locals(n):
                frag = self.written(method, n, scope)
                if is_literal(frag.text):       # a function of the rules that is a constant: nothing to keep
                    return frag
                cell = self.m.const([-1, None], "m")
                return Frag(f"({cell}[1] if {cell}[0] == s.listing else _memo({cell}, s.listing, {frag.text}))",
                            NOTHING, frag.safe, frag.nonnull)
            return self.written(method, n, scope)
        finally:
            self._depth -= 1

    def written(self, method: Callable[[Any, Scope], Frag], n: R.Expr, scope: Scope) -> Frag:
        """A node by its method, or by `fallback` where the method cannot write it."""
        try:
            return method(n, scope)
        except NotGenerated:
            return self.fallback(n, scope)

    def sequence(self, n: R.Expr, scope: Scope) -> Frag:
        """The items of a list- or zone-valued expression."""
        if isinstance(n, R.StateValue) and n.name == "players" and not self.checked:
            return Frag("range(s.n)", NOTHING, True)
        f = self.gen(n, scope)
        if n.type == ZONE:
            return Frag(f"{self.fn.state('_Z')}[{f.text}]", f.deps, f.safe)
        return f

    def keeps(self, n: R.Expr) -> bool:
        """Whether a node's value is kept for the loaded game: it may cost much (a loop), reads nothing of
        the play, and is not a list (a value a variable may hold and an effect change)."""
        return (not self.checked and isinstance(n, _KEPT) and not is_list(n.type) and n.type != ZONE
                and self.heavy(n) and fixed(n, self.c.rules.functions))

    def heavy(self, n: R.Node) -> bool:
        """Whether working a node out may cost much: a loop, a call that is not inlined, a costly built-in."""
        for x in R.walk(n):
            if isinstance(x, R.UserCall):
                if not self.inlines(x) or self.heavy(self.c.rules.functions[x.name].body):
                    return True
            elif costly(x) and not (isinstance(x, R.Aggregate) and self.unrolls(x)):
                return True
        return False

    def over_players(self, n: R.Aggregate | R.ListComp) -> bool:
        """Whether an aggregate or a list goes over the players, few enough to be written out one by one."""
        return (isinstance(n.iterable, R.StateValue) and n.iterable.name == "players"
                and self.c.layout.num_players <= UNROLLED_PLAYERS)

    def unrolls(self, n: R.Aggregate) -> bool:
        """Whether an aggregate is written out player by player (gen_expr.py): no loop to pay for."""
        return not self.checked and n.func in ("any", "all", "count", "sum", "max", "min") and self.over_players(n)

    def inlines(self, n: R.UserCall) -> bool:
        """Whether a call is inlined (then its arguments are worked out where used)."""
        if not all(simple(a) for a in n.args) or not self.c.expansion.inlines(n.name):
            return False
        used = set().union(*(locals_in(a) for a in n.args)) if n.args else set()
        return not used & self.c.binders(n.name)

    def varies(self, n: R.Node, scope: Scope) -> bool:
        """Whether a node reads a local name (so that it cannot be worked out once)."""
        for name in self.c.free_locals(n):
            f = scope.get(name)
            if f is None or f.deps:
                return True
        return False

    def apart(self, n: R.Expr, scope: Scope) -> Frag:
        """A node nested too deep for one Python expression (Python's parser bounds how deep brackets go), as
        a generated function of its own, called with the local names it reads (worked out before the call:
        they are names, or the cheap arguments of an inlined function)."""
        names = sorted(self.c.free_locals(n))
        if any(name not in scope for name in names):
            return self.fallback(n, scope)
        name = self.m.name("d")
        params = [self.m.local(local) for local in names]
        saved = (self.fn, self.hoisting, self._inside_cell, self._root, self._in_iterable, self._depth, self._loops)
        coded, self.coded = self.coded, {}         # (a code is passed on as its Combo)
        self.fn = Function(self.m, name, ", ".join(["s"] + params), pure=True)   # (no effect runs while it does)
        self.hoisting, self._inside_cell, self._root, self._in_iterable, self._depth, self._loops = \
            False, False, False, 0, 0, []
        try:
            inner = {local: Frag(p, frozenset({p}), scope[local].safe, scope[local].nonnull, scope[local].boolean)
                     for local, p in zip(names, params)}
            body = self.gen(n, inner)
            self.fn.emit(f"return {body.text}", 1)
            self.m.add(self.fn.text(["    # a part of an expression nested deeper than one Python expression goes"]))
        finally:
            self.fn, self.hoisting, self._inside_cell, self._root, self._in_iterable, self._depth, self._loops = saved
            self.coded = coded
        args = [scope[local] for local in names]
        return Frag(f"{name}({', '.join(['s'] + [self.passed(a.text) for a in args])})", deps_of(args),
                    body.safe and all(a.safe for a in args), body.nonnull, body.boolean)

    def passed(self, text: str) -> str:
        """The text of a local's value as code generated apart reads it: a combination held as its code
        (`coded`) as its Combo."""
        coded = self.coded.get(text)
        return text if coded is None else coded[1]

    def fallback(self, n: R.Expr, scope: Scope) -> Frag:
        """A node no method writes: the engine cannot run it (tests/test_architecture.py keeps this from
        happening to a class the checker makes)."""
        if isinstance(n, R.BuiltinCall):
            raise UnknownNode(f"the engine has no implementation of the built-in function `{n.name}`")
        if isinstance(n, R.Attribute):
            raise UnknownNode(f"the generator has no method for the {type(n).__name__} attribute `{n.name}`")
        raise UnknownNode(f"the generator has no method for {type(n).__name__} at {n.span}")

    def root(self, node: R.Expr, scope: Scope) -> Frag:
        """An expression worked out once per call: only its costly parts are kept in cells."""
        self._inside_cell = self._root = True
        try:
            return self.gen(node, scope)
        finally:
            self._inside_cell = self._root = False

    def at(self, n: R.Node) -> str:
        """The node's place in the rule file, as a constant of the module (for a located error)."""
        return self.m.const(n.span, "at")

    def function(self, fn: R.Function) -> str:
        """A rule file's function as a generated function of its own (once per kind of caller)."""
        key = (fn.name, self.listing)
        name = self._functions.get(key)
        if name is not None:
            return name
        name = self._functions[key] = self.m.name("f")
        params = [self.m.local(p) for p in fn.params]
        counted = self.c.expansion.fans_out(fn.name)
        saved = (self.fn, self.hoisting, self.memo, self._inside_cell, self._root, self._in_iterable, self._depth)
        coded, self.coded = self.coded, {}         # (its parameters are its own)
        self.fn = Function(self.m, name, ", ".join(["s"] + params + (["at"] if self.checked and counted else [])),
                           pure=True)
        self.hoisting, self.memo, self._inside_cell, self._root = False, self.listing, False, False
        self._in_iterable = self._depth = 0
        if counted and self.checked:
            self.fn.emit(f"_ck_call(s, {self.m.literal(f'calling `{fn.name}`')}, at)", 1)
        elif counted:      # its calls are counted (work.py)
            self.fn.emit("s.work -= 1", 1)
            self.fn.emit("if s.work < 0:", 1)
            self.fn.emit("_fail()", 2)
        try:
            body = self.gen(fn.body, {p: Frag(v, frozenset({v})) for p, v in zip(fn.params, params)})
            self.fn.emit(f"return {body.text}", 1)
            self.m.add(self.fn.text([f"    # the function {self.m.literal(fn.name)} of the rules"]))
        finally:
            (self.fn, self.hoisting, self.memo, self._inside_cell, self._root, self._in_iterable,
             self._depth) = saved
            self.coded = coded
        return name
