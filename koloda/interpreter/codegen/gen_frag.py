"""What generated expression text is made of (see gen_expr.py): a fragment of text and what it reads,
and small rules about such text."""
from __future__ import annotations

from dataclasses import dataclass

from koloda.dsl import resolved as R
from koloda.interpreter.runtime.builtin_entries import CHEAP

NOTHING: frozenset[str] = frozenset()
_TRIVIAL = (R.Const, R.Option, R.Local, R.ZoneRef, R.GridRef, R.VarRef, R.StateValue)


class NotGenerated(Exception):
    """A node a generator method declines: an engine bug, reported as UnknownNode."""


class UnknownNode(Exception):
    """A resolved node the generator has no method for: a construct added to the checker only."""


@dataclass(frozen=True)
class Frag:
    text: str                       # a Python expression: an atom, or in parentheses
    deps: frozenset[str] = NOTHING  # the generated locals it reads (parameters, loop names)
    safe: bool = False              # cannot fail
    nonnull: bool = False           # never none
    boolean: bool = False           # Python's True or False, never another value


Scope = dict[str, Frag]     # local names of the rules -> what they stand for here


def truth(text: str) -> str:
    """An expression used only as true or false (an `if`): `True if x else False` is just `x` there."""
    if text.startswith("(True if (") and text.endswith(") else False)"):
        inner = text[len("(True if "):-len(" else False)")]
        depth = 0
        for i, ch in enumerate(inner):        # the parentheses must close at the end only
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(inner) - 1:
                return text
        return inner
    return text


def is_literal(text: str) -> bool:
    return text in ("True", "False", "None") or text.lstrip("-").isdigit()


def deps_of(frags: list[Frag]) -> frozenset[str]:
    out: frozenset[str] = NOTHING
    for f in frags:
        out |= f.deps
    return out


def atom(text: str) -> bool:
    """A name or a literal number: cheap and safe to write twice."""
    return text.isidentifier() or text.lstrip("-").isdigit() or text in ("s.current", "s.dealer", "s.n")


def is_none(text: str) -> str:
    """`x is None` as source (`is` with a literal number or string is a warning in Python: `==` then)."""
    if text.isidentifier() or text.startswith("s."):
        return f"{text} is None"
    return f"{text} == None"


def seats(n: R.Node) -> bool:
    """`players` or `others`: a new list of seats each time it is worked out, never none, which a loop
    over it need neither copy nor count."""
    return isinstance(n, R.StateValue) and n.name in ("players", "others")


def costly(n: R.Node) -> bool:
    """Worth keeping even where it is worked out once: another action's `if:` may ask the same."""
    return isinstance(n, (R.Aggregate, R.ListComp, R.UserCall)) or (
        isinstance(n, R.BuiltinCall) and n.name not in CHEAP)          # its entry says (builtin_entries.py)


def trivial(n: R.Node) -> bool:
    """Cheaper to work out again than to keep."""
    if isinstance(n, _TRIVIAL):
        return True
    if isinstance(n, R.Owned):
        return trivial(n.owner)
    if isinstance(n, (R.CardAttr, R.PlayerAttr)):
        return trivial(n.obj)
    return False
