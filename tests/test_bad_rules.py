"""Every file in tests/bad_rules/ is a rule file that must be rejected.

The file's own header says how:

    # expect: LINE:COL: MESSAGE SUBSTRING     the first error reported (COL may be `*`)
    # hint: HINT SUBSTRING                    the first error's hint
    # also: LINE:COL: MESSAGE SUBSTRING       (any number) further errors that must be reported too
    # xfail: REASON                           a known bug: the expectation is the correct behaviour

`koloda.api.load_spec(path)` must raise RuleErrors; the first error must have
that line:col and message, its span must name the file, and `format()` must
show the source line with a caret under the column.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import koloda
from fuzzing import plain
from koloda.api import load_spec

HERE = Path(__file__).parent / "bad_rules"
FILES = sorted(HERE.glob("*.yaml"))
HEADER = re.compile(r"#\s*(expect|also|hint|xfail):\s*(.*)")
EXPECT = re.compile(r"(\d+):(\d+|\*):\s*(.+)")


def header(path: Path) -> dict:
    out = {"expect": None, "also": [], "hint": None, "xfail": None}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = HEADER.match(line)
        if not m:
            break
        kind, rest = m.groups()
        if kind in ("xfail", "hint"):
            out[kind] = rest.strip()
            continue
        e = EXPECT.match(rest.strip())
        assert e, f"{path.name}: bad header line {line!r}"
        want = (int(e.group(1)), None if e.group(2) == "*" else int(e.group(2)), e.group(3).strip())
        if kind == "expect":
            out["expect"] = want
        else:
            out["also"].append(want)
    assert out["expect"], f"{path.name} has no `# expect:` first line"
    return out


def params(with_xfail: bool = True):
    result = []
    for path in FILES:
        h = header(path)
        marks = []
        if h["xfail"]:
            if not with_xfail:
                continue
            marks = [pytest.mark.xfail(reason=h["xfail"], strict=True)]
        result.append(pytest.param(path, h, id=path.stem, marks=marks))
    return result


def matches(err, want) -> bool:
    line, col, text = want
    return err.span.line == line and (col is None or err.span.col == col) and text in err.message


def errors_of(path: Path):
    with pytest.raises(koloda.RuleErrors) as info:
        load_spec(str(path))
    errors = info.value.errors
    assert errors, "RuleErrors without any error"
    return errors


def test_there_are_enough_bad_files():
    assert len(FILES) >= 20
    assert any(header(p)["also"] for p in FILES), "one file must check that all errors are reported"


@pytest.mark.parametrize("path,h", params())
def test_first_error(path, h):
    errors = errors_of(path)
    first = errors[0]
    listing = "\n".join(f"{e.span.line}:{e.span.col}: {e.message}" for e in errors)
    assert matches(first, h["expect"]), f"expected {h['expect']}, got:\n{listing}"
    if h["hint"]:
        assert h["hint"] in (first.hint or ""), f"expected the hint {h['hint']!r}, got {first.hint!r}"
    assert Path(first.span.file).resolve() == path.resolve()


@pytest.mark.parametrize("path,h", params(with_xfail=False))
def test_format_shows_source_and_caret(path, h):
    first = errors_of(path)[0]
    text = first.format()
    lines = text.splitlines()
    source = path.read_text(encoding="utf-8").splitlines()[first.span.line - 1]
    assert lines[0].startswith(f"{first.span.file}:{first.span.line}:{first.span.col}: {first.message}")
    assert lines[1] == "    " + source
    caret = lines[2]
    assert caret.startswith("    " + " " * (first.span.col - 1) + "^")
    assert set(caret[4 + first.span.col:]) <= {"~"}


@pytest.mark.parametrize("path,h", [p for p in params() if p.values[1]["also"]])
def test_all_errors_are_reported(path, h):
    errors = errors_of(path)
    listing = "\n".join(f"{e.span.line}:{e.span.col}: {e.message}" for e in errors)
    for want in [h["expect"], *h["also"]]:
        assert any(matches(e, want) for e in errors), f"missing {want} in:\n{listing}"
    # every error is located in this file, and they come sorted by position
    assert all(Path(e.span.file).resolve() == path.resolve() for e in errors)
    positions = [(e.span.line, e.span.col) for e in errors]
    assert positions == sorted(positions)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_messages_are_short_and_in_plain_words(path):
    problems = [p for e in errors_of(path) for p in plain(e)]
    assert not problems, "\n".join(problems)


def test_rule_errors_str_lists_every_error():
    path = HERE / "several_errors.yaml"
    with pytest.raises(koloda.RuleErrors) as info:
        load_spec(str(path))
    text = str(info.value)
    for e in info.value.errors:
        assert e.message in text
    assert text.count("^") == len(info.value.errors)


# ------------------------------------------------------------------ the CLI
def cli():
    main = pytest.importorskip("koloda.cli.main", reason="the CLI (koloda.cli.main) is not written yet")
    testing = pytest.importorskip("click.testing")
    return main.main, testing.CliRunner()


@pytest.mark.parametrize("path,h", params(with_xfail=False))
def test_cli_check_rejects(path, h):
    main, runner = cli()
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert h["expect"][2] in result.output


def test_cli_check_reports_every_error_of_every_file():
    main, runner = cli()
    paths = [HERE / "several_errors.yaml", HERE / "unknown_deck.yaml"]
    result = runner.invoke(main, ["check", *map(str, paths)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    for path in paths:
        h = header(path)
        for _, _, text in [h["expect"], *h["also"]]:
            assert text in result.output


def test_cli_check_clean_files_exit_0():
    main, runner = cli()
    shipped = Path(koloda.__file__).parent / "rules"
    result = runner.invoke(main, ["check", str(shipped / "pony.yaml"), str(shipped / "peklo.yaml")])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
