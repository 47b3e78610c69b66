"""What the table calls things: the rule file's labels in the player's language, or the names as words.

The language is the player's choice for the whole program (`--lang`, or the
environment's KOLODA_LANG), as a locale is; English when neither is given.
Labels name things for people only: the table, the help, the deal summary.
Moves keep their texts, which are typed and recorded the same in every
language.
"""
from __future__ import annotations

import os

from koloda.dsl.labels import DEFAULT_LANGUAGE, LANGUAGE_CODE, label_text, readable
from koloda.interpreter.core.table import Table
from koloda.ui.safe import plain

LANGUAGE_VARIABLE = "KOLODA_LANG"
_chosen: list[str] = []


def is_language(code: str) -> bool:
    return bool(LANGUAGE_CODE.fullmatch(code))


def set_language(code: str | None) -> None:
    """Choose the language labels are shown in (None: back to the environment's or English)."""
    _chosen[:] = [code] if code else []


def language() -> str:
    """The language chosen, else KOLODA_LANG (`ru`, or a locale's form `ru_RU.UTF-8`), else English."""
    if _chosen:
        return _chosen[0]
    code = os.environ.get(LANGUAGE_VARIABLE, "").split(".")[0].split("_")[0].strip().lower()
    return code if is_language(code) else DEFAULT_LANGUAGE


def title(game: Table, lang: str | None = None) -> str:
    label = game.spec.title_label
    return plain((label.text(lang or language()) if label is not None else None) or game.title)


def zone(game: Table, name: str, lang: str | None = None) -> str:
    spec = game.spec.zones.get(name)
    return plain(label_text(spec.label if spec else None, name, lang or language()))


def variable(game: Table, name: str, lang: str | None = None) -> str:
    spec = game.spec.vars.get(name)
    return plain(label_text(spec.label if spec else None, name, lang or language()))


def phase(game: Table, index: int, lang: str | None = None) -> str:
    spec = game.spec.phases[index]
    return plain(label_text(spec.label, spec.name, lang or language()))


def action(game: Table, phase_index: int, name: str, lang: str | None = None) -> str:
    spec = game.spec.phases[phase_index].actions[name]
    return plain(label_text(spec.label, name, lang or language()))


def step(name: str) -> str:
    """Steps have no labels: their names, as words."""
    return plain(readable(name))


def owned(game: Table, name: str, owner: str, lang: str | None = None) -> str:
    """A zone of a player or side: `your hand`, `P2 hand` in English; `вы · рука` where the table's
    English words would not fit the label's grammar."""
    lang = lang or language()
    text = zone(game, name, lang)
    if lang == DEFAULT_LANGUAGE:
        return f"your {text}" if owner == "you" else f"{owner} {text}"
    return f"{owner} · {text}"


def owned_value(game: Table, label: str, owner: str, lang: str | None = None) -> str:
    """A variable of a player or side, by its label: `P1+P3 score` in English, `P1+P3 · очки` otherwise."""
    return f"{owner} {label}" if (lang or language()) == DEFAULT_LANGUAGE else f"{owner} · {label}"


def value(game: Table, var: str, text: str, lang: str | None = None) -> str:
    """A variable's value as the table shows it: the rule file's word for it (`shown as:`), else as it is."""
    spec = game.spec.vars.get(var)
    word = spec.shown_as.get(text) if spec is not None else None
    return plain(word.text(lang or language()) or text) if word is not None else plain(text)
