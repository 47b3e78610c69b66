"""A `turns: together` phase through PettingZoo: a ParallelEnv whose step takes every chooser's
action at once, and the AEC env, which plays the same game one bidder at a time."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import koloda.pettingzoo as kpz  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402


@pytest.mark.parametrize("rules, options", [("goofspiel", {"cards": 5}), ("goofspiel", {"cards": 4, "players": 3}),
                                             ("pony", {})])
def test_pettingzoo_parallel_api_test(rules, options):
    parallel_api_test(kpz.parallel_env(rules, **options), num_cycles=300)


def test_the_aec_env_still_plays_a_together_phase_one_bidder_at_a_time():
    api_test(kpz.env("goofspiel", cards=4), num_cycles=100)


def test_a_parallel_step_takes_every_bid_at_once():
    env = kpz.parallel_env("goofspiel", cards=5)
    observations, _ = env.reset(seed=3)
    masks = {a: o["action_mask"].nonzero()[0].tolist() for a, o in observations.items()}
    assert [len(m) for m in masks.values()] == [5, 5] and masks["player_0"] != masks["player_1"]
    observations, rewards, *_ = env.step({a: m[0] for a, m in masks.items()})
    assert [int(o["action_mask"].sum()) for o in observations.values()] == [4, 4]


def test_a_parallel_match_ends_with_returns_and_refuses_an_illegal_bid():
    env = kpz.parallel_env("goofspiel", cards=4)
    rng = random.Random(1)
    observations, _ = env.reset(seed=8)
    with pytest.raises(ValueError, match="cannot play token"):
        env.step({"player_0": 99, "player_1": 0})
    steps = 0
    while env.agents:
        actions = {a: rng.choice(o["action_mask"].nonzero()[0].tolist()) for a, o in observations.items()}
        observations, rewards, terminations, truncations, _ = env.step(actions)
        steps += 1
    assert steps == 3 and all(terminations.values())
    assert sorted(rewards.values()) in ([0.0, 1.0], [0.5, 0.5])


def test_in_a_sequential_game_only_the_player_to_move_has_a_mask():
    env = kpz.parallel_env("pony")
    observations, _ = env.reset(seed=2)
    assert sorted(int(o["action_mask"].sum()) > 0 for o in observations.values()) == [False, True]
