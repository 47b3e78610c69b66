"""Which zones the table draws, and how it lays out their cards.

A zone's `arrange:` (docs/language.md) says how its cards lie: `pairs`, two by
two (an attack and the card that beat it); `sorted`, by suit and rank as a hand
(a hand laid open on the table). An empty zone that the phase under way does
not use is not drawn: `stock 0 cards` for a deck dealt out whole, or `cards to
pass —` once the passing is over, would tell a player nothing and take a line
that the hand needs on a small screen.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.nodes import nodes_in
from koloda.interpreter.core.table import Table


def arrangement(game: Table, zone: str) -> str | None:
    spec = game.spec.zones.get(zone)
    return spec.arrange if spec is not None else None


def drawn(game: Table, zone: str, size: int, phase: int) -> bool:
    """Whether the table draws a zone holding `size` cards in phase `phase` (its index): an empty zone
    that nothing of the phase names, nor an event or the deal's end, is left out (Hearts' cards to
    pass once passing is over, Bridge's trick during the auction, a deck dealt out whole)."""
    return size > 0 or zone in _named_in(game.rules, phase)


@lru_cache(maxsize=256)
def _named_in(rules: R.Rules, phase: int) -> frozenset[str]:
    """The zones that phase `phase`, the events, the deal's end and the turn cap name, with the
    functions and procedures they call."""
    roots: list[Any] = [rules.phases[phase] if 0 <= phase < len(rules.phases) else rules.phases,
                        rules.events, rules.deal_ends, rules.turn_cap]
    names: set[str] = set()
    seen: set[tuple[str, str]] = set()
    while roots:
        for node in nodes_in(roots.pop()):
            if isinstance(node, (R.ZoneRef, R.OwnedZone)):
                names.add(node.name)
            elif isinstance(node, R.UserCall) and ("f", node.name) not in seen and node.name in rules.functions:
                seen.add(("f", node.name))
                roots.append(rules.functions[node.name].body)
            elif isinstance(node, R.Perform) and ("p", node.name) not in seen and node.name in rules.procedures:
                seen.add(("p", node.name))
                roots.append(rules.procedures[node.name].body)
    return frozenset(names)

