"""koloda's games inside OpenSpiel (the `koloda[openspiel]` extra): pyspiel's own checks on every
shipped game, resampling that keeps a seat's information state, and OpenSpiel's algorithms at work."""
from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

import koloda  # noqa: E402
import koloda.openspiel as kos  # noqa: E402


def load(rules: str, **params):
    return pyspiel.load_game("koloda", {"rules": rules, "seeds": 100, **params})


@pytest.mark.parametrize("rules", koloda.shipped_games())
def test_pyspiel_random_simulation_test(rules):
    # pyspiel's checks of a game: legal actions, strings, tensors of every seat, clones, returns;
    # bounded by the cap so that the test stays short (the cut match is scored as a draw)
    game = load(rules, max_moves=60)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("rules", ["showdown", "canasta"])
def test_pyspiel_random_simulation_test_with_serialized_states(rules):
    # every state also through pyspiel.serialize_game_and_state and back (slower: two games)
    pyspiel.random_sim_test(load(rules, max_moves=25), num_sims=1, serialize=True, verbose=False)


def test_a_serialized_state_comes_back_whole():
    game = load("kunkin")
    state = game.new_initial_state()
    state.apply_action(3)
    rng = random.Random(1)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for original in (state, world):
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, original))
        assert again.history() == original.history() and str(again) == str(original)
        for seat in (0, 1):
            assert again.information_state_string(seat) == original.information_state_string(seat)
            assert again.information_state_tensor(seat) == original.information_state_tensor(seat)
        assert again.legal_actions() == original.legal_actions()


def test_the_game_declares_what_openspiel_needs():
    game = load("kunkin", max_moves=500)
    info = game.get_type()
    assert info.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert info.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert info.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert 0 < game.num_distinct_actions() <= 2 ** 31 - 1
    assert game.max_game_length() == 500 and game.max_chance_outcomes() == 100
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    # partners share their side's win: four players in two sides get 2 between them
    assert load("leopard4").utility_sum() == 2.0
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 100
    state.apply_action(7)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(Exception, match="observe for one seat"):
        game.make_py_observer(public)


def test_a_match_through_openspiel_is_the_engine_s_match():
    game = load("pony", players=3, max_moves=10_000)
    state = game.new_initial_state()
    state.apply_action(5)
    native = koloda.load("pony", players=3).new_initial_state(seed=5)
    rng = random.Random(1)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        if state.episode.native.moves != native.moves:
            native.apply_action(state.episode.native.history[-1][1])
    assert native.is_terminal() and state.returns() == native.returns()
    assert sum(state.returns()) == 1.0


def test_options_and_a_registered_rule_file():
    game = load("pony", options="hand=7")
    assert game.koloda.options["hand"] == 7
    game = kos.load_game("pony", players=3, hand=7, max_moves=50)
    assert game.koloda.options["hand"] == 7 and game.num_players() == 3 and game.max_game_length() == 50
    name = kos.register("pony")
    assert name == "koloda_pony" and kos.register("pony") == name       # once is enough
    game = pyspiel.load_game(name, {"hand": 7, "players": 3})
    assert game.koloda.options["hand"] == 7 and game.num_players() == 3
    with pytest.raises(Exception, match="unknown option `colour`"):
        load("pony", options="colour=red")
    with pytest.raises(Exception, match="name=value"):
        load("pony", options="hand")


def test_clones_share_the_compiled_rules():
    game = load("canasta")
    state = game.new_initial_state()
    state.apply_action(3)
    child = state.child(state.legal_actions()[0])       # cloned by OpenSpiel (a deep copy of the attributes)
    assert child.episode.game is state.episode.game
    assert child.episode.native is not state.episode.native
    assert child.history() == state.history() + [state.legal_actions()[0]]


@pytest.mark.parametrize("rules", ["kunkin", "showdown", "canasta", "leopard4"])
def test_resampling_keeps_the_seat_s_information_state(rules):
    game = load(rules)
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for _ in range(100):
        if state.is_terminal():
            break
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        changed += world.episode.native.zones != state.episode.native.zones
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0        # the hidden cards were dealt anew


def test_an_information_state_names_no_card_its_seat_cannot_place():
    game = load("kunkin")
    state = game.new_initial_state()
    state.apply_action(2)
    rng = random.Random(3)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    native = state.episode.native
    text = state.information_state_string(0)
    assert text.count("\nP") > 10       # the moves so far, as P1 saw them
    cards = native.game.cards
    # the opponent's cards no copy of which P1 can place (Kun-kin plays with two decks)
    seen = {cards.names[c] for c in range(cards.size) if native.known[c] & 1}
    opponent = [c for c in native.zones[native.layout.zone_base["hand"] + 1] if cards.names[c] not in seen]
    assert opponent and cards.names[opponent[0]] in state.information_state_string(1)
    # (a joker's declared identity, `🃏=J♥`, names no card)
    assert not any(f'"{cards.names[c]}"' in text or re.search(f"(?<!=){cards.labels[c]}", text) for c in opponent)


@pytest.mark.parametrize("rules", ["kunkin", "canasta"])
def test_openspiel_s_ismcts_bot_plays(rules):
    from open_spiel.python.algorithms import ismcts, mcts
    game = load(rules, max_moves=150)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=6,
                           random_state=__import__("numpy").random.RandomState(1))
    state = game.new_initial_state()
    state.apply_action(1)
    for _ in range(3):
        policy, action = bot.step_with_policy(state)
        assert action in state.legal_actions()
        assert sum(p for _, p in policy) == pytest.approx(1.0)
        state.apply_action(action)


def test_outcome_sampling_mccfr_learns_a_policy():
    from open_spiel.python.algorithms import outcome_sampling_mccfr
    game = load("pony", max_moves=40, seeds=4)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(15):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    state.apply_action(0)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert len(solver._infostates) > 15      # it visited and learnt at many information states


def test_tabular_q_learning_through_openspiel_s_rl_environment():
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner
    game = load("pony", max_moves=40)
    env = rl_environment.Environment(game, seed=1)
    size = env.action_spec()["num_actions"]
    assert size == game.num_distinct_actions()
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=size) for p in range(2)]
    for _ in range(3):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            assert len(time_step.observations["info_state"][player]) == game.information_state_tensor_size()
            time_step = env.step([agents[player].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    # the cut matches are draws: every seat was paid 0.5 and learnt values for what it did
    assert time_step.rewards == [0.5, 0.5]
    learnt = [value for agent in agents for actions in agent._q_values.values() for value in actions.values()]
    assert len(learnt) > 20 and any(value > 0 for value in learnt)


def test_an_information_state_remembers_every_move_as_it_was_seen():
    # perfect recall: later moves add to the record, and a new deal's shuffle does not hide the old ones
    game = load("pony")
    state = game.new_initial_state()
    state.apply_action(5)
    rng = random.Random(2)
    before = ""
    deals = set()
    for _ in range(400):
        if state.is_terminal():
            break
        now = state.information_state_string(1).split("\nmoves:\n", 1)[1]
        assert now.startswith(before)
        before = now
        deals.add(state.episode.native.deal_number)
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(deals) > 1 and before.count("\n") > 100
