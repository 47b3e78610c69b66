"""Errors a rule file can cause, as values the user can act on."""
from __future__ import annotations

from dataclasses import dataclass, field
import difflib
import re
from pathlib import Path
from typing import Iterable

# Characters that drive a terminal rather than print: the C0 controls but tab and line feed, DEL,
# and the C1 controls. A rule file may hold none but carriage returns (line ends), and nothing
# koloda prints from outside shows them as they are.
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class Span:
    """Where a piece of rule text sits: file, 1-based line and column."""
    file: str
    line: int
    col: int
    end_col: int | None = None

    def shifted(self, line_offset: int, col: int, end_col: int | None = None) -> "Span":
        """A position inside an expression string that starts at this span."""
        if line_offset:
            return Span(self.file, self.line + line_offset, col, end_col)
        return Span(self.file, self.line, self.col + col - 1,
                    None if end_col is None else self.col + end_col - 1)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NOWHERE = Span("<none>", 0, 0)


@dataclass
class RuleError(Exception):
    """One problem in a rule file, located by its span."""
    message: str
    span: Span = NOWHERE
    hint: str | None = None
    category: str = "error"

    def __str__(self) -> str:
        return self.format()

    def format(self, with_source: bool = True) -> str:
        text = f"{self.span}: {self.message}" if self.span is not NOWHERE else self.message
        if self.hint:
            text += f" ({self.hint})"
        if with_source:
            source = source_line(self.span)
            if source is not None:
                col = max(self.span.col - 1, 0)
                # a long line is shown as a window around the column
                start = max(0, min(col - SOURCE_WIDTH // 2, len(source) - SOURCE_WIDTH))
                shown = source[start:start + SOURCE_WIDTH]
                prefix = "…" if start > 0 else ""
                suffix = "…" if start + SOURCE_WIDTH < len(source) else ""
                caret = " " * (col - start + len(prefix)) + "^"
                width = min((self.span.end_col or 0) - self.span.col, SOURCE_WIDTH)
                if width > 1:
                    caret += "~" * (width - 1)
                text += f"\n    {prefix}{shown}{suffix}\n    {caret}"
        return text


@dataclass
class RuleErrors(Exception):
    """All the problems found in one check, reported together."""
    errors: list[RuleError] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(e.format() for e in self.errors)


MAX_QUOTED = 60      # characters of a name or a text from the file quoted in a message
MAX_MESSAGE = 300    # characters of a message, and of a hint
_QUOTED = re.compile("`([^`\n]*)`")


def bounded(error: RuleError) -> RuleError:
    """The error with what it quotes from the file cut short, so that a message stays a line or two
    however long the names and texts of the file are."""
    def cut(text: str) -> str:
        text = _QUOTED.sub(lambda m: m.group() if len(m.group(1)) <= MAX_QUOTED
                           else "`" + m.group(1)[:MAX_QUOTED - 1] + "…`", text)
        return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"
    error.message = cut(error.message)
    if error.hint:
        error.hint = cut(error.hint)
    return error


def did_you_mean(name: str, candidates) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


_line_cache: dict[str, tuple[tuple[int, int], list[str]]] = {}
SOURCE_WIDTH = 100          # the most of a source line shown under a message
_READ_AT_MOST = 2_000_000   # bytes read of a file to show one of its lines


def source_line(span: Span) -> str | None:
    """The line of the rule file a span points into, as shown under a message."""
    if span.line <= 0:
        return None
    lines = _source_lines(span.file)
    if lines is None or span.line > len(lines):
        return None
    return lines[span.line - 1]


_OPENS, _CLOSES = "([", ")]"


def spanned_text(file: str, spans: Iterable[Span]) -> str | None:
    """The rule text covered by the spans of a tree's nodes that lie in `file`: from the first place
    to the last (see `source_text`). None if no span lies in the file or the file cannot be read."""
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    for span in spans:
        if span.file != file or span.line <= 0:
            continue
        first = (span.line, span.col)
        last = (span.line, span.end_col if span.end_col is not None else span.col)
        start = first if start is None else min(start, first)
        end = last if end is None else max(end, last)
    return source_text(file, start, end) if start is not None and end is not None else None


def source_text(file: str, start: tuple[int, int], end: tuple[int, int]) -> str | None:
    """The rule text of a piece of an expression, as the file has it: from (line, col) to just before
    (line, col), lines joined by one space. The end is carried past brackets the piece opened and
    left open, and past the `(...)` of a call it ends with (`led` -> `led()`), since the spans of a
    tree mark its names and operators, not its closing brackets. None if the file cannot be read."""
    lines = _source_lines(file)
    (line, col), (end_line, end_col) = start, end
    if lines is None or not 0 < line <= end_line <= len(lines) or (line == end_line and end_col <= col):
        return None
    text = lines[line - 1][col - 1:] if end_line > line else lines[line - 1][col - 1:end_col - 1]
    for k in range(line + 1, end_line + 1):
        text += " " + (lines[k - 1][:end_col - 1] if k == end_line else lines[k - 1]).strip()
    # what follows the piece, up to the end of its expression (at most a few lines on)
    rest = lines[end_line - 1][end_col - 1:]
    rest_lines = lines[end_line:end_line + 8]
    depth = sum(text.count(o) for o in _OPENS) - sum(text.count(c) for c in _CLOSES)
    call = bool(text) and (text[-1].isalnum() or text[-1] == "_") and rest.startswith("(")
    if call:
        depth += 1
        text, rest = text + "(", rest[1:]
    while depth > 0:
        if not rest:
            if not rest_lines:
                break
            rest, rest_lines = " " + rest_lines[0].strip(), rest_lines[1:]
            continue
        ch, rest = rest[0], rest[1:]
        text += ch
        depth += (ch in _OPENS) - (ch in _CLOSES)
    return " ".join(text.split())


def _source_lines(file: str) -> list[str] | None:
    # kept while the file is unchanged: a process that checks a file again after it was edited (the
    # language server, the web table's uploads, a test) shows the lines as they are now
    try:
        stat = Path(file).stat()
    except (OSError, ValueError):
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    found = _line_cache.get(file)
    if found is not None and found[0] == stamp:
        return found[1]
    try:
        with Path(file).open("rb") as f:
            text = f.read(_READ_AT_MOST).decode("utf-8", "replace")
        lines = CONTROL_CHARACTERS.sub("·", text).split("\n")     # a shown line cannot drive the terminal
    except (OSError, ValueError):
        return None
    _line_cache[file] = (stamp, lines)
    return lines
