"""The `rl` extra: koloda's batch as Stable-Baselines3's VecEnv (koloda/sb3.py), and the example that
trains a masked-PPO agent on it and seats it at the table (examples/ppo_agent.py). Skipped without
sb3-contrib (and torch), which koloda never needs otherwise."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from click.testing import CliRunner  # noqa: E402

import koloda.gymnasium as kgym  # noqa: E402
import koloda.sb3  # noqa: E402
from koloda.cli.main import main  # noqa: E402
from koloda.vector import SeatVectorEnv  # noqa: E402


def test_the_vec_env_is_the_batch_spread_over_the_seats():
    env = koloda.sb3.vec_env("pony", 4, others="random", max_moves=40)
    env.seed(7)
    observations = env.reset()
    assert observations.shape == (4, 288) and env.action_masks().shape == (4, 38)
    seat0 = SeatVectorEnv("pony", 2, seat=0, others="random", max_moves=40)
    seat1 = SeatVectorEnv("pony", 2, seat=1, others="random", max_moves=40)
    assert np.array_equal(observations[:2], seat0.reset(seed=[7, 8])[0]["observation"])
    assert np.array_equal(observations[2:], seat1.reset(seed=[9, 10])[0]["observation"])
    ended = 0
    for _ in range(60):
        masks = env.action_masks()
        assert [m.tolist() for m in env.env_method("action_masks")] == masks.tolist()
        actions = masks.argmax(axis=1)
        env.step_async(actions)
        observations, rewards, dones, infos = env.step_wait()
        before = observations.copy()
        for i in np.flatnonzero(dones):
            ended += 1
            assert infos[i]["terminal_observation"].shape == (288,)
            assert infos[i]["TimeLimit.truncated"] in (True, False)
        env.step_async(env.action_masks().argmax(axis=1))
        assert np.array_equal(before, observations)      # what it returned is not written over
        observations, *_ = env.step_wait()
    assert ended >= 4
    with pytest.raises(ValueError, match="multiple"):
        koloda.sb3.vec_env("pony", 3)


def test_masked_ppo_trains_on_the_batch_and_plays_at_the_table(tmp_path, monkeypatch):
    from pathlib import Path

    from examples import ppo_agent

    model = tmp_path / "agent.zip"
    ppo_agent.train("pony", 256, model, envs=4)
    assert model.exists()
    # one game through a `py:` seat, as `koloda simulate` seats it, and one through the Python API
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "1", "-j", "1", "--seat",
                                       f"py:examples.ppo_agent:Trained:model={model}", "--seat", "random"])
    assert result.exit_code == 0, result.output
    assert "1 ended" in result.output
    shares = kgym.run("pony", [ppo_agent.Trained(str(model)), "ismcts:iterations=5"], seed=2)
    assert sorted(shares) in ([0.0, 1.0], [0.5, 0.5])


def test_the_docs_example_trains_and_saves(tmp_path, monkeypatch):
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")
    part = doc.split("\n## Training a masked-PPO agent\n", 1)[1].split("\n## ", 1)[0]
    monkeypatch.chdir(tmp_path)             # it saves my_agent.zip where it runs
    scope: dict = {}
    for block in re.findall(r"```python\n(.*?)```", part, re.S):
        exec(compile(block, "docs/ai.md (Training a masked-PPO agent)", "exec"), scope)
    assert (tmp_path / "my_agent.zip").exists() and scope["model"].num_timesteps >= 1024
