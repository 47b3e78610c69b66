"""Determinization: a full state drawn from what one player has seen.

Bots that search must not read hidden cards. They search states made here
instead: every card the player does not know the place of is dealt anew, at
random, into the places of unknown cards — so hand sizes, the stock's size,
cards seen taken and cards played all stay as the player saw them.
"""
from __future__ import annotations

import random

from koloda.interpreter.core.history import History
from koloda.interpreter.runtime.knowledge import deal_hidden, facts_of
from koloda.interpreter.core.state import State


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A copy of `state` in which the cards `player` cannot place are shuffled among themselves.

    The result depends only on what `player` has seen and on `rng`, never on where the hidden
    cards really are: the unknown places are listed in table order and the unknown cards in id order.
    """
    bit = 1 << player
    known = state.known
    places: list[tuple[int, int]] = []
    hidden: list[int] = []
    for zi, zone in enumerate(state.zones):
        for k, c in enumerate(zone):
            if not known[c] & bit:
                places.append((zi, k))
                hidden.append(c)
    d = state.clone()
    d.seed = rng.randrange(1 << 40)     # future shuffles must not be the real ones
    d.shuffles = 0
    d.orders = []
    d.history = History()
    d._legal = None
    # the messages, shown cards and facts of the world are its player's alone
    d.said = tuple(m for m in state.said if m[1] & bit)
    d.shown = {}
    facts = facts_of(state.facts, player)
    d.facts = tuple((*f[:4], bit) for f in facts)      # type: ignore[misc]
    if not hidden:
        return d
    # where players have decks of their own, a card only trades places with cards of its deck
    decks = state.game.card_deck
    if facts:
        known_in: dict[int, list[int]] = {}
        for zi, zone in enumerate(state.zones):
            known_in[zi] = [c for c in zone if known[c] & bit]
        dealt = deal_hidden(places, hidden, [None if decks is None else decks[c] for c in hidden], facts, known_in,
                            state.game.cards, rng)
        if dealt is not None:
            _place(state, d, list(zip(places, dealt)))
            return d
        d.facts = ()        # not met (a rule told a fact it could not keep): the world is dealt without them
    groups: dict = {}
    for place, c in zip(places, hidden):
        groups.setdefault(None if decks is None else decks[c], []).append((place, c))
    assignment: list[tuple[tuple[int, int], int]] = []
    for key in sorted(groups, key=lambda g: -1 if g is None else g):
        members = groups[key]
        fresh = sorted(c for _, c in members)
        rng.shuffle(fresh)
        assignment.extend(zip((place for place, _ in members), fresh))
    _place(state, d, assignment)
    return d


def _place(state: State, d: State, assignment: list[tuple[tuple[int, int], int]]) -> None:
    """Put each new card in its place in `d`, the rest of the place (who put it there, which way up,
    who knew it) kept, and card variables renamed with the cards."""
    renamed: dict[int, int] = {}
    for (zi, k), new in assignment:
        old = state.zones[zi][k]
        d.own(zi)[k] = new
        d.loc[new] = zi
        # what belongs to the place (who put a card there, which way up) stays with the place
        d.by[new], d.face[new], d.known[new] = state.by[old], state.face[old], state.known[old]
        renamed[old] = new
    for vi in state.layout.card_vars:
        value = d.vars[vi]
        if value in renamed:
            d.vars[vi] = renamed[value]
