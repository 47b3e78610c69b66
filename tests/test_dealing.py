"""Explicit chance (koloda/dealing.py and OpenSpiel's `chance: cards`): every shuffle dealt card by
card at chance nodes, the game tree the real one."""
from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from pathlib import Path

import pytest

from koloda import dealing
from koloda.api import load
from koloda.episode import Episode, Table

SWAP = str(Path(__file__).resolve().parent.parent / "examples" / "swap.yaml")


def deals(node: Episode | dealing.Deal, p: float = 1.0):
    """Every match start below `node`, with its probability."""
    if isinstance(node, dealing.Deal):
        for outcome, q in node.outcomes():
            yield from deals(dealing.deal(node, outcome), p * q)
    else:
        yield node, p


def hands(episode: Episode) -> tuple[str, ...]:
    s = episode.native
    names = s.game.cards.names
    return tuple(" ".join(names[c] for c in s.zones[z]) for z in range(len(s.zones)))


def test_a_three_card_deal_is_every_order_once_each_sixth():
    table = Table(load(SWAP))
    found = list(deals(dealing.begin(table, 100)))
    assert len(found) == 6                      # two chance nodes of 3 and 2; the last card is what is left
    assert sum(p for _, p in found) == pytest.approx(1.0)
    assert all(p == pytest.approx(1 / 6) for _, p in found)
    assert len({hands(e) for e, _ in found}) == 6


def test_the_first_dealer_drawn_by_lot_is_a_chance_node_and_the_cards_follow():
    table = Table(load("pony"))
    node = dealing.begin(table, 1000)
    assert isinstance(node, dealing.Deal) and node.drawing
    assert node.outcomes() == [(p, 0.5) for p in range(2)]
    rng = random.Random(5)
    node = dealing.deal(node, 1)
    order: list[int] = []
    count = 0
    while isinstance(node, dealing.Deal):
        outcomes = node.outcomes()
        assert sum(q for _, q in outcomes) == pytest.approx(1.0)
        kind = rng.choice(outcomes)[0]
        order.append(kind)
        node = dealing.deal(node, kind)
        count += 1
    assert count == 31                          # 32 cards, the last one forced
    # the match is the engine's own, dealt with that order from the top and that dealer
    names = table.game.cards.names
    same = table.game.new_initial_state(deck=[" ".join(names[c] for c in order) + " " + _last(names, order)], dealer=1)
    assert node.native.zones == same.zones and node.native.dealer == same.dealer == 1
    assert node.native.to_json()["vars"] == same.to_json()["vars"]


def _last(names: list[str], order: list[int]) -> str:
    left = Counter(names) - Counter(names[c] for c in order)
    return next(iter(left))


def test_a_move_that_shuffles_stops_at_chance_nodes_and_goes_on_from_its_copy():
    # Pony deals again when a deal ends: each new deal's shuffle is dealt at chance nodes mid-match
    table = Table(load("pony"))
    node = dealing.begin(table, 3000)
    rng = random.Random(2)
    chances = moves = 0
    while True:
        if isinstance(node, dealing.Deal):
            node = dealing.deal(node, rng.choice(node.outcomes())[0])
            chances += 1
            continue
        if node.is_terminal():
            break
        node = dealing.play(node, rng.choice(node.legal_actions()))
        moves += 1
    deals_played = node.native.deal_number
    assert deals_played >= 2 and chances >= 1 + 31 * deals_played
    assert node.native.shuffler is dealing.by_chance and not node.native.orders


def test_a_random_number_outside_the_outcomes_is_refused():
    table = Table(load(SWAP))
    node = dealing.begin(table, 10)
    assert isinstance(node, dealing.Deal)
    with pytest.raises(ValueError, match="not one of"):
        dealing.deal(node, 7)


# ------------------------------------------------------------ through OpenSpiel

def test_tabular_cfr_solves_the_tiny_game_with_exploitability_near_zero():
    pytest.importorskip("pyspiel")
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    import koloda.openspiel  # noqa: F401

    game = pyspiel.load_game("koloda", {"rules": SWAP, "chance": "cards"})
    assert game.max_chance_outcomes() == 3
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(99):
        solver.evaluate_and_update_policy()
    last = exploitability.exploitability(game, solver.average_policy())
    assert first > 0.1 and last < 0.01


def test_the_card_game_is_the_seed_game_with_its_chance_spelled_out():
    """A fixed policy's exact value over the dealt tree is its value over many seeds (the seed mode's
    4,096 equally likely deals, walked whole), within what 4,096 draws of six deals spread."""
    pytest.importorskip("pyspiel")
    import pyspiel
    from open_spiel.python import policy as policies
    from open_spiel.python.algorithms import expected_game_score

    import koloda.openspiel  # noqa: F401

    def swap_but_a_king(state):                 # P1 wins 4 deals of 6 when both play so
        me = state.current_player()
        seen = json.loads(state.information_state_string(me).split("\n")[0].split(": ", 1)[1])
        mine = next(z["cards"] for z in seen["zones"] if z["owner"] == me)
        legal = state.legal_actions()
        names = [state.action_to_string(a) for a in legal]
        want = "keep" if mine == ["KH"] else "swap"
        return {a: float(n == want) for a, n in zip(legal, names)}

    values = []
    for params in ({"chance": "cards"}, {"seeds": 4096}):
        game = pyspiel.load_game("koloda", {"rules": SWAP, **params})
        policy = policies.tabular_policy_from_callable(game, swap_but_a_king)
        values.append(expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0])
    assert values[0] == pytest.approx(4 / 6)
    assert values[1] == pytest.approx(4 / 6, abs=0.03)


def test_card_mode_states_serialize_and_pickle_mid_deal():
    pytest.importorskip("pyspiel")
    import pyspiel

    import koloda.openspiel  # noqa: F401

    game = pyspiel.load_game("koloda", {"rules": "pony", "chance": "cards", "max_moves": 200})
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.is_chance_node()
    assert state.clone().history() == state.history() == [1, 31, 30, 29, 28, 27]
    for copy in (pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
                 pickle.loads(pickle.dumps(state)), state.clone()):
        a, b = state.clone(), copy
        rng = random.Random(1)
        for _ in range(120):
            if a.is_terminal():
                break
            action = rng.choice(a.legal_actions())
            assert action in b.legal_actions()
            a.apply_action(action)
            b.apply_action(action)
        assert str(a) == str(b) and a.history() == b.history()
        if not a.is_chance_node() and not a.is_terminal():
            p = a.current_player()
            assert a.information_state_string(p) == b.information_state_string(p)


@pytest.mark.parametrize("rules", ["pony", "kunkin"])
def test_pyspiel_random_simulation_test_in_card_mode(rules):
    pytest.importorskip("pyspiel")
    import pyspiel

    import koloda.openspiel  # noqa: F401

    game = pyspiel.load_game("koloda", {"rules": rules, "chance": "cards", "max_moves": 120})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_chance_mode_that_is_not_one_is_refused():
    pytest.importorskip("pyspiel")
    import pyspiel

    import koloda.openspiel  # noqa: F401

    with pytest.raises(Exception, match="`chance` is `seed`"):
        pyspiel.load_game("koloda", {"rules": "pony", "chance": "dice"})
