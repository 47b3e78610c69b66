"""What every seat at the table is: something that picks one legal action."""
from __future__ import annotations

from typing import Protocol

from koloda.interpreter.core.state import State


class Agent(Protocol):
    name: str

    def choose(self, state: State) -> int:
        """Pick one of state.legal_actions() for state.current_player()."""
        ...
