"""`combinations(list, k)` and `subsets(list)`: choices of items, each keeping the list's order.

Both are bounded, so that a rule file cannot ask for more lists than a move may take time to list, and
each spends the items it makes from the run's budget (work.py) before it makes them: `combinations` of
`combinations` and `subsets` of each of `subsets` multiply.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from koloda.dsl.errors import Span
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.work import choices_count, spend

__all__ = ["MOST_SUBSET_ITEMS", "MOST_CHOICES", "subsets_of", "combinations_of"]

MOST_SUBSET_ITEMS = 16          # `subsets` of at most this many items: 2^16 lists
MOST_CHOICES = 1 << 16          # `combinations` making at most this many lists


def subsets_of(s: Any, items: list, span: Span) -> list[list]:
    """Every sub-list, the empty one first, then by size."""
    if len(items) > MOST_SUBSET_ITEMS:
        raise RuleRuntimeError(f"`subsets` of {len(items)} items: at most {MOST_SUBSET_ITEMS} "
                               f"(2^{MOST_SUBSET_ITEMS} lists)", span)
    # 2^n lists holding n * 2^(n-1) items
    spend(s, (1 << len(items)) + len(items) * (1 << len(items)) // 2, f"`subsets` of {len(items)} items", span)
    return [list(chosen) for k in range(len(items) + 1) for chosen in combinations(items, k)]


def combinations_of(s: Any, items: list, k: int | None, span: Span) -> list[list]:
    """Every choice of k items."""
    if k is None or k < 0:
        raise RuleRuntimeError(f"`combinations` of {k} items: give a whole number from 0", span)
    if k > len(items):
        return []               # (itertools would first make room for k indices)
    made = choices_count(len(items), k, MOST_CHOICES)
    if made > MOST_CHOICES:
        raise RuleRuntimeError(f"`combinations` of {k} from {len(items)} items makes more than {MOST_CHOICES} "
                               "lists", span)
    spend(s, made * (k + 1), f"`combinations` of {k} from {len(items)} items", span)
    return [list(chosen) for chosen in combinations(items, k)]
