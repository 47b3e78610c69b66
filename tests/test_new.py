"""`koloda new`: a starter rule file that checks and plays, and a scenario file that passes as written."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from koloda.api import load, load_spec
from koloda.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def _pytest(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
                          capture_output=True, text=True, timeout=120, cwd=folder,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


@pytest.mark.parametrize("like", [None, "pony", "kunkin-big"])
def test_a_new_game_checks_plays_and_its_scenarios_pass(tmp_path, like):
    result = CliRunner().invoke(main, ["new", "my-game", "--dir", str(tmp_path), *(["--like", like] if like else [])])
    assert result.exit_code == 0, result.output
    rules = tmp_path / "my-game.yaml"
    assert (tmp_path / "test_my_game.py").is_file()
    text = rules.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    schema = text.splitlines()[0].split("=", 1)[1]
    assert (tmp_path / schema).resolve() == (ROOT / "koloda" / "dsl" / "schema.json").resolve()
    spec, _ = load_spec(str(rules))
    assert spec.name == "my-game" and "\nsource: >\n" in text and "\nnotes: |\n" in text
    if like:
        assert set(spec.options) == set(load_spec(like)[0].options)
    state = load(str(rules)).new_initial_state(seed=3)
    assert state.legal_actions()
    done = _pytest(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_a_new_game_is_in_the_layout_of_koloda_fmt(tmp_path):
    pytest.importorskip("ruamel.yaml")
    from koloda.authoring.fmt import format_text
    assert CliRunner().invoke(main, ["new", "g", "--dir", str(tmp_path)]).exit_code == 0
    text = (tmp_path / "g.yaml").read_text(encoding="utf-8")
    assert format_text(text) == text


def test_the_scenarios_fail_when_the_rules_change(tmp_path):
    assert CliRunner().invoke(main, ["new", "g", "--dir", str(tmp_path)]).exit_code == 0
    rules = tmp_path / "g.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("deal 5 to each hand", "deal 6 to each hand"),
                     encoding="utf-8")
    assert _pytest(tmp_path).returncode != 0


@pytest.mark.parametrize("args, message", [
    (["new", "My Game"], "is not a game name"),
    (["new", "g", "--like", "no-such-game"], "is not a shipped game"),
    (["new", "g", "--dir", "missing-folder"], "is not a folder"),
])
def test_mistakes_are_told_plainly(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_nothing_is_written_over(tmp_path):
    (tmp_path / "test_g.py").write_text("# mine\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["new", "g", "--dir", str(tmp_path)])
    assert result.exit_code == 1 and "already there" in result.output
    assert (tmp_path / "test_g.py").read_text(encoding="utf-8") == "# mine\n"
    assert not (tmp_path / "g.yaml").exists()
