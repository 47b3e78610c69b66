"""Crazy Eights by hand, on the rules of the bench's twin `crazy-eights=crazy_eights`
(bench/same_rules.py): the rule file with ``deals=1, draw_anyway, draw_limit=5, max_plays=100,
openspiel_points, reshuffle=false, special_cards=false``, OpenSpiel's `crazy_eights` for 2 players
without reshuffling or special cards.

One deal, one deck. A random dealer; the deck is shuffled, seven cards dealt to each of two players
(five each with more), and the next card turned up to start the discard pile; an eight turned up is
put under the stock and the next card turned instead. From the dealer's left, a player in turn
plays a card of the suit or the rank of the top card, or any eight, after which they name the suit
the next player must follow (or play an eight). Instead a player may draw from the stock, up to
five cards a turn, and then play or draw again; with the stock empty or five cards drawn, they may
pass. Nothing forbids drawing or passing when able to play. The deal ends when a player has no card
left, when the player who passed first passes again (passes in a row, with the stock empty, reach
the number of players plus one), or after 100 cards played. Each player then scores the cards left
in hand as penalty points, counted as OpenSpiel's code counts them: an eight 50, an ace or a court
card 10, any other its place in OpenSpiel's card order (four places a rank from the two, clubs,
diamonds, hearts, spades) plus 2. The lowest penalty wins.

Moves: playing a card is its number (0..51, cards.py); ``DRAW``, ``PASS``; naming suit s (0..3, in
the order of cards.SUITS) is ``NAME + s``.
"""
from __future__ import annotations

import random
from typing import Sequence

from .cards import NAMES, SUIT_NAMES, TERMINAL, cards, rank, suit, win_shares

DRAW, PASS, NAME = 52, 53, 60
EIGHT = 6                       # the rank of an eight (cards.RANKS)
DRAW_LIMIT = 5                  # cards drawn a turn at most
MAX_PLAYS = 100                 # cards played in a deal at most (more than one deck holds, without reshuffles)


def points(card: int) -> int:
    """A card's penalty, as OpenSpiel's crazy_eights counts it."""
    r = rank(card)
    if r == EIGHT:
        return 50
    if r >= 9:                  # J, Q, K, A
        return 10
    return 4 * r + suit(card) + 2


class CrazyEights:
    def __init__(self, players: int = 2):
        assert 2 <= players <= 5, "one deck"
        self.players = players

    def new_initial_state(self, seed: int = 0) -> "CrazyEightsState":
        rng = random.Random(seed)
        dealer = rng.randrange(self.players)
        stock = list(range(52))             # the top of the stock is its end
        rng.shuffle(stock)
        n = self.players
        each = 7 if n == 2 else 5
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(each * n):           # one card at a time from the dealer's left
            hands[(dealer + 1 + i) % n].append(stock.pop())
        pile = [stock.pop()]
        while rank(pile[-1]) == EIGHT:      # an eight is buried and the next card turned
            stock.insert(0, pile.pop())
            pile.append(stock.pop())
        return CrazyEightsState(n, dealer, hands, stock, pile)

    def dealt(self, dealer: int, hands: Sequence[Sequence[str]], stock: Sequence[str],
              pile: Sequence[str]) -> "CrazyEightsState":
        """A state after a given deal (koloda's card names, the stock's and the pile's top last)."""
        return CrazyEightsState(self.players, dealer, [cards(h) for h in hands], cards(stock), cards(pile))


class CrazyEightsState:
    def __init__(self, n: int, dealer: int, hands: list[list[int]], stock: list[int], pile: list[int]):
        self.n = n
        self.hands, self.stock, self.pile = hands, stock, pile
        self.player = (dealer + 1) % n
        self.named = -1                 # the suit an eight named, -1 for none
        self.naming = False             # the player to move has played an eight and names a suit
        self.drawn = 0                  # cards drawn this turn
        self.passes = 0                 # passes in a row with the stock empty
        self.plays = 0
        self.over = False

    def current_player(self) -> int:
        return TERMINAL if self.over else self.player

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.naming:
            return [NAME, NAME + 1, NAME + 2, NAME + 3]
        top = self.pile[-1]
        hand = self.hands[self.player]
        if self.named >= 0:
            named = self.named
            moves = [c for c in hand if rank(c) == EIGHT or suit(c) == named]
        else:
            s, r = suit(top), rank(top)
            moves = [c for c in hand if rank(c) == EIGHT or suit(c) == s or rank(c) == r]
        if self.stock and self.drawn < DRAW_LIMIT:
            moves.append(DRAW)
        else:
            moves.append(PASS)
        return moves

    def apply_action(self, action: int) -> None:
        p = self.player
        if action == DRAW:
            self.passes = 0
            self.hands[p].append(self.stock.pop())
            self.drawn += 1
            return                          # the same player moves again
        if action == PASS:
            self.drawn = 0
            self.passes = 0 if self.stock else self.passes + 1
            if self.passes >= self.n + 1:   # the first to pass has passed again
                self._score()
                return
        elif action >= NAME:
            self.named = action - NAME
            self.naming = False
            self.passes = 0
        else:
            hand = self.hands[p]
            hand.remove(action)
            self.pile.append(action)
            self.named = -1
            self.drawn = self.passes = 0
            self.plays += 1
            if not hand or self.plays >= MAX_PLAYS:
                self._score()
                return
            if rank(action) == EIGHT:
                self.naming = True
                return                      # the same player names a suit
        self.player = (p + 1) % self.n

    def _score(self) -> None:
        self.over = True
        self.penalty = [sum(points(c) for c in hand) for hand in self.hands]

    def scores(self) -> list[int]:
        return self.penalty if self.over else [0] * self.n

    def returns(self) -> list[float]:
        return win_shares(self.scores(), lowest=True) if self.over else [0.0] * self.n

    def action_to_string(self, action: int) -> str:
        if action == DRAW:
            return "draw"
        if action == PASS:
            return "pass"
        if action >= NAME:
            return f"name {SUIT_NAMES[action - NAME]}"
        return f"play {NAMES[action]}"
