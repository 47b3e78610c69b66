"""A rule error in one simulated game stops that game only: it is listed with its seed, the others go on."""
from __future__ import annotations

from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.sim import simulate

FRAGILE = """\
game: fragile
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
  pile: {}
vars:
  n: {start: 0}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      play:
        with: c in my hand
        do: [move c to pile, "n = 10 // (value(c) - 7)"]
deal ends: my hand.size == 0 and next(me) == dealer
match: {ends: "true"}
"""


def test_a_failing_game_is_listed_and_the_others_are_played(tmp_path):
    path = tmp_path / "fragile.yaml"
    path.write_text(FRAGILE, encoding="utf-8")
    result = simulate(koloda.load(str(path)), 30, seed=0)
    assert result.games == 30
    assert 0 < len(result.failures) < 30
    assert result.finished + len(result.failures) == 30
    number, seed, message = result.failures[0]
    assert seed == number and "division by zero" in message and "fragile.yaml:16:38:" in message


def test_simulate_reports_each_failure_with_its_seed_and_exits_1(tmp_path):
    path = tmp_path / "fragile.yaml"
    path.write_text(FRAGILE, encoding="utf-8")
    out = CliRunner().invoke(main, ["simulate", str(path), "-n", "30"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "stopped by a rule error" in out.output and "seed" in out.output

    # each finding's command plays that game again, move for move: the same error, at the same game
    lines = out.output.splitlines()
    at = next(k for k, line in enumerate(lines) if line.strip().startswith("game ") and "division by zero" in line)
    finding, command = lines[at].strip(), lines[at + 1].split()
    assert command[:2] == ["koloda", "simulate"] and "--only" in command
    again = CliRunner().invoke(main, command[1:])
    assert again.exit_code == 1 and "1 game played, 0 ended, 1 stopped by a rule error" in again.output
    assert finding in again.output
