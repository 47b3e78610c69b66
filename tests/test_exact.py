"""Exact numbers (koloda/interpreter/base/exact.py) and list variables as the state keeps them: made by
`/`, shown as the rules write them, saved and read back exactly, copied by clones, written into the
observation tensors as floats. The language's cases are in tests/compliance/fractions.yaml and
tests/compliance/list_variables.yaml."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

import koloda
from koloda.compact import CompactGame
from koloda.interpreter.base import exact
from helpers import act, get_var

RULES = """
game: probe
players: 2
deck: standard52
zones:
  pile: {}
vars:
  half: {type: fraction, start: 1/2}
  pot: {each: player, type: fraction, start: 0}
  seen: {type: list of player}
  calls: {type: {list of: [check, bet]}}
phases:
  main:
    first: players[0]
    actions:
      share:
        do:
          - my pot += half / 3
          - append me to seen
          - append bet to calls
          - say "pot {my pot}" to players
match:
  ends: deal_number >= 1
  score: p.pot
"""


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "probe.yaml"
    path.write_text(RULES, encoding="utf-8")
    return koloda.load(str(path))


def test_quotient_is_exact_and_whole_where_it_comes_out_even():
    assert exact.quotient(7, 2) == Fraction(7, 2)
    assert type(exact.quotient(8, 2)) is int and exact.quotient(8, 2) == 4
    assert exact.quotient(Fraction(1, 2), 3) == Fraction(1, 6)
    with pytest.raises(ZeroDivisionError):
        exact.quotient(1, 0)
    with pytest.raises(ValueError):
        exact.quotient(1, 10 ** 19)


def test_numbers_are_shown_as_the_rules_write_them():
    assert exact.number_text(Fraction(15, 2)) == "15/2"
    assert exact.number_text(Fraction(-1, 3)) == "-1/3"
    assert exact.number_text(Fraction(4, 2)) == "2"
    assert exact.number_text(7) == "7"


def test_a_save_holds_a_fraction_exactly_and_reads_it_back():
    values = [3, Fraction(7, 2), Fraction(4, 1), None, "bet", [1, Fraction(1, 3)]]
    saved = json.loads(json.dumps(exact.saved(values)))
    assert saved == [3, {"fraction": [7, 2]}, 4, None, "bet", [1, {"fraction": [1, 3]}]]
    assert exact.restored(saved) == values
    with pytest.raises(ValueError):
        exact.restored({"fraction": [1, 0]})
    with pytest.raises(ValueError):
        exact.restored({"fraction": ["1", 2]})


def test_the_table_the_save_and_the_clone_of_a_fraction_and_lists(game):
    s = game.new_initial_state(0)
    before = s.clone()
    act(s, "share")
    assert get_var(s, ("pot", 0)) == Fraction(1, 6)
    assert get_var(s, "seen") == [0] and get_var(s, "calls") == ["bet"]
    assert get_var(before, "seen") == [] and get_var(before, ("pot", 0)) == 0, "a clone keeps its own lists"
    shown = {v["var"]: v["value"] for v in s.observation(0)["vars"] if v["owner"] in (None, 0)}
    assert shown == {"half": "1/2", "pot": "1/6", "seen": "[P1]", "calls": "[bet]"}
    assert s.observation(0)["said"] == ["pot 1/6"]
    again = type(s).from_json(game, json.loads(json.dumps(s.to_json())))
    assert again.vars == s.vars and again.scores() == s.scores() == [Fraction(1, 6), 0]


def test_the_observation_tensor_writes_a_fraction_as_a_float(game):
    cg = CompactGame(game)
    s = game.new_initial_state(0)
    act(s, "share")
    layout = dict((label, at) for label, at, _ in cg.observer.blocks)
    tensor = cg.observer.observation(s, 0)
    assert tensor[layout["half"] + 1] == 0.5
    assert tensor[layout["P1 pot"] + 1] == pytest.approx(1 / 6)
