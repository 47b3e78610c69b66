"""`koloda fmt`: a rule file in the canonical layout, its comments kept, its meaning unchanged.

The layout: keys in the order docs/language.md presents them (the top level, and inside options,
zones, variables, events, phases, actions, meld kinds, patterns, `match:` and `turn cap:`); effects
one a line (an effect list written `[a, b]` becomes a block list); a text in quotes only where YAML
would otherwise read it differently, then in double quotes, and a move's `text:` always quoted (it
is a template, `"name {s}"`), as is a `help:` text inside `{...}` (prose, where a comma would
end it). Everything else — flow or block style of other mappings and lists,
blank lines, comments and their columns, `|` and `>` texts — is the author's and stays.

Keys of a block mapping are moved as whole lines of text, each with the comment lines written
directly above it at its own indentation, so no comment changes places with another; the rest is
a round trip through ruamel.yaml, which keeps comments. The result is read back with the loader's
YAML (PyYAML) and must hold exactly the data the file held: otherwise the file is left alone.
"""
from __future__ import annotations

import io
from typing import Any, Iterator

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.emitter import Emitter
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString

# The top level, as docs/language.md §2 lists it (a test holds the two together).
TOP = ("extends", "game", "library", "title", "source", "notes", "players", "sides", "house", "deck", "ace", "values", "import",
       "options", "zones", "melds", "wild", "patterns", "combos", "vars", "define", "procedures", "setup", "deal", "events",
       "phases", "deal ends", "scoring", "match", "turn cap", "show", "heuristic", "count")
# Inside one entry of a section: what it is first, then its details, then the words for people.
OPTION = ("default", "type", "choices", "min", "max", "search", "help")
ZONE = ("each", "melds", "visible", "grid", "lines", "arrange", "label", "help")
VAR = ("each", "type", "start", "visible", "internal", "label", "shown as", "help")
EVENT = ("when", "do", "help")
MELD = ("of", "min", "max", "layoffs past max", "suits", "ace", "wild max", "repeat suits from", "named", "help")
PATTERN = ("groups", "same suit", "run", "help")
COMBO = ("same", "run", "values", "wings", "most of a value", "help")
PHASE = ("label", "help", "show moves", "if", "first", "turns", "start", "ends", "playout", "actions", "steps",
         "after turn")
ACTION = ("label", "help", "with", "if", "text", "do")
MATCH = ("first dealer", "ends", "score", "winner", "house score", "dealer rotates", "next dealer")
TURN_CAP = ("turns", "ends")
SECTIONS = {"options": OPTION, "zones": ZONE, "vars": VAR, "events": EVENT, "melds": MELD, "patterns": PATTERN,
            "combos": COMBO}

# Keys of an effect whose values are effects again (`if:`/`then:`/`else:`, `for:`/`do:`, loops).
_NESTED_EFFECTS = ("then", "else", "do")
_MAX_PASSES = 10_000          # one pass a mapping moved: far more than any file has


class FormatError(Exception):
    """A file that cannot be formatted: not YAML, or (never expected) a layout that would change it."""


class _DoubleQuotingEmitter(Emitter):
    """Where a text needs quotes, double quotes (ruamel would pick single ones), unless it holds a
    double quote itself: `'"Card games of Russia", 31'` reads better than escapes."""

    def choose_scalar_style(self) -> Any:
        style = super().choose_scalar_style()
        return '"' if style == "'" and '"' not in self.event.value else style


def _yaml() -> YAML:
    y = YAML()                    # round trip: comments, flow/block style and block texts are kept
    y.Emitter = _DoubleQuotingEmitter
    y.version = (1, 1)            # the loader's YAML: `yes` and `on` are true there, so they keep their quotes
    y.width = 1_000_000           # never fold a long expression over lines
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def format_text(text: str) -> str:
    """The file's text in the canonical layout. Raises FormatError."""
    try:
        before = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise FormatError(f"not YAML: {_first_line(exc)}") from None
    if not isinstance(before, dict):
        raise FormatError("a rule file is a mapping of keys (`game:`, `deck:`, ...)")
    y = _yaml()
    try:
        text = _ordered_lines(y, text)
        doc = y.load(text)
    except YAMLError as exc:
        raise FormatError(f"not YAML: {_first_line(exc)}") from None
    _tidy(doc)
    out = io.StringIO()
    y.dump(doc, out)
    result = _without_directive(out.getvalue())
    if yaml.safe_load(result) != before:       # a layout never changes what the file says
        raise FormatError("the canonical layout would change what this file says; it is left as it is "
                          "(please report it)")
    return result


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _without_directive(text: str) -> str:
    """ruamel writes `%YAML 1.1` and `---` for the version it was given; a rule file has neither."""
    head = "%YAML 1.1\n---\n"
    return text[len(head):] if text.startswith(head) else text


# ------------------------------------------------------------------ key order
def _orders(doc: CommentedMap) -> Iterator[tuple[CommentedMap, tuple[str, ...]]]:
    """Every mapping whose keys have a canonical order, with that order."""
    yield doc, TOP
    for section, order in SECTIONS.items():
        for entry in _maps_in(doc.get(section)):
            yield entry, order
    for key, order in (("match", MATCH), ("turn cap", TURN_CAP)):
        if isinstance(doc.get(key), CommentedMap):
            yield doc[key], order
    for phase in _maps_in(doc.get("phases")):
        yield phase, PHASE
        for action in _maps_in(phase.get("actions")):
            yield action, ACTION


