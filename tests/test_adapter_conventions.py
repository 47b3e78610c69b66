"""The research adapters as their ecosystems' users expect them: NumPy integers, OpenSpiel's method
spellings, bounded observation boxes, MaskablePPO's hook, illegal-move-loses, self-play, and the
checkers of Gymnasium and PettingZoo (Stable-Baselines3's needs torch, which koloda does not pull in)."""
from __future__ import annotations

import pickle
import random
import warnings

import numpy as np
import pytest

from koloda.compact import CompactGame
from koloda.interpreter.base.errors import IllegalAction

pytest.importorskip("pettingzoo")

import koloda.gymnasium as kgym  # noqa: E402
import koloda.pettingzoo as kpz  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402


def test_numpy_integers_are_tokens_and_other_numbers_are_not():
    cg = CompactGame.load("kunkin", players=2)
    cs = cg.new_initial_state(seed=1)
    token = cs.legal_actions()[0]
    assert cg.token_to_string(np.int64(token)) == cg.token_to_string(token)
    cs.apply_action(np.int64(token))
    assert cs.prefix == (token,) or cs.native.moves == 1
    for bad in (float(token), True, "3"):
        with pytest.raises(IllegalAction, match="not in the vocabulary"):
            cg.new_initial_state(seed=1).apply_action(bad)


def test_num_players_is_a_method_and_still_a_number():
    cg = CompactGame.load("pony", players=3)
    assert cg.num_players() == 3 and cg.num_players == 3 and list(range(cg.num_players)) == [0, 1, 2]


@pytest.mark.parametrize("rules", ["pony", "peklo", "kunkin", "bridge"])
def test_every_tensor_lies_within_the_declared_bounds(rules):
    cg = CompactGame.load(rules)
    low, high = map(np.array, cg.observation_tensor_bounds())
    ilow, ihigh = map(np.array, cg.information_state_tensor_bounds())
    assert np.isfinite(high).sum() > 0.9 * len(high)       # most of the layout is bounded
    rng = random.Random(0)
    cs = cg.new_initial_state(seed=3)
    for _ in range(200):
        if cs.is_terminal():
            break
        for p in range(cg.num_players()):
            x, y = np.array(cs.observation_tensor(p)), np.array(cs.information_state_tensor(p))
            assert ((low <= x) & (x <= high)).all() and ((ilow <= y) & (y <= ihigh)).all()
        cs.apply_action(rng.choice(cs.legal_actions()))


@pytest.mark.parametrize("rules", ["pony", "kunkin"])
def test_gymnasium_check_env_passes_where_an_illegal_token_loses(rules):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # scores are unbounded: the checker warns of it
        check_env(kgym.env(rules, illegal="lose", max_moves=100, render_mode="ansi"), skip_render_check=False)
        check_env(kgym.SelfPlayEnv(rules, illegal="lose", max_moves=100))


def test_an_illegal_token_loses_the_match_when_asked():
    env = kgym.env("pony", illegal="lose")
    observation, _ = env.reset(seed=0)
    assert (env.action_masks() == observation["action_mask"].astype(bool)).all()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(np.int64(illegal))
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal": True})
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="not legal"):
        strict = kgym.env("pony")
        strict.reset(seed=0)
        strict.step(illegal)


def test_the_other_seats_may_be_played_by_a_python_policy():
    asked = []

    def first_legal(observation):
        asked.append(observation["observation"][:2].tolist())      # the seat's own one-hot
        return np.int64(np.flatnonzero(observation["action_mask"])[0])

    env = kgym.env("pony", seat=0, others=first_legal)
    observation, _ = env.reset(seed=2)
    terminated = truncated = False
    while not (terminated or truncated):
        observation, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert asked and all(seat == [0.0, 1.0] for seat in asked)        # it saw seat 1's view
    assert reward == env.episode.native.returns()[0]
    cheat = kgym.env("pony", seat=0, others=lambda observation: int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="policy of seat 1"):
        observation, _ = cheat.reset(seed=2)
        while True:
            observation, *_ = cheat.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_self_play_moves_every_seat_and_ends_with_the_returns():
    env = kgym.SelfPlayEnv("pony", players=3)
    observation, info = env.reset(seed=5)
    seats = set()
    for _ in range(10_000):
        seats.add(info["player"])
        assert observation["observation"][info["player"]] == 1.0       # the mover's own view
        observation, reward, terminated, truncated, info = env.step(np.flatnonzero(observation["action_mask"])[0])
        if terminated or truncated:
            break
    assert terminated and seats == {0, 1, 2}
    assert info["returns"] == env.episode.native.returns() and reward == info["returns"][info["player"]]


