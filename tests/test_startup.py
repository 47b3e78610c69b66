"""`koloda --help` and `koloda list` start without the engine, and the list says what a full load says."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
from koloda.api import load_spec
from koloda.cli.main import main
from koloda.dsl.about import about
from koloda.dsl.errors import RuleErrors

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("koloda.interpreter", "koloda.api", "koloda.agents", "koloda.session", "koloda.sim", "koloda.dsl.check",
          "koloda.dsl.model", "lark", "jsonschema")


def modules_after(*args: str) -> set[str]:
    script = ("import sys\nfrom koloda.cli.main import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    return set(done.stdout.splitlines()[-1].split())


@pytest.mark.parametrize("args", [["--help"], ["list"]])
def test_help_and_list_do_not_load_the_engine(args):
    loaded = modules_after(*args)
    assert not {m for m in loaded if m.startswith(ENGINE)}


def test_help_does_not_read_yaml():
    assert "yaml" not in modules_after("--help")


def test_the_list_is_what_a_full_check_says():
    names = koloda.shipped_games()
    width = max(map(len, names)) + 2
    expected = []
    for name in names:
        spec, _ = load_spec(name)
        players = str(spec.min_players) if spec.min_players == spec.max_players else \
            f"{spec.min_players}-{spec.max_players}"
        word = "player" if spec.max_players == 1 else "players"
        expected.append(f"{name:<{width}} {players:>5} {word:<7}  {spec.title}")
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == expected


@pytest.mark.parametrize("name", koloda.shipped_games())
def test_about_a_file_agrees_with_its_spec(name):
    spec, _ = load_spec(name)
    told = about(name)
    assert (told.name, told.title, told.min_players, told.max_players) == \
        (spec.name, spec.title, spec.min_players, spec.max_players)


@pytest.mark.parametrize("players, low, high", [("3", 3, 3), ("2..5", 2, 5), ("{min: 2, max: 4}", 2, 4), (4, 4, 4)])
def test_about_reads_every_way_of_writing_players(tmp_path, players, low, high):
    path = tmp_path / "g.yaml"
    path.write_text(f"game: g\ntitle: {{en: A game, ru: Игра}}\nplayers: {players}\n", encoding="utf-8")
    told = about(str(path))
    assert (told.title, told.min_players, told.max_players) == ("A game", low, high)


@pytest.mark.parametrize("text", ["game: g\nplayers: many\n", "game: g\nplayers: {min: x}\n", "game: [\n", "- a list\n"])
def test_a_file_that_cannot_tell_its_players_is_listed_as_not_loading(tmp_path, text):
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleErrors):
        about(str(path))


def test_a_game_that_cannot_be_read_is_listed_with_what_to_do(monkeypatch):
    import koloda.dsl.about as about_module
    real = about_module.about

    def about_or_fail(name):
        if name == "pony":
            raise RuleErrors([])
        return real(name)
    monkeypatch.setattr(about_module, "about", about_or_fail)
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0
    (line,) = [x for x in result.output.splitlines() if x.startswith("pony ")]
    assert line.endswith("(does not load: run `koloda check pony`)")
    assert len(result.output.splitlines()) == len(koloda.shipped_games())
