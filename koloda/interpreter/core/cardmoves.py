"""`move CARD to ...` and `move LIST to ...` as one call of generated code each.

Generated code used to note the cards leaving public zones and then call `State.move` card by card:
a setup that hands out a list of cards paid a Python call per card. These functions do the same in
one call, compiled with the state (mypyc: each `State.move` is then a C call, and the state's lists
C struct members).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:       # compiled together with the state, which generated code hands in
    from koloda.interpreter.core.state import State


def move_card(s: State, card: int, dest: int, who: int | None, face_up: bool, under: bool) -> None:
    """One card (never none: the caller says there is no card to move) to `dest`, noted for the
    table first if it leaves a public zone."""
    src = s.loc[card]
    if src >= 0 and s.layout.public[src]:
        s.note_leaving([card], dest)
    s.move(card, dest, who, face_up, under)


def move_cards(s: State, cards: Iterable[int], dest: int, who: int | None, face_up: bool, under: bool) -> None:
    """A list of cards to `dest`, in its order (under: the last first, so that they lie in the list's
    order beneath the zone's cards). Those that leave public zones are noted for the table first, as
    they all lie before any has moved."""
    moving = list(cards)        # the list may be a zone's own, which the moves change
    loc, public = s.loc, s.layout.public
    leaving = [c for c in moving if loc[c] >= 0 and public[loc[c]]]
    if leaving:
        s.note_leaving(leaving, dest)
    for c in (reversed(moving) if under else moving):
        s.move(c, dest, who, face_up, under)