def test_pettingzoo_renders_for_a_human_and_passes_its_checkers():
    render_test(lambda render_mode=None: kpz.env("pony", render_mode=render_mode))
    api_test(kpz.env("kunkin", illegal="lose", max_moves=60), num_cycles=60, verbose_progress=False)
    seed_test(lambda: kpz.env("pony", illegal="lose", max_moves=80), num_cycles=80)


def test_pettingzoo_illegal_token_loses_for_that_agent_only():
    env = kpz.env("pony", players=3, illegal="lose")
    env.reset(seed=1)
    observation, *_ = env.last()
    mover = env.agent_selection
    env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == mover else 0.0) for a in env.possible_agents}


def test_openspiel_table_options_survive_serialization_and_pickling():
    pyspiel = pytest.importorskip("pyspiel")
    import koloda.openspiel  # noqa: F401

    game = pyspiel.load_game("koloda", {"rules": "kunkin", "players": 2, "options": "limit=50, hand=7"})
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(state.legal_actions()[0])
    again, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.koloda.options["limit"] == 50 and again.koloda.options["hand"] == 7
    assert str(copy) == str(state) and str(pickle.loads(pickle.dumps(state))) == str(state)


def test_openspiel_draws_the_seed_digit_by_digit_when_asked():
    pyspiel = pytest.importorskip("pyspiel")
    import koloda.openspiel as kos

    game = kos.load_game("pony", seeds=256, chance_base=16, max_moves=40)
    whole = kos.load_game("pony", seeds=256, max_moves=40)
    assert game.max_chance_outcomes() == 16 and whole.max_chance_outcomes() == 256
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 16
    state.apply_action(np.int64(3))
    assert state.is_chance_node()
    halfway = pickle.loads(pickle.dumps(state))       # a digit drawn survives pickling and cloning
    for s in (state, halfway, state.clone()):
        s.apply_action(7)
        assert not s.is_chance_node()
    same = whole.new_initial_state()
    same.apply_action(3 * 16 + 7)                # the first digit drawn is the most significant
    assert str(state) == str(halfway) == str(same)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(Exception, match="power of it"):
        kos.load_game("pony", seeds=100, chance_base=16)


def test_run_and_tournament_seat_python_objects_and_bots():
    class Last:
        def __init__(self):
            self.asked = 0

        def act(self, view):
            self.asked += 1
            return view.legal_actions[-1]

    last = Last()
    returns = kgym.run("pony", [last, "random"], seed=3)
    assert last.asked > 0 and sum(returns) == 1.0
    assert kgym.run("pony", [Last(), "random"], seed=3) == returns          # the seed decides the match
    shares = kgym.tournament("pony", ["greedy", "random"], games=6, seed=1)
    assert len(shares) == 2 and sum(shares) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="3 agents given for the 2 seats"):
        kgym.run("pony", ["random"] * 3, players=2)


def test_scaled_observations_lie_in_their_declared_box():
    from koloda.vector import SeatVectorEnv

    env = kgym.env("bridge", scale=1000, max_moves=80, illegal="lose")
    box = env.observation_space["observation"]
    raw = kgym.env("bridge", max_moves=80)
    finite = np.isfinite(raw.observation_space["observation"].high)
    assert (box.high[finite] == 1.0).all() and np.isinf(box.high[~finite]).all()
    observation, _ = env.reset(seed=2)
    plain, _ = raw.reset(seed=2)
    for _ in range(40):
        assert box.contains(observation["observation"])
        assert np.allclose(observation["observation"] * env.divisor, plain["observation"])
        token = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, terminated, truncated, _ = env.step(token)
        plain, *_ = raw.step(token)
        if terminated or truncated:
            break
    envs = SeatVectorEnv("bridge", 2, scale=1000)
    batch, _ = envs.reset(seed=2)
    assert np.array_equal(batch["observation"][0], env.reset(seed=2)[0]["observation"])
    with pytest.raises(ValueError, match="positive number"):
        kgym.env("pony", scale=0)
