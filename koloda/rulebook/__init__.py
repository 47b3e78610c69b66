"""The rules read back as a rulebook (`koloda explain`), in English or Russian, and what two variants change."""
from __future__ import annotations

from collections.abc import Mapping

from koloda.api import bind_options, load_spec
from koloda.rulebook.book import Book, Writer
from koloda.rulebook.phrases import LANGUAGES

__all__ = ["LANGUAGES", "rulebook"]


def rulebook(game: str, options: Mapping[str, object] | None = None, language: str = "en") -> Book:
    """The rulebook of a shipped game or a rule file, for a table with these options (raises RuleError or
    RuleErrors for a game that does not load, an unknown option or a value an option does not take)."""
    spec, rules = load_spec(game)
    bound = bind_options(spec, dict(options or {}))
    return Writer(rules, language, bound).book()
