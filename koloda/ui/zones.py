"""Which zones the table draws, and how it lays out their cards.

A zone's `arrange:` (docs/language.md) says how its cards lie: `pairs`, two by
two (an attack and the card that beat it); `sorted`, by suit and rank as a hand
(a hand laid open on the table). A shared zone that only `setup:` and `deal:`
name (the deck the cards are dealt from) is drawn only while it holds cards:
play never uses it, and `stock 0 cards` would tell a player nothing.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, Iterator

from koloda.dsl import resolved as R
from koloda.interpreter.state import Table


def arrangement(game: Table, zone: str) -> str | None:
    spec = game.spec.zones.get(zone)
    return spec.arrange if spec is not None else None


def drawn(game: Table, zone: str, size: int) -> bool:
    """Whether the table draws a shared zone holding `size` cards."""
    return size > 0 or zone in _in_play(game.rules)


@lru_cache(maxsize=64)
def _in_play(rules: R.Rules) -> frozenset[str]:
    """The shared zones that something other than `setup:` and `deal:` names."""
    names: set[str] = set()
    for f in dataclasses.fields(rules):
        if f.name in ("spec", "setup", "deal"):
            continue
        for node in _nodes(getattr(rules, f.name)):
            if isinstance(node, R.ZoneRef):
                names.add(node.name)
    return frozenset(names)


def _nodes(value: Any) -> Iterator[R.Node]:
    """Every resolved node in a value of the rules: nodes, and the tuples, dicts and records holding them."""
    if isinstance(value, R.Node):
        yield from R.walk(value)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _nodes(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _nodes(getattr(value, f.name))
