"""Phrases: the rulebook's words in one language, and noun phrases with the case forms a sentence needs.

A phrase table maps a key (a construct of the language: `cmp.>=`, `attr.card.suit`, `fx.shuffle`) to a
template. A template may give two forms, `nominative|genitive`, since Russian puts a noun phrase in the
genitive after `of`-like words (`масть {x.gen}`); English templates give one form and use `{x}` only.
"""
from __future__ import annotations

from typing import Any

from koloda.rulebook import en, ru

LANGUAGES: dict[str, dict[str, str]] = {"en": en.PHRASES, "ru": ru.PHRASES}


class Ph:
    """A piece of rule text in words: its plain (nominative) form, its genitive form, and how tightly it
    binds (`or` loosest), so that a phrase put inside a tighter one is bracketed."""
    __slots__ = ("nom", "gen", "prec")

    def __init__(self, nom: str, gen: str | None = None, prec: int = 9):
        self.nom = nom
        self.gen = nom if gen is None else gen
        self.prec = prec

    def __str__(self) -> str:
        return self.nom

    def __format__(self, spec: str) -> str:
        return self.nom

    def bracketed(self, prec: int) -> Ph:
        """This phrase inside one that binds at `prec`: in brackets if it binds looser."""
        if self.prec >= prec:
            return self
        return Ph(f"({self.nom})", f"({self.gen})")


class Phrases:
    """One language's table, filled in with phrases."""

    def __init__(self, language: str):
        if language not in LANGUAGES:
            raise KeyError(language)
        self.language = language
        self.table = LANGUAGES[language]

    def has(self, key: str) -> bool:
        return key in self.table

    def __call__(self, key: str, prec: int = 9, **parts: Any) -> Ph:
        nom, _, gen = self.table[key].partition("|")
        return Ph(nom.format(**parts), gen.format(**parts) if gen else None, prec)

    def word(self, key: str, **parts: Any) -> str:
        return self(key, **parts).nom
