"""Hostile and broken rule files: each gives a clean, located error quickly, never a traceback or a hang.

The files are made in a temporary folder (some are large, or made of many files); each case
states the message expected. That a refusal comes before the costly work is checked by counting
(the YAML values composed), not by timing; a guard of a minute catches a hang only.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml.composer
from helpers import no_hang

import koloda
from koloda.api import load_spec
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.limits import MAX_CARDS, MAX_CHAIN, MAX_EXPRESSION_DEPTH, MAX_FILE_BYTES, MAX_NESTING, MAX_NUMBER

GAME = """\
game: g
players: {players}
deck: {deck}
options:
  copies: {{default: 1}}
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
vars:
  x: {{start: 1}}
{extra}
deal: [gather into stock, shuffle stock, deal 2 to each hand]
phases:
  main:
    actions:
      pass:
        if: "{guard}"
        do: end deal
match: {{ends: "true"}}
"""


def game_text(guard: str = "true", extra: str = "", players: object = 2, deck: str = "standard52") -> str:
    return GAME.format(guard=guard, extra=extra, players=players, deck=deck)


def errors_of(path: Path) -> list[RuleError]:
    with no_hang(what=f"refusing {path.name}"), pytest.raises((RuleErrors, RuleError)) as info:
        load_spec(str(path))
    exc = info.value
    return exc.errors if isinstance(exc, RuleErrors) else [exc]


def write(tmp_path: Path, text: str | bytes, name: str = "g.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def assert_refused(tmp_path, text, message: str, line: int | None = None, name: str = "g.yaml"):
    errors = errors_of(write(tmp_path, text, name))
    first = errors[0]
    assert message in first.message, [e.message for e in errors]
    if line is not None:
        assert first.span.line == line
    first.format()          # showing it must not fail either
    return first


# ------------------------------------------------------------------ reading the file
@pytest.fixture
def composed(monkeypatch) -> list[int]:
    """How many YAML values the loader composes (an alias counts once, where it stands)."""
    count = [0]
    compose = yaml.composer.Composer.compose_node

    def counted(self, parent, index):
        count[0] += 1
        return compose(self, parent, index)
    monkeypatch.setattr(yaml.composer.Composer, "compose_node", counted)
    return count


def test_an_alias_bomb_is_refused_at_once(tmp_path, composed):
    lines = ['game: g', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
    assert_refused(tmp_path, "\n".join(lines) + "\n", "once its aliases are expanded")
    # the file as written holds about a hundred values; expanded, ten to the ninth: refused unexpanded
    assert 50 < composed[0] < 200


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, composed):
    text = "game: g\nnotes: |\n" + ("  " + "x" * 78 + "\n") * (MAX_FILE_BYTES // 80 + 10)
    error = assert_refused(tmp_path, text, f"larger than {MAX_FILE_BYTES:,} bytes")
    assert len(error.format()) < 400, "the message does not echo the file"
    assert composed[0] == 0, "nothing of it is parsed"


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x07", "\x9b"])
def test_control_characters_are_refused_where_they_stand(tmp_path, char):
    error = assert_refused(tmp_path, f"game: g\ntitle: a{char}b\n", "control character", line=2)
    assert error.span.col == 9
    assert char not in error.format(), "the message never prints the character itself"


@pytest.mark.parametrize("tagged", ["!!timestamp hello", "!!float abc", "!!int abc", "!!python/object:os.system x",
                                    "!thing 3"])
def test_yaml_tags_are_refused_with_their_place(tmp_path, tagged):
    assert_refused(tmp_path, f"game: g\ntitle: {tagged}\n", "YAML tags", line=2)


def test_a_date_is_plain_text(tmp_path):
    errors = errors_of(write(tmp_path, "game: g\ntitle: 2024-01-05\nplayers: 2\ndeck: standard52\n"))
    assert not any("date" in e.message for e in errors)


def test_bytes_that_are_not_utf8_are_located(tmp_path):
    assert_refused(tmp_path, b"game: g\ntitle: caf\xe9\n", "not UTF-8", line=2)


def test_deep_nesting_of_yaml_is_refused(tmp_path):
    assert_refused(tmp_path, "game: g\nx: " + "[" * 10_000 + "]" * 10_000 + "\n", "nested more than", line=2)
    block = "game: g\nx:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 800)) + " " * 800 + "v: 1\n"
    assert_refused(tmp_path, block, "nested more than")


@pytest.mark.parametrize("digits", [12, 5000])
def test_huge_numbers_are_refused(tmp_path, digits):
    assert_refused(tmp_path, f"game: g\nplayers: {'9' * digits}\n", f"at most {MAX_NUMBER:,}", line=2)
    error = assert_refused(tmp_path, game_text(guard=f"x < {'9' * digits}"), f"at most {MAX_NUMBER:,}")
    assert error.category == "limit"


# ------------------------------------------------------------------ other files
@pytest.mark.parametrize("target", ["/etc/passwd", "../../etc/passwd", "../g.yaml", "a" * 5000])
def test_extends_reaches_only_shipped_games_and_the_files_own_folder(tmp_path, target):
    error = assert_refused(tmp_path, f"game: g\nextends: {target}\n", "", line=2)
    assert "root:" not in error.format(), "nothing of the refused file is quoted"


def test_extends_cannot_follow_a_link_out_of_the_folder(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text(game_text(), encoding="utf-8")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "base.yaml").symlink_to(outside)
    (folder / "g.yaml").write_text("extends: base\ngame: g2\n", encoding="utf-8")
    errors = errors_of(folder / "g.yaml")
    assert "leads outside the folder" in errors[0].message


def test_extends_of_a_file_in_the_same_folder_and_of_a_shipped_game_work(tmp_path):
    write(tmp_path, game_text(), "base.yaml")
    spec, _ = load_spec(str(write(tmp_path, "extends: base\ngame: variant\n", "variant.yaml")))
    assert spec.name == "variant"
    spec, _ = load_spec(str(write(tmp_path, "extends: pony\ngame: my-pony\n", "mine.yaml")))
    assert spec.name == "my-pony"


def test_a_long_chain_of_extends_is_refused(tmp_path):
    for i in range(MAX_CHAIN + 8):
        (tmp_path / f"c{i}.yaml").write_text(f"extends: c{i + 1}\n", encoding="utf-8")
    (tmp_path / f"c{MAX_CHAIN + 8}.yaml").write_text(game_text(), encoding="utf-8")
    errors = errors_of(tmp_path / "c0.yaml")
    assert f"more than {MAX_CHAIN} files" in errors[0].message


# ------------------------------------------------------------------ expressions
@pytest.mark.parametrize("make", [lambda n: " + ".join(["x"] * n) + " > 0",
                                  lambda n: "not " * (n if n % 2 == 0 else n + 1) + "true"])
def test_deep_expressions_within_the_limit_play_and_deeper_ones_are_refused(tmp_path, make):
    ok = write(tmp_path, game_text(guard=make(200)), "ok.yaml")
    game = koloda.load(str(ok))
    s = game.new_initial_state(1)
    s.apply_action(s.legal_actions()[0])
    for n in (MAX_EXPRESSION_DEPTH + 20, 5000):
        assert_refused(tmp_path, game_text(guard=make(n)), "nested more than")


def chain(n: int) -> str:
    lines = [f"  f{i}(int a): f{i + 1}(a) + 1" for i in range(n)] + [f"  f{n}(int a): a"]
    return "define:\n" + "\n".join(lines)


def test_a_hundred_functions_each_calling_the_next_play(tmp_path):
    game = koloda.load(str(write(tmp_path, game_text(guard="f0(x) > 0", extra=chain(100)))))
    s = game.new_initial_state(1)
    assert s.legal_actions()


@pytest.mark.parametrize("n", [200, 2000])
def test_a_longer_chain_of_functions_is_refused(tmp_path, n):
    # (2,000 functions are 2,000 texts to parse: more time than the other cases, still bounded)
    assert_refused(tmp_path, game_text(guard="f0(x) > 0", extra=chain(n)), f"nested more than {MAX_NESTING}")


def test_a_deep_expression_calling_a_deep_function_is_refused(tmp_path):
    guard = "abs(" * 100 + "f0(x)" + ")" * 100 + " > 0"
    assert_refused(tmp_path, game_text(guard=guard, extra=chain(100)), "`f0` alone goes")


# ------------------------------------------------------------------ sizes of the table
@pytest.mark.parametrize("deck,message", [("{copies: 100000}", "5,200,000 cards"),
                                          ("{copies: 1000000000}", f"at most {MAX_NUMBER:,}"),
                                          ("{jokers: 20000}", f"at most {MAX_CARDS:,}")])
def test_decks_beyond_the_limit_are_refused(tmp_path, deck, message):
    assert_refused(tmp_path, game_text(deck=deck), message, line=3)


def test_players_beyond_the_limit_are_refused(tmp_path):
    assert_refused(tmp_path, game_text(players=10_000), "1 to 64 players", line=2)


@pytest.mark.parametrize("value,message", [("100000", "5,200,000 cards"), ("1000000000", "at most 999,999,999"),
                                           ("9" * 5000, "at most 999,999,999")])
def test_options_given_at_load_keep_to_the_same_limits(tmp_path, value, message):
    path = write(tmp_path, game_text(deck="{copies: option.copies}"))
    with no_hang(what="loading with a huge option"), pytest.raises(RuleError, match=message):
        koloda.load(str(path), options={"copies": value})


# ------------------------------------------------------------------ failures outside effects and guards
def test_a_variable_may_start_from_the_ones_before_it(tmp_path):
    extra = "vars:\n  x: {start: 1}\n  first: {each: player, start: 7}\n  second: {each: player, start: 'my first + x'}"
    path = write(tmp_path, game_text(extra=extra).replace("vars:\n  x: {start: 1}\n", "", 1))
    s = koloda.load(str(path)).new_initial_state(1)
    assert s.vars[-2:] == [8, 8]


def test_an_expression_the_flow_evaluates_fails_at_its_place(tmp_path):
    path = write(tmp_path, game_text().replace('match: {ends: "true"}', 'match: {ends: "10 // (deal_number - 1) > 0"}'))
    s = koloda.load(str(path)).new_initial_state(1)
    with pytest.raises(RuleError) as info:
        s.apply_action(s.legal_actions()[0])            # the deal ends: is the match over?
    assert "division by zero" in info.value.message and info.value.span.line == 19
