"""Load rule files: YAML with line/column marks, `extends:` and the schema.

YAML is read with the safe loader only: a rule file is data and can never
reach Python. Every mapping, list and string remembers where it was written,
so later errors point at the exact line and column.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema
import yaml

from koloda.dsl.errors import RuleError, RuleErrors, Span, did_you_mean

RULES_PACKAGE = "koloda.rules"


class MarkedDict(dict):
    """A YAML mapping that knows where it and each of its keys were written."""
    span: Span
    key_spans: dict


class MarkedList(list):
    span: Span


class MarkedStr(str):
    """A YAML string with the position of its first character of content."""
    span: Span
    plain: bool
    segments: list[tuple[int, int, int]]


class MarkedInt(int):
    span: Span


def _span(node: yaml.Node, filename: str) -> Span:
    m = node.start_mark
    return Span(filename, m.line + 1, m.column + 1)


class _Loader(yaml.SafeLoader):
    filename = "<string>"


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
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> MarkedList:
    result = MarkedList(loader.construct_object(child, deep=True) for child in node.value)
    result.span = _span(node, loader.filename)
    return result


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> MarkedStr:
    result = MarkedStr(loader.construct_scalar(node))
    span = _span(node, loader.filename)
    result.segments = _segments(node, str(result), span)
    first = result.segments[0]
    result.span = Span(span.file, first[1], first[2])
    result.plain = node.style is None
    return result


def _segments(node: yaml.ScalarNode, value: str, span: Span) -> list[tuple[int, int, int]]:
    """Where each piece of a string's text was written: (offset in the text, line, column).

    YAML folds multi-line plain and quoted strings into one line, and block
    strings (`|`) drop their indentation; this maps positions in the text
    back to the file, so errors point at the right place."""
    start, end = node.start_mark, node.end_mark
    buffer = getattr(start, "buffer", None)
    if buffer is None or start.pointer is None:
        return [(0, span.line, span.col)]
    region = buffer[start.pointer:end.pointer]
    lines = region.split("\n")
    if node.style in ("|", ">"):
        # content starts on the line after the indicator, at the block's indentation
        body = lines[1:]
        indent = min((len(x) - len(x.lstrip(" ")) for x in body if x.strip()), default=0)
        segments, offset = [], 0
        for i, line in enumerate(body):
            segments.append((offset, span.line + 1 + i, indent + 1))
            offset += len(line[indent:]) + 1 if node.style == "|" else len(line.strip()) + 1
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
    result = MarkedInt(yaml.SafeLoader.construct_yaml_int(loader, node))
    result.span = _span(node, loader.filename)
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:str", _construct_str)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def span_of(value, default: Span) -> Span:
    return getattr(value, "span", default)


def parse_yaml(text: str, filename: str):
    loader = _Loader(text)
    loader.filename = filename
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(filename, mark.line + 1, mark.column + 1) if mark else Span(filename, 1, 1)
        raise RuleError(f"YAML syntax error: {exc.problem or exc.context}", span, category="yaml") from None
    except yaml.YAMLError as exc:
        raise RuleError(f"YAML error: {exc}", Span(filename, 1, 1), category="yaml") from None
    finally:
        loader.dispose()


def shipped_path(name: str) -> Path | None:
    path = Path(str(resources.files(RULES_PACKAGE).joinpath(f"{name}.yaml")))
    return path if path.is_file() else None


def shipped_names() -> list[str]:
    folder = Path(str(resources.files(RULES_PACKAGE)))
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.stem.startswith("_"))


def library_names() -> list[str]:
    folder = Path(str(resources.files(RULES_PACKAGE).joinpath("lib")))
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def resolve(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A shipped game's name, or a path (relative to the file that extends it)."""
    candidate = Path(name_or_path)
    if relative_to is not None and not candidate.is_absolute():
        near = relative_to.parent / candidate
        if near.suffix in (".yaml", ".yml") and near.is_file():
            return near
        if (near.with_suffix(".yaml")).is_file() and not candidate.suffix:
            return near.with_suffix(".yaml")
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        if not candidate.is_file():
            raise RuleError(f"no such rule file: {name_or_path}")
        return candidate
    shipped = shipped_path(name_or_path)
    if shipped is None:
        hint = did_you_mean(name_or_path, shipped_names())
        raise RuleError(f"no shipped game or rule file named `{name_or_path}`", hint=hint)
    return shipped


def _display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_document(path: Path, _seen: tuple = ()) -> MarkedDict:
    """Read one rule file, following `extends:` (variants are diffs)."""
    filename = _display_name(path)
    if path.resolve() in _seen:
        raise RuleError(f"`extends:` loops back to {filename}", Span(filename, 1, 1))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(f"cannot read {filename}: {exc}") from None
    doc = parse_yaml(text, filename)
    if not isinstance(doc, dict):
        raise RuleError("a rule file must be a mapping of keys such as `game:`, `deck:`, `zones:`",
                        Span(filename, 1, 1), category="schema")
    doc = _with_imports(doc, path, _seen)
    base_name = doc.get("extends")
    if base_name is None:
        return doc
    where = doc.key_spans["extends"]
    if not isinstance(base_name, str):
        raise RuleError("`extends:` takes the name of a game or a path", where, category="schema")
    try:
        base_path = resolve(base_name, relative_to=path)
    except RuleError as exc:
        raise RuleError(exc.message, span_of(base_name, where), exc.hint, category="schema") from None
    base = load_document(base_path, _seen + (path.resolve(),))
    merged = merge(base, doc)
    merged.pop("extends", None)
    return merged


