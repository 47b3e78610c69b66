"""koloda: a declarative rule language for card games and the engine that runs it."""
from koloda.api import load, shipped_games, TERMINAL, CHANCE, IllegalAction, PositionError
from koloda.dsl.errors import RuleError, RuleErrors

__all__ = ["load", "shipped_games", "TERMINAL", "CHANCE", "RuleError", "RuleErrors", "IllegalAction",
           "PositionError"]
__version__ = "0.1.0"
