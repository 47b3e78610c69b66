"""Oh Hell by hand, on the rules of the bench's twin `peklo=oh_hell` (bench/same_rules.py): Peklo
with ``deal_size=8, hook=true, missed_bid_penalty=false`` for 3 players, OpenSpiel's `oh_hell` with
8 tricks fixed.

One deal. A random dealer; the deck is shuffled, eight cards dealt to each player and the next one
turned up for trump. From the dealer's left each player bids once, 0 to 8 tricks; the dealer, last,
may not make the bids add up to 8 (the hook). The dealer's left leads; a player follows the suit
led if able, else plays any card; the highest trump takes the trick, else the highest card of the
suit led, and the winner leads next. A player scores a point a trick, plus 10 for taking exactly
the bid; the highest score wins.

Moves: a card is its number (0..51, cards.py), a bid of n is ``BID + n``.
"""
from __future__ import annotations

import random
from typing import Sequence

from .cards import NAMES, TERMINAL, cards, rank, suit, win_shares

BID = 100


class OhHell:
    def __init__(self, players: int = 3, tricks: int = 8):
        assert players * tricks < 52, "a card is left to turn up for trump"
        self.players, self.tricks = players, tricks

    def new_initial_state(self, seed: int = 0) -> "OhHellState":
        rng = random.Random(seed)
        dealer = rng.randrange(self.players)
        deck = list(range(52))
        rng.shuffle(deck)
        n, k = self.players, self.tricks
        # one card at a time from the dealer's left, then the next card turned up
        hands = [deck[(j - dealer - 1) % n:n * k:n] for j in range(n)]
        return OhHellState(self, dealer, hands, deck[n * k])

    def dealt(self, dealer: int, hands: Sequence[Sequence[str]], trump_card: str) -> "OhHellState":
        """A state after a given deal (koloda's card names)."""
        return OhHellState(self, dealer, [cards(h) for h in hands], cards([trump_card])[0])


class OhHellState:
    def __init__(self, game: OhHell, dealer: int, hands: list[list[int]], trump_card: int):
        self.n, self.size = game.players, game.tricks
        self.dealer = dealer
        self.hands = hands
        self.trump = suit(trump_card)
        self.bids: list[int | None] = [None] * self.n
        self.bid_total = 0
        self.tricks = [0] * self.n
        self.trick: list[int] = []          # the cards of the trick in play, in the order played
        self.leader = self.player = (dealer + 1) % self.n
        self.bidding = True
        self.over = False

    def current_player(self) -> int:
        return TERMINAL if self.over else self.player

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.bidding:
            bids = range(BID, BID + self.size + 1)
            if self.player == self.dealer:            # the hook
                banned = BID + self.size - self.bid_total
                return [b for b in bids if b != banned]
            return list(bids)
        hand = self.hands[self.player]
        if self.trick:
            led = suit(self.trick[0])
            following = [c for c in hand if suit(c) == led]
            if following:
                return following
        return list(hand)

    def apply_action(self, action: int) -> None:
        p = self.player
        if self.bidding:
            self.bids[p] = action - BID
            self.bid_total += action - BID
            self.player = (p + 1) % self.n
            if self.player == self.leader:
                self.bidding = False
            return
        self.hands[p].remove(action)
        self.trick.append(action)
        if len(self.trick) < self.n:
            self.player = (p + 1) % self.n
            return
        winner = (self.leader + self._best(self.trick)) % self.n
        self.tricks[winner] += 1
        self.trick = []
        self.leader = self.player = winner
        if not self.hands[winner]:
            self.over = True

    def _best(self, trick: list[int]) -> int:
        """The place in the trick of the card that takes it."""
        trump = self.trump
        best = 0
        for i in range(1, len(trick)):
            c, b = trick[i], trick[best]
            if suit(c) == suit(b):
                if rank(c) > rank(b):
                    best = i
            elif suit(c) == trump:
                best = i
            # otherwise c is off suit and no trump: it cannot win (b is of the suit led or trump)
        return best

    def scores(self) -> list[int]:
        return [t + 10 if t == b else t for t, b in zip(self.tricks, self.bids)]

    def returns(self) -> list[float]:
        return win_shares(self.scores()) if self.over else [0.0] * self.n

    def action_to_string(self, action: int) -> str:
        return f"bid {action - BID}" if action >= BID else f"play {NAMES[action]}"
