"""A comma inside an expression in a YAML `[...]` list (koloda/dsl/flowlists.py): one located error
for each expression YAML cut, with the ways out, in place of two garbled syntax errors per piece."""
from __future__ import annotations

import textwrap

import pytest

from koloda.api import load_spec
from koloda.dsl.errors import RuleErrors

GAME = """\
game: probe
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
vars:
  a: 0
  b: 0
deal:
  - deal 2 to each hand
phases:
  main:
    actions:
      look:
        WITH
        if: a < 3
        DO
deal ends: a > 3
"""


def errors(tmp_path, with_: str = "with: c in my hand", do: str = "do: end turn"):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("WITH", with_).replace("DO", do), encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        load_spec(str(path))
    return caught.value.errors


def test_each_cut_expression_is_one_error_where_it_starts(tmp_path):
    found = errors(tmp_path, do="do: [a = max(a, b), b = min(a, max(a, b)), end turn]")
    assert [(e.span.line, e.span.col) for e in found] == [(18, 14), (18, 29)]
    assert found[0].message.startswith("YAML cut `a = max(a, b)` in 2 at its commas")
    assert "YAML cut `b = min(a, max(a, b))` in 3" in found[1].message
    assert '"a = max(a, b)"' in (found[0].hint or "") and "block list" in (found[0].hint or "")
    assert all("syntax error" not in e.message for e in found)


def test_a_parameter_list_cut_inside_a_range_is_told_the_same_way(tmp_path):
    found = errors(tmp_path, with_="with: [c in my hand, k in 0..max(a, b)]")
    assert len(found) == 1 and (found[0].span.line, found[0].span.col) == (16, 30)
    assert "`k in 0..max(a, b)`" in found[0].message


def test_a_bracket_inside_a_flow_item_is_one_error_with_the_ways_out(tmp_path):
    found = errors(tmp_path, with_="with: [c in my hand, s in [clubs, hearts]]")
    assert len(found) == 1 and (found[0].span.line, found[0].span.col) == (16, 35)
    assert "a `[` inside an item of a `[...]` list" in found[0].message
    assert "block list" in (found[0].hint or "")


def test_quoted_or_block_items_are_read_as_written(tmp_path):
    path = tmp_path / "g.yaml"
    quoted = GAME.replace("WITH", "with: c in my hand").replace(
        "DO", 'do: ["a = max(a, b)", end turn]')
    path.write_text(quoted, encoding="utf-8")
    load_spec(str(path))
    block = GAME.replace("WITH", "with: c in my hand").replace(
        "DO", textwrap.indent("do:\n  - a = max(a, b)\n  - end turn", " " * 8).lstrip())
    path.write_text(block, encoding="utf-8")
    load_spec(str(path))


def test_a_text_that_ends_too_soon_is_worded_plainly(tmp_path):
    found = errors(tmp_path, do="do: a = max(a")
    assert "syntax error in effect: unexpected end of the text" in found[0].message


def test_a_value_cut_inside_a_flow_mapping_is_one_error_not_an_unknown_key(tmp_path):
    path = tmp_path / "g.yaml"
    text = GAME.replace("WITH", "with: c in my hand").replace("DO", "do: end turn")
    path.write_text(text.replace("      look:\n", "      peek: {if: max(a, b) > 0, do: end turn}\n      look:\n"),
                    encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        load_spec(str(path))
    found = caught.value.errors
    assert len(found) == 1 and (found[0].span.line, found[0].span.col) == (15, 18)
    assert found[0].message.startswith("YAML cut `max(a, b) > 0` in 2 at its commas: inside `{...}`")
    assert '"max(a, b) > 0"' in (found[0].hint or "")
