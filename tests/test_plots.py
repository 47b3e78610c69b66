"""`--plots`: PNG files written, valid, and showing something (the extra `koloda[plots]`)."""
from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

import koloda.report
from koloda.cli.main import main

PNG = b"\x89PNG\r\n\x1a\n"


def looks_drawn(path) -> bool:
    """A real PNG with more than a blank page: many distinct colours."""
    image = pytest.importorskip("matplotlib.image").imread(path)
    colours = {tuple(px) for row in image[::4] for px in row[::4]}
    return path.read_bytes().startswith(PNG) and len(colours) > 8


def test_simulate_and_compare_write_charts(tmp_path):
    pytest.importorskip("matplotlib")
    out = CliRunner().invoke(main, ["simulate", "pony", "-n", "4", "-o", "limit=20", "--seat", "greedy",
                                    "--plots", str(tmp_path / "one")])
    assert out.exit_code == 0, out.output
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == ["counters.png", "length.png", "quality.png", "scores.png", "win_share.png"]
    assert all(looks_drawn(tmp_path / "one" / n) for n in names)

    out = CliRunner().invoke(main, ["compare", "pony", "-a", "limit=20", "-o", "limit=20", "-o", "seven_draws=true",
                                    "-n", "4", "--plots", str(tmp_path / "two")])
    assert out.exit_code == 0, out.output
    names = sorted(p.name for p in (tmp_path / "two").iterdir())
    assert "differences.png" in names and len(names) == 6
    assert all(looks_drawn(tmp_path / "two" / n) for n in names)


def test_plots_without_matplotlib_is_a_message(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)        # as if it were not installed
    monkeypatch.delitem(sys.modules, "koloda.report.plots", raising=False)
    monkeypatch.delattr(koloda.report, "plots", raising=False)
    out = CliRunner().invoke(main, ["simulate", "pony", "-n", "2", "--plots", str(tmp_path)])
    assert out.exit_code == 1 and "pip install 'koloda[plots]'" in out.output
