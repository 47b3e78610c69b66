"""Load rule files: YAML with line/column marks, `extends:` and the schema.

YAML is read with the safe loader only: a rule file is data and can never
reach Python. Every mapping, list and string remembers where it was written,
so later errors point at the exact line and column.
"""
from __future__ import annotations

from pathlib import Path
import re
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

try:
    from yaml.cyaml import CParser          # libyaml's scanner and parser, when PyYAML was built with it
except ImportError:                         # pragma: no cover - depends on how PyYAML was installed
    CParser = None

from koloda.dsl.errors import CONTROL_CHARACTERS, RuleError, RuleErrors, Span
from koloda.dsl.flowlists import cut_items
from koloda.dsl.limits import (MAX_CHAIN, MAX_FILE_BYTES, MAX_NUMBER, MAX_YAML_ALIASES, MAX_YAML_DEPTH,
                               MAX_YAML_NODES)
from koloda.dsl.marked import MarkedDict, MarkedInt, MarkedList, MarkedStr, span_of
from koloda.dsl.paths import (RULES_PACKAGE, Reads, display_name, library_names, library_path, reference,
                              resolve, shipped_names, shipped_path)
from koloda.dsl.structure import validate

# Finding rule files by name lives in dsl/paths.py, which reads no YAML; its names are also this module's.
__all__ = ["RULES_PACKAGE", "Reads", "display_name", "library_names", "library_path", "reference", "resolve",
           "shipped_names", "shipped_path", "parse_yaml", "read_rule_text", "load_document", "merge", "load_file",
           "validate", "MarkedDict", "span_of"]

def _span(node: yaml.Node, filename: str) -> Span:
    m = node.start_mark
    return Span(filename, m.line + 1, m.column + 1)


class _Loader(yaml.SafeLoader):
    """The safe loader, with bounds: nesting depth, aliases, and values once aliases are expanded
    (an alias costs nothing to read but everything after reading walks its whole value), and no
    explicit tags (`!!timestamp`, `!thing`): a rule file holds text, numbers, lists and mappings."""
    filename = "<string>"
    text = ""                   # what is read: strings are placed in it by their marks' index

    def compose_document(self) -> Any:
        self._depth = 0
        self._aliases = 0
        self._sizes: dict[int, int] = {}
        self._alias_uses: dict[tuple[int, int], tuple[str, Span]] = {}
        return super().compose_document()

    def compose_node(self, parent, index):
        event = self.peek_event()
        where = Span(self.filename, event.start_mark.line + 1, event.start_mark.column + 1)
        if isinstance(event, yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_YAML_ALIASES:
                raise RuleError(f"more than {MAX_YAML_ALIASES} aliases (`*name`) in one file", where, category="limit")
            if isinstance(index, int):          # an item of a list: remember where the alias stands
                self._alias_uses[(id(parent), index)] = (event.anchor, where)
        elif getattr(event, "tag", None) not in (None, "!"):
            raise RuleError(f"YAML tags such as `{event.tag}` are not allowed in a rule file: write the value "
                            "plainly", where, category="yaml")
        self._depth += 1
        if self._depth > MAX_YAML_DEPTH:
            raise RuleError(f"mappings and lists nested more than {MAX_YAML_DEPTH} deep", where, category="limit")
        node = super().compose_node(parent, index)
        self._depth -= 1
        size = 1 + sum(self._sizes.get(id(child), 1) for child in _children(node))
        self._sizes[id(node)] = size
        if size > MAX_YAML_NODES:
            raise RuleError(f"the file holds more than {MAX_YAML_NODES:,} values once its aliases are expanded",
                            where, category="limit")
        return node


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> MarkedDict:
    loader.flatten_mapping(node)
    result = MarkedDict()
    result.span = _span(node, loader.filename)
    result.key_spans = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, (list, dict)):
            raise RuleError("a key must be a plain word", _span(key_node, loader.filename), category="yaml")
        key = str(key) if not isinstance(key, bool) else ("true" if key else "false")
        if key in result:
            raise RuleError(f"key `{key}` is written twice", _span(key_node, loader.filename), category="yaml")
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_spans[key] = _span(key_node, loader.filename)
    result.flow = bool(node.flow_style)
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> MarkedList:
    result = MarkedList(loader.construct_object(child, deep=True) for child in node.value)
    result.span = _span(node, loader.filename)
    uses = {i: use for i in range(len(node.value)) if (use := loader._alias_uses.get((id(node), i)))}
    result.item_spans = [uses[i][1] if i in uses else _span(child, loader.filename)
                         for i, child in enumerate(node.value)]
    result.aliases = {i: name for i, (name, _) in uses.items()}
    result.flow = bool(node.flow_style)
    return result


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> MarkedStr:
    result = MarkedStr(loader.construct_scalar(node))
    span = _span(node, loader.filename)
    result.segments = _segments(node, str(result), span, loader.text)
    first = result.segments[0]
    result.span = Span(span.file, first[1], first[2])
    result.plain = not node.style             # None from PyYAML, "" from libyaml
    return result


