"""Bounded caches: an OrderedDict that forgets the entry used least recently, or a plain dict
emptied when full.

The meld listings, plans and searches of a game are kept to be asked again (the same hands come
back in the same decision and the next), but never more than a fixed number of each, so that a
long match or many of them cannot grow the memory without end.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Hashable, TypeVar

V = TypeVar("V")

# The caches whose entries are asked for again within a few questions of the listing that made them, or
# not at all (measured over random play, docs/decisions.md "Caches that hold what is asked again soon"):
# kept small, so that what they forget goes before the garbage collector has to look at it.
RECENT_HANDS = 16       # a whole hand's groups, plays by points, counts, groups that lost a card (plays.py)
RECENT_PARTS = 128      # the plays of a part of a hand (plays.py)
RECENT_LISTINGS = 64    # a hand's new melds as plans (melds.py) and its groups (meldlist.py)


def recall(cache: OrderedDict, key: Hashable):
    """The value kept under `key` (now the most recently used), or None."""
    found = cache.get(key)
    if found is not None:
        cache.move_to_end(key)
    return found


def remember(cache: OrderedDict, key: Hashable, value: V, size: int) -> V:
    """Keep `value` under `key`, forgetting the entries used least recently past `size` entries:
    a sixteenth of them at a time, since forgetting one at each new entry costs more than the
    entries forgotten early would have saved."""
    cache[key] = value
    if len(cache) > size:
        forget = cache.popitem
        for _ in range(max(1, size // 16)):
            forget(last=False)
    return value


def fill(cache: dict, key: Hashable, value: V, size: int) -> V:
    """Keep `value` under `key`, emptying the cache first when it holds `size` entries: for values
    quick to make again, asked for on hot paths, where keeping the order of use would cost more than
    the entries kept would save."""
    if len(cache) >= size:
        cache.clear()
    cache[key] = value
    return value
