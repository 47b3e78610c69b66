"""The greedy agent: one move of look-ahead, judged on states it could be in.

It never reads hidden cards: each candidate move is tried on a few
determinizations of what its seat has seen, and judged by the rule file's
`heuristic` (or the game's own score).
"""
from __future__ import annotations

import random

from koloda.agents.judge import rewards, standing
from koloda.agents.sampling import determinize
from koloda.interpreter.state import State


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int | None = None, samples: int = 4):
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, state: State) -> int:
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        worlds = [determinize(state, me, self.rng) for _ in range(self.samples)]
        before = standing(worlds[0])
        best, best_value = [], float("-inf")
        for action in legal:
            value = 0.0
            for world in worlds:
                after = world.clone()
                after.apply_action(action)
                value += rewards(after, before)[me]
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)
