"""ISMCTS's progressive bias: the rule file's heuristic orders the moves it tries first."""
from __future__ import annotations

import random

import pytest

import koloda
import koloda.agents.ismcts as ismcts
from koloda.agents.ismcts import IsmctsAgent
from koloda.agents.judge import margin
from koloda.agents.registry import make_agent, parse_seat


def _crazy_eights_turn(seed: int):
    """A two-player Crazy Eights state where the player to move has several moves."""
    game = koloda.load("crazy-eights", {"deals": 1}, 2)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(200):
        if state.is_terminal():
            break
        if len(state.legal_actions()) >= 3 and state.game.playouts[state.phase] != 0:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no state with three moves")


def test_bias_is_a_seat_setting():
    assert IsmctsAgent(1).bias == 3.0             # the default, set by the ladder (docs/strength.md)
    assert parse_seat("ismcts:bias=1.5,iterations=40") == ("ismcts", {"bias": 1.5, "iterations": 40})
    assert make_agent("ismcts:bias=2", 1).bias == 2.0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_first_move_tried_is_the_one_the_heuristic_likes(seed):
    """One iteration expands one move at the root: with bias, the one that leaves its player the best
    margin (in Crazy Eights a move of one's own does not depend on the hidden cards)."""
    state = _crazy_eights_turn(seed)
    me = state.current_player()
    values = {}
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        values[a] = margin(after, me)
    assert len(set(values.values())) > 1        # the moves differ, so the choice says something
    chosen = IsmctsAgent(seed, iterations=1, bias=1.0).choose(state)
    assert values[chosen] == max(values.values())


def test_with_bias_0_no_move_is_judged_ahead(monkeypatch):
    calls = []
    real = ismcts.margin
    monkeypatch.setattr(ismcts, "margin", lambda *a: calls.append(a) or real(*a))
    state = _crazy_eights_turn(1)
    IsmctsAgent(1, iterations=30, bias=0).choose(state)
    assert calls == []
    IsmctsAgent(1, iterations=30, bias=1.0).choose(state)
    # judged once a move a node: never more often than iterations times the moves of a turn
    assert 0 < len(calls) <= 30 * len(state.legal_actions()) * 4
