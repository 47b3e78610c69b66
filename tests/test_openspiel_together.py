"""A `turns: together` phase through the OpenSpiel adapter: a simultaneous node where its choosers
act at once (docs/ai.md), in a game that is SIMULTANEOUS and still has sequential and chance nodes."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import koloda.openspiel as kos  # noqa: E402

SIMULTANEOUS = pyspiel.PlayerId.SIMULTANEOUS


def test_a_game_with_a_together_phase_is_simultaneous_and_others_are_not():
    assert kos.load_game("goofspiel", cards=4).get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert kos.load_game("pony").get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    name = kos.register("goofspiel")
    assert pyspiel.load_game(name, {"cards": 3}).get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS


@pytest.mark.parametrize("params", [{"cards": 5}, {"cards": 4, "players": 3}, {"cards": 4, "chance": "cards"},
                                    {"cards": 13, "points_order": "descending"}])
def test_pyspiel_random_simulation_test_of_simultaneous_nodes(params):
    game = kos.load_game("goofspiel", seeds=100, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_bidder_has_their_own_legal_actions_at_one_node():
    game = kos.load_game("goofspiel", cards=4, players=3, seeds=10)
    state = game.new_initial_state()
    state.apply_action(7)                          # the seed
    assert state.current_player() == SIMULTANEOUS and not state.is_chance_node()
    legal = [state.legal_actions(p) for p in range(3)]
    assert all(len(moves) == 4 for moves in legal)
    assert len({tuple(moves) for moves in legal}) == 3, "each holds cards of their own suit"
    names = [state.action_to_string(p, legal[p][0]) for p in range(3)]
    assert [n.split()[-1][-1] for n in names] == ["♣", "♦", "♠"]
    state.apply_actions([moves[-1] for moves in legal])
    assert state.current_player() == SIMULTANEOUS
    assert [len(state.legal_actions(p)) for p in range(3)] == [3, 3, 3]
    assert all(m not in state.legal_actions(p) for p, m in enumerate(moves[-1] for moves in legal))


def test_the_bids_are_seen_by_all_once_all_have_bid():
    game = kos.load_game("goofspiel", cards=4, seeds=10)
    state = game.new_initial_state()
    state.apply_action(3)
    copy = state.clone()        # a clone is at the same simultaneous node
    assert copy.current_player() == SIMULTANEOUS and copy.legal_actions(1) == state.legal_actions(1)
    legal = [state.legal_actions(p) for p in range(2)]
    state.apply_actions([legal[0][0], legal[1][-1]])
    copy.apply_actions([legal[0][1], legal[1][-1]])
    # P2 bid the same in both, and learns P1's different bid only with the round over
    assert state.information_state_string(1) != copy.information_state_string(1)
    assert state.current_player() == SIMULTANEOUS       # the next round


def test_a_whole_match_ends_with_the_engine_s_returns():
    rng = random.Random(5)
    game = kos.load_game("goofspiel", cards=6, seeds=50)
    for _ in range(5):
        state = game.new_initial_state()
        nodes = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                assert state.current_player() == SIMULTANEOUS
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
                nodes += 1
        assert nodes == 5, "six rounds, the last one's bids forced"
        assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_a_seat_that_does_not_choose_waits_and_a_second_turn_is_a_node_of_its_own(tmp_path):
    from test_together import rules
    path = tmp_path / "throws.yaml"
    rules(tmp_path, skip="skip players[1]")
    path.write_text(path.read_text(encoding="utf-8").replace("deal_number >= 2", "deal_number >= 1"),
                    encoding="utf-8")
    game = kos.load_game(str(path), seeds=10)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(1)
    assert state.current_player() == SIMULTANEOUS
    assert state.legal_actions(1) == [0] and state.action_to_string(1, 0) == "wait"
    state.apply_actions([state.legal_actions(0)[0], 0, state.legal_actions(2)[0]])
    assert state.current_player() == 0, "P1's second turn (P2 skipped), in turn"


def test_in_turn_the_rounds_are_sequential_and_a_later_bidder_learns_nothing():
    game = kos.load_game("goofspiel", cards=4, seeds=10, together="in_turn")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert "together=in_turn" in str(game)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    assert state.current_player() == 0
    seen = set()
    for bid in state.legal_actions():
        after = state.child(bid)
        assert after.current_player() == 1
        seen.add((after.information_state_string(1), tuple(after.legal_actions())))
    assert len(seen) == 1, "P2 bids knowing nothing of P1's bid"
    name = kos.register("goofspiel")
    assert pyspiel.load_game(name, {"cards": 3, "together": "in_turn"}).get_type().dynamics == \
        pyspiel.GameType.Dynamics.SEQUENTIAL
    with pytest.raises(ValueError, match="in_turn"):
        kos.load_game("goofspiel", cards=3, together="later")


def test_openspiel_s_ismcts_plays_the_rounds_in_turn():
    from open_spiel.python.algorithms import ismcts, mcts
    import numpy as np
    game = kos.load_game("goofspiel", cards=4, seeds=10, together="in_turn")
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    state = game.new_initial_state()
    state.apply_action(2)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
