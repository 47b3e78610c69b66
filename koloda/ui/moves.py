"""The legal moves in the order the table lists and numbers them.

`State.legal_actions()` goes by action id, which orders cards as the deck
does (clubs first); the table lists a decision's moves action by action and,
within an action, its cards in the order the hand is drawn (spades, hearts,
clubs, diamonds; by rank within a suit), so that a move list reads like the
hand above it. A move's number is its place in this list.
"""
from __future__ import annotations

from typing import Any

from koloda.dsl.types import CARD, PLAN
from koloda.interpreter.state import State, Table
from koloda.ui.table import card_key


def listed_moves(state: State) -> list[int]:
    """The legal moves, in the order shown (and numbered from 1) at the table."""
    game = state.game
    return sorted(state.legal_actions(), key=lambda a: _key(game, state, a))


def _key(game: Table, state: State, action_id: int) -> tuple:
    action, values = game.codec.decode(action_id, state)
    parts: list[Any] = [action.index]
    for p in action.params:
        value = values[p.var]
        if p.type == CARD:
            parts.append(card_key(game, value))
        elif p.type == PLAN:
            parts.append(tuple(card_key(game, c) for c in value.cards))
        else:
            parts.append(value)
    parts.append(action_id)       # copies of a card, and anything else alike, keep the ids' order
    return tuple(parts)
