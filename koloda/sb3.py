"""koloda's batched environment as Stable-Baselines3's VecEnv, with masks for sb3-contrib's
MaskablePPO (the `koloda[rl]` extra).

    from sb3_contrib import MaskablePPO
    import koloda.sb3
    env = koloda.sb3.vec_env("pony", num_envs=16, others="random", scale=100)
    model = MaskablePPO("MlpPolicy", env, seed=0).learn(100_000)

The N matches are koloda.vector.SeatVectorEnv's (stepped in this process, written into one array),
spread over the seats (`seats`, all of them by default: N/len(seats) matches each), so that one
policy learns to play every seat, as it will sit at the table (`--seat py:…`): the observation
tells it which seat it has. The observation is the seat's tensor alone (a Box, scaled with
`scale` as SeatVectorEnv scales it); the legal tokens come from `action_masks()`, which MaskablePPO
asks the VecEnv for through `env_method("action_masks")`. A match that ends starts the next at once;
its last observation is `infos[i]["terminal_observation"]` and `infos[i]["TimeLimit.truncated"]`
says it was cut at `max_moves`, as SB3's own VecEnvs say it. The rewards are the seat's share of
the win, at the end.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from koloda.vector import SeatVectorEnv

__all__ = ["KolodaVecEnv", "vec_env"]


def vec_env(rules: str, num_envs: int = 16, seats: Sequence[int] | None = None, others: str | list[str] = "random",
            **kwargs: Any) -> "KolodaVecEnv":
    return KolodaVecEnv(rules, num_envs, seats, others, **kwargs)


class KolodaVecEnv(VecEnv):
    def __init__(self, rules: str, num_envs: int = 16, seats: Sequence[int] | None = None,
                 others: str | list[str] = "random", **kwargs: Any):
        first = SeatVectorEnv(rules, 1, seat=0, others=others, **kwargs)
        seats = list(range(first.game.num_players)) if seats is None else list(seats)
        if not seats or num_envs % len(seats):
            raise ValueError(f"num_envs ({num_envs}) is a multiple of the number of seats played ({len(seats)})")
        each = num_envs // len(seats)
        self.parts = [SeatVectorEnv(rules, each, seat=seat, others=others, **kwargs) for seat in seats]
        self.seats, self.each = seats, each
        box = first.single_observation_space["observation"]        # type: ignore[index]   # a Dict space
        super().__init__(num_envs, box, first.single_action_space)
        self._actions = np.zeros(num_envs, np.int64)

    def _observations(self) -> np.ndarray:
        # a copy: the batch's arrays are written over at the next step, and SB3 keeps the last ones
        return np.concatenate([part.observations for part in self.parts])

    def reset(self) -> np.ndarray:
        seeds = self._seeds
        for k, part in enumerate(self.parts):
            chunk = seeds[k * self.each:(k + 1) * self.each]
            part.reset(seed=None if all(s is None for s in chunk) else chunk)
        self._reset_seeds()
        self._reset_options()
        return self._observations()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        rewards, dones, infos = [], [], []
        for k, part in enumerate(self.parts):
            _, reward, terminated, truncated, info = part.step(self._actions[k * self.each:(k + 1) * self.each])
            rewards.append(reward)
            dones.append(terminated | truncated)
            ended, passed = info.get("_final_obs"), info.get("_passed")
            for i in range(self.each):
                item: dict[str, Any] = {}
                if ended is not None and ended[i]:
                    item["terminal_observation"] = info["final_obs"][i]["observation"]
                    item["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                if passed is not None and passed[i]:        # matches over before the seat moved
                    item["passed"], item["passed_return"] = int(info["passed"][i]), float(info["passed_return"][i])
                infos.append(item)
        return (self._observations(), np.concatenate(rewards).astype(np.float32), np.concatenate(dones), infos)

    def action_masks(self) -> np.ndarray:
        """The legal tokens of every match, (N, vocabulary) booleans."""
        return np.concatenate([part.action_masks() for part in self.parts])

    # ------------------------------------------------------------ what VecEnv asks besides
    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks":      # MaskablePPO's hook: one row per env
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        raise AttributeError(f"koloda's VecEnv has no per-env method `{method_name}`")

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        part = self.parts[0]
        return [getattr(part, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"koloda's VecEnv cannot set `{attr_name}`")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def close(self) -> None:
        pass

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs        # nothing drawn: the table is text (SeatEnv's render_mode="ansi")
