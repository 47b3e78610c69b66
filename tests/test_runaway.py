"""Games that would never end are stopped with a report, and deals that end at once do not recurse."""
from __future__ import annotations

import pytest
from helpers import no_hang

import koloda
from koloda.interpreter.core import flow
from koloda.interpreter.base.errors import RuleRuntimeError

GAME = """\
game: runaway
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
vars:
  n: {{start: 0}}
deal: [gather into stock, shuffle stock, deal 1 to each hand]
{deal_ends}
phases:
  main:
    {phase_ends}
    actions:
      wait: {{do: "n += 1"}}
match: {{ends: "{match_ends}"}}
"""


def write_game(tmp_path, deal_ends="", phase_ends="", match_ends="false"):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(deal_ends=deal_ends, phase_ends=phase_ends, match_ends=match_ends), encoding="utf-8")
    return path


def test_deals_that_end_at_once_follow_one_another_without_recursion(tmp_path, monkeypatch):
    monkeypatch.setattr(flow, "MAX_DEALS", 3000)
    path = write_game(tmp_path, deal_ends="deal ends: true", match_ends="deal_number >= 2500")
    game = koloda.load(str(path))
    s = game.new_initial_state(1)
    assert s.is_terminal() and s.deal_number == 2500


def test_a_match_that_never_ends_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(flow, "MAX_DEALS", 200)
    path = write_game(tmp_path, deal_ends="deal ends: true")
    # stopped by counting deals (the message says how many), not by a clock
    with no_hang(what="a match that never ends"), pytest.raises(koloda.RuleError, match="gone on for 200 deals"):
        koloda.load(str(path))          # the first deal at load already runs away


def test_a_phase_that_never_ends_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(flow, "MAX_TURNS", 300)
    game = koloda.load(str(write_game(tmp_path)))
    s = game.new_initial_state(1)
    with pytest.raises(RuleRuntimeError, match="gone on for 300 turns"):
        for _ in range(1000):
            s.apply_action(s.legal_actions()[0])


def test_a_decision_that_takes_too_long_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(flow, "DECISION_SECONDS", 0.0)
    path = tmp_path / "slow.yaml"
    path.write_text(GAME.format(deal_ends="", phase_ends="", match_ends="false").replace(
        'wait: {do: "n += 1"}', 'play: {with: c in my hand, do: "n += 1"}'), encoding="utf-8")
    with pytest.raises(koloda.RuleError, match="took more than 0 s"):
        koloda.load(str(path)).new_initial_state(1).legal_actions()


# ------------------------------------------------------------------ seen by `koloda check`
def warnings_of(path) -> list[str]:
    from koloda.api import load_spec
    _, rules = load_spec(str(path))
    return [w.format(with_source=False) for w in rules.warnings]


def test_check_warns_of_a_constant_deal_end(tmp_path):
    found = warnings_of(write_game(tmp_path, deal_ends="deal ends: 1 > 2", match_ends="deal_number >= 3"))
    assert any("g.yaml:10:14: warning: `deal ends` reads nothing of the game" in w for w in found), found


def test_check_warns_of_a_phase_nothing_ends(tmp_path):
    found = warnings_of(write_game(tmp_path, match_ends="deal_number >= 3"))
    assert any("warning: nothing ends phase `main`" in w for w in found), found
    assert not warnings_of(write_game(tmp_path, phase_ends="ends: n >= 3", match_ends="deal_number >= 3"))
    assert not warnings_of(write_game(tmp_path, deal_ends="deal ends: n >= 3", match_ends="deal_number >= 3"))


def test_check_prints_warnings_and_still_succeeds(tmp_path):
    from click.testing import CliRunner
    from koloda.cli.main import main
    result = CliRunner().invoke(main, ["check", str(write_game(tmp_path, match_ends="false"))])
    assert result.exit_code == 0
    assert "warning: `match: ends` reads nothing of the game" in result.output
    assert "warning: nothing ends phase `main`" in result.output


def test_shipped_games_have_no_warnings():
    from koloda.api import load_spec
    for name in koloda.shipped_games():
        assert load_spec(name)[1].warnings == [], name


def test_check_warns_of_an_action_that_can_never_be_taken(tmp_path):
    path = write_game(tmp_path, phase_ends="ends: n >= 3", match_ends="deal_number >= 3")
    path.write_text(path.read_text(encoding="utf-8").replace('wait: {do: "n += 1"}',
                                                             'wait: {do: "n += 1"}\n      never: {if: "false and n > 1"}'),
                    encoding="utf-8")
    found = warnings_of(path)
    assert any("action `never` can never be taken" in w for w in found), found


def test_check_warns_of_a_step_that_never_offers_a_move(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("""\
game: stuck
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
vars:
  n: {start: 0}
deal: [gather into stock, shuffle stock, deal 1 to each hand]
phases:
  main:
    ends: n >= 3
    actions:
      wait: {do: ["n += 1", goto stuck]}
      never: {if: "false"}
    steps:
      main: [wait]
      stuck: [never]
match: {ends: "deal_number >= 3"}
""", encoding="utf-8")
    found = warnings_of(path)
    assert any("step `stuck` of phase `main` never offers a move" in w for w in found), found
