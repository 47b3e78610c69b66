"""A game against the house (`house:` with `match: house score:`): each player's result is their own
against the house, in the engine (returns), the table (`play`), the reports (`simulate`, `compare`)
and the adapters (OpenSpiel's game type and returns, PettingZoo's rewards)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.ui.house import against_house_text

DUEL = """\
game: duel
players: 2
deck: standard52
house: {label: {en: bank, ru: банк}}
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
  bank_cards: {visible: all}
deal:
  - gather into stock
  - shuffle stock
  - deal 1 to each hand
  - move stock.top to bank_cards
phases:
  play:
    turns: once
    actions:
      stay: {do: end turn}
    steps:
      main: [stay]
match:
  score: value(my hand.top)
  house score: value(bank_cards.top)
"""


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def finished(game, seed: int):
    """A match played to its end, each move chosen by the seed and the move's number."""
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[(seed + s.moves) % len(legal)])
    return s


def test_each_player_is_judged_against_the_house_not_against_the_others(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL, encoding="utf-8")
    game = koloda.load(str(path))
    seen = set()
    for seed in range(60):
        s = finished(game, seed)
        house = game.flow.house_score(s, {})
        want = [1.0 if x > house else 0.5 if x == house else 0.0 for x in s.scores()]
        assert s.returns() == want
        seen.add(tuple(want))
    assert (0.0, 0.0) in seen and (1.0, 1.0) in seen        # both may lose, both may win


def test_the_table_tells_each_players_result_against_the_house():
    assert against_house_text(None, [1.0, 0.5, 0.0]) == \
        "P1 beat the house; P2 is level with the house; P3 lost to the house."
    game = koloda.load("blackjack")
    assert "the dealer" in against_house_text(game.spec.house.label, [1.0])


def test_play_ends_with_the_result_against_the_dealer(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    result = run("play", "blackjack", "--seat", "random", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert any(w in result.output for w in ("beat the dealer", "lost to the dealer", "is level with the dealer"))
    assert "A draw: every player shares the win" not in result.output


def test_a_report_counts_wins_against_the_house_and_only_level_games_as_draws(tmp_path):
    out = tmp_path / "report.json"
    result = run("simulate", "blackjack", "-n", "60", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "win share against the house" in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["game"]["house"] is True
    share = report["seats"][0]["win_share"]["value"]
    assert 0.1 < share < 0.9                                  # a random player wins some, loses some
    assert report["draws"]["value"] < 0.5                     # a loss to the house is no draw
    assert report["seats"][0]["advantage"]["value"] == pytest.approx(share - 0.5)


def test_compare_counts_draws_against_the_house(tmp_path):
    out = tmp_path / "compare.json"
    result = run("compare", "blackjack", "-o", "double=false", "-n", "40", "--json", str(out))
    assert result.exit_code == 0, result.output
    rows = {r["measure"]: r for r in json.loads(out.read_text(encoding="utf-8"))["measures"]}
    assert rows["draws"]["a"] < 0.5 and rows["draws"]["b"] < 0.5


def test_openspiel_sees_a_general_sum_game_with_each_players_own_return():
    pyspiel = pytest.importorskip("pyspiel")
    import koloda.openspiel as kos
    game = kos.load_game("blackjack")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    results = set()
    for seed in range(40):
        s = game.new_initial_state()
        s.apply_action(seed)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[-1])
        results.add(s.returns()[0])
    assert results == {0.0, 0.5, 1.0}
    assert kos.load_game("pony").get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM


def test_pettingzoo_rewards_are_the_result_against_the_house():
    pytest.importorskip("pettingzoo")
    import koloda.pettingzoo as kpz
    env = kpz.env("blackjack")
    rewards = set()
    for seed in range(30):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, reward, done, cut, info = env.last()
            if done or cut:
                rewards.add(reward)
                env.step(None)
            else:
                env.step(int(info["action_mask"].nonzero()[0][0]) if "action_mask" in info
                         else int(env.observe(agent)["action_mask"].nonzero()[0][0]))
    assert rewards <= {0.0, 0.5, 1.0} and 0.0 in rewards and len(rewards) >= 2


def test_the_web_table_names_who_beat_the_house():
    from koloda.web.messages import result
    game = koloda.load("blackjack")
    told = set()
    for seed in range(60):
        s = finished(game, seed)
        winners = result(game, s)["winners"]
        told.add(winners)
        assert winners == {1.0: "P1", 0.5: "a draw", 0.0: "dealer"}[s.returns()[0]]
    assert told == {"P1", "a draw", "dealer"}


def test_the_rulebook_says_each_player_plays_against_the_house():
    english = run("explain", "blackjack")
    assert "Each player plays against the dealer alone: a score above 0 wins" in english.output
    assert "The highest score wins." not in english.output
    russian = run("explain", "blackjack", "--lang", "ru")
    assert "против заведения (дилер)" in russian.output


def test_check_says_the_game_is_played_against_the_house():
    checked = run("check", "blackjack")
    assert checked.exit_code == 0 and "(Blackjack, 1 player against the house)" in checked.output
    assert "against the house" not in run("check", "pony").output


def test_pettingzoo_starts_a_match_over_at_the_deal_terminated_with_its_reward():
    pytest.importorskip("pettingzoo")
    import koloda.pettingzoo as kpz
    env = kpz.env("blackjack")
    for seed in range(300):
        env.reset(seed=seed)
        _, reward, done, _, _ = env.last()
        if done:            # a natural: nobody moves
            assert reward == env.unwrapped.episode.returns()[0] and reward in (0.0, 0.5, 1.0)
            env.step(None)
            assert not env.agents
            return
    pytest.fail("no match of 300 was over at the deal")


def test_the_table_shows_no_dealing_seat_against_the_house():
    from koloda.ui.table import render
    game = koloda.load("blackjack")
    header = render(game, game.new_initial_state(2), 0).plain.splitlines()[0]
    assert header.startswith("Blackjack · deal 1 · ") and "dealer" not in header
    pony = koloda.load("pony")
    assert "· dealer " in render(pony, pony.new_initial_state(2), 0).plain.splitlines()[0]
