"""One seat of a koloda game as a Gymnasium environment (the `koloda[pettingzoo]` extra), the other
seats played by koloda's own bots: for training one seat.

    env = koloda.gymnasium.env("kunkin", seat=0, others="ismcts:iterations=50")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The seat's actions are tokens of koloda's compact view (as in koloda.pettingzoo); the other
seats play whole moves, chosen by the bots named in `others` (one seat description, or one for
each other seat: `random`, `greedy`, `ismcts:iterations=200`…; see `koloda play --help`). The
reward is the seat's share of the win, given at the end.
"""
from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from koloda.agents.base import Agent
from koloda.agents.registry import make_agent
from koloda.api import load
from koloda.episode import DEFAULT_MAX_STEPS, Episode, Table

__all__ = ["env", "SeatEnv", "ENV_ID"]

# gymnasium.make(ENV_ID, rules="kunkin", seat=0, others="greedy") makes the same environment
ENV_ID = "koloda/Seat-v0"


def env(rules: str, seat: int = 0, others: str | list[str] = "random", players: int | None = None,
        render_mode: str | None = None, **kwargs: Any) -> "SeatEnv":
    return SeatEnv(rules, seat, others, players, render_mode, **kwargs)


class SeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str, seat: int = 0, others: str | list[str] = "random", players: int | None = None,
                 render_mode: str | None = None, max_moves: int = DEFAULT_MAX_STEPS, **options: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = load(rules, {k: str(v) for k, v in options.items()} or None, players)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat}: the seats are 0..{n - 1}")
        specs = [others] * (n - 1) if isinstance(others, str) else list(others)
        if len(specs) != n - 1:
            raise ValueError(f"`others` names {len(specs)} bots for the {n - 1} other seats")
        self.others = specs
        for spec in specs:
            if spec.partition(":")[0].strip().lower() == "human":
                raise ValueError("the other seats are played by bots, not `human`")
            make_agent(spec, 0)          # a mistake in a seat's description shows now, not at reset
        self.seat = seat
        self.table = Table(self.game)
        self.render_mode = render_mode
        self.max_moves = max_moves
        spelling = self.table.spelling
        size = spelling.num_distinct_actions()
        self.action_space = spaces.Discrete(size)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=tuple(spelling.observation_tensor_shape()),
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)})
        self.episode: Episode | None = None
        self.bots: dict[int, Agent] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(0, 1 << 62))
        self.episode = Episode(self.table, match_seed, self.max_moves)
        bot_seeds = random.Random(match_seed)
        others = [p for p in range(self.game.num_players) if p != self.seat]
        self.bots = {p: make_agent(spec, bot_seeds.randrange(1 << 62)) for p, spec in zip(others, self.others)}
        self._others_play()
        return self._observe(), {}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        episode = self._match()
        if episode.is_terminal():
            raise RuntimeError("the match is over: call reset()")
        if int(action) not in episode.legal_actions():
            raise ValueError(f"token {action} is not legal now (the observation's action_mask shows the legal tokens)")
        episode.apply_action(int(action))
        self._others_play()
        reward = episode.returns()[self.seat] if episode.is_terminal() else 0.0
        return self._observe(), reward, episode.is_terminal() and not episode.truncated(), episode.truncated(), {}

    def _match(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        return self.episode

    def _others_play(self) -> None:
        episode = self._match()
        while not episode.is_terminal() and episode.current_player() != self.seat:
            player = episode.current_player()
            episode.apply_native(self.bots[player].choose(episode.native))

    def _observe(self) -> dict[str, np.ndarray]:
        episode = self._match()
        mask = np.zeros(self.table.spelling.num_distinct_actions(), dtype=np.int8)
        mask[episode.legal_actions()] = 1
        return {"observation": np.asarray(episode.observation_tensor(self.seat), dtype=np.float32), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._match().ansi(self.seat)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="koloda.gymnasium:SeatEnv", disable_env_checker=True)
