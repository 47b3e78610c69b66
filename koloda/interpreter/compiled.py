"""Which modules run compiled: the meld search, a hand's combinations, a trick's winner, the state and its flow
(setup.py compiles them with mypyc where it can).

The compiled modules are built from the same typed source and play the same moves; a plain Python
install runs that source. `compiled()` says which kind this install is, for a benchmark's report.
"""
from __future__ import annotations

import importlib

# setup.py reads this list (without importing koloda): the modules the meld search runs through, and
# the state with the flow that drives it (compiled together, each reads the other's fields directly);
# no other code subclasses or patches their classes, since compiled classes cannot be
MODULES = [
    "koloda.interpreter.melds.bitmask",
    "koloda.interpreter.melds.bounded",
    "koloda.interpreter.melds.meldlist",
    "koloda.interpreter.melds.meldwhole",
    "koloda.interpreter.melds.plays",
    "koloda.interpreter.melds.reach",
    "koloda.interpreter.melds.meld_calls",
    "koloda.interpreter.melds.melds",
    "koloda.interpreter.melds.combos",
    "koloda.interpreter.runtime.gen_runtime",
    "koloda.interpreter.runtime.trick_order",
    "koloda.interpreter.core.state",
    "koloda.interpreter.core.flow",
    "koloda.interpreter.core.cardmoves",
    "koloda.interpreter.core.history",
]


def compiled() -> list[str]:
    """The modules of `MODULES` that run as compiled code here: none in a plain Python install."""
    out = []
    for name in MODULES:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        if not path.endswith(".py"):
            out.append(name)
    return out
