"""Names a new user types and the hints a slip gets: a game written here by its name, a save that is not
there, YAML that does not parse under `fmt`, an action dedented out of `actions:`, a `with:` taken out,
counters kept apart from what the table shows, and Russian rule text whose nouns fit their sentences."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from koloda.cli.main import main
from koloda.rulebook import rulebook

STARTER_PLAY = '''      play:
        help: a card of the suit or rank of the pile's top card
        with: c in my hand
'''


def cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def new_game(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert cli("new", "my-game").exit_code == 0
    return tmp_path / "my-game.yaml"


def test_a_new_game_is_found_by_its_name_in_the_current_folder(new_game):
    checked = cli("check", "my-game")
    assert checked.exit_code == 0 and "ok" in checked.output
    explained = cli("explain", "my-game")
    assert explained.exit_code == 0 and explained.output.startswith("# My game")
    played = cli("play", "my-game", "--seat", "random", "--seat", "random", "--fast", "--seed", "2")
    assert played.exit_code == 0 and "Game over" in played.output


def test_a_name_that_is_neither_shipped_nor_here_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("check", "my-game")
    assert result.exit_code != 0 and "no shipped game or rule file named `my-game`" in result.output


def test_resume_of_a_save_that_is_not_there_points_at_the_list_of_saves():
    result = cli("resume", "nosuch")
    assert result.exit_code == 1
    assert "there is no save `nosuch`" in result.output and "`koloda saves`" in result.output


def test_fmt_tells_where_yaml_is_broken_as_check_does(tmp_path):
    pytest.importorskip("ruamel.yaml")
    path = tmp_path / "broken.yaml"
    path.write_text("game: x\nzones:\n  a: {visible: all\n  b: 3\n", encoding="utf-8")
    formatted, checked = cli("fmt", str(path)), cli("check", str(path))
    assert formatted.exit_code == 1
    where = re.search(r"broken\.yaml:(\d+):(\d+): YAML syntax error", checked.output)
    assert where is not None
    assert f"broken.yaml:{where.group(1)}:{where.group(2)}: YAML syntax error" in formatted.output
    assert "^" in formatted.output


def test_an_action_dedented_out_of_actions_is_told_where_it_belongs(new_game):
    text = new_game.read_text(encoding="utf-8")
    draw = "      draw:\n        help: one card from the stock\n        if: stock.size > 0\n" \
           "        do: move stock.top to my hand\n"
    assert draw in text
    new_game.write_text(text.replace(draw, "\n".join(line[2:] for line in draw.splitlines()) + "\n"),
                        encoding="utf-8")
    result = cli("check", str(new_game))
    assert result.exit_code == 1
    assert "`draw:` is indented like a key of phase `play`" in result.output
    assert "indent it under `actions:`, on line" in result.output
    assert "unknown key" not in result.output


def test_a_with_taken_out_is_one_error_that_says_to_bind_the_name(new_game):
    text = new_game.read_text(encoding="utf-8")
    assert STARTER_PLAY in text
    new_game.write_text(text.replace("        with: c in my hand\n", ""), encoding="utf-8")
    result = cli("check", str(new_game))
    assert result.exit_code == 1
    assert result.output.count("unknown name `c`") == 1
    assert "bind it with `with:`" in result.output
    assert "1 error" in result.output and "parameters are none" not in result.output


def test_a_typo_still_gets_its_own_errors_and_suggestion(new_game):
    text = new_game.read_text(encoding="utf-8")
    new_game.write_text(text.replace("if: stock.size > 0", "if: stok.size > 0 and stok.size < 99"), encoding="utf-8")
    result = cli("check", str(new_game))
    assert result.output.count("unknown name `stok`") == 2 and "did you mean `stock`?" in result.output


def test_counters_are_not_listed_as_shown_at_the_table():
    text = rulebook("preferans", None, "en").markdown()
    shown = text.split("## Shown at the table", 1)[1].split("\n## ", 1)[0]
    assert "**settlement**" in shown and "**misere**" not in shown
    counted = text.split("## Counted for reports", 1)[1]
    assert "**misere**" in counted and "**all_pass**" in counted


def test_russian_rule_text_puts_its_nouns_in_the_forms_its_sentences_need():
    text = rulebook("canasta", None, "ru").markdown()
    assert "прибавить сумма" not in text and "прибавить" not in text
    assert not re.search(r" в «", text.replace("в стопке «", "").replace("в стопку «", ""))
    assert "число карт в стопке «колода»" in text
    kunkin = rulebook("kunkin", None, "ru").markdown()
    assert "«turn points» у вас увеличивается на: очки комбинации m" in kunkin
    assert "карты c нет среди: карты комбинации m" in kunkin          # the genitive after `нет`


@pytest.mark.parametrize("name", ["bridge", "canasta", "devyatka", "durak", "hearts", "kunkin", "leopard", "pony",
                                  "preferans", "schnapsen", "thousand"])
def test_no_russian_preposition_stands_before_a_zone_s_name_it_would_decline(name):
    # «колода» cannot be declined: `в «колода»`, `из «колода»` are wrong; `в стопке «колода»`,
    # `из стопки «колода»` right
    from koloda.api import load_spec
    from koloda.dsl.labels import label_text
    spec = load_spec(name)[0]
    text = rulebook(name, None, "ru").markdown()
    labels = [label_text(z.label, z_name, "ru") for z_name, z in spec.zones.items()]
    pattern = r"(?<![\w-])(?:в|из|к|на|от|до) «(?:" + "|".join(map(re.escape, labels)) + ")»"
    wrong = [text[max(0, m.start() - 40):m.end() + 20] for m in re.finditer(pattern, text)]
    assert not wrong, wrong
    assert "прибавить" not in text and "вычесть" not in text
