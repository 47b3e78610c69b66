"""koloda: a declarative rule language for card games and the engine that runs it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from koloda.dsl.errors import RuleError, RuleErrors

if TYPE_CHECKING:
    from koloda.api import CHANCE, TERMINAL, IllegalAction, PositionError, load, shipped_games

__all__ = ["load", "shipped_games", "TERMINAL", "CHANCE", "RuleError", "RuleErrors", "IllegalAction",
           "PositionError"]
__version__ = "0.1.0"

_FROM_API = {"load", "shipped_games", "TERMINAL", "CHANCE", "IllegalAction", "PositionError"}


def __getattr__(name: str) -> Any:
    """The engine is imported when a name of it is first asked for: every `import koloda.…` runs this
    file first, and `koloda --help` or `koloda list` need none of the engine."""
    if name in _FROM_API:
        from koloda import api
        return getattr(api, name)
    raise AttributeError(f"module 'koloda' has no attribute {name!r}")