def _segments(node: yaml.ScalarNode, value: str, span: Span, text: str) -> list[tuple[int, int, int]]:
    """Where each piece of a string's text was written: (offset in the text, line, column).

    YAML folds multi-line plain and quoted strings into one line, and block
    strings (`|`) drop their indentation; this maps positions in the text
    back to the file, so errors point at the right place."""
    region = text[node.start_mark.index:node.end_mark.index]
    lines = region.split("\n")
    if node.style in ("|", ">"):
        # content starts on the line after the indicator, at the block's indentation
        body = lines[1:]
        indent = min((len(x) - len(x.lstrip(" ")) for x in body if x.strip()), default=0)
        # each line's text beyond the block's indentation is in the value, in order (folding only
        # turns the line breaks between them into spaces, or keeps them)
        segments, offset = [], 0
        for i, line in enumerate(body):
            content = line[indent:].rstrip("\r")
            if not content.strip():
                continue
            found = value.find(content, offset)
            if found < 0:
                break
            segments.append((found, span.line + 1 + i, indent + 1))
            offset = found + len(content)
        return segments or [(0, span.line + 1, indent + 1)]
    quote = 1 if node.style in ("'", '"') else 0
    if len(lines) == 1:
        return [(0, span.line, span.col + quote)]
    segments = [(0, span.line, span.col + quote)]
    offset = len(lines[0][quote:].rstrip()) + 1
    for i, line in enumerate(lines[1:], 1):
        stripped = line.lstrip()
        if not stripped.strip():
            continue
        segments.append((offset, span.line + i, len(line) - len(stripped) + 1))
        offset += len(stripped.rstrip()) + 1
    return segments


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> MarkedInt:
    span = _span(node, loader.filename)
    digits = str(node.value).lstrip("+-").replace("_", "")
    if len(digits) > len(str(MAX_NUMBER)):
        raise RuleError(f"numbers in a rule file are at most {MAX_NUMBER:,}", span, category="limit")
    try:
        result = MarkedInt(yaml.SafeLoader.construct_yaml_int(loader, node))
    except ValueError:
        raise RuleError(f"`{node.value}` is not a whole number", span, category="yaml") from None
    if abs(result) > MAX_NUMBER:
        raise RuleError(f"numbers in a rule file are at most {MAX_NUMBER:,}", span, category="limit")
    result.span = span
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:str", _construct_str)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
# A date-like text (`2024-01-05`) stays text: a rule file has no use for dates.
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_str)


_FastLoader: type[_Loader] | None = None
if CParser is not None:
    class _LibyamlLoader(CParser, _Loader):
        """_Loader with libyaml's scanner and parser, five times as fast: the same events, composed,
        bounded and constructed by the same Python code as _Loader's. Used only for files it reads
        without complaint: any problem is read again by _Loader, whose messages are the ones shown."""

        def __init__(self, text: str):
            CParser.__init__(self, text)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)

        # nodes are composed by Python's Composer (and so _Loader's bounds), not by libyaml's
        get_single_node = Composer.get_single_node
        check_node = Composer.check_node
        get_node = Composer.get_node

    _FastLoader = _LibyamlLoader

# Where libyaml reads otherwise than PyYAML: it takes a tab for a space between tokens, and `?` for
# part of a plain text inside `{...}` or `[...]` (PyYAML refuses both), and a byte order mark anywhere
# for nothing. A text that holds any of the three is read by _Loader alone.
_LIBYAML_DIFFERS = re.compile("[\t?\ufeff]")


