"""Explicit chance: a match whose every shuffle is dealt card by card at chance nodes, as OpenSpiel's
own games deal, instead of being decided by the match's seed.

The rules deal; this module does not know how. A match's state shuffles by chance (`by_chance`, its
shuffler): a zone into the order it is given and, when it has none, stops the move with `OrderWanted` (the
zone and its cards). The move is then started again from a copy of the state before it once the
order has been chosen, card by card, top first: each chance node's outcomes are the kinds of card
still to place (copies of a card are alike, as the engine's given orders take them), each as
likely as its share of the cards left. A shuffle so dealt is the seed's uniform shuffle, spelled
out: an order of names comes with the probability a uniform shuffle gives it. The first dealer,
where the rules draw one (`first dealer: random`), is a chance node of its own, one outcome a
player. Nothing else in a match is random, so the game tree is the real one, chance included: what
exact solvers (tabular CFR, best response, exploitability) need on a tiny game.

    node = begin(table, max_steps)         # an Episode, or a Deal (a chance node)
    while isinstance(node, Deal):
        node = deal(node, node.outcomes()[0][0])
    node = play(node, token)               # a move: an Episode again, or a Deal if it shuffles

Each move is played on a copy kept beforehand (the move that shuffles is replayed from it), so a
move costs a copy of the state more than with the seed: fine for the tiny games this is for.
"""
from __future__ import annotations

import weakref
from typing import Any

from koloda.episode import Episode, Table
from koloda.interpreter.core.state import State

__all__ = ["by_chance", "OrderWanted", "Deal", "begin", "play", "deal", "dealt"]


class OrderWanted(Exception):
    """A shuffle of `zone`, whose cards are `cards`, met no order to take: the move stops here (the
    state it ran on is left half played, and is dropped)."""

    def __init__(self, zone: int, cards: list[int]):
        super().__init__(f"zone {zone} is shuffled: its order is dealt at chance nodes")
        self.zone, self.cards = zone, cards


def by_chance(s: State, zone: int) -> None:
    """A state's shuffler (`State.shuffler`) that shuffles only into the orders given it (`orders`),
    and asks for one otherwise."""
    if not s.orders:
        raise OrderWanted(zone, sorted(s.zones[zone]))
    s.shuffle_cards(zone)


def dealt(episode: Episode) -> Episode:
    """The episode with its engine state shuffling by chance (after reading it back from plain data)."""
    episode.state.native.shuffler = by_chance
    return episode


class Deal:
    """A chance node: the first dealer drawn, or the next card of a shuffle's order.

    `base` is the match before the move being played (None: the match's start, with `dealer`),
    `token` that move, `orders` the orders of its shuffles already dealt, `order` the cards of this
    shuffle placed so far (top first) and `pool` those still to place."""
    __slots__ = ("table", "max_steps", "base", "token", "dealer", "orders", "order", "pool")

    def __init__(self, table: Table, max_steps: int, base: Episode | None, token: int | None, dealer: int | None,
                 orders: tuple[tuple[int, ...], ...], order: tuple[int, ...], pool: tuple[int, ...]):
        self.table, self.max_steps = table, max_steps
        self.base, self.token, self.dealer = base, token, dealer
        self.orders, self.order, self.pool = orders, order, pool

    @property
    def drawing(self) -> bool:
        """The first dealer is being drawn (a shuffle's node always has cards to place)."""
        return not self.pool

    def outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability): a player, for the dealer; else the first card id of each kind of
        card still to place, as likely as the share of the cards left it has."""
        if self.drawing:
            n = self.table.game.num_players
            return [(p, 1.0 / n) for p in range(n)]
        kinds = _kinds(self.table)
        counts: dict[int, int] = {}
        for c in self.pool:
            counts[kinds[c]] = counts.get(kinds[c], 0) + 1
        total = len(self.pool)
        return [(kind, count / total) for kind, count in sorted(counts.items())]

    def outcome_text(self, outcome: int) -> str:
        if self.drawing:
            return f"first dealer P{outcome + 1}"
        return f"deal {self.table.game.cards.names[outcome]}"

    def to_json(self) -> dict[str, Any]:
        return {"base": None if self.base is None else self.base.snapshot(), "token": self.token,
                "dealer": self.dealer, "orders": [list(o) for o in self.orders], "order": list(self.order),
                "pool": list(self.pool)}

    @classmethod
    def from_json(cls, table: Table, max_steps: int, data: dict[str, Any]) -> "Deal":
        base = None if data["base"] is None else dealt(Episode.restore(table, data["base"]))
        return cls(table, max_steps, base, data["token"], data["dealer"], tuple(tuple(o) for o in data["orders"]),
                   tuple(data["order"]), tuple(data["pool"]))


_KINDS: weakref.WeakKeyDictionary[Table, list[int]] = weakref.WeakKeyDictionary()


def _kinds(table: Table) -> list[int]:
    """Each card's kind, as the first card id of it: copies are alike (by name, and by deck where
    the decks are named, as State's given orders match them)."""
    found = _KINDS.get(table)
    if found is None:
        game = table.game
        decks = game.card_deck if game.spec.deck.named else None
        first: dict[object, int] = {}
        found = _KINDS[table] = [first.setdefault(name if decks is None else (name, decks[c]), c)
                                 for c, name in enumerate(game.cards.names)]
    return found


