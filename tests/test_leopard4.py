"""Leopard for four (GAMES.md section 1, seed 000 "Леопард для четверых"): sides of two sharing a
square and a score, and the request to the partner to end the deal, answered out of turn.

Players are counted from 0: sides are {0, 2} (P1+P3, square/side 0) and {1, 3} (P2+P4, side 1).
"""
from __future__ import annotations

import json
import random

import pytest

import koloda
from koloda.interpreter.core.state import State

from helpers import act, conservation, get_var, hand, legal, replays_to, roundtrip, setup, snapshot
from test_leopard import (EIGHT_CARDS, FIVE_CARDS, LOWER_CARDS, LOWER_RANKS, MAX_CHOICES, UPPER_CARDS, UPPER_RANKS,
                          check_observations, drawn_square, load, places, worths)

START_BOTH = ["end the deal", "draw", "ask partner to end"]
ANSWER = ["agree to end", "refuse"]


def four(**options):
    return load("leopard4", **options)


def side_scores(s):
    return [get_var(s, ("score", t)) for t in range(2)]


def request_position(side0=EIGHT_CARDS, side1=LOWER_CARDS, current=0, seed=1, game=None, rest="stock",
                     ranks0=UPPER_RANKS, vars=None, extra=None):
    """Side 0's square drawn with `ranks0` (the upper square's cell ranks), side 1's with the lower one's;
    a known card in each hand; `current` to start a turn."""
    g = game or four()
    s = g.new_initial_state(seed)
    zones = {**drawn_square(0, ranks0, side0), **drawn_square(1, LOWER_RANKS, side1),
             ("hand", 0): "2C", ("hand", 1): "3C", ("hand", 2): "2C", ("hand", 3): "3C"}
    zones.update(extra or {})
    setup(s, zones=zones, current=current, step="start", rest=rest, vars=vars)
    conservation(s)
    return s


def plain_turn(s, prefer="discard"):
    """Draw and discard (the first discard offered)."""
    act(s, "draw")
    act(s, next(m for m in legal(s) if m.startswith(prefer)))


# ------------------------------------------------------------------ sides
def test_two_sides_of_two_sit_opposite_and_alternate():
    g = four()
    assert g.num_players == 4 and g.num_sides == 2 and g.cards.size == 104
    assert [g.side_of(p) for p in range(4)] == [0, 1, 0, 1]
    assert len(g.layout.grids) == 2 and [gr.owner for gr in g.layout.grids] == [0, 1] and all(gr.by_side for gr in g.layout.grids)
    assert g.options["deals"] == 2 and g.options["target"] == 33
    s = g.new_initial_state(2)
    assert [len(hand(s, p)) for p in range(4)] == [8] * 4
    assert len(s.zones[g.layout.zone_base["stock"]]) == 104 - 32
    order = []
    for _ in range(6):
        order.append(s.current_player())
        plain_turn(s)
    first = (s.dealer + 1) % 4
    assert order == [(first + k) % 4 for k in range(6)]
    assert [g.side_of(p) for p in order] == [(first + k) % 2 for k in range(6)]


def test_the_match_is_two_deals_one_dealt_by_each_side():
    # "по две при четырех": two deals in the match (see the file's notes)
    g = four()
    s = g.new_initial_state(5)
    dealers = []
    g.on_deal_scored(lambda st: dealers.append(st.dealer))
    rng = random.Random(5)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.deal_number == 2 and len(dealers) == 2
    assert {g.side_of(d) for d in dealers} == {0, 1}


