"""`koloda fmt`: the canonical layout keeps every shipped game the same game, and is idempotent."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("ruamel.yaml")

from koloda.api import load_spec  # noqa: E402
from koloda.authoring.fmt import TOP, FormatError, format_text  # noqa: E402
from koloda.cli.main import main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "koloda" / "rules"
SHIPPED = sorted(RULES.glob("*.yaml")) + sorted((RULES / "lib").glob("*.yaml"))


@pytest.fixture(scope="module")
def formatted(tmp_path_factory) -> Path:
    """Every shipped file formatted, in a copy of the rules folder (variants find their bases there)."""
    folder = tmp_path_factory.mktemp("rules")
    (folder / "lib").mkdir()
    for path in SHIPPED:
        (folder / path.relative_to(RULES)).write_text(format_text(path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_formatted_shipped_file_is_the_same_game_and_formats_to_itself(formatted, path):
    new = formatted / path.relative_to(RULES)
    assert load_spec(str(new))[0].fingerprint == load_spec(str(path))[0].fingerprint
    text = new.read_text(encoding="utf-8")
    assert format_text(text) == text
    # comments are kept: every comment of the file is still there
    comments = sorted(line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                      if line.strip().startswith("#"))
    assert comments == sorted(line.strip() for line in text.splitlines() if line.strip().startswith("#"))


def test_keys_are_put_in_order_with_the_comments_above_them():
    text = ("deck: standard52   # the full pack\n"
            "# who plays\n"
            "game: g\n"
            "phases:\n"
            "  play:\n"
            "    actions:\n"
            "      pass:\n"
            "        do: [x = 1, end turn]   # two effects\n"
            "        # the guard\n"
            "        if: true\n"
            "        label: {ru: пас, en: pass}\n"
            "        text: 'pass now'\n")
    assert format_text(text) == (
        "# who plays\n"
        "game: g\n"
        "deck: standard52   # the full pack\n"
        "phases:\n"
        "  play:\n"
        "    actions:\n"
        "      pass:\n"
        "        label: {ru: пас, en: pass}\n"
        "        # the guard\n"
        "        if: true\n"
        '        text: "pass now"\n'
        "        do:                     # two effects\n"
        "          - x = 1\n"
        "          - end turn\n")


def test_quotes_only_where_yaml_needs_them_and_then_double():
    text = ("game: g\n"
            "source: 'a: b'\n"
            "notes: \"plain enough\"\n"
            "options:\n"
            "  a: {default: 'yes', help: a help text}\n"
            "  b: {help: 'say \"no\", then go', default: 1}\n")
    assert format_text(text) == ("game: g\n"
                                 'source: "a: b"\n'
                                 "notes: plain enough\n"
                                 "options:\n"
                                 '  a: {default: "yes", help: "a help text"}\n'
                                 "  b: {default: 1, help: 'say \"no\", then go'}\n")


@pytest.mark.parametrize("text", ["game: [\n", "- a list\n", "just text\n"])
def test_what_is_not_a_rule_file_is_refused(text):
    with pytest.raises(FormatError):
        format_text(text)


def test_the_order_is_the_one_the_language_reference_lists():
    reference = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = reference.split("## 2. The file: top-level keys", 1)[1].split("###", 1)[0]
    assert tuple(re.findall(r"^\| `([a-z ]+)` \|", section, re.M)) == TOP


def test_the_command_checks_shows_and_writes(tmp_path):
    good, bad, broken = tmp_path / "good.yaml", tmp_path / "bad.yaml", tmp_path / "broken.yaml"
    good.write_text("game: g\ndeck: standard52\n", encoding="utf-8")
    bad.write_text("deck: standard52\ngame: g\n", encoding="utf-8")
    broken.write_text("game: [\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["fmt", "--check", str(good), str(bad)])
    assert result.exit_code == 1 and f"{bad} would be reformatted" in result.output and str(good) + " " not in result.output
    result = runner.invoke(main, ["fmt", "--diff", str(bad)])
    assert "+game: g\n deck: standard52\n-game: g\n" in result.output
    assert bad.read_text(encoding="utf-8") == "deck: standard52\ngame: g\n"          # --diff changes nothing
    result = runner.invoke(main, ["fmt", str(bad), str(good)])
    assert result.exit_code == 0 and bad.read_text(encoding="utf-8") == "game: g\ndeck: standard52\n"
    assert runner.invoke(main, ["fmt", "--check", str(bad), str(good)]).exit_code == 0
    result = runner.invoke(main, ["fmt", str(broken), str(tmp_path / "missing.yaml")])
    assert result.exit_code == 1 and "cannot read it" in result.output
    assert re.search(rf"{re.escape(str(broken))}:\d+:\d+: YAML syntax error", result.output)     # as `check` says it
    assert "Traceback" not in result.output


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_shipped_files_are_in_the_layout(path):
    text = path.read_text(encoding="utf-8")
    assert format_text(text) == text, f"run `koloda fmt {path.relative_to(ROOT)}`"
