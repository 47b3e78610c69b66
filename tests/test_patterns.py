"""Ranked hand patterns: the `poker` library, importing it, and the data cases.

The cases themselves are data, in tests/compliance/patterns.yaml, in the compliance format:
tests/test_compliance.py runs them (it reads every file in tests/compliance/). This file
checks that the data covers what it must, and what is not an expression: the library file
itself, `import:`, and its errors.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import koloda
from koloda.api import load_spec
from koloda.cli.main import main
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.interpreter.game import compile_expression

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "koloda" / "rules" / "lib" / "poker.yaml"
CASES = Path(__file__).parent / "compliance" / "patterns.yaml"
ORDER = ["straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind", "two pairs",
         "pair", "high card"]

GAME = """\
game: {name}
deck: standard52
{imports}
zones:
  pile: {{}}
phases:
  main:
    actions:
      noop: {{do: end turn}}
"""


def write_game(folder: Path, name: str, imports: str = "import: [poker]", extra: str = "") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(GAME.format(name=name, imports=imports) + extra, encoding="utf-8")
    return path


def first_error(exc) -> RuleError:
    return exc.errors[0] if isinstance(exc, RuleErrors) else exc


# ------------------------------------------------------------------ the data covers what it must
def data():
    return yaml.safe_load(CASES.read_text(encoding="utf-8"))


def test_the_data_file_is_run_by_the_compliance_runner():
    import test_compliance
    assert CASES in test_compliance.FILES
    ids = [p.id for p in test_compliance.case_params() if p.id.startswith("patterns[")]
    assert len(ids) == len(data()["cases"]) >= 40


def test_the_data_names_every_pattern_and_covers_each_outcome():
    cases = data()["cases"]
    named = {c["result"] for c in cases if str(c.get("expr", "")).startswith("hand_pattern(") and "result" in c}
    assert named == set(ORDER)
    outcomes = [c["result"] for c in cases if str(c.get("expr", "")).startswith("hand_compare(") and "result" in c]
    assert outcomes.count(1) >= 15 and outcomes.count(-1) >= 5 and outcomes.count(0) >= 8
    ids = {c.get("id", "") for c in cases}
    for must in ("pair of kings with an ace beats pair of kings with a queen", "A-2-3-4-5 is below 2-3-4-5-6",
                 "straight flush from the king", "straight flush from the ace", "full house by the three",
                 "two pairs by the top pair", "two pairs by the second pair", "two pairs by the kicker",
                 "flush by the last card"):
        assert must in ids, must


# ------------------------------------------------------------------ the library file
def test_koloda_check_passes_the_library():
    result = CliRunner().invoke(main, ["check", str(LIBRARY)])
    assert "Traceback" not in result.output
    assert result.exit_code == 0, result.output
    assert ": ok" in result.output and "library" in result.output


def test_the_library_lists_the_poker_order_highest_first():
    spec, _ = load_spec(str(LIBRARY))
    assert spec.library
    assert [p.name for p in spec.patterns] == ORDER


def test_a_library_is_not_a_game_to_play():
    with pytest.raises((RuleError, RuleErrors)) as info:
        koloda.load(str(LIBRARY))
    error = first_error(info.value)
    assert "library" in error.message and "not a game" in error.message


def test_simulating_the_library_from_the_command_line_is_refused_with_a_message():
    result = CliRunner().invoke(main, ["simulate", str(LIBRARY), "-n", "1"])
    assert "Traceback" not in result.output
    assert result.exit_code != 0
    assert "library" in result.output


# ------------------------------------------------------------------ importing it
def test_a_game_that_imports_poker_gets_its_patterns(tmp_path):
    game = koloda.load(str(write_game(tmp_path, "importer")))
    assert [p.name for p in game.spec.patterns] == ORDER
    f, t = compile_expression(game, "hand_pattern(h)", {"h": "list:card"})
    state = game.new_initial_state(0)
    assert t == "str"
    assert f(state, {"h": game.cards.parse("KS") + game.cards.parse("KH") + game.cards.parse("2C")
                     + game.cards.parse("2D") + game.cards.parse("9S")}) == "two pairs"


def test_the_shipped_showdown_imports_poker():
    game = koloda.load("showdown")
    assert [p.name for p in game.spec.patterns] == ORDER


def test_without_patterns_the_pattern_functions_are_a_name_error(tmp_path):
    game = koloda.load(str(write_game(tmp_path, "plain", imports="")))
    with pytest.raises(RuleErrors) as info:
        compile_expression(game, "hand_pattern(pile)")
    error = info.value.errors[0]
    assert error.category == "name"
    assert "patterns" in error.message and "import: [poker]" in error.message


def test_an_unknown_library_is_a_located_error_with_a_did_you_mean(tmp_path):
    path = write_game(tmp_path, "typo", imports="import: [pokr]")
    with pytest.raises((RuleError, RuleErrors)) as info:
        koloda.load(str(path))
    error = first_error(info.value)
    assert "no library named `pokr`" in error.message
    assert error.hint and "poker" in error.hint
    assert error.span.line == 3 and error.span.col > 1       # at `pokr` on the `import:` line
    assert "typo.yaml" in str(error.span.file)


def test_koloda_check_reports_the_unknown_library(tmp_path):
    path = write_game(tmp_path, "typo", imports="import: [pokr]")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert "Traceback" not in result.output
    assert result.exit_code != 0
    assert "typo.yaml:3:" in result.output and "did you mean `poker`" in result.output


def test_importing_a_game_as_a_library_is_refused(tmp_path):
    write_game(tmp_path, "other")
    path = write_game(tmp_path, "uses_a_game", imports="import: [other]")
    with pytest.raises((RuleError, RuleErrors)) as info:
        koloda.load(str(path))
    error = first_error(info.value)
    assert "is a game, not a library" in error.message
    assert error.span.line == 3
