"""What `koloda list` tells of a rule file, its title and how many play it, read without checking it.

Reading a file's YAML (with `extends:` and `import:`) takes a few milliseconds; checking it whole
takes the expression parser and the checker. What is read is kept in the cache folder
(dsl/rulecache.py), so a list whose files have not changed reads no YAML and imports no PyYAML. The title and the players are read here by the same
code that reads them for a full load (`model.build`), so the list says what a load would.
"""
from __future__ import annotations

from dataclasses import dataclass

from koloda.dsl import rulecache
from koloda.dsl.errors import RuleError, RuleErrors, Span
from koloda.dsl.marked import MarkedDict, span_of
from koloda.dsl.paths import Reads, resolve


@dataclass(frozen=True)
class About:
    name: str
    title: str
    min_players: int
    max_players: int


def about(name_or_path: str) -> About:
    """A rule file's title and players; RuleErrors when the file cannot be read for them. Kept in
    the cache folder, as checked rules are (dsl/rulecache.py), while no file read has changed."""
    try:
        path = resolve(name_or_path)
        kept = rulecache.lookup(path, rulecache.ABOUT)
        if isinstance(kept, About):
            return kept
        from koloda.dsl.loader import load_document       # PyYAML, only for a file not in the cache
        reads = Reads([], [])
        doc = load_document(path, reads=reads)
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    errors: list[RuleError] = []
    low, high, _ = players(doc.get("players", "2"), doc.key_spans.get("players", doc.span), errors)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (low, high)):
        errors.append(RuleError("`players` is a number, a range such as `2..6` or a mapping of whole numbers",
                                span_of(doc.get("players"), doc.span), category="schema"))
    if errors:
        raise RuleErrors(errors)
    found = About(str(doc.get("game")), title_of(doc), low, high)
    rulecache.store(path, reads, found, rulecache.ABOUT)
    return found


def title_of(doc: MarkedDict) -> str:
    """`title:`, in English when it is given in several languages; the game's name without one."""
    title = doc.get("title", doc.get("game"))
    if isinstance(title, dict):
        title = title.get("en") or next(iter(title.values()))
    return str(title)


def players(value, span: Span, errors: list) -> tuple[int, int, int]:
    """`players:` as (least, most, default)."""
    if isinstance(value, int):
        return value, value, value
    if isinstance(value, dict):
        low: int = value.get("min", 2)         # the schema makes these whole numbers
        high: int = value.get("max", low)
        default: int = value.get("default", low)
        return low, high, default
    text = str(value)
    try:
        if ".." in text:
            a, b = text.split("..")
            low, high = int(a), int(b)
        else:
            low = high = int(text)
    except ValueError:
        errors.append(RuleError(f"`players` must be a number or a range such as `2..6`, not `{text}`",
                                span_of(value, span), category="schema"))
        return 2, 2, 2
    return low, high, low