def _with_imports(doc, path: Path, seen: tuple):
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
            lib_path = _library_path(str(name), path)
        except RuleError as exc:
            raise RuleError(exc.message, span_of(name, where), exc.hint, category="schema") from None
        lib = load_document(lib_path, seen + (path.resolve(),))
        if "library" not in lib:
            raise RuleError(f"`{name}` is a game, not a library (a library file says `library:`)",
                            span_of(name, where), category="schema")
        lib = MarkedDict({k: v for k, v in lib.items() if k not in ("library", "title", "source", "notes")})
        lib.span, lib.key_spans = doc.span, {}
        merged = lib if merged is None else merge(merged, lib)
    result = merge(merged, doc)
    result.pop("import", None)
    return result


def _library_path(name: str, relative_to: Path) -> Path:
    near = relative_to.parent / name
    for candidate in (near, near.with_suffix(".yaml")):
        if candidate.is_file():
            return candidate
    shipped = Path(str(resources.files(RULES_PACKAGE).joinpath("lib", f"{name}.yaml")))
    if shipped.is_file():
        return shipped
    folder = Path(str(resources.files(RULES_PACKAGE).joinpath("lib")))
    known = [p.stem for p in folder.glob("*.yaml")] if folder.is_dir() else []
    raise RuleError(f"no library named `{name}`", hint=did_you_mean(name, known))


def merge(base, override):
    """Deep-merge mappings: the variant's keys win; `null` removes a key."""
    if not (isinstance(base, dict) and isinstance(override, dict)):
        return override
    result = MarkedDict(base)
    result.span = getattr(override, "span", getattr(base, "span", None))
    result.key_spans = dict(getattr(base, "key_spans", {}))
    for key, value in override.items():
        if value is None and key in result and key != "extends":
            result.pop(key)
            continue
        result[key] = merge(base.get(key), value) if key in base else value
        result.key_spans[key] = override.key_spans.get(key, result.key_spans.get(key))
    return result


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(resources.files("koloda.dsl").joinpath("schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def library_schema() -> dict:
    """A library holds patterns, functions and values for games to import: no deck, no phases."""
    main = schema()
    keep = ("library", "title", "source", "notes", "patterns", "define", "values", "melds")
    return {**main, "required": ["library"], "properties": {k: main["properties"][k] for k in keep}}


def validate(doc: MarkedDict) -> list[RuleError]:
    """Check the file's structure against the JSON Schema; all errors, located."""
    validator = jsonschema.Draft202012Validator(library_schema() if "library" in doc else schema())
    errors = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        errors.append(_schema_error(doc, err))
    return _dedupe(errors)


def _dedupe(errors: list[RuleError]) -> list[RuleError]:
    seen, result = set(), []
    for e in errors:
        key = (str(e.span), e.message)
        if key not in seen:
            seen.add(key)
            result.append(e)
    return result


def _locate(doc: MarkedDict, path: list) -> tuple[Span, object]:
    node: object = doc
    span = doc.span
    for part in path:
        # every mapping of a loaded document is a MarkedDict (the loader, merge and imports make no other)
        if isinstance(node, MarkedDict) and part in node:
            span = node.key_spans.get(part, span)
            node = node[part]
            if isinstance(node, (MarkedDict, MarkedList)) and len(node) == 0:
                pass
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
            span = span_of(node, span)
        else:
            break
    return span, node


def _schema_error(doc, err: jsonschema.ValidationError) -> RuleError:
    path = list(err.absolute_path)
    span, node = _locate(doc, path)
    where = ".".join(str(p) for p in path) or "the file"
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed]
        patterns = err.schema.get("patternProperties", {})
        extra = [k for k in extra if not any(re.search(p, k) for p in patterns)]
        if extra:
            key = extra[0]
            key_span = err.instance.key_spans.get(key, span) if hasattr(err.instance, "key_spans") else span
            place = f" in `{where}`" if path else ""
            return RuleError(f"unknown key `{key}`{place}", key_span, did_you_mean(key, allowed), category="schema")
    if err.validator == "required":
        return RuleError(f"`{where}` is missing {err.message.split(' is a required')[0]}", span, category="schema")
    if err.validator == "enum":
        choices = ", ".join(map(str, err.validator_value))
        hint = did_you_mean(str(err.instance), map(str, err.validator_value)) or f"one of {choices}"
        return RuleError(f"`{where}` cannot be {err.instance!r}", span_of(node, span), hint, category="schema")
    if err.validator == "type":
        kinds = [err.validator_value] if isinstance(err.validator_value, str) else err.validator_value
        expected = " or ".join(_a(k) for k in kinds)
        return RuleError(f"`{where}` must be {expected}, not {_kind(err.instance)}", span_of(node, span),
                         category="schema")
    description = err.schema.get("description")
    message = f"`{where}`: {err.message}"
    return RuleError(message, span_of(node, span), description, category="schema")


def _a(kind: str) -> str:
    words = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
             "boolean": "true or false", "number": "a number", "null": "empty"}
    return words.get(kind, kind)


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "empty" if value is None else type(value).__name__


def load_file(name_or_path: str) -> MarkedDict:
    """Find, read, merge and schema-check a rule file; raise RuleErrors."""
    try:
        doc = load_document(resolve(name_or_path))
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    errors = validate(doc)
    if errors:
        raise RuleErrors(errors)
    return doc
