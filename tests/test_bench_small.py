"""bench/small_games.py and the shipped Goofspiel it plays: the game plays to the end by its rules,
and the script prints koloda's row (and OpenSpiel's beside it where pyspiel is installed)."""
from __future__ import annotations

import random

import pytest

import koloda
from helpers import act, conservation
from tests.benchscripts import bench_script


def _playout(game, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(1000):
        if state.is_terminal():
            return state
        conservation(state)
        legal = state.legal_actions()
        assert legal
        state.apply_action(rng.choice(legal))
    raise AssertionError(f"seed {seed} did not end")


def test_goofspiel_gives_each_prize_to_the_higher_bid_or_to_nobody():
    game = koloda.load("goofspiel")
    for seed in range(50):
        state = _playout(game, seed)
        assert sum(state.scores()) <= 91          # 1 + 2 + … + 13, less the prizes of ties
    # a known position: the prize is the 5; P1 bids the king, P2 the two: P1 takes 5 points
    state = game.new_initial_state(seed=0, hands={"prize": "5H"})
    act(state, "bid KC")
    act(state, "bid 2D")
    assert state.scores() == [5, 0]
    # a tie: nobody takes the next prize, whatever it is
    act(state, "bid QC")
    act(state, "bid QD")
    assert state.scores() == [5, 0]


def test_the_script_prints_koloda_s_rows():
    out = []
    module = bench_script("small_games")
    import builtins
    printed = builtins.print
    try:
        builtins.print = lambda *a, **k: out.append(" ".join(map(str, a))) if "file" not in k else None
        assert module.main(["--games", "3", "--rounds", "1"]) == 0
    finally:
        builtins.print = printed
    rows = [line.split()[0] for line in out if line.startswith(("koloda:", "openspiel:"))]
    assert {"koloda:kuhn", "koloda:leduc", "koloda:goofspiel", "koloda:blackjack", "koloda:skat",
            "koloda:doudizhu"} <= set(rows)
    pytest.importorskip("pyspiel")
    assert {"openspiel:kuhn", "openspiel:leduc", "openspiel:blackjack", "openspiel:skat"} <= set(rows)
