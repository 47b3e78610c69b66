"""Conditions asked again only when what they read has changed.

The flow asks some conditions after every move: a phase's `ends:`, `deal
ends`, each event's `when:`. Most read a few zones and variables only, and
are false almost always. Each such condition gets a bit; each zone and each
variable knows the bits of the conditions that read it. The state keeps the
bits of the conditions that may have changed (`State.dirty`): a card moving
in or out of a zone, a shuffle, an assignment set the bits of what they
touch; a condition found false clears its bit, and while its bit is clear it
is false without being asked. A condition that reads anything else (whose
turn it is, the melds, who played a card) is asked every time.

A condition `a and b and ...` has a bit for each of its parts: it is false
while any one part found false has not been touched since (`stock.size == 0
and pile.size > 1` stays false while the stock is not, however often the pile
changes), and a part that reads something else is asked every time.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import ZONE, list_of
from koloda.interpreter.runtime.builtin_entries import ATTRIBUTES, NAMES, PURE, watched_names
from koloda.interpreter.base.layout import Layout

ALL = -1             # every bit set: every condition must be asked
# what the watch knows the changes of (their entries say, builtin_entries.py): names whose value does not
# change during a match; attributes that read only the card, or the zone's cards, or the zone's fixed place
_CONSTANT_NAMES = watched_names(NAMES)
_CARD_ATTRS = watched_names(ATTRIBUTES["card"])
_ZONE_ATTRS = watched_names(ATTRIBUTES["zone"])
# built-ins that read only their arguments
_PURE_CALLS = PURE


class _ReadsMore(Exception):
    """The condition reads something the state does not mark when it changes."""


Part = tuple[R.Expr, int]      # a part of a condition `a and b ...`, and its bit (0: it is asked every time)


@dataclass
class Watch:
    bits: dict[R.Expr, int] = field(default_factory=dict)        # condition -> the bits of its parts
    parts: dict[R.Expr, list[Part]] = field(default_factory=dict)     # condition -> its parts, in order
    zone_dirt: list[int] = field(default_factory=list)           # zone -> bits of the conditions reading it
    var_dirt: dict[str, int] = field(default_factory=dict)       # variable -> bits of the conditions reading it
    # a bit no condition has, set by every change to a meld on the table: whoever keeps what the melds
    # on the table are (MeldRules.on_table) clears it and knows them unchanged while it stays clear
    table_bit: int = 0


def watch(rules: R.Rules, layout: Layout) -> Watch:
    found = Watch(zone_dirt=[0] * len(layout.zones))
    conditions = [ph.ends for ph in rules.phases if ph.ends is not None] + [e.when for e in rules.events]
    if rules.deal_ends is not None:
        conditions.append(rules.deal_ends)
    reader = _Reader(rules, layout)
    count = 0
    for node in conditions:
        parts: list[Part] = []
        for part in conjuncts(node):
            try:
                zones, variables = reader.reads(part)
            except _ReadsMore:
                parts.append((part, 0))
                continue
            bit = 1 << count
            count += 1
            parts.append((part, bit))
            for z in zones:
                found.zone_dirt[z] |= bit
            for name in variables:
                found.var_dirt[name] = found.var_dirt.get(name, 0) | bit
        mask = 0
        for _, bit in parts:
            mask |= bit
        if mask:
            found.bits[node], found.parts[node] = mask, parts
    if layout.slot_zone:
        found.table_bit = 1 << count
        for z in layout.slot_zone:
            found.zone_dirt[z] |= found.table_bit
    return found


def conjuncts(n: R.Expr) -> list[R.Expr]:
    """`a and b and c` as [a, b, c]."""
    return conjuncts(n.left) + conjuncts(n.right) if isinstance(n, R.And) else [n]


class _Reader:
    def __init__(self, rules: R.Rules, layout: Layout):
        self.rules = rules
        self.layout = layout
        self._functions: dict[str, tuple[frozenset[int], frozenset[str]]] = {}

    def reads(self, node: R.Node) -> tuple[frozenset[int], frozenset[str]]:
        zones: set[int] = set()
        variables: set[str] = set()
        for n in R.walk(node):
            self._node(n, zones, variables)
        return frozenset(zones), frozenset(variables)

    def _family(self, name: str) -> list[int]:
        return [z for z, zone_name in enumerate(self.layout.zone_names) if zone_name == name]

    def _node(self, n: R.Node, zones: set[int], variables: set[str]) -> None:
        if isinstance(n, (R.ZoneRef, R.OwnedZone, R.GridRef, R.OwnedGrid)):
            zones.update(self._family(n.name))
        elif isinstance(n, (R.VarRef, R.OwnedVar)):
            if n.type in (ZONE, list_of(ZONE)):        # a zone that is not named here: its cards are not watched
                raise _ReadsMore
            variables.add(n.name)
        elif isinstance(n, R.StateValue):
            if n.name not in _CONSTANT_NAMES:
                raise _ReadsMore
        elif isinstance(n, R.CardAttr):
            if n.name not in _CARD_ATTRS:
                raise _ReadsMore
        elif isinstance(n, R.ZoneAttr):
            if n.name not in _ZONE_ATTRS:
                raise _ReadsMore
        elif isinstance(n, R.BuiltinCall):
            if n.name not in _PURE_CALLS:
                raise _ReadsMore
        elif isinstance(n, R.UserCall):
            if n.name not in self._functions:
                self._functions[n.name] = self.reads(self.rules.functions[n.name].body)
            more_zones, more_variables = self._functions[n.name]
            zones.update(more_zones)
            variables.update(more_variables)
        elif isinstance(n, (R.MeldsOf, R.PlanAttr, R.Invalid)):
            raise _ReadsMore
        elif not isinstance(n, (R.Const, R.Option, R.Local, R.GridAttr, R.PlayerAttr, R.SideAttr, R.ListAttr,
                                R.Index, R.Aggregate, R.ListLit, R.ListComp, R.Flatten, R.Range, R.Arith, R.Compare,
                                R.Contains, R.And, R.Or, R.Not, R.Neg, R.IfElse)):
            raise _ReadsMore        # a kind of node added since: asked every time until it is known here
