"""One seat of a koloda game as a Gymnasium environment (the `koloda[pettingzoo]` extra), the other
seats played by koloda's own bots or by a policy: for training one seat; and every seat at once,
for self-play.

    env = koloda.gymnasium.env("kunkin", seat=0, others="ismcts:iterations=50")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The seat's actions are tokens of koloda's compact view (as in koloda.pettingzoo); the other
seats play whole moves, chosen by the bots named in `others` (one seat description, or one for
each other seat: `random`, `greedy`, `ismcts:iterations=200`…; see `koloda play --help`), or
token by token by a Python callable `policy(observation) -> token` given the seat's own
observation dict (a frozen copy of the policy being trained, for self-play). The reward is the
seat's share of the win, given at the end.

`illegal="lose"` ends the match at an illegal token, with reward `illegal_reward` (-1 by default),
as PettingZoo's classic games do (what Gymnasium's and Stable-Baselines3's `check_env` need,
since they step with unmasked samples); by default an illegal token is an error.
`action_masks()` is sb3-contrib's MaskablePPO hook.
A match over before the seat's first move (a natural at Blackjack, dealt against the house) has
nothing to learn from and no observation Gymnasium could start on: `reset()` passes it over and
deals the next one, and `info["passed"]` lists the seat's returns of the matches passed over, so
that a mean return can still count them (docs/ai.md). `SelfPlayEnv` has the agent play every seat.
`scale=S` divides each bounded entry of the tensor by its upper bound and each unbounded one (a
score) by S; without it the tensor is as the rules keep it. `run` and `tournament` play matches
between Python agent objects (`act(view) -> token`, as a `py:` seat) and koloda's bots.
"""
from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from koloda.agents.base import Agent
from koloda.agents.policy import PolicyAgent
from koloda.agents.registry import make_agent
from koloda.api import load
from koloda.compact import CompactGame, as_token
from koloda.episode import DEFAULT_MAX_STEPS, Episode, Table
from koloda.interpreter.base.errors import IllegalAction

__all__ = ["env", "SeatEnv", "SelfPlayEnv", "ENV_ID", "SELF_PLAY_ID", "observation_space", "Policy", "run",
           "tournament"]

# gymnasium.make(ENV_ID, rules="kunkin", seat=0, others="greedy") makes the same environment
ENV_ID = "koloda/Seat-v0"
SELF_PLAY_ID = "koloda/SelfPlay-v0"
RENDER_MODES = ["ansi", "human"]
ILLEGAL = ("raise", "lose")
# matches in a row that may end before the seat moves: past it, the game gives the seat no move
PASS_LIMIT = 1000

# a seat played from Python: the seat's observation dict in, a token out
Policy = Callable[[dict[str, np.ndarray]], Any]


def env(rules: str, seat: int = 0, others: str | Policy | list[str | Policy] = "random", players: int | None = None,
        render_mode: str | None = None, **kwargs: Any) -> "SeatEnv":
    return SeatEnv(rules, seat, others, players, render_mode, **kwargs)


def scaling(spelling: CompactGame, scale: float | None) -> np.ndarray | None:
    """What each entry of the tensor is divided by, with `scale` S: a bounded entry by its upper
    bound (into [0, 1]), an unbounded one (a score, the deal's number) by S. None: unscaled."""
    if scale is None:
        return None
    if not scale > 0:
        raise ValueError(f"scale is a positive number (what scores are divided by), not {scale!r}")
    high = np.asarray(spelling.observation_tensor_bounds()[1], np.float64)
    return np.where(np.isfinite(high), np.maximum(high, 1.0), float(scale)).astype(np.float32)


def check_passed(count: int, who: str) -> None:
    """Stop a reset that could go on for ever: a game whose every match ends before `who` moves."""
    if count >= PASS_LIMIT:
        raise RuntimeError(f"{count} matches in a row ended before {who} had a move: this seat never plays")


def observation_space(spelling: CompactGame, divisor: np.ndarray | None = None) -> spaces.Dict:
    """The observation dict's space: the tensor's Box bounded where the layout bounds it
    (CompactGame.observation_tensor_bounds; a score is unbounded), scaled by `divisor`, and the
    mask of legal tokens."""
    low, high = (np.asarray(b, np.float32) for b in spelling.observation_tensor_bounds())
    if divisor is not None:
        low, high = low / divisor, high / divisor
    size = spelling.num_distinct_actions()
    return spaces.Dict({
        "observation": spaces.Box(low=low, high=high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)})


