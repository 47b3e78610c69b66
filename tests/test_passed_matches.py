"""A match over before the seat's first move (a natural at Blackjack) is passed over by the
Gymnasium environments, single and batched: reset starts on a match the seat can play, and the
returns of the matches passed over are given in the infos, so that a mean return counts them."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import koloda  # noqa: E402
import koloda.gymnasium as kgym  # noqa: E402
from koloda.vector import SeatVectorEnv  # noqa: E402


def over_at_the_deal(env: kgym.SeatEnv, seed: int) -> bool:
    """Whether the match SeatEnv.reset(seed) deals first is over before the seat moves."""
    env.reset(seed=seed)
    return "passed" in env.reset(seed=seed)[1]


def test_a_seat_env_passes_over_a_match_over_at_the_deal():
    env = kgym.env("blackjack")
    passed = []
    for seed in range(200):
        observation, info = env.reset(seed=seed)
        assert observation["action_mask"].any(), "reset always starts where the seat has a move"
        assert not env.episode.is_terminal()
        passed += info.get("passed", [])
    assert passed, "some of 200 deals were a natural"
    assert set(passed) <= {0.0, 0.5, 1.0} and len(set(passed)) >= 2     # won and tied (or lost) naturals


def test_the_passed_returns_are_the_matches_own():
    env = kgym.env("blackjack")
    game = koloda.load("blackjack")
    for seed in range(200):
        _, info = env.reset(seed=seed)
        if info.get("passed"):
            break
    else:
        pytest.fail("no natural in 200 deals")
    # the first match of this reset is the one passed over: replay its seed on the engine
    rng = np.random.default_rng(seed)
    first = game.new_initial_state(seed=int(rng.integers(0, 1 << 62)))
    assert first.is_terminal() and info["passed"][0] == first.returns()[0]


def test_self_play_passes_over_a_match_over_at_the_deal():
    env = kgym.SelfPlayEnv("blackjack")
    seen = 0
    for seed in range(200):
        observation, info = env.reset(seed=seed)
        assert info["player"] == 0 and observation["action_mask"].any()
        seen += len(info.get("passed", []))
    assert seen and all(len(r) == 1 for r in env.reset(seed=0)[1].get("passed", [[0.0]]))


def test_the_batch_passes_over_the_same_matches_as_the_single_env():
    n = 16
    envs = SeatVectorEnv("blackjack", n)
    singles = [kgym.env("blackjack") for _ in range(n)]
    batch, infos = envs.reset(seed=0)
    assert batch["action_mask"].any(axis=1).all()
    expected = [single.reset(seed=i)[1].get("passed", []) for i, single in enumerate(singles)]
    counts = infos.get("passed", np.zeros(n, np.int64))
    assert counts.tolist() == [len(p) for p in expected]
    if any(expected):
        assert infos["passed_return"].tolist() == [sum(p) for p in expected]
    total = int(counts.sum())
    for _ in range(200):          # play on: every autoreset passes naturals over too
        actions = batch["action_mask"].argmax(axis=1)
        batch, _, _, _, infos = envs.step(actions)
        assert batch["action_mask"].any(axis=1).all()
        total += int(infos.get("passed", np.zeros(n, np.int64)).sum())
    assert total > 0


def test_a_seat_that_never_moves_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setattr(kgym, "PASS_LIMIT", 3)
    env = kgym.env("blackjack")
    monkeypatch.setattr(kgym.Episode, "is_terminal", lambda self: True)
    with pytest.raises(RuntimeError, match="3 matches in a row ended before seat 0 had a move"):
        env.reset(seed=0)