def test_partners_share_one_square_and_may_place_in_either():
    s = request_position(current=1, side0="♦3 – ♦A / ♦10 ♦K ♠4 / ♥10 ♥8 ♦7", side1="– – – / – – – / – – –",
                         extra={("hand", 1): "2H 7H 10C JC QH KS", ("hand", 3): "10D"})
    s.step = "lay"
    own = "P2+P4 square"
    assert places(s, "2♥") == {"P1+P3 square 2", f"{own} 2"}
    assert places(s, "7♥") == {f"{own} 7"}              # the other side's 7 holds ♦7
    assert places(s, "10♣") == {f"{own} {r}" for r in "7 8 9 4 5 6 A 2 3".split()}
    assert places(s, "J♣") == {f"P1+P3 square {r}" for r in "7 8 9 4 5 6 A 3".split()}
    assert places(s, "Q♥") == set()                     # the own square is empty
    assert places(s, "K♠") == {f"{own} {r}" for r in "7 8 9 4 5 6 A 2 3".split()}
    act(s, "place 10♣ on P2+P4 square 5")
    # the partner P4 builds on the same square: the 5 is taken for them too
    act(s, "draw")                                       # P3
    act(s, "discard 2♣")
    assert s.current_player() == 3
    act(s, "draw")
    assert "P2+P4 square 5" not in places(s, "10♦")
    assert len(places(s, "10♦")) == 8


def test_a_rank_card_may_go_to_the_other_sides_square():
    s = request_position(current=2, side0="– – – / – – – / – – –", side1=LOWER_CARDS,
                         extra={("hand", 2): "9D 4S"})
    s.step = "lay"
    assert places(s, "9♦") == {"P1+P3 square 9", "P2+P4 square 9"}
    assert places(s, "4♠") == {"P1+P3 square 4"}         # the other side's 4 holds ♥4
    act(s, "place 9♦ on P2+P4 square 9")
    assert worths(s) == [0, 4]                           # P2+P4's right column: ♦9 ♣6 ♣K mixed


def test_partners_score_together():
    s = request_position()
    assert worths(s) == [8, 4]
    act(s, "end the deal")                               # P1 ends at once, without asking
    assert side_scores(s) == [8 - 1 + 3, 4]
    assert s.scores() == [10, 4, 10, 4]
    assert s.deal_number == 2


def test_a_partners_hand_stays_hidden():
    s = four().new_initial_state(3)
    obs = s.observation(2)
    entries = {z["owner"]: z for z in obs["zones"] if z["zone"] == "hand"}
    assert "cards" not in entries[0] and "cards" in entries[2]
    assert entries[0]["size"] == 8


# ------------------------------------------------------------------ the request to end
def test_with_5_or_more_the_player_may_end_or_ask_the_partner():
    s = request_position(side0=FIVE_CARDS, ranks0=LOWER_RANKS)
    assert worths(s) == [5, 4]
    assert legal(s) == START_BOTH
    s.current = 2                                        # the partner has the same right
    s._legal = None
    assert legal(s) == START_BOTH
    s.current = 1                                        # the other side (worth 4) has not
    s._legal = None
    assert legal(s) == ["draw"]
    # worth 4: neither
    s2 = request_position(side0=LOWER_CARDS, ranks0=LOWER_RANKS, side1=FIVE_CARDS)
    assert worths(s2) == [4, 5] and legal(s2) == ["draw"]


def test_asking_hands_the_decision_to_the_partner_out_of_turn():
    s = request_position()
    act(s, "ask partner to end")
    assert s.current_player() == 2 and s.step == "answer"
    assert legal(s) == ANSWER
    assert s.legal_actions(0) == [] and s.legal_actions(2) == s.legal_actions()
    assert s.waiting == [[0, "start", [], "answer", None]]      # no open window
    assert get_var(s, "asker") == 0
    assert s.observation(0)["current"] == 2
    assert s.deal_number == 1 and s.turns == 0


def test_agreement_ends_the_deal_with_the_asker_as_the_ender():
    s = request_position(vars={("score", 0): 5, ("score", 1): 6})
    act(s, "ask partner to end")
    act(s, "agree to end")
    assert s.history[-1][0] == 2                         # the partner answered
    assert s.deal_number == 2
    assert side_scores(s) == [5 + (8 - 1 + 3), 6 + 4]
    assert s.waiting == [] and get_var(s, "ender") is None
    assert legal(s) == ["draw"] and s.current_player() == (s.dealer + 1) % 4


