"""What the three hand-written engines share: the 52-card deck, numbered as koloda numbers it, and
the loop every engine of the bench offers.

A card is an int 0..51: ``suit * 13 + rank``, the suits clubs, diamonds, hearts, spades (``CDHS``)
and the ranks 2 to the ace (``0`` is the two, ``12`` the ace). Its name is koloda's: ``10C``,
``QH``, ``AS``. The engines keep cards as these ints and turn them into names only for a move's
text, which only the tests ask for: a move is an int, as it is in koloda and OpenSpiel.
"""
from __future__ import annotations

from typing import Protocol, Sequence

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
DECK = range(52)
NAMES = [rank + suit for suit in SUITS for rank in RANKS]
CARD = {name: card for card, name in enumerate(NAMES)}

# the value current_player() has when the game is over, and koloda's value at a chance node, which
# these engines never reach: each shuffles and deals inside new_initial_state, as koloda does
TERMINAL = -4
CHANCE = -1


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def cards(names: Sequence[str]) -> list[int]:
    """koloda's card names as cards."""
    return [CARD[name] for name in names]


def win_shares(scores: Sequence[int], lowest: bool = False) -> list[float]:
    """A match's returns as koloda gives them: 1 for a sole winner, split among tied winners."""
    best = min(scores) if lowest else max(scores)
    winners = sum(1 for s in scores if s == best)
    return [1.0 / winners if s == best else 0.0 for s in scores]


class State(Protocol):
    """The loop the bench drives every engine with (koloda's, OpenSpiel's shape)."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def scores(self) -> list[int]: ...
    def action_to_string(self, action: int) -> str: ...


class Game(Protocol):
    def new_initial_state(self, seed: int = 0) -> State: ...
