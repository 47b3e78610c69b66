"""The greedy agent: one move of look-ahead, judged on states it could be in.

It never reads hidden cards: each candidate move is tried on a few
determinizations of what its seat has seen, and judged by the rule file's
`heuristic` (or the game's own score): how far the move leaves its seat
ahead of the other sides, on average over the determinizations.

With `search=N`, in a game played alone, it looks further: through up to N
positions, best first, never coming back to one it has met (lookahead.py).
"""
from __future__ import annotations

import random

from koloda.agents.judge import margin
from koloda.agents.lookahead import Lookahead
from koloda.agents.sampling import determinize
from koloda.interpreter.core.state import State


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int | None = None, samples: int = 4, search: int = 0):
        self.rng = random.Random(seed)
        self.samples = samples
        # a lone player's search (a game of several has rivals whose answers it does not weigh)
        self.lookahead = Lookahead(search, self.rng) if search > 0 else None

    def choose(self, state: State) -> int:
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.lookahead is not None and state.n == 1:
            return self.lookahead.choose(state, me)
        worlds = [determinize(state, me, self.rng) for _ in range(self.samples)]
        values = []
        for action in legal:
            value = 0.0
            for world in worlds:
                after = world.clone()
                after.apply_action(action)
                value += margin(after, me)
            values.append(value)
        top = max(values)
        close = 1e-9 * max(1.0, abs(top))      # sums of large numbers differ in their last digits
        return self.rng.choice([a for a, v in zip(legal, values) if v >= top - close])
