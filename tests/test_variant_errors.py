"""A file that `extends:` a game: every error its own content causes is reported in it, at the
key that caused it, never inside the base (a shipped game lives in the installed package)."""
from __future__ import annotations

from pathlib import Path

import pytest

import koloda
from koloda.api import load_spec
from koloda.dsl.errors import RuleError

HEAD = "game: my-pony\nextends: pony\n"


def errors_of(path: Path) -> list[RuleError]:
    with pytest.raises(koloda.RuleErrors) as info:
        load_spec(str(path))
    return info.value.errors


@pytest.mark.parametrize("options,col,message,hint", [
    ('  limit: {default: "100"}', 21, "option `limit` is int, but its default is '100'",
     "`limit` is a whole number in pony, the game this file extends"),
    ("  hand: {default: seven}", 19, "option `hand`: default 'seven' is not one of its choices",
     "`hand` is a whole number in pony"),
    ("  hand: {default: 6}", 19, "option `hand`: default 6 is not one of its choices", "one of 5, 7"),
    ("  jack_finish_doubles: {default: 3}", 34, "option `jack_finish_doubles` is bool, but its default is 3",
     "`jack_finish_doubles` is true or false in pony"),
    ('  limit: "100"', 11, "`options: limit` as this file has it breaks pony's rules at pony.yaml:",
     "in pony, `limit` is a whole number"),
    ("  jack_finish_doubles: 3", 24, "`options: jack_finish_doubles` as this file has it breaks pony's rules",
     "in pony, `jack_finish_doubles` is true or false"),
])
def test_a_bad_option_value_is_reported_at_the_value_in_the_variant(tmp_path, options, col, message, hint):
    path = tmp_path / "my-pony.yaml"
    path.write_text(HEAD + "options:\n" + options + "\n", encoding="utf-8")
    errors = errors_of(path)
    assert all(Path(e.span.file).resolve() == path.resolve() for e in errors), [str(e.span) for e in errors]
    first = errors[0]
    assert (first.span.line, first.span.col) == (4, col)
    assert message in first.message and hint in (first.hint or "")
    assert "pony.yaml:" not in first.format().splitlines()[1], "the source shown is the variant's line"


def test_a_removed_zone_the_base_uses_is_reported_at_its_removal(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(HEAD + "zones:\n  pile: null\n", encoding="utf-8")
    errors = errors_of(path)
    assert len(errors) == 1, "one error for one change, however many places of the base it breaks"
    e = errors[0]
    assert (Path(e.span.file).name, e.span.line, e.span.col) == ("v.yaml", 4, 3)
    assert e.message.startswith("removing `pile` breaks pony's rules at pony.yaml:")
    assert "more places there too" in (e.hint or "")


def test_a_change_no_rule_of_the_base_names_is_reported_at_extends(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(HEAD + "players: {max: 12}\n", encoding="utf-8")
    e = errors_of(path)[0]
    assert (Path(e.span.file).name, e.span.line) == ("v.yaml", 2)
    assert "what this file changes (`players`)" in e.message and "dealing 7 cards to each of 12 players" in e.message


def test_an_error_the_base_has_on_its_own_stays_in_the_base(tmp_path):
    (tmp_path / "base.yaml").write_text(
        "game: base\ndeck: standard52\nzones: {pile: {}}\nphases: {main: {actions: {pass: {do: move frob to pile}}}}\n",
        encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text("game: v\nextends: base.yaml\nplayers: 3\n", encoding="utf-8")
    errors = errors_of(path)
    assert [(Path(e.span.file).name, e.message) for e in errors] == [("base.yaml", "unknown name `frob`")]


def test_a_variant_of_a_file_in_its_own_folder_is_blamed_too(tmp_path):
    (tmp_path / "base.yaml").write_text(
        "game: base\ndeck: standard52\noptions: {n: 2}\nzones: {pile: {}, stock: {}}\n"
        "phases: {main: {actions: {pass: {if: option.n > 1, do: end turn}}}}\n", encoding="utf-8")
    path = tmp_path / "v.yaml"
    path.write_text("game: v\nextends: base.yaml\noptions:\n  n: two\n", encoding="utf-8")
    e = errors_of(path)[0]
    assert (Path(e.span.file).name, e.span.line, e.span.col) == ("v.yaml", 4, 6)
    assert "breaks base's rules at base.yaml:5:" in e.message


def test_the_cli_shows_the_variants_line(tmp_path):
    main = pytest.importorskip("koloda.cli.main").main
    runner = pytest.importorskip("click.testing").CliRunner()
    path = tmp_path / "my-pony.yaml"
    path.write_text(HEAD + 'options:\n  limit: {default: "100"}\n', encoding="utf-8")
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}:4:21: option `limit` is int" in result.output or "my-pony.yaml:4:21:" in result.output
    assert "site-packages" not in result.output and "rules/pony.yaml" not in result.output
