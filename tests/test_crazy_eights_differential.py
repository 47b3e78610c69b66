"""Crazy Eights against OpenSpiel's `crazy_eights`: the same deal, draws and plays give the same
legal moves and the same points, for 2 to 7 players (two decks from six), with and without
reshuffling, with and without the special cards (queen skips, ace reverses, two draws two).

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_crazy_eights_differential.py

How the two are matched, read from OpenSpiel's source (open_spiel/games/crazy_eights/
crazy_eights.cc): `crazy_eights` is one deal (koloda's `deals=1`). Chance picks the dealer, then
each card, one at a time from the dealer's left (seven each for two players, else five), then
the starter (an eight is put back and another drawn), and every card drawn. Here koloda deals
by its seed and OpenSpiel's chance nodes are given koloda's cards: the hands, the starter, and
the stock's top card whenever a player draws. OpenSpiel lets a player draw even when able to
play, at most `max_draw_cards` a turn, pass once drawing is over, and ends a blocked deal when
the first to pass passes again: koloda's `draw_anyway` and `draw_limit`. It stops after
`max_turns` cards played (`max_plays`), and its returns are minus each hand's points, counted as
`openspiel_points` counts them. Its `use_special_cards` is koloda's `special_cards`.
"""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

import koloda
from helpers import spiel_card_name

pyspiel = pytest.importorskip("pyspiel")

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SEEDS = range(4)


@functools.lru_cache(maxsize=None)
def crazy_eights(players: int, reshuffle: bool, special: bool = False):
    return koloda.load("crazy-eights", {"deals": 1, "draw_anyway": True, "draw_limit": 5, "max_plays": 100,
                                        "openspiel_points": True, "reshuffle": reshuffle,
                                        "special_cards": special}, players)


def move_text(spiel, action: int) -> str:
    """`Play C2` as `play 2C`, `Draw` as `draw`, `Pass` as `pass`, `Nominate suit H` as `name hearts`."""
    text = spiel.action_to_string(spiel.current_player(), action)
    if text.startswith("Play "):
        return f"play {spiel_card_name(text[5:])}"
    if text.startswith("Nominate suit "):
        return f"name {SUITS[text[-1]]}"
    return text.lower()


def spiel_card(spiel, name: str) -> int:
    """The chance outcome that deals koloda's card `name`."""
    found = [a for a, _ in spiel.chance_outcomes() if spiel_card_name(spiel.action_to_string(a).split()[-1]) == name]
    assert len(found) == 1, f"{name} cannot be dealt now"
    return found[0]


def cards_of(state, zone: str, owner: int | None = None) -> list[str]:
    game = state.game
    index = game.layout.zone_base[zone] + (owner or 0)
    return [game.cards.names[c] for c in state.zones[index]]


def play_both(players: int, reshuffle: bool, seed: int, special: bool = False) -> int:
    """One deal in both engines with the same random choices; returns the moves compared."""
    rng = random.Random(f"{players}/{reshuffle}/{seed}" + ("/special" if special else ""))
    state = crazy_eights(players, reshuffle, special).new_initial_state(seed)
    spiel = pyspiel.load_game("crazy_eights", {"players": players, "reshuffle": reshuffle,
                                               "use_special_cards": special}).new_initial_state()
    dealer = state.dealer
    spiel.apply_action([a for a, _ in spiel.chance_outcomes()][dealer])
    hands = [cards_of(state, "hand", p) for p in range(players)]
    for r in range(len(hands[0])):
        for j in range(players):
            spiel.apply_action(spiel_card(spiel, hands[(dealer + 1 + j) % players][r]))
    spiel.apply_action(spiel_card(spiel, cards_of(state, "pile")[-1]))
    moves = 0
    while not spiel.is_terminal():
        assert not state.is_terminal()
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        theirs = {move_text(spiel, a): a for a in spiel.legal_actions()}
        ours = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert ours == sorted(theirs), f"after {moves} moves"
        text = rng.choice(ours)
        player, stock = state.current_player(), cards_of(state, "stock")
        before = Counter(cards_of(state, "hand", player))
        state.apply_action(state.string_to_action(text))
        spiel.apply_action(theirs[text])
        # a draw is one card, or every card owed for twos, which OpenSpiel deals one by one: the
        # old stock's from its top first, then those of a stock reshuffled on the way
        drawn = Counter(cards_of(state, "hand", player)) - before
        order = []
        for c in reversed(stock):
            if drawn[c] > 0:
                order.append(c)
                drawn[c] -= 1
        order += list(drawn.elements())
        while spiel.is_chance_node():
            spiel.apply_action(spiel_card(spiel, order.pop(0)))
        assert not order, f"after {moves} moves"
        moves += 1
    assert state.is_terminal()
    assert [-float(x) for x in state.scores()] == spiel.returns()
    return moves


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("reshuffle", [False, True])
def test_crazy_eights_agrees_with_openspiel(players, reshuffle):
    for seed in SEEDS:
        assert play_both(players, reshuffle, seed) > 0


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("reshuffle", [False, True])
def test_special_cards_agree_with_openspiel(players, reshuffle):
    for seed in SEEDS:
        assert play_both(players, reshuffle, seed, special=True) > 0
