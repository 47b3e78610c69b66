"""Seeded random playouts of Pony and Peklo with every option: engine invariants after every action."""
from __future__ import annotations

import json
import random

import pytest

import koloda
from koloda.interpreter.core.state import State

from helpers import conservation, play_on_clone, roundtrip, snapshot

MAX_ACTIONS = 20000

PONY_CONFIGS = [
    (2, {}),
    (3, {}),
    (6, {}),
    (3, {"deck": "standard52"}),
    (4, {"hand": 7}),
    (2, {"limit": 30}),
    (3, {"jack_finish_doubles": True}),
    (3, {"seven_draws": True}),
    (2, {"seven_draws": True}),
    (4, {"eight_skips": True}),
    (2, {"eight_skips": True}),
    (3, {"queen_needs_king": True}),
    (6, {"deck": "standard52", "hand": 7, "jack_finish_doubles": True, "seven_draws": True,
         "eight_skips": True, "queen_needs_king": True, "limit": 150}),
    (2, {"deck": "standard52", "hand": 7, "jack_finish_doubles": True, "seven_draws": True,
         "eight_skips": True, "queen_needs_king": True}),
]

PEKLO_CONFIGS = [
    (4, {}),                                   # one whole cycle, 13 deals
    (3, {"deal_size": 5}),
    (4, {"deal_size": 13}),                    # the whole deck, no trump
    (5, {"deal_size": 4, "hook": True}),
    (6, {"deal_size": 3, "missed_bid_penalty": True}),
    (7, {"deal_size": 7, "hook": True, "missed_bid_penalty": True}),
    (4, {"deal_size": 1, "hook": True, "missed_bid_penalty": True}),
]


def ids(configs):
    return [f"{n}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default") for n, o in configs]


def check_observation(game, s, player):
    obs = s.observation(player)
    json.dumps(obs)                                     # plain data
    hand_base = game.layout.zone_base["hand"]
    hidden = set()
    for p in range(s.n):
        if p != player:
            hidden |= {game.cards.names[c] for c in s.zones[hand_base + p]}
    shown = set()
    for entry in obs["zones"]:
        if entry["zone"] == "hand" and entry["owner"] != player:
            assert "cards" not in entry and "top" not in entry, f"P{player} sees P{entry['owner']}'s hand"
        if entry["zone"] == "hand" and entry["owner"] == player:
            assert sorted(entry["cards"]) == sorted(game.cards.names[c] for c in s.zones[hand_base + player])
        if entry["zone"] == "stock":
            assert "cards" not in entry and "top" not in entry
        shown |= set(entry.get("cards", []))
        if "top" in entry:
            shown.add(entry["top"])
    assert not shown & hidden, f"P{player} sees {shown & hidden} of other hands"
    for v in obs["vars"]:
        if v["var"] == "drawn":
            assert v["owner"] == player, f"P{player} sees P{v['owner']}'s drawn card"


def playout(game, seed, check=True, observe_every=1):
    """Play a seeded random match. Returns (actions, final snapshot, scores, checkpoints)."""
    s = game.new_initial_state(seed)
    rng = random.Random(seed * 7 + 1)
    actions = []
    checkpoints = []
    for i in range(MAX_ACTIONS):
        if check:
            conservation(s)
            if i % observe_every == 0:
                for p in range(s.n):
                    check_observation(game, s, p)
        if s.is_terminal():
            break
        legal = s.legal_actions()
        assert legal, "a non-final state must offer a move"
        assert s.current_player() >= 0
        if check and i % 11 == 5:
            play_on_clone(s, i, 6)
        if check and i % 29 == 3:
            restored = roundtrip(s)
            assert snapshot(restored) == snapshot(s)
            assert restored.legal_actions() == legal
            checkpoints.append((i, json.loads(json.dumps(s.to_json()))))   # to_json shares live lists
        a = rng.choice(legal)
        actions.append(a)
        s.apply_action(a)
    else:
        raise AssertionError(f"no end after {MAX_ACTIONS} actions")
    assert s.is_terminal()
    assert s.legal_actions() == []
    assert s.current_player() == koloda.TERMINAL
    r = s.returns()
    assert sum(r) == pytest.approx(1.0) and all(x >= 0 for x in r)
    return actions, snapshot(s), s.scores(), checkpoints


def continue_identically(game, actions, final, checkpoints, how_many=3):
    for i, data in checkpoints[-how_many:]:
        restored = State.from_json(game, json.loads(json.dumps(data)))
        for a in actions[i:]:
            restored.apply_action(a)
        assert snapshot(restored) == final, f"the state saved at action {i} continued differently"


