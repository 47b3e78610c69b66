"""Spades against OpenSpiel's `spades`: the same deal, bids and plays give the same legal moves
and the same points.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_spades_differential.py

How the two are matched, read from OpenSpiel's source (open_spiel/games/spades/spades.cc and
spades_scoring.cc): `spades` is one deal (koloda's `deals=1`), each card, the i-th to player
i mod 4, as koloda deals when the fourth seat deals; North (player 0, koloda's P1) bids first
and leads. A side's bids may not pass 13; nil is a bid of 0. OpenSpiel never marks spades
broken, so a spade is led only from a hand of spades: koloda's option `breaking=false`. Its
returns are each side's points for the deal, bags and nil included; its 500-point bonus and
mercy rule cannot be reached in one deal.
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda
from helpers import spiel_card_name

pyspiel = pytest.importorskip("pyspiel")

SEEDS = range(12)


@functools.lru_cache(maxsize=None)
def spades():
    return koloda.load("spades", {"deals": 1, "breaking": False})


def move_text(state, action: int) -> str:
    """An OpenSpiel move as koloda writes it: `Nil` as `bid nil`, `3` as `bid 3`, `CT` as `play 10C`."""
    text = state.action_to_string(state.current_player(), action)
    if text == "Nil":
        return "bid nil"
    return f"bid {text}" if text.isdigit() else f"play {spiel_card_name(text)}"


def play_both(seed: int, low: bool) -> list[float]:
    """One deal in both engines with the same random choices; with `low`, every bid is nil, 1
    or 2, so that sides make their bids and take bags. Returns the deal's points."""
    rng = random.Random(f"spades/{seed}")
    spiel = pyspiel.load_game("spades").new_initial_state()
    dealt = []
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        dealt.append(spiel_card_name(spiel.action_to_string(card)))
        spiel.apply_action(card)
    hands = {f"P{p + 1} hand": dealt[p::4] for p in range(4)}
    state = spades().new_initial_state(seed, dealer=3, hands=hands)
    moves = 0
    while not spiel.is_terminal():
        assert not state.is_terminal()
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        theirs = {move_text(spiel, a): a for a in spiel.legal_actions()}
        ours = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert ours == sorted(theirs), f"after {moves} moves"
        low_bids = [t for t in ours if t in ("bid nil", "bid 1", "bid 2")]
        text = rng.choice(low_bids if low and low_bids else ours)
        spiel.apply_action(theirs[text])
        state.apply_action(state.string_to_action(text))
        moves += 1
    assert state.is_terminal()
    assert [float(x) for x in state.scores()] == spiel.returns()
    assert moves == 4 + 52
    return spiel.returns()


@pytest.mark.parametrize("low", [False, True])
def test_spades_agrees_with_openspiel(low):
    points = [play_both(seed, low) for seed in SEEDS]
    if low:     # the deals tried made bids with bags (a score not a multiple of 10) and nil bids
        assert any(p[0] % 10 or p[1] % 10 for p in points)
