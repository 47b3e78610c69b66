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


# ---------------------------------------------------------------- what the charts say

def hand_report(winner: str = "highest", options: dict | None = None):
    """P1 (greedy) wins every game: shares of exactly 1 and 0, which once made negative error bars."""
    from koloda.report.records import GameRecord, Quality
    from koloda.report.summary import summarise
    records = [GameRecord(k, k, ("greedy", "random"), returns=(1.0, 0.0), scores=(10.0 + k, 3.0), deals=3,
                          turns=20, decisions=30, legal_moves=60, forced=0,
                          quality=Quality(k % 3, 0.0, 0.0, (1.0,) * 10), counts={"moon": 0})
               for k in range(12)]
    return summarise(records, game={"name": "t.yaml", "title": "Test game", "players": 2, "winner": winner,
                                    "options": {"hand": 5, "limit": 100}},
                     run={"games": 12, "seed": 0, "seats": ["greedy", "random"], "rotate": False, "max_moves": 99,
                          "stopped": False, "options": options or {}},
                     counters=["moon"])


def texts(fig) -> dict:
    axes = [ax for ax in fig.axes if ax.get_visible()]
    return {"title": fig._suptitle.get_text() if fig._suptitle else "",
            "axes": [{"title": ax.get_title(), "x": ax.get_xlabel(), "y": ax.get_ylabel(),
                      "legend": [t.get_text() for t in ax.get_legend().get_texts()] if ax.get_legend() else [],
                      "yticks": [t.get_text() for t in ax.get_yticklabels()]}
                     for ax in axes]}


@pytest.fixture
def plots():
    plots = pytest.importorskip("koloda.report.plots")
    yield plots
    pytest.importorskip("matplotlib.pyplot").close("all")


def test_every_chart_names_the_game_the_variant_and_the_bots_and_labels_its_axes(plots):
    figures = plots.report_figures(hand_report(options={"hand": "7"}))
    assert sorted(figures) == ["counters.png", "length.png", "quality.png", "scores.png", "win_share.png"]
    for name, fig in figures.items():
        said = texts(fig)
        assert "Test game" in said["title"] and "t.yaml, hand=7" in said["title"], name
        assert "P1 greedy, P2 random" in said["title"] and "12 games" in said["title"], name
        for ax in said["axes"]:
            assert ax["x"] and ax["y"] and ax["title"], (name, ax)
    for name in ("scores.png", "length.png"):
        assert all(ax["y"] == "games" for ax in texts(figures[name])["axes"]), name
    quality = texts(figures["quality.png"])["axes"]
    assert [ax["y"] for ax in quality[:3]] == ["games"] * 3 and "leader" in quality[3]["y"]
    length = texts(figures["length.png"])["axes"]
    assert [ax["x"] for ax in length] == ["deals in a game", "turns in a game", "decisions in a game"]


def test_the_fair_share_line_has_a_legend(plots):
    seats, agents = texts(plots.report_figures(hand_report())["win_share.png"])["axes"]
    assert seats["legend"] == ["fair share (1/2)"] and agents["legend"] == ["fair share (1/2)"]
    assert "win share" in seats["y"] and seats["x"] == "seat" and agents["x"] == "agent"


def test_a_penalty_score_says_lower_is_better(plots):
    low = texts(plots.report_figures(hand_report("lowest"))["scores.png"])["axes"]
    high = texts(plots.report_figures(hand_report("highest"))["scores.png"])["axes"]
    assert all("lower is better" in ax["x"] for ax in low) and len(low) == 2
    assert not any("lower is better" in ax["x"] for ax in high)


def test_a_variant_without_options_says_so(plots):
    title = texts(plots.report_figures(hand_report())["win_share.png"])["title"]
    assert "t.yaml, its default options" in title


def test_comparison_charts_name_both_variants(plots):
    from koloda.report.compare import compare
    from koloda.report.records import GameRecord
    a = [GameRecord(k, k, ("greedy", "random"), returns=(1.0, 0.0), scores=(1.0, 2.0 + k % 2), deals=2, turns=5,
                    decisions=9, legal_moves=9) for k in range(6)]
    reports = [hand_report("lowest"), hand_report("lowest", {"seven_draws": "true"})]
    comparison = compare(a, a, names=["t.yaml", "t.yaml seven_draws=true"], players=2, reports=reports)
    figures = plots.compare_figures(comparison)
    assert len(figures) == 6
    for name, fig in figures.items():
        said = texts(fig)
        assert "A = t.yaml" in said["title"] and "B = t.yaml seven_draws=true" in said["title"], name
        assert "P1 greedy, P2 random" in said["title"], name
    (differences,) = texts(figures["differences.png"])["axes"]
    assert "mean score P1 (lower is better)" in differences["yticks"] and differences["x"].startswith("B − A")
    seats = texts(figures["win_share.png"])["axes"][0]
    assert sorted(seats["legend"]) == ["A: t.yaml", "B: t.yaml seven_draws=true", "fair share (1/2)"]


def test_a_share_of_none_or_all_is_drawn(plots, tmp_path):
    # koloda simulate pony -n 2000 --rotate --plots once failed here: matplotlib refused the error bars
    written = plots.report_plots(hand_report(), tmp_path)
    assert len(written) == 5 and all(looks_drawn(p) for p in written)
