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
A match over before the seat's first move is passed over, as SeatEnv.reset passes it over: its row
starts the next one, and `infos["passed"][i]` counts the matches passed over at row i by this call
(`infos["passed_return"][i]` the sum of the seat's returns in them), each with its `_` mask.
"""
from __future__ import annotations

import random
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
from koloda.episode import DEFAULT_MAX_STEPS, Table
from koloda.gymnasium import ILLEGAL, check_passed, observation_space, scaling
from koloda.interpreter.core.state import State
from koloda.vector.batch import BatchObserver

__all__ = ["SeatVectorEnv"]


class _Match:
    """One of the N: its engine state, the move being spelled, its steps, the bots of the other
    seats, and the generator of its seeds. The engine's state is played on directly: the batch
    needs no record of the moves as each seat saw them (the single env's compact state keeps one
    for its information-state strings), only the state, which the observation is read from."""
    __slots__ = ("state", "prefix", "spelled", "steps", "bots", "rng")

    def __init__(self) -> None:
        self.state: State | None = None
        self.prefix: tuple[int, ...] = ()       # the tokens of the move being spelled
        self.spelled: list[tuple[tuple[int, ...], int]] | None = None     # (tokens, engine move) of each legal move
        self.steps = 0
        self.bots: dict[int, Agent] = {}
        self.rng: np.random.Generator | None = None


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
        self.identity = spelling.spelling.identity      # a token is the engine's move itself
        self.spell = spelling.spelling.spell
        self.writer = BatchObserver(spelling.observer, seat)
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
        self._rows = np.arange(num_envs)
        self._all = list(range(num_envs))
        self._draw = [1.0 / self.game.layout.num_sides] * n       # the returns of a match cut short
        self.passed = np.zeros(num_envs, np.int64)          # matches passed over by this call, per row
        self.passed_return = np.zeros(num_envs, np.float64)
        self._batch: dict[str, np.ndarray] = {"observation": self.observations, "action_mask": self.masks}

    # ------------------------------------------------------------ one match
    def _start(self, row: int, seed: int | None) -> None:
        """A new match at `row`, seeded as SeatEnv.reset seeds one, played on to the seat's first
        move; a match over before it is passed over (counted in `passed`), as SeatEnv passes it."""
        match = self.matches[row]
        if seed is not None or match.rng is None:
            match.rng, _ = seeding.np_random(seed)
        others = [p for p in range(self.game.num_players) if p != self.seat]
        while True:
            match_seed = int(match.rng.integers(0, 1 << 62))
            match.state = s = self.game.new_initial_state(seed=match_seed)
            match.prefix, match.spelled, match.steps = (), None, 0
            bot_seeds = random.Random(match_seed)
            match.bots = {p: make_agent(spec, bot_seeds.randrange(1 << 62)) for p, spec in zip(others, self.others)}
            self._others_play(match)
            if not self._over(match):
                return
            self.passed[row] += 1
            self.passed_return[row] += (s.returns() if s.terminal else self._draw)[self.seat]
            check_passed(int(self.passed[row]), f"seat {self.seat} (environment {row})")

    def _passed_infos(self) -> dict[str, Any]:
        """The matches passed over by this call, as Gymnasium's vector infos (a value and its mask)."""
        if not self.passed.any():
            return {}
        mask = self.passed > 0
        return {"passed": self.passed.copy(), "_passed": mask, "passed_return": self.passed_return.copy(),
                "_passed_return": mask.copy()}

    def _others_play(self, match: _Match) -> None:
        s, seat, bots, cap = match.state, self.seat, match.bots, self.max_moves
        assert s is not None
        while not s.terminal and match.steps < cap and s.current != seat:
            s.apply_action(bots[s.current].choose(s))
            match.steps += 1

    def _over(self, match: _Match) -> bool:
        assert match.state is not None
        return match.state.terminal or match.steps >= self.max_moves

    def _legal(self, match: _Match) -> list[int]:
        """The seat's legal tokens now (none if it is not the seat's turn)."""
        s = match.state
        assert s is not None
        if s.terminal or match.steps >= self.max_moves or s.current != self.seat:
            return []
        if self.identity:
            return s.legal_actions()
        if match.spelled is None:
            spell = self.spell
            match.spelled = [(spell(a), a) for a in s.legal_actions()]
        prefix, at = match.prefix, len(match.prefix)
        return list({tokens[at] for tokens, _ in match.spelled if tokens[:at] == prefix})

    def _play(self, match: _Match, token: int) -> None:
        """The seat's token (legal: the mask said so), then the bots' moves up to its next one."""
        s = match.state
        assert s is not None
        match.steps += 1
        if self.identity:
            s.apply_action(token)
        else:
            typed = match.prefix + (token,)
            assert match.spelled is not None        # the mask was made from it
            for tokens, native in match.spelled:
                if tokens == typed:
                    match.prefix, match.spelled = (), None
                    s.apply_action(native)
                    break
            else:
                match.prefix = typed
                return
        self._others_play(match)

    # ------------------------------------------------------------ the arrays
    def _write(self, indices: Sequence[int], observations: np.ndarray, masks: np.ndarray) -> None:
        """The observations and masks of matches `indices`, into the first rows of the two arrays."""
        matches = [self.matches[i] for i in indices]
        self.writer.write([m.state for m in matches], [m.prefix for m in matches], observations)  # type: ignore[misc]
        if self.divisor is not None:
            observations[:len(matches)] /= self.divisor
        masks[:len(matches)] = 0
        rows: list[int] = []
        cols: list[int] = []
        for k, match in enumerate(matches):
            legal = self._legal(match)
            cols += legal
            rows += [k] * len(legal)
        masks[rows, cols] = 1

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
        self.passed.fill(0)
        self.passed_return.fill(0.0)
        for row, (match, s) in enumerate(zip(self.matches, seeds)):
            if s is None:       # a fresh generator, as Gymnasium gives an env reset without a seed first
                match.rng = None
            self._start(row, s)
        self._write(self._all, self.observations, self.masks)
        self.rewards.fill(0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        return self._batch, self._passed_infos()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step takes {self.num_envs} actions, one per environment, not shape {actions.shape}")
        if self.matches[0].state is None:
            raise RuntimeError("call reset() before step()")
        legal = self._legal_tokens(actions)
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        rewards.fill(0.0)
        terminations.fill(False)
        truncations.fill(False)
        ended: list[int] = []
        self.passed.fill(0)
        self.passed_return.fill(0.0)
        seat = self.seat
        tokens = actions.tolist()
        for i, match in enumerate(self.matches):
            if not legal[i]:        # illegal="lose": the match ends here
                rewards[i], terminations[i] = self.illegal_reward, True
                ended.append(i)
                continue
            self._play(match, tokens[i])
            if self._over(match):
                s = match.state
                assert s is not None
                cut = not s.terminal
                rewards[i] = (self._draw if cut else s.returns())[seat]
                terminations[i], truncations[i] = not cut, cut
                ended.append(i)
        infos: dict[str, Any] = {}
        if ended:
            # the ended matches' last observations, before their rows start the next matches
            last = np.empty((len(ended), self.observations.shape[1]), np.float32)
            last_masks = np.empty((len(ended), self.size), np.int8)
            self._write(ended, last, last_masks)
            final = np.full(self.num_envs, None, dtype=object)
            flags = np.zeros(self.num_envs, np.bool_)
            for k, i in enumerate(ended):
                final[i] = {"observation": last[k], "action_mask": last_masks[k]}
                flags[i] = True
                self._start(i, None)
            infos = {"final_obs": final, "_final_obs": flags, **self._passed_infos()}
        self._write(self._all, self.observations, self.masks)
        return self._batch, rewards, terminations, truncations, infos

    def _legal_tokens(self, actions: np.ndarray) -> np.ndarray:
        """Which actions are legal tokens, as booleans; raises at the first that is not, unless
        illegal="lose". Checked for the whole batch before any match moves, so that a refused
        step changes nothing. A float or a bool is no token (as for SeatEnv)."""
        if actions.dtype.kind in "iu":
            tokens = actions.astype(np.int64)
            inside = (tokens >= 0) & (tokens < self.size)
            legal = inside & (self.masks[self._rows, np.where(inside, tokens, 0)] != 0)
        else:
            legal = np.zeros(self.num_envs, np.bool_)
        if self.illegal != "lose" and not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"environment {i}: token {actions[i]!r} is not legal now (the action_mask shows the legal tokens)")
        return legal

    def action_masks(self) -> np.ndarray:
        return self.masks.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        pass
