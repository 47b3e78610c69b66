"""Which expressions read nothing of the play: their value is the same in every state of a loaded game.

Such a list (a setup's `move [c for c in all_cards if c.suit == clubs and value(c) <= option.cards]`)
is worked out the first time it is asked and kept with the generated code, instead of going through
the deck again at every match. What counts as reading nothing is what `wild:` may read (the card's own
attributes, the options, constants: dsl/builtins.py STATIC_CARD_ATTRS, STATIC_FUNCTIONS), the table's
fixed lists (`all_cards`, `suits`, ...), and only the local names the expression binds itself.
"""
from __future__ import annotations

from koloda.dsl import resolved as R
from koloda.dsl.builtins import STATIC_CARD_ATTRS, STATIC_FUNCTIONS

# the state's names whose value the loaded game fixes (not the number of players: a state's own)
FIXED_NAMES = frozenset({"all_cards", "suits", "ranks", "deck_size", "sides"})
# nodes that read nothing themselves: what they read is their parts'
_PLAIN = (R.Const, R.Option, R.ListLit, R.Flatten, R.Range, R.Arith, R.Compare, R.Contains, R.And, R.Or, R.Not,
          R.Neg, R.IfElse, R.Index, R.ListAttr)


def fixed(n: R.Expr, functions: dict[str, R.Function], bound: frozenset[str] = frozenset()) -> bool:
    """Whether `n` reads nothing of the play, `bound` being the local names bound inside it around it."""
    if isinstance(n, R.Local):
        return n.name in bound
    if isinstance(n, (R.ListComp, R.Aggregate)):
        inner = bound | {n.var}
        return fixed(n.iterable, functions, bound) and all(
            fixed(part, functions, inner) for part in (n.elem, n.cond) if part is not None)
    if isinstance(n, R.UserCall):
        fn = functions[n.name]
        return all(fixed(a, functions, bound) for a in n.args) and fixed(fn.body, functions, frozenset(fn.params))
    if isinstance(n, R.StateValue):
        return n.name in FIXED_NAMES
    ok = (isinstance(n, _PLAIN) or isinstance(n, R.CardAttr) and n.name in STATIC_CARD_ATTRS
          or isinstance(n, R.BuiltinCall) and n.name in STATIC_FUNCTIONS)
    return ok and all(isinstance(c, R.Expr) and fixed(c, functions, bound) for c in R.children(n))
