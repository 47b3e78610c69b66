"""A first deal arranged by the user: the deck orders that deal given cards to given zones.

The rules deal; this module does not know how. It plays the opening once on
the seed alone and watches where each shuffled position ends up (the third
card from the top: P2's hand). The given cards are put in the positions that
end in their zones, the other cards keep the seed's order, and the opening is
played again with these orders to check that every zone got what was asked.
A deal that places cards by what they are (a card turned up decides where
the next goes) cannot be arranged this way, and that check says so.
"""
from __future__ import annotations

from koloda.dsl.errors import did_you_mean
from koloda.interpreter.words.cardtext import Given, ambiguous, card_id, card_ids, named_decks
from koloda.interpreter.base.errors import PositionError
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.core.state import State
from koloda.interpreter.core.table import Table


class _Noted:
    """A state's shuffler that remembers each shuffle: the zone and its cards, top first."""

    def __init__(self) -> None:
        self.log: list[tuple[int, list[int]]] = []

    def __call__(self, s: State, zone: int) -> None:
        s.shuffle_cards(zone)
        self.log.append((zone, s.zones[zone][::-1]))


def opening_orders(game: Table, seed: int, dealer: int | None, given: list[Given]) -> list[list[int]]:
    """Orders (top first) for the shuffles of the first deal that put the given cards in the given
    zones; the cards not given lie as the seed shuffles them."""
    layout = game.layout
    decks = named_decks(game.spec, game.card_deck)
    wanted = _wanted_zones(game, given)
    probe = State(game, game.num_players, seed)
    probe.shuffler = noted = _Noted()
    game.flow.start(probe, dealer)
    last: dict[int, tuple[int, int]] = {}           # card -> (shuffle, position from the top)
    for k, (_, order) in enumerate(noted.log):
        for i, c in enumerate(order):
            last[c] = (k, i)
    pools = [{c for c in order} for _, order in noted.log]
    orders: list[list[int | None]] = [[None] * len(order) for _, order in noted.log]
    for zone, item in wanted.items():
        label = layout.zone_label(zone)
        there = probe.zones[zone][::-1]
        if len(there) != len(item.cards):
            gets = f"gets {len(there)} card{'s' * (len(there) != 1)}" if there else "gets no cards"
            raise PositionError(f"`{label}` {gets} in the first deal, but {len(item.cards)} "
                                f"{'are' if len(item.cards) != 1 else 'is'} given", item.zone.at)
        for c, word in zip(there, item.cards):
            if c not in last:
                raise PositionError(f"the cards of `{label}` are not dealt from a shuffled deck, so they "
                                    "cannot be given", item.zone.at)
            k, i = last[c]
            named = card_ids(game.cards, word, decks)
            free = [x for x in sorted(pools[k]) if x in named]
            if (error := ambiguous(game.cards, word, free, decks)) is not None:
                raise error                  # the cards dealt there hold copies of several decks
            if not free:
                raise PositionError(f"`{word.text}` cannot be dealt to `{label}`: the cards it is dealt from "
                                    f"(the shuffle of `{layout.zone_label(noted.log[k][0])}`) hold no other "
                                    f"{word.text}", word.at)
            pools[k].discard(free[0])
            orders[k][i] = free[0]
    filled = []
    for k, (_, seeded) in enumerate(noted.log):
        rest = iter([c for c in seeded if c in pools[k]])     # the cards not given keep the seed's order
        filled.append([c if c is not None else next(rest) for c in orders[k]])
    _check(game, seed, dealer, filled, wanted)
    return filled


def _wanted_zones(game: Table, given: list[Given]) -> dict[int, Given]:
    """Each given zone found at the table, its cards checked against the deck."""
    zones = zone_names(game.layout)
    decks = named_decks(game.spec, game.card_deck)
    wanted: dict[int, Given] = {}
    used: set[int] = set()
    for item in given:
        zone = zones.get(_key(item.zone.text))
        if zone is None:
            labels = sorted({game.layout.zone_label(z) for z in zones.values()})
            raise PositionError(f"there is no zone `{item.zone.text}` at this table", item.zone.at,
                                did_you_mean(item.zone.text, labels) or f"zones: {', '.join(labels)}")
        if zone in wanted:
            raise PositionError(f"`{game.layout.zone_label(zone)}` is given twice", item.zone.at)
        for word in item.cards:
            card_id(game.cards, word, used, decks, either=True)   # the deal says which deck
        wanted[zone] = item
    return wanted


def zone_names(layout: Layout) -> dict[str, int]:
    """Every zone that holds cards by the names players use: `P1 hand` (or `hand P1`), `stock`,
    `P2 square 7`; meld slots are not among them (melds are made in play)."""
    names: dict[str, int] = {}
    for z, zone in enumerate(layout.zones):
        if zone.slot is not None:
            continue
        names[_key(layout.zone_label(z))] = z
        if zone.owner is not None and zone.cell is None:
            names[_key(f"{zone.name} {layout.owner_label(zone.owner, zone.by_side)}")] = z
    return names


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def _check(game: Table, seed: int, dealer: int | None, orders: list[list[int]], wanted: dict[int, Given]) -> None:
    """Deal again with the orders: every given zone must hold what was asked."""
    s = State(game, game.num_players, seed, orders)
    game.flow.start(s, dealer)
    names, decks = game.cards.names, named_decks(game.spec, game.card_deck)
    for zone, item in wanted.items():
        there = s.zones[zone][::-1]
        got = [names[c] for c in there]
        if len(there) != len(item.cards) or \
                any(c not in card_ids(game.cards, w, decks) for c, w in zip(there, item.cards)):
            raise PositionError(f"the first deal does not put the given cards in `{game.layout.zone_label(zone)}` "
                                f"(it gets {' '.join(got) or 'nothing'})", item.zone.at,
                                "this game's deal moves cards by what they are, so its zones cannot be given")

