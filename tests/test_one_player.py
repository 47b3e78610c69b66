"""A one-player game's words in `check`, `list` and `simulate`: "1 player", and a report that gives
the score as the result rather than a win share of 100% and draws of 100% (nobody to beat)."""
from __future__ import annotations

from click.testing import CliRunner

from koloda.cli.main import main

SOLO = """\
game: solo
players: PLAYERS
deck: standard52
zones:
  stock: {visible: nobody}
  bank: {visible: all}
  hand: {each: player, visible: owner}
vars:
  spoken: 0
deal:
  - gather into stock
  - shuffle stock
  - deal 2 to each hand
phases:
  play:
    actions:
      hit:
        if: bank.size < 5
        do: [move stock.top to bank, spoken += 1]
      stand:
        do: spoken += 1
    steps:
      main: [hit, stand]
deal ends: spoken >= 2 * player_count
match:
  ends: deal_number >= 1
  score: my hand.size + bank.size
"""


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def write(tmp_path, players: str) -> str:
    path = tmp_path / "solo.yaml"
    path.write_text(SOLO.replace("PLAYERS", players), encoding="utf-8")
    return str(path)


def test_check_says_one_player(tmp_path):
    checked = run("check", write(tmp_path, "1"))
    assert checked.exit_code == 0 and "(solo, 1 player)" in checked.output
    assert "(solo, 1..3 players)" in run("check", write(tmp_path, "1..3")).output


def test_a_one_player_report_gives_the_score_and_no_draws(tmp_path):
    report = run("simulate", write(tmp_path, "1"), "-n", "5")
    assert report.exit_code == 0, report.output
    assert "draws:" not in report.output and "win share" not in report.output
    assert "Seat (one player: nobody to win against or draw with, so the score is the result" in report.output
    assert "mean score" in report.output
    header = next(line for line in report.output.splitlines() if "mean score" in line)
    assert header.split()[-4:] == ["min", "median", "90%", "max"]        # the score's spread, not its mean alone
    assert "lead changes" not in report.output                           # one player always leads


def test_a_one_player_report_says_how_often_each_goal_was_met(tmp_path):
    """A solitaire's goals are its `count:` conditions: the report points to them, counted over the games."""
    path = tmp_path / "solo.yaml"
    path.write_text(SOLO.replace("PLAYERS", "1") + "count:\n  full_bank: bank.size == 5\n", encoding="utf-8")
    report = run("simulate", str(path), "-n", "5")
    assert report.exit_code == 0, report.output
    assert "how often each goal was met: the counts below" in report.output and "full_bank" in report.output


def test_a_two_player_report_keeps_its_win_shares_and_draws(tmp_path):
    report = run("simulate", write(tmp_path, "1..3"), "-p", "2", "-n", "5")
    assert report.exit_code == 0, report.output
    assert "draws:" in report.output and "win share" in report.output