class _Base(gymnasium.Env):
    """What both environments share: the table, the spaces, the illegal-token rule, rendering."""
    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def _setup(self, rules: str, players: int | None, render_mode: str | None, max_moves: int, illegal: str,
               illegal_reward: float, options: dict[str, Any]) -> None:
        scale = options.pop("scale", None)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES}, not {render_mode!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal is one of {ILLEGAL}, not {illegal!r}")
        self.game = load(rules, {k: str(v) for k, v in options.items()} or None, players)
        self.table = Table(self.game)
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        spelling = self.table.spelling
        self.size = spelling.num_distinct_actions()
        self.action_space = spaces.Discrete(self.size)
        self.divisor = scaling(spelling, scale)
        self.observation_space = observation_space(spelling, self.divisor)
        self.episode: Episode | None = None
        self.lost = False        # the match was ended by an illegal token (illegal="lose")

    def _match(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        return self.episode

    def _token(self, action: Any) -> int | None:
        """The action as a legal token; None where it is illegal and illegal="lose"."""
        episode = self._match()
        if episode.is_terminal() or self.lost:
            raise RuntimeError("the match is over: call reset()")
        try:
            token = as_token(action, self.size)
        except IllegalAction:
            token = -1
        if token not in episode.legal_actions():
            if self.illegal == "lose":
                self.lost = True
                return None
            raise ValueError(f"token {action} is not legal now (the observation's action_mask shows the legal tokens)")
        return token

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        episode = self._match()
        mask = np.zeros(self.size, dtype=np.int8)
        if not episode.is_terminal() and episode.current_player() == seat:
            mask[episode.legal_actions()] = 1
        observation = np.asarray(episode.observation_tensor(seat), dtype=np.float32)
        if self.divisor is not None:
            observation /= self.divisor
        return {"observation": observation, "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal tokens now, as booleans (sb3-contrib's MaskablePPO asks the env for this)."""
        mask = np.zeros(self.size, dtype=np.bool_)
        episode = self._match()
        if not episode.is_terminal():
            mask[episode.legal_actions()] = True
        return mask

    def _viewer(self) -> int | None:
        raise NotImplementedError

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._match().ansi(self._viewer())
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text


class SeatEnv(_Base):
    def __init__(self, rules: str, seat: int = 0, others: str | Policy | list[str | Policy] = "random",
                 players: int | None = None, render_mode: str | None = None, max_moves: int = DEFAULT_MAX_STEPS,
                 illegal: str = "raise", illegal_reward: float = -1.0, **options: Any):
        self._setup(rules, players, render_mode, max_moves, illegal, illegal_reward, options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat}: the seats are 0..{n - 1}")
        specs = [others] * (n - 1) if isinstance(others, str) or callable(others) else list(others)
        if len(specs) != n - 1:
            raise ValueError(f"`others` names {len(specs)} bots for the {n - 1} other seats")
        self.others = specs
        for spec in specs:
            if callable(spec):
                continue
            if spec.partition(":")[0].strip().lower() == "human":
                raise ValueError("the other seats are played by bots, not `human`")
            make_agent(spec, 0)          # a mistake in a seat's description shows now, not at reset
        self.seat = seat
        self.bots: dict[int, Agent | Policy] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        self.lost = False
        passed: list[float] = []
        while True:
            match_seed = int(self.np_random.integers(0, 1 << 62))
            self.episode = episode = Episode(self.table, match_seed, self.max_moves)
            bot_seeds = random.Random(match_seed)
            others = [p for p in range(self.game.num_players) if p != self.seat]
            self.bots = {p: spec if callable(spec) else make_agent(spec, bot_seeds.randrange(1 << 62))
                         for p, spec in zip(others, self.others)}
            self._others_play()
            if not episode.is_terminal():
                return self._observe(self.seat), {"passed": passed} if passed else {}
            passed.append(episode.returns()[self.seat])
            check_passed(len(passed), f"seat {self.seat}")

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        episode = self._match()
        token = self._token(action)
        if token is None:           # illegal="lose": the match ends here
            return self._observe(self.seat), self.illegal_reward, True, False, {"illegal": True}
        episode.apply_action(token)
        self._others_play()
        reward = episode.returns()[self.seat] if episode.is_terminal() else 0.0
        return self._observe(self.seat), reward, episode.is_terminal() and not episode.truncated(), episode.truncated(), {}

    def _others_play(self) -> None:
        episode = self._match()
        while not episode.is_terminal() and episode.current_player() != self.seat:
            player = episode.current_player()
            bot = self.bots[player]
            if not callable(bot):        # a koloda bot, which plays a whole move
                episode.apply_native(bot.choose(episode.native))
                continue
            token = as_token(bot(self._observe(player)), self.size)
            if token not in episode.legal_actions():
                raise ValueError(f"the policy of seat {player} chose token {token}, which is not legal now")
            episode.apply_action(token)

    def _viewer(self) -> int | None:
        return self.seat


class SelfPlayEnv(_Base):
    """Every seat played by the agent: each step is the move of the seat to move, whose
    observation it is (`info["player"]`). The reward of a step is the share of the win of the
    seat that took it (0 until the end); at the end `info["returns"]` has every seat's.
    An illegal token with illegal="lose" ends the match, that seat given `illegal_reward`."""

    def __init__(self, rules: str, players: int | None = None, render_mode: str | None = None,
                 max_moves: int = DEFAULT_MAX_STEPS, illegal: str = "raise", illegal_reward: float = -1.0,
                 **options: Any):
        self._setup(rules, players, render_mode, max_moves, illegal, illegal_reward, options)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        self.lost = False
        passed: list[list[float]] = []
        while True:
            self.episode = episode = Episode(self.table, int(self.np_random.integers(0, 1 << 62)), self.max_moves)
            if not episode.is_terminal():
                player = episode.current_player()
                info: dict[str, Any] = {"player": player}
                if passed:
                    info["passed"] = passed
                return self._observe(player), info
            passed.append(episode.returns())        # over at the deal: every seat's returns
            check_passed(len(passed), "any seat")

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        episode = self._match()
        mover = episode.current_player()
        token = self._token(action)
        if token is None:
            return self._observe(mover), self.illegal_reward, True, False, {"player": mover, "illegal": True}
        episode.apply_action(token)
        if episode.is_terminal():
            returns = episode.returns()
            return (self._observe(mover), returns[mover], not episode.truncated(), episode.truncated(),
                    {"player": mover, "returns": returns})
        player = episode.current_player()
        return self._observe(player), 0.0, False, False, {"player": player}

    def _viewer(self) -> int | None:
        episode = self._match()
        return None if episode.is_terminal() else episode.current_player()


def _seats(game: Any, agents: list[Any], seed: int) -> list[Agent]:
    if len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents given for the {game.num_players} seats")
    seeds = random.Random(seed)
    return [make_agent(a, seeds.randrange(1 << 62)) if isinstance(a, str) else PolicyAgent.of(a) for a in agents]


def run(rules: str, agents: list[Any], seed: int = 0, players: int | None = None, max_moves: int = DEFAULT_MAX_STEPS,
        **options: Any) -> list[float]:
    """One match (RLCard's `env.run`): each seat an object with `act(view) -> token` (as a `py:` seat
    is given, docs/ai.md) or a seat's description (`random`, `ismcts:iterations=50`); its returns."""
    game = load(rules, {k: str(v) for k, v in options.items()} or None, players or len(agents))
    return _play(Table(game), _seats(game, agents, seed), seed, max_moves)


def _play(table: Table, seats: list[Agent], seed: int, max_moves: int) -> list[float]:
    episode = Episode(table, seed, max_moves)
    while not episode.is_terminal():
        episode.apply_native(seats[episode.current_player()].choose(episode.native))
    return episode.returns()


def tournament(rules: str, agents: list[Any], games: int = 100, seed: int = 0, players: int | None = None,
               max_moves: int = DEFAULT_MAX_STEPS, **options: Any) -> list[float]:
    """Each seat's mean share of the win over `games` matches (RLCard's `tournament`), match i on
    seed `seed + i`; the agents keep their seats (for a fair comparison, seat them in turn or use
    `koloda simulate --rotate` with `py:` seats)."""
    game = load(rules, {k: str(v) for k, v in options.items()} or None, players or len(agents))
    total = [0.0] * game.num_players
    table = Table(game)
    for i in range(games):
        for p, share in enumerate(_play(table, _seats(game, agents, seed + i), seed + i, max_moves)):
            total[p] += share
    return [t / games for t in total]


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="koloda.gymnasium:SeatEnv", disable_env_checker=True)
if SELF_PLAY_ID not in gymnasium.registry:
    gymnasium.register(id=SELF_PLAY_ID, entry_point="koloda.gymnasium:SelfPlayEnv", disable_env_checker=True)
