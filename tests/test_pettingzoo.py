"""koloda's games as PettingZoo and Gymnasium environments (the `koloda[pettingzoo]` extra)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import koloda  # noqa: E402
import koloda.gymnasium as kgym  # noqa: E402
import koloda.pettingzoo as kpz  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402


@pytest.mark.parametrize("rules", koloda.shipped_games())
def test_pettingzoo_api_test(rules):
    # PettingZoo's own checks, bounded: 60 tokens, after which the match is truncated
    api_test(kpz.env(rules, max_moves=60, render_mode="ansi"), num_cycles=60, verbose_progress=False)


def test_the_same_seed_plays_the_same_match():
    seed_test(lambda: kpz.env("kunkin", max_moves=80), num_cycles=80)


def play_out(env, seed):
    """Random legal tokens to the end; the rewards each agent was given as it left."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return final


def test_a_whole_match_ends_with_the_engine_s_returns():
    env = kpz.env("pony", players=3)
    final = play_out(env, seed=4)
    episode = env.unwrapped.episode
    assert episode.native.is_terminal() and not episode.truncated()
    returns = episode.native.returns()
    assert final == {f"player_{p}": returns[p] for p in range(3)}
    assert sum(returns) == 1.0 and max(returns) > 0


def test_a_match_cut_short_is_a_draw():
    env = kpz.env("leopard4", max_moves=30)
    env.reset(seed=1)
    for _ in range(30):
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    # four players in two sides: each side's share is 1/2, each partner gets it
    assert env.rewards == dict.fromkeys(env.possible_agents, 0.5)


def test_the_mask_and_the_observation_belong_to_the_seat():
    env = kpz.env("kunkin")
    env.reset(seed=2)
    mover = env.agent_selection
    other = next(a for a in env.possible_agents if a != mover)
    mine, theirs = env.observe(mover), env.observe(other)
    assert mine["action_mask"].sum() > 0 and theirs["action_mask"].sum() == 0
    assert mine["observation"].shape == env.observation_space(mover)["observation"].shape
    assert not np.array_equal(mine["observation"], theirs["observation"])     # each sees their own hand


def test_an_illegal_token_is_refused_with_a_reason():
    env = kpz.env("pony")
    env.reset(seed=0)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def test_ansi_render_draws_the_table_as_the_seat_to_move_sees_it():
    env = kpz.env("pony", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    native = env.unwrapped.episode.native
    cards = native.game.cards
    mover = native.current_player()
    hands = native.layout.zone_base["hand"]
    assert "Pony" in text and "your hand" in text
    assert all(cards.labels[c] in text for c in native.zones[hands + mover])
    assert "5 cards" in text             # the other hand is shown by its size


def test_gymnasium_one_seat_against_koloda_bots():
    from gymnasium.utils import env_checker, passive_env_checker
    warnings.simplefilter("ignore")      # the checker warns of the unbounded tensor's space
    env = kgym.env("kunkin", seat=1, others="random", render_mode="ansi", max_moves=200)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_reset_return_type(env)
    observation, _ = passive_env_checker.env_reset_passive_checker(env, seed=5)
    passive_env_checker.env_step_passive_checker(env, env.action_space.sample(observation["action_mask"]))
    assert "your hand" in env.render()
    observation, _ = env.reset(seed=3)
    steps = 0
    while True:
        assert env.episode.current_player() == 1        # the bots have played the other seat
        observation, reward, terminated, truncated, _ = env.step(env.action_space.sample(observation["action_mask"]))
        steps += 1
        if terminated or truncated:
            break
    assert truncated and reward == 0.5 and steps < 200
    finished = kgym.env("pony", seat=0, others=["random"])
    observation, _ = finished.reset(seed=1)
    terminated = False
    while not terminated:
        observation, reward, terminated, truncated, _ = finished.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert reward == finished.episode.native.returns()[0]


def test_gymnasium_make_knows_the_environment():
    import gymnasium
    env = gymnasium.make(kgym.ENV_ID, rules="pony", seat=1, others="greedy", max_moves=20)
    observation, _ = env.reset(seed=2)
    assert env.unwrapped.episode.current_player() == 1
    assert observation["action_mask"].sum() == len(env.unwrapped.episode.legal_actions()) > 0


def test_gymnasium_refuses_a_bad_table():
    with pytest.raises(ValueError, match="no seat 5"):
        kgym.env("pony", seat=5)
    with pytest.raises(ValueError, match="2 bots for the 1 other"):
        kgym.env("pony", others=["random", "random"])
    with pytest.raises(ValueError, match="not `human`"):
        kgym.env("pony", others="human")
