"""What the interpreter knows of each built-in function, one entry per built-in.

The signature and the line an editor shows on hover are the dsl's (koloda/dsl/builtins.py,
koloda/dsl/reference.py); this is the interpreter's side, read by what needs the facts rather than
each keeping its own list of names:

- `pure`: the value reads only the arguments, so a condition that calls it is asked again only when
  what its arguments read changes (watch.py). `winner` reads who played the trick's cards, which
  moved there; `next` and `prev` read the direction of play, and `reverse direction` marks every
  condition.
- `cheap`: cheaper to work out again than to keep in a cell of generated code (gen_frag.costly).

tests/test_builtin_entries.py checks that every built-in has an entry.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    pure: bool = False
    cheap: bool = False


ENTRIES: dict[str, Entry] = {
    "abs": Entry(pure=True, cheap=True),
    "value": Entry(pure=True, cheap=True),
    "next": Entry(pure=True, cheap=True),
    "prev": Entry(pure=True, cheap=True),
    "top": Entry(pure=True, cheap=True),
    "player": Entry(pure=True),
    "winner": Entry(pure=True),
    "count": Entry(pure=True),
    "sum": Entry(pure=True),
    "any": Entry(pure=True),
    "all": Entry(pure=True),
    "max": Entry(pure=True),
    "min": Entry(pure=True),
    "hand_pattern": Entry(pure=True),
    "hand_compare": Entry(pure=True),
    "product": Entry(),
    "combinations": Entry(),
    "subsets": Entry(),
    "highest": Entry(),
    "lowest": Entry(),
    "winning_card": Entry(),
    "best_points": Entry(),
    "best_points_after": Entry(),
    "layoffs": Entry(),
    "melds_in": Entry(),
    "swaps": Entry(),
}

PURE = frozenset(name for name, entry in ENTRIES.items() if entry.pure)
CHEAP = frozenset(name for name, entry in ENTRIES.items() if entry.cheap)