def run_config(name, players, options, seed):
    game = koloda.load(name, options=options, players=players)
    actions, final, scores, checkpoints = playout(game, seed)
    assert checkpoints, "the match was too short to check save and load"
    continue_identically(game, actions, final, checkpoints)
    # the same seed gives the same match (on a freshly loaded game too)
    again = koloda.load(name, options=options, players=players)
    actions2, final2, scores2, _ = playout(again, seed, check=False)
    assert actions2 == actions and scores2 == scores and final2 == final
    return game, actions, scores


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("players,options", PONY_CONFIGS, ids=ids(PONY_CONFIGS))
def test_pony_playout(players, options, seed):
    game, actions, scores = run_config("pony", players, options, seed=seed * 1000 + players * 100 + len(options))
    limit = options.get("limit", 100)
    assert max(scores) >= limit                        # the match ends only at the limit
    # the whole history is on the final state
    assert len(actions) > players


PEKLO_RUNS = [(n, o, seed) for n, o in PEKLO_CONFIGS for seed in ((1,) if not o else (1, 2))]


@pytest.mark.parametrize("players,options,seed", PEKLO_RUNS,
                         ids=[f"{i}-seed{r[2]}" for i, r in zip(ids([(n, o) for n, o, _ in PEKLO_RUNS]), PEKLO_RUNS)])
def test_peklo_playout(players, options, seed):
    game, actions, scores = run_config("peklo", players, options, seed=seed * 1000 + players * 10 + len(options))
    k = options.get("deal_size", 0)
    if k:
        assert len(actions) == players + k * players        # one deal: n bids, k cards each
    else:
        deals = 52 // players
        assert len(actions) == sum(players + j * players for j in range(1, deals + 1))


def test_different_seeds_differ():
    g = koloda.load("pony", players=3)
    a1 = playout(g, 1, check=False)[0]
    a2 = playout(g, 2, check=False)[0]
    assert a1 != a2


def test_roundtrip_keeps_the_shuffle_source():
    # a state saved just before a deal ends must deal the same next hands after loading
    g = koloda.load("pony", players=2, options={"limit": 1000})
    s = g.new_initial_state(5)
    rng = random.Random(5)
    while s.deal_number < 3:
        s.apply_action(rng.choice(s.legal_actions()))
    saved = json.loads(json.dumps(s.to_json()))
    rng_state = rng.getstate()
    while s.deal_number < 5:
        s.apply_action(rng.choice(s.legal_actions()))
    r = State.from_json(g, saved)
    rng.setstate(rng_state)
    while r.deal_number < 5:
        r.apply_action(rng.choice(r.legal_actions()))
    assert snapshot(r) == snapshot(s)


# ------------------------------------------------------------------ the checks themselves can fail
def test_conservation_catches_a_lost_or_doubled_card():
    g = koloda.load("pony", players=2)
    s = g.new_initial_state(1)
    conservation(s)
    lost = s.clone()
    lost.zones[g.layout.zone_base["pile"]].pop()
    with pytest.raises(AssertionError):
        conservation(lost)
    doubled = s.clone()
    doubled.zones[g.layout.zone_base["pile"]].append(doubled.zones[g.layout.zone_base["stock"]][0])
    with pytest.raises(AssertionError):
        conservation(doubled)
    stale = s.clone()
    c = stale.zones[g.layout.zone_base["stock"]].pop()
    stale.zones[g.layout.zone_base["pile"]].append(c)          # moved without updating loc
    with pytest.raises(AssertionError):
        conservation(stale)


def test_observation_hides_hands_and_the_drawn_card():
    from helpers import act, setup
    g = koloda.load("pony", players=2)
    s = g.new_initial_state(1)
    setup(s, zones={("hand", 0): "7S 8D", ("hand", 1): "8C 9C", "pile": "9H"}, current=0, step="turn")
    act(s, "draw")
    drawn = g.cards.names[s.vars[g.layout.var_base["drawn"]]]
    mine, theirs = s.observation(0), s.observation(1)
    check_observation(g, s, 0)
    check_observation(g, s, 1)
    hand0 = next(z for z in theirs["zones"] if z["zone"] == "hand" and z["owner"] == 0)
    assert hand0["size"] == 3 and "cards" not in hand0
    assert drawn not in json.dumps(theirs["zones"]) and drawn not in json.dumps(theirs["vars"])
    assert any(v["var"] == "drawn" and v["owner"] == 0 for v in mine["vars"])
    assert not any(v["var"] == "drawn" and v["owner"] == 0 for v in theirs["vars"])
    own = next(z for z in mine["zones"] if z["zone"] == "hand" and z["owner"] == 0)
    assert own["cards"][-1] == drawn


def test_clone_is_independent_of_the_original():
    g = koloda.load("peklo", players=4, options={"deal_size": 3})
    s = g.new_initial_state(2)
    before = snapshot(s)
    c = s.clone()
    while not c.is_terminal():
        c.apply_action(c.legal_actions()[0])
    assert snapshot(s) == before
    assert not s.is_terminal() and s.moves == 0
    # and the other way round
    c2 = s.clone()
    c2_before = snapshot(c2)
    s.apply_action(s.legal_actions()[-1])
    assert snapshot(c2) == c2_before
