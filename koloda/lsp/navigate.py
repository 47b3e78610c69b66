"""Hover, go-to-definition and the outline of a rule file, over its Spec and the built-ins."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import re

from koloda.dsl import resolved as R
from koloda.dsl.errors import RuleError, Span
from koloda.dsl.loader import reference
from koloda.dsl.model import Spec
from koloda.lsp import context
from koloda.lsp.names import Name, attributes, builtin_names, options, own_names

_WORD = re.compile(r"[A-Za-z_]\w*")


def word_at(line: str, col: int) -> tuple[str, int, int] | None:
    """The name under a column (0-based), with where it starts and ends."""
    for m in _WORD.finditer(line):
        if m.start() <= col <= m.end():
            return m.group(), m.start(), m.end()
    return None


def hover(lines: list[str], line: int, col: int, spec: Spec | None, rules: R.Rules | None) -> str | None:
    """Markdown for the name under a position: what it is, its type, its reference text or `help:`."""
    text = lines[line] if line < len(lines) else ""
    found = word_at(text, col)
    if found is None:
        return None
    word, start, end = found
    where = context.place(lines, line, end)
    if text[end:].lstrip().startswith(":"):           # a key: the phase, action or option it names
        described = _key_help(where.path + (word,), word, spec)
        if described:
            return described
    if start > 0 and text[start - 1] == ".":
        head = word_at(text, start - 2)
        if head is not None and head[0] == "option":
            return _shown(options(spec).get(word))
        own = own_names(spec, rules).get(word)        # `p.hand`: a player's zone or variable
        if own is not None:
            return _shown(own)
        return "\n\n".join(f"**attribute** `{a.detail}`: {a.doc}" for a in _all_attributes(word)) or None
    return _shown(own_names(spec, rules).get(word) or builtin_names().get(word))


def _all_attributes(word: str) -> list[Name]:
    from_each = []
    for kind in ("card", "zone", "plan", "grid", "player", "side", "list"):
        from_each += [a for a in attributes(kind) if a.name == word]
    return from_each


def _key_help(path: tuple[str, ...], word: str, spec: Spec | None) -> str | None:
    """The `help:` of the phase, action or option a key names."""
    if spec is None or not path:
        return None
    if path[0] == "options" and len(path) == 2:
        return _shown(options(spec).get(word))
    if path[0] == "phases" and len(path) == 2:
        phase = next((p for p in spec.phases if p.name == word), None)
        return f"**phase `{word}`**" + (f"\n\n{phase.help}" if phase and phase.help else "") if phase else None
    if path[0] == "phases" and len(path) == 4 and path[2] == "actions":
        phase = next((p for p in spec.phases if p.name == path[1]), None)
        action = phase.actions.get(word) if phase else None
        if action is not None:
            return f"**action `{word}`**" + (f"\n\n{action.help}" if action.help else "")
    return None


def _shown(name: Name | None) -> str | None:
    if name is None:
        return None
    return f"**{name.kind}** `{name.detail}`" + (f"\n\n{name.doc}" if name.doc else "")


def definition(lines: list[str], line: int, col: int, path: Path, spec: Spec | None, rules: R.Rules | None
               ) -> tuple[Path, int, int] | None:
    """Where the name under a position is defined: (file, 0-based line, 0-based column)."""
    text = lines[line] if line < len(lines) else ""
    target = _extends_target(text, col, path)
    if target is not None:
        return target, 0, 0
    found = word_at(text, col)
    if found is None:
        return None
    word, start, _ = found
    is_option = start > 0 and text[start - 1] == "." and (word_at(text, start - 2) or ("",))[0] == "option"
    name = options(spec).get(word) if is_option else own_names(spec, rules).get(word)
    if name is None or name.span is None or name.span.line <= 0:
        return None
    return _file_of(name.span, path), name.span.line - 1, max(name.span.col - 1, 0)


def _extends_target(text: str, col: int, path: Path) -> Path | None:
    """The file an `extends: NAME` or `import: [NAME]` line names, when the position is on the name."""
    m = re.match(r"\s*(extends|import)\s*:\s*\[?(.*?)\]?\s*(?:#.*)?$", text)
    if m is None or col < m.start(2):
        return None
    kind = "game" if m.group(1) == "extends" else "library"
    for item in re.finditer(r"[^,\s]+", m.group(2)):
        if m.start(2) + item.start() <= col <= m.start(2) + item.end():
            try:
                return reference(item.group().strip("\"'"), path, kind)
            except RuleError:
                return None
    return None


def _file_of(span: Span, path: Path) -> Path:
    """The file a span is in; the spans of the file itself name it as the loader does."""
    named = Path(span.file)
    if named.is_absolute():
        return named
    if named.resolve() == path.resolve() or not named.exists():
        return path
    return named.resolve()


@dataclass
class Symbol:
    name: str
    kind: str                     # "phase", "action", "function", "procedure", "zone", "variable", "option", "event"
    line: int                     # 0-based
    col: int
    detail: str = ""
    children: list["Symbol"] = field(default_factory=list)


def symbols(spec: Spec | None, path: Path) -> list[Symbol]:
    """The outline of the file: its phases with their actions, its functions and procedures, and its
    zones, variables, options and events; only what stands in this file, not in a base it extends."""
    if spec is None:
        return []
    found: list[Symbol] = []

    def add(into: list[Symbol], name: str, kind: str, span: Span | None, detail: str = "") -> Symbol | None:
        if span is None or span.line <= 0 or _file_of(span, path) != path:
            return None
        symbol = Symbol(name, kind, span.line - 1, max(span.col - 1, 0), detail)
        into.append(symbol)
        return symbol

    for name, option in spec.options.items():
        add(found, name, "option", option.span, option.help)
    for name, zone in spec.zones.items():
        add(found, name, "zone", zone.span)
    for name, var in spec.vars.items():
        add(found, name, "variable", var.span)
    for name, f in spec.functions.items():
        add(found, name, "function", f.signature.span)
    for name, p in spec.procedures.items():
        add(found, name, "procedure", p.signature.span)
    for event in spec.events:
        add(found, event.name, "event", event.span)
    for phase in spec.phases:
        symbol = add(found, phase.name, "phase", phase.span, phase.help)
        for action in phase.actions.values():
            add(symbol.children if symbol else found, action.name, "action", action.span, action.help)
    return sorted(found, key=lambda s: (s.line, s.col))
