"""Which kinds of combination an action's `if:` lets through, so that a listing over `combos(...)` makes
only those (gen_listing.py).

A follower in a climbing game may play only what beats the table: `last == none or m.kind == rocket or
(m.kind == bomb and …) or (m.kind == last and …)`. Such a guard is false for a combination of any other
kind, so listing the hand's combinations of every kind and asking the guard of each (hundreds for a
hand of seventeen cards) finds nothing more than listing those of the kinds it names. The generator
reads this from the guard itself, as written: a part of its `and`s that is an `or` of which each branch
either reads no parameter (true: any kind may follow) or holds `m.kind == K` (`m.kind in [K, …]`) for
a `K` that reads no parameter. What it cannot read so lets every kind through. The guard is still asked
of each combination listed, so the moves are the same; a part worked out early that fails sends the
listing to its checked copy, which lists as the rules are written (flow.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koloda.dsl import resolved as R
from koloda.interpreter.codegen.gen_frag import Frag, Scope, truth
from koloda.interpreter.core.loaded import chain


@dataclass(frozen=True)
class _Way:
    """One way a condition may hold: for any combination while `when` (which reads no parameter) holds,
    or for one of the kind `kind` (a text that reads no parameter)."""
    when: str | None = None
    kind: str | None = None


def kinds_let_through(g: Any, guard: R.Expr, scope: Scope, var: str) -> str | None:
    """The text of the kinds' names the guard may let through for the combination `var` (None at run
    time: any), or None when the guard names no kind."""
    ways = _ways(g, guard, scope, scope[var].text)
    if not ways or all(w.kind is None for w in ways):
        return None
    kinds = ", ".join(dict.fromkeys(w.kind for w in ways if w.kind is not None))
    anys = [truth(w.when) for w in ways if w.when is not None]
    if not anys:
        return f"({kinds},)"
    return f"(None if ({' or '.join(anys)}) else ({kinds},))"


def _ways(g: Any, n: R.Expr, scope: Scope, local: str) -> list[_Way] | None:
    """The ways a condition may hold, or None when it may hold for any combination however the state is."""
    if not g.varies(n, scope):
        return [_Way(when=g.gen(n, scope).text)]
    if isinstance(n, R.UserCall):
        if not g.inlines(n):
            return None
        fn = g.c.rules.functions[n.name]        # the body as it is inlined: the arguments where it reads them
        return _ways(g, fn.body, {p: g.gen(a, scope) for p, a in zip(fn.params, n.args)}, local)
    if isinstance(n, R.Or):
        ways: list[_Way] = []
        for branch in chain(n, R.Or):
            found = _ways(g, branch, scope, local)
            if found is None:
                return None
            ways += found
        return ways
    if isinstance(n, R.And):
        # each part holds where the whole does: the one that says most (kinds only, else a condition on
        # the state alone, else whatever a part says)
        parts = [(part, _ways(g, part, scope, local)) for part in chain(n, R.And)]
        for test in (lambda w: w is not None and all(x.when is None for x in w),
                     lambda w: w is not None and all(x.kind is None for x in w), lambda w: w is not None):
            for _, found in parts:
                if test(found):
                    return found
        return None
    if isinstance(n, R.Compare) and n.op == "==":
        for side, other in ((n.left, n.right), (n.right, n.left)):
            if _is_kind(side, scope, local) and not g.varies(other, scope):
                return [_Way(kind=g.gen(other, scope).text)]
        return None
    if isinstance(n, R.Contains) and not n.negated and _is_kind(n.item, scope, local) \
            and isinstance(n.container, R.ListLit) and not g.varies(n.container, scope):
        return [_Way(kind=g.gen(item, scope).text) for item in n.container.items] or None
    return None


def _is_kind(n: R.Expr, scope: Scope, local: str) -> bool:
    """Whether a node is `m.kind` of the listed combination."""
    return isinstance(n, R.ComboAttr) and n.name == "kind" and isinstance(n.obj, R.Local) \
        and isinstance(scope.get(n.obj.name), Frag) and scope[n.obj.name].text == local