def test_the_other_side_asks_too():
    s = request_position(side0=UPPER_CARDS, side1=FIVE_CARDS, current=3)
    assert worths(s) == [10, 5]
    assert legal(s) == START_BOTH
    act(s, "ask partner to end")
    assert s.current_player() == 1 and legal(s) == ANSWER and s.waiting == [[3, "start", [], "answer", None]]
    act(s, "agree to end")
    assert side_scores(s) == [10, 5 - 1 + 0]


def test_refusal_returns_to_the_asker_who_may_not_end_this_deal():
    s = request_position(rest="discard", extra={"stock": "9S 9S 9C 9C 3S 3S 3H 3H 4D 4D 4C 4C 5D 5D"})
    act(s, "ask partner to end")
    act(s, "refuse")
    # back to the asker, in the same step: the turn goes on with the draw
    assert s.current_player() == 0 and s.step == "start" and s.turns == 0
    assert s.waiting == [] and get_var(s, "asker") is None
    assert get_var(s, ("may_end", 0)) is False and get_var(s, ("may_end", 2)) is True
    assert legal(s) == ["draw"]
    plain_turn(s)                                        # P1
    assert s.current_player() == 1
    plain_turn(s)                                        # P2
    assert s.current_player() == 2
    assert legal(s) == START_BOTH                        # the partner still may
    plain_turn(s)                                        # P3 goes on instead
    plain_turn(s)                                        # P4
    assert s.current_player() == 0
    assert legal(s) == ["draw"]                          # still not P1
    plain_turn(s)
    plain_turn(s)
    assert s.current_player() == 2 and s.deal_number == 1
    # the partner may also ask P1, who may answer (and agree) even after their own refusal
    act(s, "ask partner to end")
    assert s.current_player() == 0 and legal(s) == ANSWER
    act(s, "agree to end")
    assert s.deal_number == 2 and side_scores(s) == [10, 4]
    # a new deal restores the right to end
    assert [get_var(s, ("may_end", p)) for p in range(4)] == [True] * 4
    zones = {**drawn_square(0, UPPER_RANKS, EIGHT_CARDS), ("hand", 0): "2C"}
    setup(s, zones=zones, current=0, step="start")
    assert legal(s) == START_BOTH


def test_a_refused_asker_may_not_end_directly_either():
    s = request_position()
    act(s, "ask partner to end")
    act(s, "refuse")
    assert "end the deal" not in legal(s) and "ask partner to end" not in legal(s)
    # even with a square grown meanwhile to 10
    zones = {**drawn_square(0, UPPER_RANKS, UPPER_CARDS)}
    setup(s, zones=zones, current=0, step="start")
    assert worths(s)[0] == 10 and legal(s) == ["draw"]


@pytest.mark.parametrize("answer", ["agree to end", "refuse"])
def test_clone_and_json_in_the_middle_of_a_question(answer):
    s = request_position(seed=4)
    act(s, "ask partner to end")
    assert s.waiting
    c = s.clone()
    r = roundtrip(s)
    saved = json.loads(json.dumps(s.to_json()))
    assert saved["waiting"] == [[0, "start", [], "answer", None]]
    for x in (c, r):
        assert snapshot(x) == snapshot(s)
        assert x.current_player() == 2 and legal(x) == ANSWER and x.waiting == [[0, "start", [], "answer", None]]
    # clone independence: answering on the clone leaves the original waiting
    act(c, answer)
    assert s.current_player() == 2 and s.waiting == [[0, "start", [], "answer", None]] and legal(s) == ANSWER
    c = s.clone()
    rng = random.Random(9)
    runs = [s, c, r, State.from_json(s.game, saved)]
    for x in runs:
        act(x, answer)
    for _ in range(12):
        moves = runs[0].legal_actions()[:]
        a = rng.choice(moves)
        for x in runs:
            assert x.legal_actions() == moves
            x.apply_action(a)
    final = snapshot(runs[0])
    assert all(snapshot(x) == final for x in runs)
    for x in runs:
        conservation(x)


