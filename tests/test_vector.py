"""Many matches of one seat in one process (koloda/vector/): the same matches as the single env's."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import koloda.gymnasium as kgym  # noqa: E402
from koloda.api import shipped_names  # noqa: E402
from koloda.compact import CompactGame  # noqa: E402
from koloda.vector import SeatVectorEnv  # noqa: E402
from koloda.vector.batch import BatchObserver  # noqa: E402


def first_legal(masks: np.ndarray) -> np.ndarray:
    return masks.argmax(axis=1)


@pytest.mark.parametrize("rules,others", [("pony", "random"), ("peklo", "greedy:samples=1"), ("kunkin", "random")])
def test_the_batch_plays_the_single_env_s_matches(rules, others):
    n, steps = 3, 120
    envs = SeatVectorEnv(rules, n, seat=1, others=others, max_moves=60)
    singles = [kgym.env(rules, seat=1, others=others, max_moves=60) for _ in range(n)]
    batch, _ = envs.reset(seed=10)
    shown = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    ended = 0
    for _ in range(steps):
        for i in range(n):
            assert np.array_equal(batch["observation"][i], shown[i]["observation"])
            assert np.array_equal(batch["action_mask"][i], shown[i]["action_mask"])
        assert (envs.action_masks() == batch["action_mask"].astype(bool)).all()
        actions = first_legal(batch["action_mask"])
        batch, rewards, terminated, truncated, infos = envs.step(actions)
        for i, env in enumerate(singles):
            observation, reward, done, cut, _ = env.step(int(actions[i]))
            assert (reward, done, cut) == (rewards[i], terminated[i], truncated[i])
            if done or cut:           # autoreset: the last observation is kept, the row starts anew
                ended += 1
                assert infos["_final_obs"][i]
                assert np.array_equal(infos["final_obs"][i]["observation"], observation["observation"])
                observation, _ = env.reset()
            shown[i] = observation
    assert ended >= n        # every match ended at least once and went on


def test_the_batch_refuses_a_bad_step_or_loses_it_when_asked():
    envs = SeatVectorEnv("pony", 2)
    batch, _ = envs.reset(seed=0)
    illegal = np.array([int(np.flatnonzero(row == 0)[0]) for row in batch["action_mask"]])
    with pytest.raises(ValueError, match="environment 0: token"):
        envs.step(illegal)
    with pytest.raises(ValueError, match="2 actions"):
        envs.step([0])
    losing = SeatVectorEnv("pony", 2, illegal="lose")
    batch, _ = losing.reset(seed=0)
    actions = first_legal(batch["action_mask"])
    actions[1] = illegal[1]
    _, rewards, terminated, _, infos = losing.step(actions)
    assert rewards[1] == -1.0 and terminated[1] and infos["_final_obs"].tolist() == [False, True]
    assert losing.masks[1].sum() > 0        # env 1 was reset and is playable again


def test_the_docs_example_runs():
    from pathlib import Path
    import re
    doc = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    part = doc.split("\n## Batched environments\n", 1)[1].split("\n## ", 1)[0]
    scope: dict = {}
    for block in re.findall(r"```python\n(.*?)```", part, re.S):
        exec(compile(block, "docs/ai.md (Batched environments)", "exec"), scope)
    assert scope["observations"]["observation"].shape == (4, 288) and scope["rewards"].shape == (4,)


@pytest.mark.parametrize("rules", shipped_names())
def test_the_batched_tensors_are_the_observer_s(rules):
    """Every seat's tensor of states along random matches (mid-move spellings included), written
    as one batch, is the one Observer.observation writes for that state alone."""
    game = CompactGame.load(rules)
    rng = random.Random(3)
    states = []
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        for k in range(300):
            if state.is_terminal():
                break
            if k % 7 == 0 or state.prefix:
                states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    if rules == "kunkin":       # its melds take several tokens: moves half spelled are among the states
        assert any(s.prefix for s in states)
    width = game.observation_tensor_shape()[0]
    for seat in range(game.game.num_players):
        out = np.full((len(states) + 1, width), 7.0, np.float32)      # rows written over whole
        BatchObserver(game.observer, seat).write([s.native for s in states], [s.prefix for s in states], out)
        for k, state in enumerate(states):
            expected = np.asarray(state.observation_tensor(seat), np.float32)
            assert np.array_equal(out[k], expected), f"seat {seat}, state {k}: entries {np.flatnonzero(out[k] != expected)[:8]}"
        assert (out[-1] == 7.0).all()       # no row past the batch is touched


def test_a_refused_step_moves_no_match():
    envs = SeatVectorEnv("pony", 3, others="random")
    batch, _ = envs.reset(seed=4)
    before = batch["observation"].copy()
    actions = first_legal(batch["action_mask"])
    actions[2] = int(np.flatnonzero(batch["action_mask"][2] == 0)[0])
    with pytest.raises(ValueError, match="environment 2"):
        envs.step(actions)
    with pytest.raises(ValueError, match="environment 0"):
        envs.step(actions.astype(np.float64))     # a float is no token
    assert np.array_equal(envs.observations, before)
    single = kgym.env("pony", others="random")
    observation, _ = single.reset(seed=4)
    envs.step(first_legal(envs.masks))
    assert np.array_equal(envs.observations[0], single.step(int(first_legal(observation["action_mask"][None])[0]))[0]["observation"])