def begin(table: Table, max_steps: int) -> Episode | Deal:
    """A new match: its first chance node (the dealer's draw, or the first shuffle's first card),
    or the match itself where nothing in it is random."""
    if table.game.flow.first_dealer is None:
        return Deal(table, max_steps, None, None, None, (), (), ())
    return _start(table, max_steps, None, ())


def _start(table: Table, max_steps: int, dealer: int | None, orders: tuple[tuple[int, ...], ...]) -> Episode | Deal:
    game = table.game
    s = State(game, game.num_players, 0, [list(o) for o in orders])
    s.shuffler = by_chance         # its copies too: a copy deals as its original does
    try:
        game.flow.start(s, dealer)
    except OrderWanted as wanted:
        return _next(Deal(table, max_steps, None, None, dealer, orders, (), tuple(wanted.cards)))
    episode = Episode.__new__(Episode)
    episode.table, episode.spelling = table, table.spelling
    episode.state, episode.steps, episode.max_steps = table.spelling.wrap(s), 0, max_steps
    return episode


def play(episode: Episode, token: int, orders: tuple[tuple[int, ...], ...] = ()) -> Episode | Deal:
    """Play a token on the match; a Deal if the move shuffles (then `episode` is spent: the match
    goes on from the Deal). `orders`: the move's shuffles already dealt."""
    base = episode.clone()
    if orders:
        episode.state.native.orders = [list(o) for o in orders]
    try:
        episode.apply_action(token)
    except OrderWanted as wanted:
        return _next(Deal(episode.table, episode.max_steps, base, token, None, orders, (), tuple(wanted.cards)))
    return episode


def deal(node: Deal, outcome: int) -> Episode | Deal:
    """Take one outcome of the chance node: the next chance node, or the match once dealt."""
    if node.drawing:
        if not 0 <= outcome < node.table.game.num_players:
            raise ValueError(f"there is no player {outcome} to deal")
        return _start(node.table, node.max_steps, outcome, ())
    kinds = _kinds(node.table)
    card = next((c for c in node.pool if kinds[c] == outcome), None)
    if card is None:
        raise ValueError(f"chance outcome {outcome} is not one of {[k for k, _ in node.outcomes()]}")
    pool = list(node.pool)
    pool.remove(card)
    return _next(Deal(node.table, node.max_steps, node.base, node.token, node.dealer, node.orders,
                      node.order + (card,), tuple(pool)))


def _next(node: Deal) -> Episode | Deal:
    """Place the cards left when they are all of one kind (a node of one outcome is no choice);
    when the order is whole, play the move again with it."""
    kinds = _kinds(node.table)
    if node.pool and len({kinds[c] for c in node.pool}) > 1:
        return node
    orders = node.orders + (node.order + node.pool,)
    if node.base is None:
        return _start(node.table, node.max_steps, node.dealer, orders)
    assert node.token is not None
    return play(node.base.clone(), node.token, orders)
