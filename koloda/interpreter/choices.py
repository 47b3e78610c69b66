"""`combinations(list, k)` and `subsets(list)`: choices of items, each keeping the list's order.

Both are bounded, so that a rule file cannot ask for more lists than a move may take time to list.
"""
from __future__ import annotations

from itertools import combinations
from math import comb

from koloda.dsl.errors import Span
from koloda.interpreter.errors import RuleRuntimeError

__all__ = ["MOST_SUBSET_ITEMS", "MOST_CHOICES", "subsets_of", "combinations_of"]

MOST_SUBSET_ITEMS = 16          # `subsets` of at most this many items: 2^16 lists
MOST_CHOICES = 1 << 16          # `combinations` making at most this many lists


def subsets_of(items: list, span: Span) -> list[list]:
    """Every sub-list, the empty one first, then by size."""
    if len(items) > MOST_SUBSET_ITEMS:
        raise RuleRuntimeError(f"`subsets` of {len(items)} items: at most {MOST_SUBSET_ITEMS} "
                               f"(2^{MOST_SUBSET_ITEMS} lists)", span)
    return [list(chosen) for k in range(len(items) + 1) for chosen in combinations(items, k)]


def combinations_of(items: list, k: int | None, span: Span) -> list[list]:
    """Every choice of k items."""
    if k is None or k < 0:
        raise RuleRuntimeError(f"`combinations` of {k} items: give a whole number from 0", span)
    made = comb(len(items), k)
    if made > MOST_CHOICES:
        raise RuleRuntimeError(f"`combinations` of {k} from {len(items)} items makes {made} lists, "
                               f"more than {MOST_CHOICES}", span)
    return [list(chosen) for chosen in combinations(items, k)]
