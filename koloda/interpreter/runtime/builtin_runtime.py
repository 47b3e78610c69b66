"""The built-ins' semantics as functions of plain values, for those no other module owns.

Generated code calls them (with the call's span, `at`, so a failure raises the located error): what
a built-in means is written once. The meld functions live in meld_calls.py, the tricks' in trick_order.py, the choices in
choices.py. builtin_entries.py says which function is which built-in's.
"""
from __future__ import annotations

import itertools
from math import prod
from typing import Any

from koloda.dsl.errors import Span
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.work import checked_number, spend


def value_of(values: Any, card: Any, name: str, at: Span) -> Any:
    """`value(c)` (`name` "value") or `value(c, "table")` (`name` the table's): the card's value."""
    if card is None:
        raise RuleRuntimeError(f"`{name}` of no card (the argument is none)", at)
    return values[card]


def absolute(x: Any, at: Span) -> Any:
    if x is None:
        raise RuleRuntimeError("`abs` of no number (the argument is none)", at)
    return abs(x)


def step(p: Any, sign: int, direction: int, n: int, at: Span) -> int:
    """`next` (`sign` 1) and `prev` (-1): one seat round the table, in the direction of play (or against it)."""
    if p is None:
        raise RuleRuntimeError(f"`{'next' if sign > 0 else 'prev'}` of no player (the argument is none)", at)
    return (p + sign * direction) % n


def seat_player(k: Any, n: int, at: Span) -> int:
    """`player(k)`: who sits in seat k (P1 in seat 1)."""
    if k is None:
        raise RuleRuntimeError("`player` of no seat (the argument is none)", at)
    if not 1 <= k <= n:
        raise RuleRuntimeError(f"there is no seat {k}: the seats are 1 to {n}", at)
    return k - 1


def seat_number(p: Any) -> Any:
    """`p.seat`: P1 sits in seat 1."""
    return None if p is None else p + 1


def top_cards(zone: list, k: Any, at: Span) -> list:
    """`top(zone, k)`: the k cards on top, the top one first."""
    if k is None or k < 0:
        raise RuleRuntimeError(f"`top` takes a count of 0 or more, not {k}", at)
    return zone[::-1][:k]


def total(values: Any, name: str, at: Span) -> Any:
    """`sum` and `product` of a list of numbers."""
    if None in values:
        raise RuleRuntimeError(f"`{name}` over a list that holds none", at)
    return checked_number(sum(values) if name == "sum" else prod(values), f"`{name}`", at)


def extreme(values: Any, name: str, at: Span) -> Any:
    """`max` and `min` of a list."""
    values = list(values)
    if not values:
        raise RuleRuntimeError(f"`{name}` of nothing", at)
    return max(values) if name == "max" else min(values)


def seat_order(p: Any, others: bool, direction: int, n: int, at: Span) -> list[int]:
    """`players from p` (p first) or `others from p` (p left out), in the direction of play."""
    if p is None:
        raise RuleRuntimeError(f"`{'others' if others else 'players'} from` no player (the start is none)", at)
    return [(p + k * direction) % n for k in range(1 if others else 0, n)]


def numbers(s: Any, first: Any, last: Any, by: Any, at: Span) -> list[int]:
    """`first..last by k`: its numbers spent from the run's budget (work.py) before it is made."""
    if by <= 0:
        raise RuleRuntimeError(f"a range goes up by a whole number above 0, not by {by}", at)
    count = max(0, (last - first) // by + 1)
    s.work -= count
    if s.work < 0:
        spend(s, 0, f"a range of {count:,} numbers", at)
    return list(range(first, last + 1, by))


def joined(x: Any, y: Any, at: Span) -> Any:
    """Two lists one after the other, for a question that may not need them all (both worked out first,
    as `+` does)."""
    if x is None or y is None:
        raise RuleRuntimeError("`+` with none", at)
    return itertools.chain(x, y)


def zone_owner(z: Any, slot_kind: list, slot_owner: list, zone_slot: dict, table: list, by_side: bool,
               side_of: Any, want_owner: bool) -> Any:
    """`zone.owner` (`want_owner`) or `zone.side`: a meld on the table is whoever made it's (a side's meld
    has no single owner), another zone the layout's (`table`)."""
    slot = zone_slot.get(z)
    if slot is not None and slot_kind[slot] is not None:
        o = slot_owner[slot]
        if by_side:
            return None if want_owner else o
        return o if want_owner else side_of(o)
    return table[z]


# ------------------------------------------------------------ the melds on the table (generated code calls these
# by the names gen_runtime.py gives them)
def table_melds(slot_kind: list, slot_owner: Any, slot_zone: list, owner: Any, anyone: bool) -> list[int]:
    """The zones of the melds on the table in the order made: all of them (`anyone`), or one owner's."""
    return [slot_zone[k] for k, kind in enumerate(slot_kind) if kind is not None and (anyone or slot_owner[k] == owner)]


def meld_kind(slot_kind: list, zone_slot: dict, kinds: list, zone: Any) -> Any:
    """`z.kind`: the kind of the meld in a zone, none for a zone that holds no meld."""
    slot = zone_slot.get(zone)
    return None if slot is None or slot_kind[slot] is None else kinds[slot_kind[slot]]


def meld_fresh(slot_kind: list, slot_turn: list, zone_slot: dict, turn: int, zone: Any) -> bool:
    """`z.fresh`: the zone holds a meld made this turn."""
    slot = zone_slot.get(zone)
    return False if slot is None or slot_kind[slot] is None else slot_turn[slot] == turn
