"""A trick's winner and the strongest card: `winner`, `winning_card`, `highest` and `lowest`.

The functions of plain values here are what generated code calls (builtin_entries.py), so the rule of
a trick is written once. With the game's own order (and the suit
each card counts as) the rule file names functions of a card: the checker resolved each to a call on
the local name CARD_SLOT, applied here to one card after another.
"""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl.builtins import CARD_SLOT
from koloda.dsl.errors import Span
from koloda.interpreter.base.errors import RuleRuntimeError

CardFn = Callable[[Any], Any]


def trick_winner(trick: list, trump: Any, suits: tuple, ranks: tuple, order: tuple, by: Any, name: str,
                 at: Span) -> Any:
    """Who played the card that takes the trick (`by`: who played each card; each card itself for
    `winning_card`): the highest trump, else the highest of the suit led, by the natural rank order."""
    if not trick:
        raise RuleRuntimeError(f"`{name}` of an empty trick", at)
    led = suits[trick[0]]
    best = trick[0]
    for card in trick[1:]:
        cs, bs = suits[card], suits[best]
        if cs == bs:
            if order[ranks[card]] > order[ranks[best]]:
                best = card
        elif cs == trump and trump is not None:
            best = card
        elif bs != trump and cs == led and bs != led:
            best = card
    return best if by is None else by[best]


def card_fn(f: Callable[[Any, Any], Any], s: Any, what: str, at: Span) -> CardFn:
    """A generated function (s, card) of the rule file's function of a card, for one state (as
    `checked_card_fn` checks it, in one call a card: a trick asks it of every card)."""
    def of(card: Any) -> Any:
        value = f(s, card)
        if value is None:
            raise RuleRuntimeError(f"{what} gave none for a card: it must give a value for every card", at)
        return value
    return of


def table_order(table: Any) -> Callable[[Any, Any], Any]:
    """A named table of `values:` as a function (s, card), as `card_fn` takes the rule file's functions."""
    return lambda s, card: table[card]


def checked_card_fn(f: CardFn, what: str, at: Span) -> CardFn:
    def of(card: Any) -> Any:
        value = f(card)
        if value is None:
            raise RuleRuntimeError(f"{what} gave none for a card: it must give a value for every card", at)
        return value
    return of


class _Trumps:
    """The suit the trump cards count as when the trump is a test of a card (Skat's jacks): one of their
    own, equal to no suit of the deck."""

    def __repr__(self) -> str:
        return "trumps"


TRUMPS = _Trumps()


def trumps_first(is_trump: CardFn, suit_of: CardFn) -> CardFn:
    """The suit a card counts as when the trump is a test of a card: the trumps for a trump card."""
    return lambda card: TRUMPS if is_trump(card) else suit_of(card)


def winning_index(trick: list, trump: Any, suit_of: CardFn, strength: CardFn) -> int:
    """Where in the trick the card that takes it lies: the strongest card of the trump suit, else the
    strongest of the suit led (the suit the first card counts as); of equal strength, the earlier.
    `trump` may be a test of a card (a function): its cards are the trumps, a suit of their own."""
    if callable(trump):
        suit_of, trump = trumps_first(trump, suit_of), TRUMPS
    led = suit_of(trick[0])
    best, best_suit, best_strength = 0, led, strength(trick[0])
    for k in range(1, len(trick)):
        card = trick[k]
        suit = suit_of(card)
        if suit == best_suit:            # the suit led or, once one was played, the trump suit
            power = strength(card)
            if power > best_strength:
                best, best_strength = k, power
        elif suit == trump and trump is not None:
            best, best_suit, best_strength = k, suit, strength(card)
    return best


def trick_taken(trick: list, trump: Any, strength: CardFn, suit_of: CardFn, by: Any, name: str, at: Span) -> Any:
    """`winner` (who played the card, `by`) or `winning_card` (`by` None: the card) with the game's order."""
    if not trick:
        raise RuleRuntimeError(f"`{name}` of an empty trick", at)
    card = trick[winning_index(trick, trump, suit_of, strength)]
    return card if by is None else by[card]


def rank_strength(cards: Any) -> list[int]:
    """Each card's place in the game's rank order (what `highest` and `lowest` compare)."""
    return [cards.order[r] for r in cards.ranks]


def extreme_card(cards: Any, strength: Any, highest: bool) -> Any:
    """`highest(cards)` (`lowest`): the card of the strongest (weakest) rank (`strength`: a card's, a list
    or a function of a card); of equal ones the first listed (a zone: the bottom one); none for no cards."""
    found = [card for card in cards if card is not None]
    if not found:
        return None
    key = strength.__getitem__ if isinstance(strength, list) else strength
    return max(found, key=key) if highest else min(found, key=key)
