"""A masked-PPO agent for Pony: sb3-contrib's MaskablePPO trained on koloda's batched environment,
then seated at the table (`pip install 'koloda[rl]'`).

Train it (it writes examples/ppo_agent.zip; 200,000 steps take a few minutes of one core):

    python -m examples.ppo_agent                 # or: python -m examples.ppo_agent pony 200000 my.zip

then play against it, or measure it against the bots, from the project's folder:

    koloda play pony --seat human --seat py:examples.ppo_agent:Trained
    koloda compare pony py:examples.ppo_agent:Trained ismcts -n 100
    koloda simulate pony -n 200 --rotate --seat py:examples.ppo_agent:Trained:model=my.zip --seat random

It learns from 16 matches at a time (koloda.sb3.vec_env: koloda.vector's batch as a Stable-Baselines3
VecEnv, 8 matches on each seat, the other seat played by `random`), its reward the share of the
win at the end of each match. At the table it is given what it was trained on: the seat's
observation tensor (scaled as in training) and the mask of legal tokens.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

MODEL = Path(__file__).with_name("ppo_agent.zip")
SCALE = 100.0          # a score is divided by this, a bounded entry by its bound (koloda.gymnasium.scaling)


def train(rules: str = "pony", steps: int = 200_000, out: Path = MODEL, envs: int = 16, seed: int = 0,
          others: str = "random") -> Any:
    """Train a MaskablePPO policy on `rules` for `steps` env steps, save it to `out`, return it."""
    import torch
    from sb3_contrib import MaskablePPO

    import koloda.sb3

    torch.set_num_threads(1)        # a small network: more threads only wait on each other
    env = koloda.sb3.vec_env(rules, envs, others=others, scale=SCALE)
    env.seed(seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=max(8, min(256, steps // envs)), batch_size=64, seed=seed,
                        device="cpu", verbose=0)
    model.learn(total_timesteps=steps)
    model.save(out)
    return model


_LOADED: dict[str, Any] = {}       # a simulation seats a new agent each game: load each model once


class Trained:
    """`py:examples.ppo_agent:Trained` (options: `:model=FILE`)."""

    def __init__(self, model: str = str(MODEL)):
        from sb3_contrib import MaskablePPO

        if model not in _LOADED:
            _LOADED[model] = MaskablePPO.load(model, device="cpu")
        self.model = _LOADED[model]
        self.divisor: Any = None

    def start(self, game: Any, seat: int) -> None:
        from koloda.compact import CompactGame
        from koloda.gymnasium import scaling

        self.divisor = scaling(CompactGame(game), SCALE)       # the scaling the batch trained with

    def act(self, view: Any) -> int:
        action, _ = self.model.predict(view.observation / self.divisor, action_masks=view.action_mask.astype(bool),
                                       deterministic=True)
        return int(action)


if __name__ == "__main__":
    args = sys.argv[1:]
    train(args[0] if args else "pony", int(args[1]) if len(args) > 1 else 200_000,
          Path(args[2]) if len(args) > 2 else MODEL)
    print(f"saved to {Path(args[2]) if len(args) > 2 else MODEL}")
