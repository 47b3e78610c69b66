"""bench/bench.py against its peers: the games both play load on both sides with the same rules,
OpenSpiel's chance nodes are sampled the cheap way only where they were checked uniform, and forced
decisions (one legal move) are counted apart."""
from __future__ import annotations

import random

import pytest

import koloda
from tests.benchscripts import bench_script

pyspiel = pytest.importorskip("pyspiel")


def _bench():
    return bench_script("bench")


def test_every_twin_loads_on_both_sides_and_agrees_on_the_seats():
    bench = _bench()
    for twin in bench.TWINS:
        game = koloda.load(twin.koloda, twin.options, twin.players)
        spiel = pyspiel.load_game(twin.spec())
        assert game.num_players == spiel.num_players(), twin.label


def test_uniform_chance_is_checked_not_assumed():
    bench = _bench()
    assert bench.uniform_chance(pyspiel.load_game("hearts"), 0, 10_000)

    class Loaded:           # a game whose one chance node is not uniform
        def new_initial_state(self):
            return Skewed()

    class Skewed:
        done = False

        def is_terminal(self):
            return self.done

        def is_chance_node(self):
            return True

        def chance_outcomes(self):
            return [(0, 0.9), (1, 0.1)]

        def legal_actions(self):
            return [0, 1]

        def apply_action(self, action):
            self.done = True

    assert not bench.uniform_chance(Loaded(), 0, 10)


def test_the_cheap_loop_plays_the_same_games_as_the_weighted_one_on_a_uniform_game():
    """Both loops pick every chance outcome uniformly; the cheap one must still finish every game
    and count the same kinds of step."""
    bench = _bench()
    game = pyspiel.load_game("oh_hell(players=3,num_tricks_fixed=3)")
    cheap = bench.play_openspiel(bench.SpielGame(game, True), 4, 0, 10_000)
    weighted = bench.play_openspiel(bench.SpielGame(game, False), 4, 0, 10_000)
    for run in (cheap, weighted):
        assert run.error is None and run.games == 4
        assert run.decisions == 4 * (3 + 3 * 3)        # three bids and nine cards a deal
        assert run.chance > 4 * 9                      # tricks, dealer, nine cards dealt, the trump
        assert 0 <= run.forced <= run.decisions


def test_forced_decisions_are_counted_for_koloda():
    bench = _bench()
    game = koloda.load("pony")
    run = bench.play_koloda(game, 3, 0, 100_000)
    assert run.error is None and run.games == 3
    forced = 0
    for seed in range(3):               # the same games again, counting by hand
        rng, state = random.Random(seed), game.new_initial_state(seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            forced += len(legal) == 1
            state.apply_action(rng.choice(legal))
    assert run.forced == forced > 0
    assert run.unforced == run.decisions - forced


def test_a_twin_pair_is_reported(capsys):
    bench = _bench()
    assert bench.main(["--games", "1", "--rounds", "1", "--only", "peklo=oh_hell", "oh_hell"]) == 0
    out = capsys.readouterr().out
    line = next(text for text in out.splitlines() if text.startswith("peklo=oh_hell "))
    assert "openspiel:oh_hell " in line and "x (" in line, line
    assert "chance nodes sampled by choice(legal_actions), checked uniform" in out
