"""koloda games as PettingZoo AEC environments (the `koloda[pettingzoo]` extra).

    env = koloda.pettingzoo.env("kunkin", players=2, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

Agents are "player_0", "player_1", …; an action is a token of koloda's compact view (a move
may take a few tokens, all by the same agent). The observation is a dict: "observation", the
seat's observation tensor, and "action_mask", 1 for each legal token. Rewards come at the end:
each agent's share of the win (1 for a sole winner, 0 for the others; see docs/ai.md). A match
still going after `max_moves` tokens is truncated and scored as a draw. `render_mode="ansi"`
draws the table as the agent to move sees it (`reveal=True`: every card); `"human"` prints it.
The tensor's Box is bounded where the layout bounds it (CompactGame.observation_tensor_bounds).
`illegal="lose"` ends the match at an illegal token, its agent given `illegal_reward` (-1) and
the others 0, as PettingZoo's TerminateIllegalWrapper does; by default it is an error.

`parallel_env(...)` is the same game as a ParallelEnv: every step takes one action of each agent
who chooses now — all the choosers of a `turns: together` phase at once (docs/language.md §8.7),
or the one agent to move elsewhere; the others' actions are ignored, their action masks all 0.
"""
from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from koloda.api import load
from koloda.episode import DEFAULT_MAX_STEPS, Episode, Round, Table

__all__ = ["env", "raw_env", "parallel_env"]


def env(rules: str, players: int | None = None, render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks around it (an illegal token is an error)."""
    inner: AECEnv = raw_env(rules, players, render_mode, **kwargs)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "koloda_v0", "is_parallelizable": False}
    RENDER_MODES = ("ansi", "human")

    def __init__(self, rules: str, players: int | None = None, render_mode: str | None = None,
                 max_moves: int = DEFAULT_MAX_STEPS, reveal: bool = False, illegal: str = "raise",
                 illegal_reward: float = -1.0, **options: Any):
        """`rules`: a shipped game's name or a rule file's path; the table's options as keywords."""
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(self.RENDER_MODES)}, not {render_mode!r}")
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal is `raise` or `lose`, not {illegal!r}")
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.game = load(rules, {k: str(v) for k, v in options.items()} or None, players)
        self.table = Table(self.game)
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.reveal = reveal
        self.metadata = dict(self.metadata, name=f"koloda_{self.game.name}_v0")
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        spelling = self.table.spelling
        size = spelling.num_distinct_actions()
        low, high = spelling.observation_tensor_bounds()
        self._action_space = spaces.Discrete(size)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=np.asarray(low, np.float32), high=np.asarray(high, np.float32),
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)})
        self._seeds = random.Random()
        self.episode: Episode | None = None

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # ------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new match: `seed` decides every shuffle (without it, the next of the seeds drawn
        from the last one given)."""
        if seed is not None:
            self._seeds.seed(seed)
        self.episode = Episode(self.table, self._seeds.randrange(1 << 62), self.max_moves)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        if self.episode.is_terminal():      # over with the deal (a natural at Blackjack): nobody moves
            self.agent_selection = self.possible_agents[0]
            self.terminations = dict.fromkeys(self.agents, True)
            self.rewards = dict(zip(self.possible_agents, self.episode.returns()))
            self._accumulate_rewards()
            return
        self.agent_selection = self.possible_agents[self.episode.current_player()]

    def _match(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before playing")
        return self.episode

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        episode = self._match()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self._action_space.n, dtype=np.int8)
        if agent == self.agent_selection and not episode.is_terminal():
            mask[episode.legal_actions()] = 1
        return {"observation": np.asarray(episode.observation_tensor(seat), dtype=np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._match()
        if action is None or int(action) not in episode.legal_actions():
            if self.illegal == "lose":
                self._cumulative_rewards[agent] = 0.0
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self.rewards[agent] = self.illegal_reward
                self.terminations = dict.fromkeys(self.agents, True)
                self.infos[agent] = {"illegal": True}
                self._accumulate_rewards()
                return
            raise ValueError(f"{agent} cannot play token {action} now: it is not legal "
                             f"(the observation's action_mask shows the legal tokens)")
        self._cumulative_rewards[agent] = 0.0
        episode.apply_action(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if episode.is_terminal():
            if episode.truncated():
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
            self.rewards = dict(zip(self.possible_agents, episode.returns()))
        else:
            self.agent_selection = self.possible_agents[episode.current_player()]
        self._accumulate_rewards()

    # ------------------------------------------------------------ the table
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        episode = self._match()
        viewer = None if episode.native.is_terminal() else episode.native.current_player()
        text = episode.ansi(viewer, self.reveal)
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass


class parallel_env(ParallelEnv):
    """The game with PettingZoo's parallel API: the choices of a `turns: together` phase are one step."""
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "koloda_v0"}

    def __init__(self, rules: str, players: int | None = None, render_mode: str | None = None,
                 max_moves: int = DEFAULT_MAX_STEPS, reveal: bool = False, **options: Any):
        self.aec = raw_env(rules, players, render_mode, max_moves, reveal, **options)
        self.metadata = {**self.metadata, "name": str(self.aec.metadata["name"])}
        self.render_mode = render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        # who chooses at the match's step (`steps`): worked out once a step
        self._now: tuple[int, dict[int, list[int]], Round | None] | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed, options)
        self.agents = self.possible_agents[:]
        self._now = None
        return self._observations(), {a: {} for a in self.agents}

    def _choosers(self) -> tuple[dict[int, list[int]], Round | None]:
        """Who chooses now, each with their legal tokens, and the `turns: together` round if it is one."""
        episode = self.aec._match()
        if self._now is not None and self._now[0] == episode.steps:
            return self._now[1], self._now[2]
        together = None
        if episode.is_terminal():
            choosers: dict[int, list[int]] = {}
        else:
            together = episode.together_round()
            choosers = {seat: list(legal) for seat, legal in together.order} if together is not None \
                else {episode.current_player(): episode.legal_actions()}
        self._now = (episode.steps, choosers, together)
        return choosers, together

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        episode = self.aec._match()
        choosers, _ = self._choosers()
        out: dict[str, dict[str, np.ndarray]] = {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            mask = np.zeros(self.aec._action_space.n, dtype=np.int8)
            mask[choosers.get(seat, [])] = 1
            out[agent] = {"observation": np.asarray(episode.observation_tensor(seat), dtype=np.float32),
                          "action_mask": mask}
        return out

    def step(self, actions: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        episode = self.aec._match()
        if not self.agents:
            raise RuntimeError("the match is over: call reset()")
        choosers, together = self._choosers()
        tokens = {}
        for seat, legal in choosers.items():
            agent = self.possible_agents[seat]
            token = actions.get(agent)
            if token is None or int(token) not in legal:
                raise ValueError(f"{agent} cannot play token {token} now: it is not legal "
                                 f"(the observation's action_mask shows the legal tokens)")
            tokens[seat] = int(token)
        if together is not None:
            episode.play_together(together, tokens)
        else:
            (token,) = tokens.values()
            episode.apply_action(token)
        rewards = dict.fromkeys(self.agents, 0.0)
        ended = episode.is_terminal()
        if ended:
            rewards = dict(zip(self.possible_agents, episode.returns()))
        cut = ended and episode.truncated()
        terminations = dict.fromkeys(self.agents, ended and not cut)
        truncations = dict.fromkeys(self.agents, cut)
        observations = self._observations()
        infos: dict[str, dict] = {a: {} for a in self.agents}
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        pass