def _yaml_words(problem: str) -> tuple[str, str | None]:
    """YAML's complaint in a rule writer's words, with what to do about it."""
    if "'\\t'" in problem or "\t" in problem:
        return "a tab stands where YAML expects spaces", "indent with spaces, never tabs"
    if problem.startswith("expected <block end>"):
        return ("this line is indented unlike the lines around it",
                "a key lines up under the other keys of its mapping; a list item under the other items")
    if "mapping values are not allowed here" in problem:
        return ("a `:` YAML did not expect here", "put a text holding `: ` in quotes, or check the indentation "
                "of this line")
    if "recursive node" in problem:
        return "an alias (`*name`) stands inside the very value it names", "a value cannot contain itself"
    if problem.startswith("expected ',' or ']', but got '['"):
        return ("a `[` inside an item of a `[...]` list, where YAML takes it for a list of its own",
                "put the item in quotes (\"s in [clubs, hearts]\") or write the list as a block list, one `- ` "
                "item a line")
    if problem.startswith("expected ',' or '}', but got '['"):
        return ("a `[` inside a value of a `{...}` mapping, where YAML takes it for a list of its own",
                "put the value in quotes (`{with: \"b in [18, 20]\"}`) or write the mapping as a block, one "
                "`key: value` a line")
    if "could not find expected ':'" in problem:
        return "YAML expected `key: value` here", "check this line and the one above for a missing `:`"
    return f"YAML syntax error: {problem}", None


def parse_yaml(text: str, filename: str):
    bad = next((m for m in CONTROL_CHARACTERS.finditer(text) if m.group() != "\r"), None)   # CR ends lines
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise RuleError(f"a control character (U+{ord(bad.group()):04X}) cannot stand in a rule file",
                        Span(filename, line, col), category="yaml")
    if _FastLoader is not None and not _LIBYAML_DIFFERS.search(text):
        try:
            return _read(_FastLoader(text), text, filename)
        except Exception:        # noqa: BLE001 — not a good file for libyaml: _Loader tells what is wrong
            pass
    try:
        return _read(_Loader(text), text, filename)
    except yaml.MarkedYAMLError as exc:
        unclosed = _unclosed_quote(exc, text, filename)
        if unclosed is not None:
            raise unclosed from None
        mark = exc.problem_mark or exc.context_mark
        span = Span(filename, mark.line + 1, mark.column + 1) if mark else Span(filename, 1, 1)
        problem = str(exc.problem or exc.context)
        message, hint = _yaml_words(problem)
        raise RuleError(message, span, hint, category="yaml") from None
    except yaml.YAMLError as exc:
        raise RuleError(f"YAML error: {exc}", Span(filename, 1, 1), category="yaml") from None


def _unclosed_quote(exc: yaml.MarkedYAMLError, text: str, filename: str) -> RuleError | None:
    """A quote YAML read to the end of the file, told where it opens rather than at the file's end.
    Inside `[...]` or `{...}` it is mostly a quote in the middle of an unquoted item: `{`, `}`, `[`,
    `]` and `,` end such an item, so `[say("pass {me}")]` leaves `")]` to open a quoted text."""
    mark = exc.context_mark
    if mark is None or "quoted scalar" not in str(exc.context) or "end of stream" not in str(exc.problem):
        return None
    line = text.splitlines()[mark.line] if mark.line < len(text.splitlines()) else ""
    quote = line[mark.column:mark.column + 1] or '"'
    span = Span(filename, mark.line + 1, mark.column + 1)
    if any(ch in line[:mark.column] for ch in "[{"):
        return RuleError(f"a `{quote}` YAML takes for the start of a quoted text that never ends: inside `[...]` "
                         "and `{...}`, a `{`, `}`, `[`, `]` or `,` ends an item that is not quoted", span,
                         "put the whole item in single quotes ('say(\"pass {me}\")') or write the list as a "
                         "block list, one `- ` item a line", category="yaml")
    return RuleError(f"a quoted text opens here with `{quote}` and never ends", span,
                     f"end it with a `{quote}` on this line", category="yaml")