def _maps_in(section: Any) -> Iterator[CommentedMap]:
    if isinstance(section, CommentedMap):
        yield from (v for v in section.values() if isinstance(v, CommentedMap))


def _canonical(keys: list[Any], order: tuple[str, ...]) -> list[Any]:
    """Known keys in their order, then the others as they stand (a misspelt key stays where it is seen)."""
    rank = {k: i for i, k in enumerate(order)}
    return sorted(keys, key=lambda k: rank.get(k, len(order)) if isinstance(k, str) else len(order))


def _ordered_lines(y: YAML, text: str) -> str:
    """The text with the keys of every block mapping that has an order in that order: one mapping
    moved a pass, the text read again after each (a move shifts every line below it)."""
    for _ in range(_MAX_PASSES):
        doc = y.load(text)
        if not isinstance(doc, CommentedMap):
            return text
        target = next(((m, order) for m, order in _orders(doc)
                       if not m.fa.flow_style() and list(m) != _canonical(list(m), order)), None)
        if target is None:
            return text
        text = _moved(text, *target)
    raise FormatError("the keys could not be put in order")     # pragma: no cover - bounded by the mappings


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_comment(line: str) -> bool:
    return line.lstrip(" ").startswith("#")


def _moved(text: str, mapping: CommentedMap, order: tuple[str, ...]) -> str:
    """One block mapping's entries rearranged as whole lines. An entry is its key's line, the lines
    of its value, and the comment lines directly above the key at the key's indentation; blank
    lines and comments less indented than the keys stay where they are."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    keys = list(mapping)
    starts = [mapping.lc.key(k)[0] for k in keys]
    col = mapping.lc.key(keys[0])[1]
    if any(_indent(lines[s]) != col for s in starts):       # a key that shares its line (`- a: 1`): leave it
        return text
    tops = []
    for s in starts:
        while s > 0 and _is_comment(lines[s - 1]) and _indent(lines[s - 1]) == col:
            s -= 1
        tops.append(s)
    end = starts[-1] + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) >= col and
                                not (_indent(lines[end]) == col and _is_comment(lines[end]) and
                                     _next_code_indent(lines, end) < col)):
        end += 1
    while end > starts[-1] + 1 and not lines[end - 1].strip():       # blank lines after the mapping stay
        end -= 1
    bounds = [*tops[1:], end]
    entries = {k: lines[tops[i]:bounds[i]] for i, k in enumerate(keys)}
    # a blank line that ends an entry separates it from the next: it stays in its place, not with the entry
    gaps = []
    for k in keys:
        body = entries[k]
        n = len(body)
        while n > 1 and not body[n - 1].strip():
            n -= 1
        gaps.append(body[n:])
        entries[k] = body[:n]
    new = [line for i, k in enumerate(_canonical(keys, order)) for line in entries[k] + gaps[i]]
    return "".join(lines[:tops[0]] + new + lines[end:])


def _next_code_indent(lines: list[str], i: int) -> int:
    """The indentation of the first line from i on that is neither blank nor a comment (-1 at the end)."""
    for line in lines[i:]:
        if line.strip() and not _is_comment(line):
            return _indent(line)
    return -1


# ------------------------------------------------------------------ effects, quotes, flow mappings
def _tidy(doc: CommentedMap) -> None:
    for mapping, order in _orders(doc):
        if mapping.fa.flow_style():
            for key in _canonical(list(mapping), order):
                mapping.move_to_end(key)
    for key in ("setup", "deal", "scoring"):
        _one_a_line(doc.get(key))
    for event in _maps_in(doc.get("events")):
        _one_a_line(event.get("do"))
    if isinstance(doc.get("procedures"), CommentedMap):
        for body in doc["procedures"].values():
            _one_a_line(body)
    for phase in _maps_in(doc.get("phases")):
        for key in ("start", "after turn"):
            _one_a_line(phase.get(key))
        for action in _maps_in(phase.get("actions")):
            _one_a_line(action.get("do"))
            _quoted(action, "text")
    _quote_help(doc)


def _quoted(mapping: CommentedMap, key: str) -> None:
    text = mapping.get(key)
    if isinstance(text, str) and not isinstance(text, ScalarString) and '"' not in text:
        mapping[key] = DoubleQuotedScalarString(text)


def _quote_help(node: Any) -> None:
    """`help:` texts inside `{...}`, all the way down."""
    if isinstance(node, CommentedMap):
        if node.fa.flow_style():
            _quoted(node, "help")
        for value in node.values():
            _quote_help(value)
    elif isinstance(node, CommentedSeq):
        for value in node:
            _quote_help(value)


def _one_a_line(effects: Any) -> None:
    """Effects written `[a, b]` or `{if: x, then: y}` are laid out one a line, all the way down."""
    if isinstance(effects, (CommentedSeq, CommentedMap)):
        effects.fa.set_block_style()
    if isinstance(effects, CommentedSeq):
        for effect in effects:
            _one_a_line(effect)
    elif isinstance(effects, CommentedMap):
        for key in _NESTED_EFFECTS:
            _one_a_line(effects.get(key))
