"""Errors raised while a game runs, still pointing at the rule file."""
from __future__ import annotations

from koloda.dsl.errors import NOWHERE, RuleError, Span


class RuleRuntimeError(RuleError):
    """The rules led somewhere they cannot continue (e.g. dealing from an empty stock)."""

    def __init__(self, message: str, span: Span = NOWHERE, hint: str | None = None):
        super().__init__(message, span, hint, category="runtime")


class IllegalAction(ValueError):
    """An action id that is not legal in this state."""
