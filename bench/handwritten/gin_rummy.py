"""Gin Rummy by hand, on the rules of the bench's twin `gin-rummy=gin_rummy` (bench/same_rules.py):
the rule file with ``single_hand, tie_undercuts=false, longest_run=5, layoff_list``, OpenSpiel's
`gin_rummy` at its defaults.

One hand of two players, 52 cards, the ace low; a card counts its number, a court card 10, the ace
1. A meld is three or four cards of a rank, or three to five of a suit in sequence. A random dealer;
ten cards each, the next one turned up, the rest the stock.

- The upcard is offered to the non-dealer, then to the dealer: each takes it or passes; when both
  pass the non-dealer draws from the stock. From then on a turn is a draw (the stock's top card or
  the discard pile's) and a discard.
- Instead of discarding, a player may knock when some discard leaves the ten cards melded down to
  10 points of deadwood or less (the best arrangement of melds counts): they discard such a card,
  put down melds one by one, each leaving the rest still within the limit, and show the deadwood
  once the cards left count 10 or less. With nothing left it is gin.
- The defender then lays off cards one by one on the knocker's melds (not after gin), as
  OpenSpiel lists layoffs: the fourth card of a set of three, or a card next to an end of a run as
  the knocker put it down, or next to a card already laid off there (on whichever meld that card
  went; so after 5D goes on 5S 5C 5H, 4D goes on 6D 7D 8D). Then the defender puts down melds of
  their own, and is done.
- The knocker wins the difference of the deadwoods; gin wins the defender's deadwood plus 25; if
  the defender's deadwood is lower (an undercut) the defender wins the difference plus 25; equal
  deadwoods score nothing. Each player's score is their winnings less the other's.
- The hand is void when, with two cards left in the stock, the player to move does not take the
  discard to knock with it (the wall); the 50th time the discard is taken after the first upcard;
  or when a player takes the discard and throws the same card back just after the other did so.

Moves (ints): a discard is the card (0..51, cards.py), the discard of a knock ``KNOCK_DISCARD +
card``, a layoff ``LAY_OFF + card``; a meld, the knocker's ``MELD + m`` and the defender's ``PUT +
m``, m the meld's place in ``MELDS``; the rest are the constants below.
"""
from __future__ import annotations

import random
from typing import NamedTuple, Sequence

from .cards import NAMES, TERMINAL, cards, rank, suit, win_shares

TAKE, PASS, DRAW, KNOCK, TAKE_AND_KNOCK, END_HAND, SHOW, DONE_LAYING_OFF, DONE = range(52, 61)
KNOCK_DISCARD, LAY_OFF, MELD, PUT = 64, 128, 256, 512

LIMIT = 10              # the most deadwood one may knock with
GIN_BONUS = UNDERCUT_BONUS = 25
LONGEST_RUN = 5
UPCARD_LIMIT = 50       # the hand is void when the discard is taken this many times
NO_KNOCK = 1000         # more deadwood than any hand holds

# the steps of a turn
START, DISCARDING, KNOCKING, LAYING, DEFENDING = range(5)


def place(card: int) -> int:
    """The card's place in a run, the ace low: A 0, 2 1, ..., K 12."""
    return (rank(card) + 1) % 13


def card_at(s: int, p: int) -> int:
    """The card of suit s at place p of a run."""
    return s * 13 + (p - 1) % 13


VALUE = [min(place(c) + 1, 10) for c in range(52)]
# the cards of each value, highest first: a hand's highest card, read from its mask
VALUE_MASKS = [(v, sum(1 << c for c in range(52) if VALUE[c] == v)) for v in range(10, 0, -1)]


class Meld(NamedTuple):
    mask: int
    value: int
    kind: str               # "set" or "run"
    text: str               # its cards as koloda writes them: a set by suit, a run up from the ace


def _all_melds() -> list[Meld]:
    melds = []
    for r in range(13):
        of_rank = [s * 13 + r for s in range(4)]
        for size in (3, 4):
            for omit in ([None] if size == 4 else of_rank):
                chosen = [c for c in of_rank if c != omit]
                melds.append(Meld(sum(1 << c for c in chosen), sum(VALUE[c] for c in chosen), "set",
                                  " ".join(NAMES[c] for c in chosen)))
    for s in range(4):
        for low in range(13):
            for size in range(3, LONGEST_RUN + 1):
                if low + size <= 13:
                    chosen = [card_at(s, p) for p in range(low, low + size)]
                    melds.append(Meld(sum(1 << c for c in chosen), sum(VALUE[c] for c in chosen), "run",
                                      " ".join(NAMES[c] for c in chosen)))
    return melds


