"""koloda tune's flags as a designer first uses them: --measures says what each measure is, a
--out the variants cannot go in is told before anything is played, and a variant whose games do
not end is pruned with the reason rather than measured on the games that ended."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("optuna")

from koloda.cli.main import main  # noqa: E402
from koloda.tune.measures import about, measure_names  # noqa: E402
from koloda.tune.targets import read_targets  # noqa: E402
from koloda.tune.trial import MISSED, Setup, play_trial  # noqa: E402
from tests.test_tune_search import DUEL  # noqa: E402


@pytest.fixture
def duel(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return path


def test_measures_says_what_each_measure_is():
    assert about("advantage.P2") == "seat 2's advantage" and about("win_share.P3") == "seat 3's share of the wins"
    assert about("deals.median") == "deals per game, the median"
    assert about("decisions.p90") == "bot decisions per game, the 90th percentile"
    assert about("counter.blocked") == "the share of deals at which the rule file's `count:` blocked held"
    assert all(about(name) for name in measure_names(4, ["blocked"]))
    out = CliRunner().invoke(main, ["tune", "pony", "--measures"])
    assert out.exit_code == 0 and "score.P2                 seat 2's mean score" in out.output
    assert "limit=30..150" in out.output


def test_a_folder_the_variants_cannot_go_in_is_told_before_the_search(duel, tmp_path):
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "advantage.max <= 0.1", "--out", "elsewhere",
                                    "-n", "100"])
    assert out.exit_code == 1 and "give --out" in out.output and "trial 1" not in out.output
    assert not (tmp_path / "duel.tune.db").exists()


def test_a_variant_whose_games_do_not_end_is_pruned_with_the_reason(duel):
    targets = read_targets([], [], ["turns"], measure_names(2, []))
    # two rounds take four moves: none of the games ends, and their zero turns must not look short
    out = play_trial(Setup(str(duel), games=100, chunk=50, max_moves=3), {"rounds": "2", "edge": "0"}, 2, targets)
    assert out.verdict == MISSED and out.games == 50 and out.error == "50 of 50 games did not end within --max-moves 3"
    ended = play_trial(Setup(str(duel), games=100, chunk=50, max_moves=3), {"rounds": "1", "edge": "0"}, 2, targets)
    assert ended.verdict != MISSED and ended.games == 100 and not ended.error


@pytest.mark.parametrize("seats, words", [
    (["foo"], "unknown seat `foo`: choose from human, random"),
    (["human"], "tune plays bots only"),
    (["random"] * 3, "3 seats given, but the search plays tables of 2 players"),
])
def test_a_seat_the_search_cannot_use_is_told_before_the_search(duel, tmp_path, seats, words):
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "advantage.max <= 0.1", "-n", "100",
                                    *[a for s in seats for a in ("--seat", s)]])
    assert out.exit_code == 1 and words in out.output and "internal error" not in out.output, out.output
    assert not (tmp_path / "duel.tune.db").exists()
