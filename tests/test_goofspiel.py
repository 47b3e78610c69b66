"""Goofspiel (OpenSpiel's rules): one scenario per rule of koloda/rules/goofspiel.yaml."""
from __future__ import annotations

import functools
import random

import koloda
from koloda.compact import CompactGame

from helpers import act, get_var, hand, legal, zone_cards


@functools.lru_cache(maxsize=None)
def goofspiel(players=2, **options):
    return koloda.load("goofspiel", options or None, players)


def points(s):
    return [get_var(s, ("points", p)) for p in range(s.game.num_players)]


def values(names):
    return sorted({"A": 1, "J": 11, "Q": 12, "K": 13}.get(n[:-1]) or int(n[:-1]) for n in names)


# ------------------------------------------------------------------ the cards
def test_each_player_holds_a_suit_and_the_hearts_are_the_point_cards():
    s = goofspiel().new_initial_state(1)
    assert values(hand(s, 0)) == list(range(1, 14)) and {c[-1] for c in hand(s, 0)} == {"C"}
    assert {c[-1] for c in hand(s, 1)} == {"D"}
    assert len(zone_cards(s, "prize")) == 1 and zone_cards(s, "prize")[0].endswith("H")
    assert len(zone_cards(s, "prizes")) == 12


def test_the_cards_option_keeps_the_lowest_ranks_only():
    s = goofspiel(cards=5).new_initial_state(1)
    assert values(hand(s, 0)) == [1, 2, 3, 4, 5] and values(hand(s, 1)) == [1, 2, 3, 4, 5]
    assert values(zone_cards(s, "prizes") + zone_cards(s, "prize")) == [1, 2, 3, 4, 5]


def test_three_players_the_third_holds_the_spades():
    s = goofspiel(3, cards=4).new_initial_state(1)
    assert {c[-1] for c in hand(s, 2)} == {"S"} and len(hand(s, 2)) == 4


def test_the_point_cards_come_shuffled_or_in_order():
    firsts = {zone_cards(goofspiel().new_initial_state(seed), "prize")[0] for seed in range(12)}
    assert len(firsts) > 3, "random order: the first point card changes with the seed"
    s = goofspiel(cards=4, points_order="descending").new_initial_state(3)
    assert zone_cards(s, "prize") == ["4H"]
    s = goofspiel(cards=4, points_order="ascending").new_initial_state(3)
    assert zone_cards(s, "prize") == ["AH"]
    act(s, "bid 2C")
    act(s, "bid 3D")
    assert zone_cards(s, "prize") == ["2H"]


# ------------------------------------------------------------------ the bids
def test_everyone_bids_any_card_of_their_hand_and_bids_are_hidden_until_all_have_bid():
    g = goofspiel(cards=4, points_order="ascending")
    s = g.new_initial_state(0)
    assert s.current_player() == 0 and sorted(legal(s, plain=True)) == ["bid 2C", "bid 3C", "bid 4C", "bid AC"]
    act(s, "bid 3C")
    assert s.current_player() == 1 and sorted(legal(s, plain=True)) == ["bid 2D", "bid 3D", "bid 4D", "bid AD"]
    assert g.spec.phases[0].together
    seen = CompactGame(g).wrap(s).observation_string(1)
    assert zone_cards(s, ("bid", 0)) == ["3C"]
    assert "3♣" not in seen and "3♣" in CompactGame(g).wrap(s).observation_string(0), \
        "P2 does not see P1's bid before bidding"
    act(s, "bid AD")
    assert zone_cards(s, "spent")[-3:] == ["3C", "AD", "AH"], "both bids shown, then the point card"


def test_the_highest_bid_takes_the_point_card_s_worth():
    s = goofspiel(cards=4, points_order="descending").new_initial_state(0)
    act(s, "bid 2C")
    act(s, "bid 3D")
    assert points(s) == [0, 4]
    act(s, "bid 4C")
    act(s, "bid AD")
    assert points(s) == [3, 4]


def test_a_tie_takes_nothing():
    s = goofspiel(cards=4, points_order="descending").new_initial_state(0)
    act(s, "bid 4C")
    act(s, "bid 4D")
    assert points(s) == [0, 0]
    assert "4H" in zone_cards(s, "spent")


def test_three_players_a_tie_at_the_top_takes_nothing_even_with_a_lower_bid():
    s = goofspiel(3, cards=3, points_order="descending").new_initial_state(0)
    act(s, "bid 3C")
    act(s, "bid 3D")
    act(s, "bid AS")
    assert points(s) == [0, 0, 0]
    act(s, "bid AC")
    act(s, "bid 2D")
    act(s, "bid 3S")
    assert points(s) == [0, 0, 2]


def test_the_last_bids_are_forced_and_the_most_points_win():
    s = goofspiel(cards=3, points_order="descending").new_initial_state(0)
    act(s, "bid 3C")
    act(s, "bid AD")          # P1 takes 3
    act(s, "bid AC")
    act(s, "bid 3D")          # P2 takes 2; the last bids (2C, 2D) tie, without a decision
    assert s.is_terminal()
    assert points(s) == [3, 2] and s.returns() == [1.0, 0.0]


def test_level_points_share_the_win():
    s = goofspiel(cards=3, points_order="descending").new_initial_state(0)
    act(s, "bid 3C")
    act(s, "bid 3D")
    act(s, "bid 2C")
    act(s, "bid 2D")
    assert s.is_terminal() and points(s) == [0, 0] and s.returns() == [0.5, 0.5]


def test_a_whole_game_of_random_bids_ends_after_one_decision_each_a_round_but_the_last():
    rng = random.Random(4)
    g = goofspiel()
    for seed in range(5):
        s = g.new_initial_state(seed)
        moves = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            moves += 1
        assert moves == 24
        assert sum(points(s)) <= 91
