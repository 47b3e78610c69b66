"""A Python object at the table: `--seat py:my_agents:Trained` (options: `py:my_agents:Trained:depth=2,greedy=yes`).

The seat imports the module (from the current directory too, as `python -m` would), makes the
class with the options as keywords (numbers read as numbers) and asks it for tokens of koloda's
compact view (docs/compact.md), given what a policy trained on koloda.gymnasium or koloda.pettingzoo
saw: the seat's observation tensor, its information-state tensor and the mask of legal tokens.
A move that takes several tokens is asked for token by token, as in training.

    class Trained:
        def __init__(self, **options): ...
        def act(self, view) -> int:          # a legal token
            return int(np.argmax(np.where(view.action_mask, self.w @ view.observation, -np.inf)))

`view` is a `PolicyView`: `observation`, `information_state` (float32 arrays), `action_mask`
(int8), `legal_actions` (tokens), `prefix` (the tokens of this move so far), `player`, `state`
(the engine's state, for agents that want more) and `game` (the loaded game). An optional
`start(game, seat)` method is called once before the agent's first move.

A save never starts code: a `py:` seat is refused when a saved game names it (as `cmd:` is).
"""
from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any

from koloda.agents.outside import AgentFailure
from koloda.agents.views import compact_view
from koloda.interpreter.core.state import State
from koloda.interpreter.words.tensors import Observer


def _numpy() -> Any:
    """NumPy, imported when a `py:` seat first moves: not a core dependency (whoever trained a policy
    has it), and every `koloda play` or `simulate` builds its seats through this module, so importing
    it at the top would make each of them start NumPy for nothing."""
    try:
        import numpy
    except ImportError:         # pragma: no cover
        raise PolicyFailure("a `py:` seat gives its agent NumPy arrays: install numpy") from None
    return numpy

__all__ = ["PolicyAgent", "PolicyView", "PolicyFailure", "load_class"]


class PolicyFailure(AgentFailure):
    """A Python agent could not be loaded or chose what is not a legal token: the message says how
    (the table and simulations stop on it as on a failing `cmd:` program)."""


@dataclass
class PolicyView:
    observation: Any
    information_state: Any
    action_mask: Any
    legal_actions: list[int]
    prefix: tuple[int, ...]
    player: int
    state: State
    game: Any


def load_class(module: str, name: str) -> type:
    """`module.name`, the module found from the current directory too (an examples/ folder, a
    project's agents) as `python -m` finds it."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)
    try:
        found = importlib.import_module(module)
    except ImportError as exc:
        raise PolicyFailure(f"cannot import `{module}` for a `py:` seat: {exc}") from None
    except Exception as exc:      # the module's own code failed: say so in one line
        raise PolicyFailure(f"importing `{module}` for a `py:` seat failed: {type(exc).__name__}: {exc}") from None
    cls = getattr(found, name, None)
    if not isinstance(cls, type):
        raise PolicyFailure(f"`{module}` has no class `{name}` for a `py:` seat")
    return cls


class PolicyAgent:
    name = "py"

    def __init__(self, module: str, cls: str, options: dict[str, Any]):
        self.module, self.cls, self.options = module, cls, options
        self.label = f"py:{module}:{cls}"
        self.policy: Any = None
        self.started = False

    @classmethod
    def of(cls, policy: Any, label: str = "") -> "PolicyAgent":
        """A seat played by a Python object already made (`act(view) -> token`)."""
        if not callable(getattr(policy, "act", None)):
            raise PolicyFailure(f"{policy!r} has no method `act(view)` returning a token")
        agent = cls("", type(policy).__name__, {})
        agent.label = label or f"python {type(policy).__name__}"
        agent.policy = policy
        return agent

    def _load(self) -> Any:
        """The agent, made at its first move: inside the game, whose failures the table and the
        simulations report in one line."""
        made = load_class(self.module, self.cls)
        try:
            policy = made(**self.options)
        except Exception as exc:
            raise PolicyFailure(f"`{self.label}` could not be made with {self.options or 'no options'}: "
                                f"{type(exc).__name__}: {exc}") from None
        if not callable(getattr(policy, "act", None)):
            raise PolicyFailure(f"`{self.label}` has no method `act(view)` returning a token")
        return policy

    def choose(self, state: State) -> int:
        game = state.game
        spelling, observer = compact_view(game)
        seat = state.current_player()
        _numpy()                            # refused before the agent is made or told anything
        if self.policy is None:
            self.policy = self._load()
        if not self.started:
            self.started = True
            start = getattr(self.policy, "start", None)
            if callable(start):
                start(game, seat)
        legal = state.legal_actions()
        if spelling.identity:
            return self._ask(state, seat, (), sorted(legal), observer, spelling.size)
        moves = [(spelling.spell(a), a) for a in legal]
        prefix: tuple[int, ...] = ()
        while True:
            at = len(prefix)
            tokens = sorted({t[at] for t, _ in moves if t[:at] == prefix})
            prefix += (self._ask(state, seat, prefix, tokens, observer, spelling.size),)
            for t, native in moves:
                if t == prefix:
                    return native

    def _ask(self, state: State, seat: int, prefix: tuple[int, ...], tokens: list[int], observer: Observer,
             size: int) -> int:
        np = _numpy()
        mask = np.zeros(size, dtype=np.int8)
        mask[tokens] = 1
        view = PolicyView(np.asarray(observer.observation(state, seat, prefix), np.float32),
                          np.asarray(observer.information_state(state, seat, prefix), np.float32),
                          mask, tokens, prefix, seat, state, state.game)
        answer = self.policy.act(view)
        try:
            if isinstance(answer, bool):
                raise TypeError
            token = int(answer.__index__())
        except (TypeError, AttributeError):
            raise PolicyFailure(f"`{self.label}` answered {answer!r}, which is not a token (an integer)") from None
        if token not in tokens:
            raise PolicyFailure(f"`{self.label}` chose token {token}, which is not legal now "
                                f"({', '.join(map(str, tokens[:12]))}{'…' if len(tokens) > 12 else ''})")
        return token

