"""Peklo against OpenSpiel's `oh_hell`: the same deal and the same moves give the same legal
moves and the same points, for 3 to 7 players and every deal size OpenSpiel allows.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_oh_hell_differential.py

How the two are matched, read from pyspiel itself: `oh_hell` starts with chance nodes for the
number of tricks (fixed here by `num_tricks_fixed`), the dealer, and then each card, the i-th to
player i mod n, the last one turned up for trump. The last bidder may never make the bids add up
to the tricks, which is Peklo's `hook`; a bid missed scores the tricks taken, or with
`off_bid_penalty` minus a point per trick of difference, which is Peklo's `missed_bid_penalty`.
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda
from helpers import spiel_card_name

pyspiel = pytest.importorskip("pyspiel")

SEEDS = range(4)


def deal_sizes(players: int) -> list[int]:
    """Every deal size OpenSpiel allows for `players`: the outcomes of its first chance node."""
    state = pyspiel.load_game("oh_hell", {"players": players}).new_initial_state()
    return sorted(size for size, _ in state.chance_outcomes())


CASES = [(players, size) for players in range(3, 8) for size in deal_sizes(players)]


@functools.lru_cache(maxsize=None)
def peklo(players: int, size: int, off_bid_penalty: bool):
    return koloda.load("peklo", {"deal_size": size, "hook": True, "missed_bid_penalty": off_bid_penalty}, players)


def move_text(state, action: int) -> str:
    """An OpenSpiel move as koloda writes it: a bid `3` as `bid 3`, a card `CT` as `play 10C`."""
    text = state.action_to_string(state.current_player(), action)
    return f"bid {text}" if text.isdigit() else f"play {spiel_card_name(text)}"


def play_both(players: int, size: int, seed: int, off_bid_penalty: bool) -> int:
    """One deal played in both engines with the same random choices; returns the moves compared."""
    rng = random.Random(f"{players}/{size}/{seed}/{off_bid_penalty}")
    spiel_game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": size,
                                               "off_bid_penalty": off_bid_penalty})
    params = spiel_game.get_parameters()
    # the deck and the points Peklo plays with
    assert (params["num_suits"], params["num_cards_per_suit"], params["points_per_trick"]) == (4, 13, 1)
    spiel = spiel_game.new_initial_state()
    assert spiel.chance_outcomes() == [(size, 1.0)]
    spiel.apply_action(size)
    dealers = [d for d, _ in spiel.chance_outcomes()]
    assert dealers == list(range(players))
    dealer = rng.choice(dealers)
    spiel.apply_action(dealer)
    dealt = []
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        dealt.append(spiel_card_name(spiel.action_to_string(card)))
        spiel.apply_action(card)
    assert len(dealt) == players * size + 1
    hands: dict[str, list[str]] = {f"P{p + 1} hand": dealt[p:players * size:players] for p in range(players)}
    hands["trump_card"] = dealt[-1:]

    game = peklo(players, size, off_bid_penalty)
    state = game.new_initial_state(seed, dealer=dealer, hands=hands)
    trump = state.vars[game.layout.var_base["trump"]]
    assert trump is not None and "CDHS"[trump] == dealt[-1][-1], "the turned-up card decides trump"
    moves = 0
    while not spiel.is_terminal():
        assert not state.is_terminal()
        assert state.current_player() == spiel.current_player()
        theirs = {move_text(spiel, a): a for a in spiel.legal_actions()}
        ours = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert ours == sorted(theirs), f"after {moves} moves"
        text = rng.choice(ours)
        spiel.apply_action(theirs[text])
        state.apply_action(state.string_to_action(text))
        moves += 1
    assert state.is_terminal()
    assert [float(x) for x in state.scores()] == spiel.returns()
    return moves


@pytest.mark.parametrize("players,size", CASES)
def test_peklo_agrees_with_openspiel_oh_hell(players, size):
    for off_bid_penalty in (False, True):
        for seed in SEEDS:
            assert play_both(players, size, seed, off_bid_penalty) == players * (size + 1)
