"""The whole static check of a rule file, and where its errors are reported.

A file that `extends:` another is laid over it, and the base's rules are checked with the
changes. An error that shows in the base but that the base does not have on its own is caused
by the extending file, so it is reported there: at the key of that file that the base's rule
names (`options: limit:`, a zone it removes, a function it redefines), or else at `extends:`,
saying where in the base it shows.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from koloda.dsl import resolved as R
from koloda.dsl import rulecache
from koloda.dsl.check import check
from koloda.dsl.errors import NOWHERE, RuleError, RuleErrors, Span, bounded, source_line
from koloda.dsl.loader import Reads, load_file, resolve
from koloda.dsl.marked import MarkedDict, span_of
from koloda.dsl.model import Spec, build
from koloda.dsl.options import KIND_WORDS, kind_of

# The sections whose keys a base's rules name: `option.NAME`, a zone, a variable, a function …
_NAMED = ("options", "zones", "vars", "define", "values", "melds", "patterns", "combos", "events", "phases")
_MAX_LISTED = 4       # changed keys named in a hint


def load_checked(name_or_path: str) -> tuple[Spec, R.Rules]:
    """Read, schema-check, build and check a rule file. Raises RuleErrors with all its errors,
    each in the file that caused it, in the order they stand in the file. Rules that check without
    errors are kept in the cache (dsl/rulecache.py), and taken from it while no file read has changed."""
    try:
        path: Path | None = resolve(name_or_path)
    except RuleError:
        path = None                         # load_file reports it
    kept = rulecache.lookup(path) if path is not None else None
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], Spec) and isinstance(kept[1], R.Rules):
        return kept
    reads = Reads([], [])
    doc, checked, errors = _checked(name_or_path, reads=reads)
    if errors or checked is None:
        if doc is not None:
            errors = _placed(doc, errors)
        raise RuleErrors([bounded(e) for e in errors])
    if path is not None:
        rulecache.store(path, reads, checked)
    return checked


class TextCheck(NamedTuple):
    """What the check of a text finds: its Spec and resolved rules (None when the text cannot be read
    or has the wrong structure), its errors placed as `load_checked` places them, and its warnings."""
    spec: Spec | None
    rules: R.Rules | None
    errors: list[RuleError]
    warnings: list[RuleError]


def check_text(path: str, text: str) -> TextCheck:
    """A rule file as an editor holds it, saved or not (what it extends is read from its files)."""
    doc, checked, errors = _checked(path, text)
    if doc is not None:
        errors = _placed(doc, errors)
    if checked is None:
        return TextCheck(None, None, [bounded(e) for e in errors], [])
    spec, rules = checked
    return TextCheck(spec, rules, [bounded(e) for e in errors], [bounded(w) for w in rules.warnings])


def _checked(name_or_path: str, text: str | None = None, reads: Reads | None = None
             ) -> tuple[MarkedDict | None, tuple[Spec, R.Rules] | None, list[RuleError]]:
    """The document (None if it cannot be read or has the wrong structure), the checked rules and
    the errors, each where it shows."""
    try:
        doc = load_file(name_or_path, text, reads)
    except RuleErrors as exc:
        return None, None, exc.errors
    spec = build(doc)
    rules, errors = check(spec)
    return doc, (spec, rules), errors


def _errors_alone(path: Path) -> set[tuple[str, int, int, str]]:
    """The errors a base file has on its own, where they show, as (file, line, column, message)."""
    return {(e.span.file, e.span.line, e.span.col, e.message) for e in _checked(str(path))[2]}


def _placed(doc: MarkedDict, errors: list[RuleError]) -> list[RuleError]:
    """The errors, those the extending file causes in its base moved into it; sorted, its own first."""
    root = doc.span.file
    base_path = getattr(doc, "base_path", None)
    foreign = [e for e in errors if e.span.file != root and e.span is not NOWHERE]
    if base_path is None or not foreign:
        return _sorted(errors, root)
    alone = _errors_alone(base_path)
    caused = [e for e in foreign if (e.span.file, e.span.line, e.span.col, e.message) not in alone]
    if not caused:
        return _sorted(errors, root)
    kept = [e for e in errors if e not in caused]
    by_culprit: dict[tuple[Span, str], list[RuleError]] = {}
    hints: dict[tuple[Span, str], str] = {}
    for e in sorted(caused, key=lambda e: (e.span.file, e.span.line, e.span.col)):
        where, change, hint = _culprit(doc, e)
        by_culprit.setdefault((where, change), []).append(e)
        hints.setdefault((where, change), hint)
    for (where, change), shown in by_culprit.items():
        first = shown[0]
        at = f"{Path(first.span.file).name}:{first.span.line}:{first.span.col}"
        message = f"{change} breaks {Path(first.span.file).stem}'s rules at {at}: {first.message}"
        more = len(shown) - 1
        also = f"it breaks {more} more place{'s' if more > 1 else ''} there too" if more else None
        hint = "; ".join(h for h in (first.hint or hints[(where, change)], also) if h)
        kept.append(RuleError(message, where, hint, first.category))
    return _sorted(kept, root)


def _sorted(errors: list[RuleError], root: str) -> list[RuleError]:
    return sorted(errors, key=lambda e: (e.span.file != root, e.span.file, e.span.line, e.span.col))


def _culprit(doc: MarkedDict, error: RuleError) -> tuple[Span, str, str]:
    """The key of the extending file that the base's failing rule names, nearest the error's column:
    where it is, the change in words, and a hint; else the file's `extends:`."""
    root = doc.span.file
    base = Path(error.span.file).stem
    line = source_line(error.span) or ""
    best: tuple[int, Span, str, str | None] | None = None
    hint: str | None
    for section, name, where, removed in _changed_names(doc, root):
        word = re.escape(name)
        pattern = rf"\boption\.{word}\b" if section == "options" else rf"(?<![\w.]){word}\b"
        distances = [abs(m.start() + 1 - error.span.col) for m in re.finditer(pattern, line)]
        if not distances and f"`{name}`" in error.message:
            distances = [len(line) + 1]            # named by the message only: after any the line names
        if distances and (best is None or min(distances) < best[0]):
            if removed:
                change, hint = f"removing `{name}`", f"{base}'s rules still use `{name}`"
            else:
                change, hint = f"`{section}: {name}` as this file has it", _kept_hint(doc, section, name, base)
            best = (min(distances), where, change, hint)
    if best is not None:
        return best[1], best[2], best[3] or _checked_with(doc, base)
    return (doc.key_spans.get("extends", doc.span), f"what this file changes ({_listed(doc) or 'nothing'})",
            f"{base}'s rules are checked with this file's changes laid over them")


