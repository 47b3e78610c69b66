"""Labels: the names people read for a rule file's zones, variables, phases and actions.

A label is one text for every language (`label: Trump card`) or one text per
language code (`label: {en: Trump card, ru: Козырь}`). Labels are for people
only: rules, move texts, saves and transcripts go by the names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from koloda.dsl.errors import RuleError, Span
from koloda.dsl.loader import span_of

DEFAULT_LANGUAGE = "en"
LANGUAGE_CODE = re.compile("[a-z]{2,3}")


@dataclass(frozen=True)
class Label:
    """A name for people: `texts` maps language codes to texts; `any` is a text for every language."""
    texts: tuple[tuple[str, str], ...] = ()
    any: str | None = None

    def text(self, language: str) -> str | None:
        """The text in `language`, else in English; None if the label has neither."""
        if self.any is not None:
            return self.any
        found = dict(self.texts)
        return found.get(language) or found.get(DEFAULT_LANGUAGE)


def read_label(raw: object, span: Span, owner: str, errors: list[RuleError]) -> Label | None:
    """A label as the file writes it (the schema has checked that it is a text or a mapping of texts);
    a language code that is not one, an empty text or a text of several lines goes to `errors`."""
    if raw is None:
        return None
    where = span_of(raw, span)
    if isinstance(raw, dict):
        texts = []
        for code, text, at in _by_language(raw, where, f"the label of {owner}", errors):
            _check_text(str(text), span_of(text, at), owner, errors)
            texts.append((code, str(text)))
        if not texts:
            errors.append(RuleError(f"the label of {owner} gives no text", where, category="schema"))
        return Label(texts=tuple(texts))
    _check_text(str(raw), where, owner, errors)
    return Label(any=str(raw))


def _by_language(raw: dict, where: Span, what: str, errors: list[RuleError]) -> list[tuple[str, Any, Span]]:
    """A mapping of texts by language code, as (code, text, where its key is); a key that is not a
    language code goes to `errors` (`what` says whose text it is), its text is kept all the same."""
    key_spans = getattr(raw, "key_spans", {})
    found = []
    for code, text in raw.items():
        code = str(code)
        at = key_spans.get(code, where)
        if not LANGUAGE_CODE.fullmatch(code):
            errors.append(RuleError(f"{what}: `{code}` is not a language code", at,
                                    "a language code is two or three lower-case letters: en, ru", category="schema"))
        found.append((code, text, at))
    return found


def _check_text(text: str, where: Span, owner: str, errors: list[RuleError]) -> None:
    if not text.strip():
        errors.append(RuleError(f"the label of {owner} is empty", where, category="schema"))
    elif "\n" in text.strip() or "\r" in text:
        errors.append(RuleError(f"the label of {owner} is more than one line", where, category="schema"))


def readable(name: str) -> str:
    """A name as words: `turn_points` -> `turn points`."""
    return " ".join(name.replace("_", " ").split()) or name


def label_text(label: Label | None, name: str, language: str) -> str:
    """What people read for `name`: its label in `language` (or English), else the name as words."""
    text = label.text(language) if label is not None else None
    return text if text else readable(name)


DISPLAY_ONLY = ("label", "internal", "arrange", "show moves", "shown as")
# top-level keys that only watch play (event counters for reports): a save outlives them too
WATCH_ONLY = ("count",)


def without_labels(doc: dict) -> dict:
    """The document less what only the table reads (labels, a variable's `internal:`, a zone's `arrange:`) and what only
    reports read (`count:`): what a game's fingerprint is taken of, so that a save outlives a label
    added or translated, or a counter added (they do not change play)."""
    def strip(items: object, inner: str | None = None) -> object:
        if not isinstance(items, dict):
            return items
        out = {}
        for name, item in items.items():
            if isinstance(item, dict):
                item = {k: v for k, v in item.items() if k not in DISPLAY_ONLY}
                if inner is not None and isinstance(item.get(inner), dict):
                    item[inner] = strip(item[inner])
            out[name] = item
        return out
    result = {k: v for k, v in doc.items() if k not in WATCH_ONLY}
    for key, inner in (("zones", None), ("vars", None), ("phases", "actions")):
        if key in result:
            result[key] = strip(result[key], inner)
    return result


class Help(str):
    """A `help:` text: as a str, its English text (or its only one); `texts`: its text per language code.

    Written `help: TEXT` or `help: {en: TEXT, ru: TEXT}`. A text's `{…}` fields are expressions worked out
    when the text is said (a refusal: dsl/check.py checks them with the action's names)."""
    texts: tuple[tuple[str, str], ...]
    span: Span | None

    def __new__(cls, default: str = "", texts: tuple[tuple[str, str], ...] = (), span: Span | None = None) -> Help:
        made = super().__new__(cls, default)
        made.texts = texts
        made.span = span
        return made

    def __reduce__(self) -> tuple:
        return (Help, (str(self), self.texts, self.span))

    def text(self, language: str) -> str:
        """The text in `language`, else in English, else the only one."""
        return dict(self.texts).get(language) or str(self)

    def all_texts(self) -> list[str]:
        """Every language's text (the one text if it has no languages)."""
        return [t for _, t in self.texts] if self.texts else ([str(self)] if str(self) else [])

    def languages(self) -> set[str]:
        return {code for code, _ in self.texts}


def read_help(raw: object, span: Span, owner: str, errors: list[RuleError]) -> Help:
    """A help text as the file writes it: one text, or one per language code (as a label, of any length)."""
    if raw is None:
        return Help()
    where = span_of(raw, span)
    if not isinstance(raw, dict):
        return Help(str(raw), (), where)
    texts = [(code, str(text)) for code, text, _ in _by_language(raw, where, f"the help of {owner}", errors)]
    found = dict(texts)
    default = found.get(DEFAULT_LANGUAGE) or (texts[0][1] if texts else "")
    return Help(default, tuple(texts), where)


_FIELD = re.compile(r"\{[^{}]*\}")


def help_in(text: object, language: str) -> str:
    """A help text as read away from a move (a rulebook, the table's `help`): in `language`, else in
    English, its `{…}` fields (values worked out for a move refused) shown as `…`."""
    found = text.text(language) if isinstance(text, Help) else str(text or "")
    return _FIELD.sub("…", found)