def _read(loader, text: str, filename: str):
    loader.filename, loader.text = filename, text
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def read_rule_text(path: Path, filename: str) -> str:
    """A rule file's text: at most MAX_FILE_BYTES, UTF-8 (a bad byte is reported where it stands)."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RuleError(f"cannot read {filename}: {exc.strerror or 'unreadable'}") from None
    if len(data) > MAX_FILE_BYTES:
        raise RuleError(f"{filename} is larger than {MAX_FILE_BYTES:,} bytes, the most a rule file may hold",
                        Span(filename, 1, 1), category="limit")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[data.rfind(b"\n", 0, exc.start) + 1:exc.start].decode("utf-8", "replace")) + 1
        raise RuleError("this is not UTF-8 text (a rule file is written in UTF-8)", Span(filename, line, col),
                        category="yaml") from None


def load_document(path: Path, _seen: tuple = (), text: str | None = None, reads: Reads | None = None
                  ) -> MarkedDict:
    """Read one rule file, following `extends:` (variants are diffs). `text`: the file's text as an
    editor holds it, not yet saved (its `extends:` and `import:` are still read from their files).
    `reads`, when given, collects every file read and every `extends:` or `import:` followed."""
    filename = display_name(path)
    if path.resolve() in _seen:
        raise RuleError(f"`extends:` loops back to {filename}", Span(filename, 1, 1))
    if len(_seen) >= MAX_CHAIN:
        raise RuleError(f"more than {MAX_CHAIN} files reached through `extends:` and `import:`",
                        Span(filename, 1, 1), category="limit")
    if text is None:
        text = read_rule_text(path, filename)
        if reads is not None:
            reads.files.append((path, filename, text))
    elif len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise RuleError(f"{filename} is larger than {MAX_FILE_BYTES:,} bytes, the most a rule file may hold",
                        Span(filename, 1, 1), category="limit")
    doc = parse_yaml(text, filename)
    cut = cut_items(doc)
    if cut:
        raise RuleErrors(cut)
    if not isinstance(doc, dict):
        raise RuleError("a rule file must be a mapping of keys such as `game:`, `deck:`, `zones:`",
                        Span(filename, 1, 1), category="schema")
    doc = _with_imports(doc, path, _seen, reads)
    base_name = doc.get("extends")
    if base_name is None:
        return doc
    where = doc.key_spans["extends"]
    if not isinstance(base_name, str):
        raise RuleError("`extends:` takes the name of a game or a path", where, category="schema")
    try:
        base_path = reference(base_name, path, "game")
    except RuleError as exc:
        raise RuleError(exc.message, span_of(base_name, where), exc.hint, category="schema") from None
    if reads is not None:
        reads.references.append((str(base_name), path, "game", base_path))
    base = load_document(base_path, _seen + (path.resolve(),), reads=reads)
    merged = merge(base, doc)
    merged.pop("extends", None)
    merged.base_path = base_path
    return merged


def _with_imports(doc, path: Path, seen: tuple, reads: Reads | None):
    """`import: [poker]`: a library's patterns and functions, under the file's own keys."""
    names = doc.get("import")
    if not names:
        return doc
    where = doc.key_spans["import"]
    if not isinstance(names, list):
        raise RuleError("`import:` takes a list of library names, as in `import: [poker]`", where, category="schema")
    merged = None
    for name in names:
        try:
            lib_path = reference(str(name), path, "library")
        except RuleError as exc:
            raise RuleError(exc.message, span_of(name, where), exc.hint, category="schema") from None
        if reads is not None:
            reads.references.append((str(name), path, "library", lib_path))
        lib = load_document(lib_path, seen + (path.resolve(),), reads=reads)
        if "library" not in lib:
            raise RuleError(f"`{name}` is a game, not a library (a library file says `library:`)",
                            span_of(name, where), category="schema")
        lib = MarkedDict({k: v for k, v in lib.items() if k not in ("library", "title", "source", "notes")})
        lib.span, lib.key_spans = doc.span, {}
        merged = lib if merged is None else merge(merged, lib)
    result = merge(merged, doc)
    result.pop("import", None)
    return result


def merge(base, override):
    """Deep-merge mappings: the variant's keys win; `null` removes a key."""
    if not (isinstance(base, dict) and isinstance(override, dict)):
        return override
    result = MarkedDict(base)
    result.span = getattr(override, "span", getattr(base, "span", None))
    result.key_spans = dict(getattr(base, "key_spans", {}))
    result.replaced = {key: base[key] for key in override if key in base}
    result.base_span = getattr(base, "span", None)
    for key, value in override.items():
        if value is None and key in result and key != "extends":
            result.pop(key)
            result.key_spans[key] = override.key_spans.get(key, result.key_spans.get(key))   # where it went
            continue
        result[key] = merge(base.get(key), value) if key in base else value
        result.key_spans[key] = override.key_spans.get(key, result.key_spans.get(key))
    return result


def load_file(name_or_path: str, text: str | None = None, reads: Reads | None = None) -> MarkedDict:
    """Find, read, merge and schema-check a rule file; raise RuleErrors. `text`, `reads`: as for load_document."""
    try:
        doc = load_document(Path(name_or_path) if text is not None else resolve(name_or_path), text=text,
                            reads=reads)
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    errors = validate(doc)
    if errors:
        raise RuleErrors(errors)
    return doc
