"""The random agent: a uniformly random legal action, decided by its seed."""
from __future__ import annotations

import random

from koloda.interpreter.core.state import State


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
