"""Errors raised while a game runs, still pointing at the rule file."""
from __future__ import annotations

from koloda.dsl.errors import NOWHERE, RuleError, Span


class RuleRuntimeError(RuleError):
    """The rules led somewhere they cannot continue (e.g. dealing from an empty stock)."""

    def __init__(self, message: str, span: Span = NOWHERE, hint: str | None = None):
        super().__init__(message, span, hint, category="runtime")


class IllegalAction(ValueError):
    """An action id (or a move's text) that is not legal in this state."""


class PositionError(RuleError, ValueError):
    """A position the user asked for that the rules cannot deal: an unknown card, a card given
    twice, a hand of the wrong size, a dealer who is not at the table, a deck order that does not
    fit the cards it is to order. Located in the user's file when there is one."""

    def __init__(self, message: str, span: Span = NOWHERE, hint: str | None = None):
        super().__init__(message, span, hint, category="position")
