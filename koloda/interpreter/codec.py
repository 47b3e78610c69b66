"""Action ids: every action of a game as a block of integers, declared before play.

An action's id is its block's offset plus its parameters written as digits,
each in the radix of its type (a card: the deck's size; a player: the number
of players; a meld plan: the plan's own code). The same rule file, options
and number of players always give the same ids.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.errors import Span
from koloda.dsl.types import BOOL, CARD, COLOR, INT, PLAN, PLAYER, RANK, SIDE, SUIT, ZONE
from koloda.interpreter.cards import CardTable
from koloda.interpreter.layout import Layout
from koloda.interpreter.melds import MeldRules


@dataclass(frozen=True)
class ParamCode:
    var: str
    type: str
    radix: int


@dataclass(frozen=True)
class ActionCode:
    """One action as declared: its name, phase, place among the ids, parameters and text."""
    index: int
    name: str
    phase: int
    offset: int
    params: tuple[ParamCode, ...]
    text: str | None
    span: Span

    @property
    def size(self) -> int:
        size = 1
        for p in self.params:
            size *= p.radix
        return size


class ActionCodec:
    def __init__(self, rules: R.Rules, layout: Layout, cards: CardTable, melds: MeldRules | None):
        self.melds = melds
        radix = {CARD: cards.size, SUIT: 4, RANK: 15, PLAYER: layout.num_players, INT: cards.size + 1,
                 BOOL: 2, COLOR: 2, ZONE: len(layout.zones), SIDE: layout.num_sides,
                 PLAN: melds.radix if melds is not None else 1}
        self.actions: list[ActionCode] = []
        offset = 0
        for phase_index, phase in enumerate(rules.phases):
            for a in phase.actions.values():
                params = tuple(ParamCode(p.var, p.type, radix.get(p.type, 1)) for p in a.params)
                code = ActionCode(len(self.actions), a.name, phase_index, offset, params,
                                  None if a.text is None else str(a.text), a.span)
                self.actions.append(code)
                offset += code.size
        self.num_distinct_actions = offset
        self._offsets = [a.offset for a in self.actions]

    def decode(self, action_id: int, state: Any = None) -> tuple[ActionCode, dict]:
        """The action an id stands for, and its parameters' values (a plan needs the state for a swap)."""
        action = self.actions[bisect_right(self._offsets, action_id) - 1]
        code = action_id - action.offset
        b: dict[str, Any] = {}
        for p in reversed(action.params):
            code, digit = divmod(code, p.radix)
            if p.type == PLAN:
                assert self.melds is not None, "a plan parameter exists only where melds are declared"
                b[p.var] = self.melds.decode(digit, state)
            else:
                b[p.var] = digit if p.type != BOOL else bool(digit)
        return action, b