MELDS = _all_melds()


def _tables() -> tuple[list[tuple[int, dict[int, list[int]]]], list[dict[int, list[int]]]]:
    """Where a hand's melds are looked up: for each rank, its cards held (as a mask) -> the sets they
    make; for each suit, its cards held (13 bits, the two lowest) -> the runs they make."""
    sets: list[tuple[int, dict[int, list[int]]]] = []
    for r in range(13):
        of_rank = sum(1 << (s * 13 + r) for s in range(4))
        found: dict[int, list[int]] = {}
        for i, m in enumerate(MELDS):
            if m.kind == "set" and m.mask & of_rank == m.mask:
                for held in {m.mask, of_rank}:          # three of the rank, or all four
                    found.setdefault(held, []).append(i)
        sets.append((of_rank, found))
    runs: list[dict[int, list[int]]] = []
    for s in range(4):
        in_suit = [(i, m.mask >> (s * 13)) for i, m in enumerate(MELDS) if m.kind == "run" and suit(bits(m.mask)[0]) == s]
        runs.append({held: [i for i, m in in_suit if held & m == m] for held in range(1 << 13)})
    return sets, runs


SUIT = 0x1FFF           # a suit's 13 cards in a hand's mask, once shifted down by 13 a suit
# a suit's cards held (13 bits) -> those cards, and their value: a hand read four suits at a time
SUIT_CARDS = [[[s * 13 + r for r in range(13) if held >> r & 1] for held in range(1 << 13)] for s in range(4)]
SUIT_VALUE = [sum(VALUE[r] for r in range(13) if held >> r & 1) for held in range(1 << 13)]


