"""koloda's one reader of JSON from outside (koloda/dsl/jsontext.py): bounded in length, nesting and
numbers, never recursing past its bound, and linear in the text whatever it holds."""
from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

import koloda
from koloda.dsl.jsontext import Bounds, JsonRefused, read_json


@pytest.mark.parametrize("text, reason", [
    ("[" * 100_000 + "]" * 100_000, "nested more than 32 deep"),
    ('{"a": 1, "a": 2}', 'the key "a" is given twice'),
    ("[1e400]", "the number 1e400 is too large"),
    ("[NaN]", "`NaN` is not a number"),
    ("9" * 5000, "more than 4,300 digits"),
    ("0." + "9" * 5000, "more than 4,300 digits"),             # a fraction is bounded as a whole number is
    ("   ", "it is empty"),
    ('["open', "it is not JSON, or it was cut short"),
    ('["[[[[' + "[" * 100_000, "it is not JSON, or it was cut short"),     # brackets inside an open string
    ("[]" * 200_001, "more than 200,000 lists and mappings"),
])
def test_what_is_refused(text, reason):
    with pytest.raises(JsonRefused, match=reason.replace("(", r"\(").replace("[", r"\[")):
        read_json(text)


def test_the_bounds_are_the_caller_s():
    small = Bounds(chars=20, depth=2)
    assert read_json('{"move": [1]}', small) == {"move": [1]}
    with pytest.raises(JsonRefused, match="nested more than 2 deep"):
        read_json("[[[1]]]", small)
    with pytest.raises(JsonRefused, match="longer than 20 characters"):
        read_json(" " * 21 + "1", small)


def test_each_caller_bounds_the_digits_of_a_number():
    few = Bounds(digits=10)
    assert read_json("[1234567890, 0.12345678]", few) == [1234567890, 0.12345678]
    for text in ("[12345678901]", "[0.123456789]", "[1e-0000000001]"):
        with pytest.raises(JsonRefused, match="more than 10 digits"):
            read_json(text, few)


def test_brackets_in_strings_do_not_count():
    assert read_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"]]]"}') == {"a": '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]]]'}


def test_a_text_of_escaped_quotes_is_read_in_one_pass():
    # a pattern that looked for each string's closing quote from every later quote took time quadratic in this
    text = '["' + '\\"' * 1_000_000
    done: list[str] = []

    def read() -> None:
        try:
            read_json(text)
        except JsonRefused as exc:
            done.append(exc.reason)
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(60)
    assert done and "cut short" in done[0]


# every other json.load(s) in koloda reads what koloda ships or wrote itself a moment before
_TRUSTED_JSON = {
    "koloda/dsl/jsontext.py": "the reader itself",
    "koloda/dsl/structure.py": "the rule files' schema, shipped in the package",
    "koloda/session/schema.py": "the save and transcript schemas, shipped in the package",
    "koloda/report/export.py": "the report schemas, shipped in the package",
    "koloda/interpreter/core/state.py": "a copy of a state through json.dumps, in the same call",
    "koloda/tune/search.py": "a copy of a search's plan through json.dumps, in the same call",
}


def test_json_from_outside_is_read_only_by_the_bounded_reader():
    root = Path(koloda.__file__).parent.parent
    found: dict[str, int] = {}
    for path in sorted((root / "koloda").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            called = (isinstance(node, ast.Attribute) and node.attr in ("load", "loads")
                      and isinstance(node.value, ast.Name) and node.value.id == "json")
            imported = (isinstance(node, ast.ImportFrom) and node.module == "json"
                        and any(alias.name in ("load", "loads", "JSONDecoder") for alias in node.names))
            if called or imported:
                name = path.relative_to(root).as_posix()
                found[name] = found.get(name, 0) + 1
    unexpected = sorted(set(found) - set(_TRUSTED_JSON))
    assert not unexpected, f"json.load(s) outside koloda/dsl/jsontext.py (use read_json with Bounds): {unexpected}"
    assert sorted(found) == sorted(_TRUSTED_JSON), "a file in _TRUSTED_JSON reads no JSON any more: take it out"