def test_a_new_deal_drops_a_pending_question_state():
    # the deal ends while nobody waits; and the waiting list is empty in the new deal
    s = request_position()
    act(s, "ask partner to end")
    act(s, "agree to end")
    assert s.waiting == [] and s.step == "start"


# ------------------------------------------------------------------ random playouts
def playout4(game, seed, check=True, stats=None):
    """A seeded match in which players ask and answer often (so the question path is played)."""
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    actions, checkpoints, most, asks, refusals = [], [], 0, 0, 0
    for i in range(100_000):
        if check:
            conservation(s)
            if i % 23 == 0 or s.waiting:
                check_observations(s)
        if s.is_terminal():
            break
        moves = s.legal_actions()
        assert moves
        assert len(moves) <= MAX_CHOICES
        most = max(most, len(moves))
        texts = [game.action_to_string(a) for a in moves]
        if "ask partner to end" in texts and rng.random() < 0.5:
            a = moves[texts.index("ask partner to end")]
            asks += 1
        elif "end the deal" in texts:
            a = moves[texts.index("draw")] if rng.random() < 0.9 else moves[texts.index("end the deal")]
        elif texts == ANSWER:
            a = moves[1] if rng.random() < 0.8 else moves[0]
            refusals += a == moves[1]
        else:
            # lean towards building one's own square, so that squares reach 5 and questions are asked
            own = f"{game.owner_label(game.side_of(s.current), True)} square"
            building = [m for m, x in zip(moves, texts) if x.startswith("place") and x.endswith(tuple(
                f"{own} {r}" for r in "7 8 9 4 5 6 A 2 3".split()))]
            if building and rng.random() < 0.8:
                side = game.side_of(s.current)

                def gain(m):
                    c = s.clone()
                    c.apply_action(m)
                    return worths(c)[side] if c.deal_number == s.deal_number else 0
                best = max(gain(m) for m in building)
                a = rng.choice([m for m in building if gain(m) == best])
            else:
                a = rng.choice(moves)
        if check and s.waiting:
            # in the middle of a question: clone and json go on identically
            r, c = roundtrip(s), s.clone()
            assert snapshot(r) == snapshot(s) == snapshot(c)
            checkpoints.append((i, json.loads(json.dumps(s.to_json()))))
        elif check and i % 89 == 5:
            before = snapshot(s)
            c = s.clone()
            for _ in range(6):
                if c.is_terminal():
                    break
                c.apply_action(random.Random(i).choice(c.legal_actions()))
            assert snapshot(s) == before and s.legal_actions() == moves
            checkpoints.append((i, json.loads(json.dumps(s.to_json()))))
        actions.append(a)
        s.apply_action(a)
    else:
        raise AssertionError("the match did not end")
    assert s.legal_actions() == [] and s.current_player() == koloda.TERMINAL
    assert s.scores()[0] == s.scores()[2] and s.scores()[1] == s.scores()[3]
    if stats is not None:
        stats.update(max_choices=most, asks=asks, refusals=refusals)
    return s, actions, checkpoints


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts(seed):
    g = four()
    stats = {}
    s, actions, checkpoints = playout4(g, seed, stats=stats)
    print(f"leopard4 seed {seed}: {len(actions)} actions, {stats}")
    assert s.deal_number == 2
    assert stats["asks"] > 0                             # the question path was played
    assert stats["max_choices"] > 20
    s2, actions2, _ = playout4(four(), seed, check=False)
    assert actions2 == actions and snapshot(s2) == snapshot(s)
    assert checkpoints
    replays_to(g, checkpoints[-3:], actions, s)
