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


# A goal: the player wins by reaching it (`match: won:`), as a solitaire is won or lost
def goal_file(tmp_path, players: str, won: str) -> str:
    path = tmp_path / "goal.yaml"
    text = SOLO.replace("PLAYERS", players).replace(
        "  score: my hand.size + bank.size\n", f"  score: bank.size\n  won: {won}\n")
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_goal_decides_the_returns_whatever_the_scores(tmp_path):
    import koloda
    hit = koloda.load(goal_file(tmp_path, "1", "bank.size >= 2"))
    results = set()
    for seed in range(20):
        s = hit.new_initial_state(seed)
        while not s.is_terminal():
            actions = s.legal_actions()
            s.apply_action(actions[seed % len(actions)])
        results.add((s.scores()[0] >= 2, s.returns()[0]))
    assert results == {(True, 1.0), (False, 0.0)}        # won when the bank holds 2, lost otherwise
    both = koloda.load(goal_file(tmp_path, "1..3", "p.seat == 2"), players=3)
    s = both.new_initial_state(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    assert s.returns() == [0.0, 1.0, 0.0]                 # P2 alone, not a share of the best score


def test_a_goal_must_be_a_condition(tmp_path):
    checked = run("check", goal_file(tmp_path, "1", "bank.size"))
    assert checked.exit_code != 0
    assert "goal.yaml:" in checked.output and "`match: won`" in checked.output


def test_a_one_player_report_with_a_goal_gives_the_games_won(tmp_path):
    report = run("simulate", goal_file(tmp_path, "1", "bank.size >= 2"), "-n", "8")
    assert report.exit_code == 0, report.output
    assert "games won" in report.output and "draws:" not in report.output


def test_play_says_a_solitaire_is_won_or_lost(tmp_path):
    lost = run("play", goal_file(tmp_path, "1", "bank.size >= 99"), "--seat", "random", "--fast", "--seed", "1")
    assert lost.exit_code == 0 and "Lost: the rules' goal" in lost.output and "A draw" not in lost.output
    won = run("play", goal_file(tmp_path, "1", "bank.size >= 0"), "--seat", "random", "--fast", "--seed", "1")
    assert won.exit_code == 0 and "Won: the rules' goal is reached." in won.output
    plain = run("play", write(tmp_path, "1"), "--seat", "random", "--fast", "--seed", "1")
    assert "One player: the score is the result." in plain.output and "A draw" not in plain.output


def test_a_lone_players_gain_is_a_reward_between_a_loss_and_a_win():
    """The searching bot's reward of a position before the end: with no rival to scale against, a
    solitaire's gain since the root is squashed between a lost game's 0 and a won game's 1."""
    import koloda
    from koloda.agents.judge import rewards, standing
    s = koloda.load("klondike").new_initial_state(0)
    before = standing(s)
    assert rewards(s, before) == [0.5]
    gained, lost = rewards(s, [before[0] - 20])[0], rewards(s, [before[0] + 20])[0]
    assert 0.5 < gained < 1 and 0 < lost < 0.5
