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


NEWCOMER = """\
game: probe
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
  pile: {}
vars:
  a: 0
deal:
  - deal 2 to each hand
phases:
  main:
    actions:
      look:
        with: [c in my hand, n in 1..max(a, 3)]
        if: [a < 3, min(a, 2) < 2]
        do: [move(c, pile), a = max(a, n), say("look, now")]
      skip:
        do: [a += 1, move(top(stock, 2), pile)]
"""


def test_check_tells_a_newcomers_flow_lists_once_a_line_with_the_way_out(tmp_path):
    """A file of flow lists cut at their commas: each line's first cut told once, located, with a hint;
    no garbled "unexpected end of the text" for the pieces."""
    from click.testing import CliRunner
    from koloda.cli.main import main
    path = tmp_path / "probe.yaml"
    path.write_text(NEWCOMER, encoding="utf-8")
    done = CliRunner().invoke(main, ["check", str(path)])
    assert done.exit_code == 1 and "Traceback" not in done.output
    located = [line for line in done.output.splitlines() if line.startswith(str(path) + ":")]
    assert [line.split(":")[1:3] for line in located] == [["16", "30"], ["17", "21"], ["18", "14"], ["18", "29"],
                                                          ["18", "44"], ["20", "22"]], done.output
    assert all("YAML cut" in line and "put the item in quotes" in line for line in located)
    assert "'say(\"look, now\")'" in done.output             # a text with a double quote is single-quoted
    assert "unexpected" not in done.output and "6 errors" in done.output
    # a `{` in such an item ends it too: YAML then reads a quote to the end of the file, told where it opens
    path.write_text(NEWCOMER.replace('say("look, now")', 'say("look {c}")'), encoding="utf-8")
    done = CliRunner().invoke(main, ["check", str(path)])
    assert done.exit_code == 1 and "Traceback" not in done.output and "1 error" in done.output
    assert f"{path}:18:57: a `\"` YAML takes for the start of a quoted text that never ends" in done.output
    assert "end of stream" not in done.output
    assert 'say("look {c}")]' in done.output          # the line as the file has it now, not as first read
