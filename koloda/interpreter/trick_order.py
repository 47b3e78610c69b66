"""A trick's winner and the strongest card by the game's own order.

`winner(trick, trump, power, suit_of)`, `winning_card(…)` and `highest(cards, power)`: the order (and
the suit each card counts as) are functions of a card the rule file names. The checker resolved each
to a call on the local name CARD_SLOT; here it is applied to one card after another.
"""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl.builtins import CARD_SLOT
from koloda.dsl.errors import Span
from koloda.interpreter.env import Fn
from koloda.interpreter.errors import RuleRuntimeError

CardFn = Callable[[Any], Any]


def per_card(f: Fn, s: Any, b: dict, what: str, span: Span) -> CardFn:
    """The rule file's function of a card, for one state and the caller's local names."""
    inner = dict(b)

    def of(card: Any) -> Any:
        inner[CARD_SLOT] = card
        value = f(s, inner)
        if value is None:
            raise RuleRuntimeError(f"{what} gave none for a card: it must give a value for every card", span)
        return value
    return of


def winning_index(trick: list, trump: Any, suit_of: CardFn, strength: CardFn) -> int:
    """Where in the trick the card that takes it lies: the strongest card of the trump suit, else the
    strongest of the suit led (the suit the first card counts as); of equal strength, the earlier."""
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


def trick_taker(zone: Fn, trump: Fn, order: Fn, suit: Fn | None, natural_suit: tuple, span: Span,
                name: str, by_card: bool) -> Fn:
    """`winner` (who played the card; `by_card`: `winning_card`, the card) with the game's order."""
    def taker(s, b):
        trick = s.zones[zone(s, b)]
        if not trick:
            raise RuleRuntimeError(f"`{name}` of an empty trick", span)
        strength = per_card(order, s, b, f"the card order of `{name}`", span)
        suit_of = (per_card(suit, s, b, f"the suit function of `{name}`", span) if suit is not None
                   else natural_suit.__getitem__)
        card = trick[winning_index(trick, trump(s, b), suit_of, strength)]
        return card if by_card else s.by[card]
    return taker


def extreme_by(cards: Fn, order: Fn, highest: bool, span: Span, name: str) -> Fn:
    """`highest(cards, power)`: the strongest (weakest) card by the order; of equal ones the first listed."""
    pick = max if highest else min

    def extreme(s, b):
        found = [card for card in cards(s, b) if card is not None]
        if not found:
            return None
        return pick(found, key=per_card(order, s, b, f"the card order of `{name}`", span))
    return extreme
