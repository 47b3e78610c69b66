"""koloda's one reader of JSON from outside (koloda/dsl/jsontext.py): bounded in length, nesting and
numbers, never recursing past its bound, and linear in the text whatever it holds."""
from __future__ import annotations

import threading

import pytest

from koloda.dsl.jsontext import Bounds, JsonRefused, read_json


@pytest.mark.parametrize("text, reason", [
    ("[" * 100_000 + "]" * 100_000, "nested more than 32 deep"),
    ('{"a": 1, "a": 2}', 'the key "a" is given twice'),
    ("[1e400]", "the number 1e400 is too large"),
    ("[NaN]", "`NaN` is not a number"),
    ("9" * 5000, "more than 4,300 digits"),
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
