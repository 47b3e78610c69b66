"""N matches of one seat stepped in one process, into preallocated NumPy arrays (the `koloda[pettingzoo]` extra).

    envs = koloda.vector.SeatVectorEnv("pony", num_envs=256, seat=0, others="random")
    observations, infos = envs.reset(seed=0)       # match i seeded as SeatEnv.reset(seed=0 + i)
    while training:
        actions = policy(observations["observation"], observations["action_mask"])
        observations, rewards, terminations, truncations, infos = envs.step(actions)

Each of the N matches is what koloda.gymnasium.SeatEnv plays (the same seeds give the same
observations, rewards and ends), but the game, its compact view and the arrays are shared: the
observation tensors and masks are written into one (N, length) float32 array and one (N,
vocabulary) int8 array, made once (returned as they are: copy a row to keep it past the next step).
A match that ends is reset at once (Gymnasium's same-step autoreset): its row then holds the new
match's first observation, the ended match's last is in `infos["final_obs"][i]` (with
`infos["_final_obs"][i]` true), and its reward and end flags are those of the ended match. The next
seed of a match is drawn from its own generator, as SeatEnv.reset() without a seed draws it.
`action_masks()` gives the (N, vocabulary) legal tokens as booleans (sb3-contrib's hook).
"""
from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from koloda.agents.base import Agent
from koloda.agents.registry import make_agent
from koloda.api import load
from koloda.compact import as_token
from koloda.episode import DEFAULT_MAX_STEPS, Episode, Table
from koloda.gymnasium import ILLEGAL, observation_space, scaling
from koloda.interpreter.errors import IllegalAction

__all__ = ["SeatVectorEnv"]


class _Match:
    """One of the N: its match, the bots of the other seats, and the generator of its seeds."""
    __slots__ = ("episode", "bots", "rng", "lost")

    def __init__(self) -> None:
        self.episode: Episode | None = None
        self.bots: dict[int, Agent] = {}
        self.rng: np.random.Generator | None = None
        self.lost = False


class SeatVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, rules: str, num_envs: int, seat: int = 0, others: str | list[str] = "random",
                 players: int | None = None, max_moves: int = DEFAULT_MAX_STEPS, illegal: str = "raise",
                 illegal_reward: float = -1.0, scale: float | None = None, **options: Any):
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal is one of {ILLEGAL}, not {illegal!r}")
        self.game = load(rules, {k: str(v) for k, v in options.items()} or None, players)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat}: the seats are 0..{n - 1}")
        specs = [others] * (n - 1) if isinstance(others, str) else list(others)
        if len(specs) != n - 1:
            raise ValueError(f"`others` names {len(specs)} bots for the {n - 1} other seats")
        for spec in specs:
            if spec.partition(":")[0].strip().lower() == "human":
                raise ValueError("the other seats are played by bots, not `human`")
            make_agent(spec, 0)
        self.others, self.seat = specs, seat
        self.table = Table(self.game)
        self.spelling = spelling = self.table.spelling
        self.num_envs = num_envs
        self.max_moves = max_moves
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.size = spelling.num_distinct_actions()
        self.divisor = scaling(spelling, scale)
        self.single_observation_space = observation_space(spelling, self.divisor)
        self.single_action_space = spaces.Discrete(self.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observations = np.zeros((num_envs, spelling.observation_tensor_shape()[0]), np.float32)
        self.masks = np.zeros((num_envs, self.size), np.int8)
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self.matches = [_Match() for _ in range(num_envs)]
        self._batch: dict[str, np.ndarray] = {"observation": self.observations, "action_mask": self.masks}

    # ------------------------------------------------------------ one match
    def _start(self, i: int, seed: int | None) -> None:
        match = self.matches[i]
        if seed is not None or match.rng is None:
            match.rng, _ = seeding.np_random(seed)
        match_seed = int(match.rng.integers(0, 1 << 62))
        match.episode = Episode(self.table, match_seed, self.max_moves)
        match.lost = False
        bot_seeds = random.Random(match_seed)
        others = [p for p in range(self.game.num_players) if p != self.seat]
        match.bots = {p: make_agent(spec, bot_seeds.randrange(1 << 62)) for p, spec in zip(others, self.others)}
        self._others_play(match.episode, match.bots)

    def _others_play(self, episode: Episode, bots: dict[int, Agent]) -> None:
        seat = self.seat
        while not episode.is_terminal() and episode.current_player() != seat:
            episode.apply_native(bots[episode.current_player()].choose(episode.native))

    def _write(self, i: int) -> None:
        """Match i's observation and mask into row i."""
        episode = self.matches[i].episode
        assert episode is not None
        # through an array of doubles: NumPy reads its buffer twice as fast as it converts a list
        self.observations[i] = np.frombuffer(array("d", episode.observation_tensor(self.seat)))
        if self.divisor is not None:
            self.observations[i] /= self.divisor
        row = self.masks[i]
        row.fill(0)
        if not episode.is_terminal() and episode.current_player() == self.seat:
            row[episode.legal_actions()] = 1

    def _row(self, i: int) -> dict[str, np.ndarray]:
        return {"observation": self.observations[i].copy(), "action_mask": self.masks[i].copy()}

    # ------------------------------------------------------------ the batch
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds given for {self.num_envs} environments")
        for i, s in enumerate(seeds):
            if s is None:       # a fresh generator, as Gymnasium gives an env reset without a seed first
                self.matches[i].rng = None
            self._start(i, s)
            self._write(i)
        self.rewards.fill(0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        return self._batch, {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step takes {self.num_envs} actions, one per environment, not shape {actions.shape}")
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        final: np.ndarray | None = None
        seat = self.seat
        for i, match in enumerate(self.matches):
            episode = match.episode
            if episode is None:
                raise RuntimeError("call reset() before step()")
            token = self._token(i, episode, actions[i])
            if token is None:
                rewards[i], terminations[i], truncations[i] = self.illegal_reward, True, False
            else:
                episode.apply_action(token)
                self._others_play(episode, match.bots)
                if episode.is_terminal():
                    cut = episode.truncated()
                    rewards[i], terminations[i], truncations[i] = episode.returns()[seat], not cut, cut
                else:
                    rewards[i], terminations[i], truncations[i] = 0.0, False, False
                    self._write(i)
                    continue
            self._write(i)
            if final is None:
                final = np.full(self.num_envs, None, dtype=object)
            final[i] = self._row(i)
            self._start(i, None)
            self._write(i)
        infos: dict[str, Any] = {}
        if final is not None:
            infos = {"final_obs": final, "_final_obs": np.array([f is not None for f in final])}
        return self._batch, rewards, terminations, truncations, infos

    def _token(self, i: int, episode: Episode, action: Any) -> int | None:
        try:
            token = as_token(action, self.size)
        except IllegalAction:
            token = -1
        if token < 0 or not self.masks[i, token]:
            if self.illegal == "lose":
                return None
            raise ValueError(f"environment {i}: token {action} is not legal now (the action_mask shows the legal tokens)")
        return token

    def action_masks(self) -> np.ndarray:
        return self.masks.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        pass