def bits(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    return (SUIT_CARDS[0][mask & SUIT] + SUIT_CARDS[1][mask >> 13 & SUIT] + SUIT_CARDS[2][mask >> 26 & SUIT]
            + SUIT_CARDS[3][mask >> 39])


def value(mask: int) -> int:
    return SUIT_VALUE[mask & SUIT] + SUIT_VALUE[mask >> 13 & SUIT] + SUIT_VALUE[mask >> 26 & SUIT] + SUIT_VALUE[mask >> 39]


def highest(mask: int) -> int:
    """The value of the highest card of a non-empty mask."""
    for v, m in VALUE_MASKS:
        if mask & m:
            return v
    return 0


SETS_HELD, RUNS_HELD = _tables()


def melds_in(hand: int) -> list[int]:
    """Every meld the hand holds (the places in MELDS), sub-melds included."""
    found: list[int] = []
    for of_rank, sets in SETS_HELD:
        held = hand & of_rank
        if held in sets:
            found += sets[held]
    for s in range(4):
        found += RUNS_HELD[s][hand >> (13 * s) & SUIT]
    return found


def most_melded(hand: int) -> int:
    """The most points the hand can meld at once, in melds sharing no card: every arrangement tried."""
    masks = [(MELDS[i].mask, MELDS[i].value) for i in melds_in(hand)]

    def best(start: int, free: int) -> int:
        top = 0
        for j in range(start, len(masks)):
            mask, points = masks[j]
            if free & mask == mask:
                got = points + best(j + 1, free ^ mask)
                if got > top:
                    top = got
        return top
    return best(0, hand)


def deadwood(hand: int) -> int:
    return value(hand) - most_melded(hand)


def fits(hand: int) -> bool:
    """The cards can be melded down to the knock limit or less."""
    total = value(hand)
    return total <= LIMIT or total - most_melded(hand) <= LIMIT


def knock_deadwood(hand: int) -> int:
    """The least deadwood left by a discard from these (eleven) cards: every arrangement of melds
    leaving a card over, less its highest card left over (the discard)."""
    masks = [(MELDS[i].mask, MELDS[i].value) for i in melds_in(hand)]
    total = value(hand)

    def least(start: int, free: int, melded: int) -> int:
        # melding every card leaves none to discard: not a way to knock
        low = total - melded - highest(free) if free else NO_KNOCK
        for j in range(start, len(masks)):
            mask, points = masks[j]
            if free & mask == mask:
                got = least(j + 1, free ^ mask, melded + points)
                if got < low:
                    low = got
        return low
    return least(0, hand, 0)


class TableMeld:
    """A meld on the knocker's table, with the defender's layoffs on it."""
    __slots__ = ("kind", "suit", "rank", "low", "high", "size")

    def __init__(self, meld: Meld):
        cs = bits(meld.mask)
        self.kind, self.size = meld.kind, len(cs)
        self.suit, self.rank = suit(cs[0]), rank(cs[0])
        self.low, self.high = min(place(c) for c in cs), max(place(c) for c in cs)   # as put down


class GinRummy:
    def new_initial_state(self, seed: int = 0) -> "GinRummyState":
        rng = random.Random(seed)
        dealer = rng.randrange(2)
        stock = list(range(52))                 # the top of the stock is its end
        rng.shuffle(stock)
        hands = [0, 0]
        for i in range(20):                     # one card at a time, the non-dealer first
            hands[(dealer + 1 + i) % 2] |= 1 << stock.pop()
        pile = [stock.pop()]
        return GinRummyState(dealer, hands, stock, pile)

    def dealt(self, dealer: int, hands: Sequence[Sequence[str]], stock: Sequence[str],
              pile: Sequence[str]) -> "GinRummyState":
        """A state after a given deal (koloda's card names, the stock's and the pile's top last)."""
        return GinRummyState(dealer, [sum(1 << c for c in cards(h)) for h in hands], cards(stock), cards(pile))


class GinRummyState:
    def __init__(self, dealer: int, hands: list[int], stock: list[int], pile: list[int]):
        self.hands, self.stock, self.pile = hands, stock, pile      # a hand is a mask of its cards
        self.player = 1 - dealer
        self.step = START
        self.offer = 0          # the first upcard: 0 or 1 players have passed it, 2 both, 3 over
        self.taken = -1         # the discard taken this turn
        self.repeated = False   # the last discard was the card its player had just taken
        self.takes = 0          # the discard taken after the first upcard
        self.knocker = -1
        self.table: list[TableMeld] = []        # the knocker's melds, in the order put down
        self.laid = 0           # the cards the defender laid off
        self.laid_off = False   # the defender is done laying off
        self.over = self.void = False
        self.won = [0, 0]

    def current_player(self) -> int:
        return TERMINAL if self.over else self.player

    def is_terminal(self) -> bool:
        return self.over

    # ---------------------------------------------------------------- legal moves
    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        step, hand = self.step, self.hands[self.player]
        if step == DISCARDING:
            moves = bits(hand)
            if knock_deadwood(hand) <= LIMIT:
                moves.append(KNOCK)
            return moves
        if step == START and self.knocker < 0:
            return self._start()
        if step == KNOCKING:
            return [KNOCK_DISCARD + c for c in bits(hand) if fits(hand ^ 1 << c)]
        if step == LAYING:
            moves = [MELD + i for i in melds_in(hand) if fits(hand ^ MELDS[i].mask)]
            if value(hand) <= LIMIT:
                moves.append(SHOW)
            return moves
        # the defender's turn
        if self.laid_off or self.hands[self.knocker] == 0:          # done laying off, or gin
            return [PUT + i for i in melds_in(hand)] + [DONE]
        return [LAY_OFF + c for c in bits(hand) if self._meld_for(c) is not None] + [DONE_LAYING_OFF]

    def _start(self) -> list[int]:
        offer = self.offer
        if len(self.stock) == 2 and offer == 3:                     # the wall
            top = self.pile[-1]
            if knock_deadwood(self.hands[self.player] | 1 << top) <= LIMIT:
                return [TAKE_AND_KNOCK, END_HAND]
            return [END_HAND]
        if offer < 2:
            return [TAKE, PASS]
        if offer == 2:
            return [DRAW]
        return [TAKE, DRAW]

    def _meld_for(self, card: int) -> TableMeld | None:
        """The first of the knocker's melds the card may be laid off on, if any."""
        s, p = suit(card), place(card)
        for x in self.table:
            if x.kind == "set":
                if x.size == 3 and rank(card) == x.rank:
                    return x
            elif s == x.suit:
                low = x.low - (2 if x.low > 0 and self.laid >> card_at(s, x.low - 1) & 1 else 1)
                high = x.high + (2 if x.high < 12 and self.laid >> card_at(s, x.high + 1) & 1 else 1)
                if p == low or p == high:
                    return x
        return None

    # ---------------------------------------------------------------- moves
    def apply_action(self, action: int) -> None:
        p = self.player
        if action < 52:                                 # a discard
            self.hands[p] ^= 1 << action
            self.pile.append(action)
            if action == self.taken:
                if self.repeated:
                    self._end(void=True)
                    return
                self.repeated = True
            else:
                self.repeated = False
            self._next_turn()
        elif action == DRAW:
            self.offer = 3
            self.taken = -1
            self.hands[p] |= 1 << self.stock.pop()
            self.step = DISCARDING
        elif action == TAKE:
            if self.offer == 3:
                if self.takes + 1 >= UPCARD_LIMIT:      # the hand has gone on too long
                    self._end(void=True)
                    return
                self.takes += 1
            self.offer = 3
            self.taken = self.pile.pop()
            self.hands[p] |= 1 << self.taken
            self.step = DISCARDING
        elif action == PASS:
            self.offer += 1
            self._next_turn()
        elif action == KNOCK:
            self.knocker = p
            self.step = KNOCKING
        elif action == TAKE_AND_KNOCK:
            self.hands[p] |= 1 << self.pile.pop()
            self.knocker = p
            self.step = KNOCKING
        elif action == END_HAND:
            self._end(void=True)
        elif action == SHOW:
            self._next_turn()
        elif action == DONE_LAYING_OFF:
            self.laid_off = True
            self.step = DEFENDING
        elif action == DONE:
            self._end(void=False)
        elif action < LAY_OFF:                          # the knocker's discard
            card = action - KNOCK_DISCARD
            self.hands[p] ^= 1 << card
            self.pile.append(card)
            self.step = LAYING
        elif action < MELD:
            card = action - LAY_OFF
            x = self._meld_for(card)
            assert x is not None, "not a layoff"
            x.size += 1
            self.hands[p] ^= 1 << card
            self.laid |= 1 << card
            self.step = DEFENDING
        elif action < PUT:
            meld = MELDS[action - MELD]
            self.hands[p] ^= meld.mask
            self.table.append(TableMeld(meld))
        else:
            self.hands[p] ^= MELDS[action - PUT].mask   # the defender's own melds count for nothing more
            self.step = DEFENDING

    def _next_turn(self) -> None:
        self.player = 1 - self.player
        self.step = START

    def _end(self, void: bool) -> None:
        self.over, self.void = True, void
        if void or self.knocker < 0:
            return
        k, d = value(self.hands[self.knocker]), value(self.hands[1 - self.knocker])
        if k == 0:
            self.won[self.knocker] = d + GIN_BONUS
        elif k < d:
            self.won[self.knocker] = d - k
        elif k > d:
            self.won[1 - self.knocker] = k - d + UNDERCUT_BONUS

    # ---------------------------------------------------------------- results
    def scores(self) -> list[int]:
        return [self.won[0] - self.won[1], self.won[1] - self.won[0]]

    def returns(self) -> list[float]:
        return win_shares(self.scores()) if self.over else [0.0, 0.0]

    def action_to_string(self, action: int) -> str:
        names = {TAKE: "take", PASS: "pass", DRAW: "draw", KNOCK: "knock", TAKE_AND_KNOCK: "take",
                 END_HAND: "end the hand", SHOW: "show deadwood", DONE_LAYING_OFF: "done laying off", DONE: "done"}
        if action < 52:
            return f"discard {NAMES[action]}"
        if action == TAKE:
            return f"take {NAMES[self.pile[-1]]}"
        if action == TAKE_AND_KNOCK:
            return f"take {NAMES[self.pile[-1]]} and knock"
        if action in names:
            return names[action]
        if action < LAY_OFF:
            return f"discard {NAMES[action - KNOCK_DISCARD]}"
        if action < MELD:
            return f"lay off {NAMES[action - LAY_OFF]}"
        if action < PUT:
            return f"meld {MELDS[action - MELD].text}"
        return f"put down {MELDS[action - PUT].text}"
