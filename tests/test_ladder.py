"""bench/ladder.py's parts the docs' figures rest on: a game with bids made together played through
OpenSpiel's search, CFR+ as a kind, a game against the house, and the Bradley-Terry fit."""
from __future__ import annotations

import math

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.ismcts")

from benchscripts import bench_script  # noqa: E402

bench_script("same_rules")          # the ladder imports it by name
ladder = bench_script("ladder")


def _game(rules: str, options: str = "", players: int = 0):
    return pyspiel.load_game("koloda", {"rules": rules, "players": players, "options": options, "chance_base": 16,
                                        "together": "in_turn"})


def test_goofspiel_s_bids_are_searched_by_openspiel_in_turn():
    game = _game("goofspiel", "cards=4")
    for seed in range(2):
        returns, seats = ladder.match(game, ("ismcts", "os-ismcts"), seed, 5)
        assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])
        assert all(seat.decisions == 3 for seat in seats), "three bids each, the fourth forced"


def test_os_cfr_plays_kuhn_from_a_policy_solved_on_the_dealt_game():
    game = _game("examples/kuhn.yaml")
    returns, seats = ladder.match(game, ("os-cfr", "random"), 1, 5, cfr_iterations=3)
    assert sorted(returns) == [0.0, 1.0]
    assert seats[0].decisions >= 1


def test_a_game_against_the_house_plays_each_kind_alone(capsys):
    game = _game("blackjack", "naturals=false, double=false, split=false")
    args = type("Args", (), {"rules": "blackjack", "options": "", "games": 3, "iterations": 5, "seed": 0,
                             "kinds": ["random", "greedy"], "cfr_iterations": 0})()
    ladder.alone(game, args)
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[3:]]
    assert [row[0] for row in rows] == ["random", "greedy"]
    assert all(0.0 <= float(row[1]) <= 1.0 for row in rows)


def test_bradley_terry_finds_the_odds_of_the_wins():
    wins = np.array([[0.0, 30.0], [10.0, 0.0]])       # the first won 30 of 40: odds 3 to 1
    strength = ladder.bradley_terry(wins)
    assert strength[0] == 0.0
    assert math.isclose(strength[0] - strength[1], math.log(3), rel_tol=1e-3)