def _listed(doc: MarkedDict) -> str:
    """The top keys the extending file writes, as a hint lists them."""
    root = doc.span.file
    changed = [k for k, span in doc.key_spans.items() if span.file == root and k not in ("game", "extends")]
    return ", ".join(f"`{k}`" for k in changed[:_MAX_LISTED]) + (", …" if len(changed) > _MAX_LISTED else "")


def _checked_with(doc: MarkedDict, base: str) -> str:
    return f"{base}'s rules are checked with what this file changes: {_listed(doc)}"


def _kept_hint(doc: MarkedDict, section: str, name: str, base: str) -> str | None:
    """What the base expects of a thing the extending file changes into something else."""
    mapping = doc.get(section)
    before = getattr(mapping, "replaced", {}).get(name)
    if section == "options" and before is not None and isinstance(mapping, dict):
        kinds = [kind_of(v.get("default") if isinstance(v, dict) else v) for v in (before, mapping.get(name))]
        if kinds[0] != kinds[1]:
            return f"in {base}, `{name}` is {KIND_WORDS[kinds[0]]}, and its rules use it so"
    return None


def _changed_names(doc: MarkedDict, root: str):
    """(section, name, where, removed) for each named thing the extending file writes or removes."""
    for section in _NAMED:
        mapping = doc.get(section)
        if not isinstance(mapping, MarkedDict):
            continue
        for key, where in mapping.key_spans.items():
            name = str(key).split("(")[0].strip()
            if where.file != root or not name:
                continue
            value = mapping.get(key)
            if not isinstance(value, (dict, list)):      # a value written on its own: point at it
                where = span_of(value, where)
            yield section, name, where, key not in mapping
