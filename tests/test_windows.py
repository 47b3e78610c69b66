"""Open windows (`ask LIST to STEP until all PASS`), with a small game made for them.

The leader plays a card to the pile and opens a window: every other player, in turn from the leader's
left, may add a card of the pile's suit or pass, again and again, until all have passed since the last
card added. Then the leader's turn ends (`end turn`). Players are counted from 0.
"""
from __future__ import annotations

import json

import pytest

import koloda
from koloda.interpreter.core.state import State

from helpers import act, conservation, get_var, setup

GAME = """
game: follow-on
players: 3
deck: standard52
options:
  goto: {default: false}
zones:
  stock: {visible: nobody}
  pile: {}
  hand: {each: player, visible: owner}
vars:
  limit: 99
  nods: {each: player, start: 0}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  play:
    actions:
      lead:
        with: c in my hand
        do:
          - move c to pile
          - if: option.goto
            then: [ask others to add until all pass or pile.size >= limit, goto after]
            else: [ask others to add until all pass or pile.size >= limit, end turn]
      add:
        with: c in my hand
        if: c.suit == pile.top.suit
        do: [move c to pile, ask dealer to nod]
      pass: {do: end turn}
      nod: {do: my nods += 1}
      close: {do: end turn}
      out: {if: my hand.size == 0, do: end turn}
    steps:
      start: [lead, out]
      add: [add, pass]
      nod: [nod]
      after: [close]
deal ends: all(p.hand.size == 0 for p in players)
"""


@pytest.fixture(scope="module")
def rule_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("windows") / "follow-on.yaml"
    path.write_text(GAME, encoding="utf-8")
    return path


def position(rule_file, hands, current=0, **options):
    g = koloda.load(str(rule_file), options=options)
    s = g.new_initial_state(1)
    s.dealer = 2
    setup(s, zones={("hand", p): h for p, h in enumerate(hands)}, current=current, step="start")
    return s


def who(s):
    return s.current_player(), s.step


def test_the_window_goes_round_until_all_have_passed_since_the_last_card(rule_file):
    s = position(rule_file, ["2H 2C", "3H 4H", "5H 3C"])
    act(s, "lead 2H")
    assert who(s) == (1, "add")                    # from the list's first player, the leader's left
    act(s, "pass")
    assert who(s) == (2, "add")
    act(s, "add 5H")
    assert who(s) == (2, "nod")                    # (the card added asks the dealer, here P3, to nod)
    act(s, "nod")
    # the question answered, P3's answer would go on where it asked (as after any `ask`), but only a pass is
    # left: P3 is passed over, and P2, who passed before the card, has another chance
    assert who(s) == (1, "add")
    act(s, "add 3H")
    act(s, "nod")
    act(s, "add 4H")                               # one answer may hold several cards
    act(s, "nod")
    # P2's hand is empty and P3 holds no heart: both are passed over, so both passed since the last card
    # the window is closed and the leader's `end turn` ends the turn: the next player leads
    assert who(s) == (1, "start") and s.waiting == [] and s.turns == 1
    assert get_var(s, ("nods", 2)) == 3
    conservation(s)


def test_the_window_closes_when_all_pass_at_once(rule_file):
    s = position(rule_file, ["2H 2C", "3H 4C", "5H 3S"])
    act(s, "lead 2H")
    act(s, "pass")
    act(s, "pass")
    assert who(s) == (1, "start") and s.turns == 1


def test_players_who_can_only_pass_are_passed_over(rule_file):
    s = position(rule_file, ["2H 2C", "3C 4C", "5H 3S"])
    act(s, "lead 2H")
    assert who(s) == (2, "add")                    # P2 holds no heart
    act(s, "pass")
    assert who(s) == (1, "start")
    s = position(rule_file, ["2H 2C", "3C 4C", "5C 3S"])
    act(s, "lead 2H")                              # nobody can add: the window closes at once
    assert who(s) == (1, "start") and s.waiting == []


def test_the_condition_closes_the_window_before_the_next_offer(rule_file):
    s = position(rule_file, ["2H 2C", "3H 4H", "5H 3C"])
    s.vars[s.game.layout.var_base["limit"]] = 2
    act(s, "lead 2H")
    act(s, "add 3H")
    act(s, "nod")
    assert s.waiting == [] and who(s) == (1, "start")      # two cards on the pile: nobody else is offered


def test_without_end_turn_play_returns_to_the_asker_in_its_goto_step(rule_file):
    s = position(rule_file, ["2H 2C", "3H 4C", "5H 3S"], goto=True)
    act(s, "lead 2H")
    act(s, "pass")
    act(s, "pass")
    assert who(s) == (0, "after") and s.turns == 0
    act(s, "close")
    assert who(s) == (1, "start") and s.turns == 1


def test_a_window_survives_clone_and_save(rule_file):
    s = position(rule_file, ["2H 2C", "3H 4H", "5H 3C"])
    act(s, "lead 2H")
    act(s, "pass")
    copy = s.clone()
    act(copy, "add 5H")
    assert who(s) == (2, "add") and s.waiting[-1][4][3] == 1     # one pass in a row, on the original
    back = State.from_json(s.game, json.loads(json.dumps(s.to_json())))
    act(back, "pass")                                            # P3 passes: both passed, closed
    assert who(back) == (1, "start")


def test_an_empty_list_closes_at_once(rule_file, tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text(rule_file.read_text(encoding="utf-8").replace("[ask others to add until all pass or pile.size >= limit,",
                                                                  "['ask [p for p in others if p.hand.size > 5] to add "
                                                                  "until all pass or pile.size >= limit',"),
                    encoding="utf-8")
    s = position(path, ["2H 2C", "3H", "5H"])
    act(s, "lead 2H")
    assert who(s) == (1, "start")


def test_random_playouts_end(rule_file):
    g = koloda.load(str(rule_file))
    for seed in range(3):
        s = g.new_initial_state(seed)
        for _ in range(500):
            if s.is_terminal():
                break
            s.apply_action(s.legal_actions()[seed % len(s.legal_actions())])
            conservation(s)
        assert s.is_terminal()
