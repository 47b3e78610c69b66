"""Errors raised while a game runs, still pointing at the rule file."""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl.errors import NOWHERE, RuleError, Span

# What Python raises when a compiled rule meets values it cannot handle (the checker rules out the
# rest); wherever the engine runs a piece of the rules, these become a rule error at its place.
PYTHON_FAILURES = (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError)


class RuleRuntimeError(RuleError):
    """The rules led somewhere they cannot continue (e.g. dealing from an empty stock)."""

    def __init__(self, message: str, span: Span = NOWHERE, hint: str | None = None):
        super().__init__(message, span, hint, category="runtime")


def located(run: Callable[[Any, dict], Any], span: Span, failed: str) -> Callable[[Any, dict], Any]:
    """`run` with a Python failure turned into `failed: …` at `span`; rule errors pass as they are
    (a position the user gave, too: it is theirs to fix)."""
    def checked(s: Any, b: dict) -> Any:
        try:
            return run(s, b)
        except RuleError:
            raise
        except PYTHON_FAILURES as exc:
            raise RuleRuntimeError(f"{failed}: {exc}", span) from None
    return checked


class IllegalAction(ValueError):
    """An action id (or a move's text) that is not legal in this state."""


class PositionError(RuleError, ValueError):
    """A position the user asked for that the rules cannot deal: an unknown card, a card given
    twice, a hand of the wrong size, a dealer who is not at the table, a deck order that does not
    fit the cards it is to order. Located in the user's file when there is one."""

    def __init__(self, message: str, span: Span = NOWHERE, hint: str | None = None):
        super().__init__(message, span, hint, category="position")
