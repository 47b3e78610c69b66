"""Euchre (Pagat.com's common rules): the 24-card deal, making trump in two rounds, the bowers,
following suit, going alone, the hand's points and the game to 10.

Players are counted from 0; partners are 0+2 (side 0, P1+P3) and 1+3 (side 1, P2+P4).
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda

from helpers import act, conservation, get_var, hand, legal, setup, var_index, zone_cards

# Dealer P1 (0), so P2 (1) bids and leads first. The kitty is JC 9H AS.
HANDS = {"P1 hand": "9C 10C QC KC AC", "P2 hand": "JH AH 9D 10D QD", "P3 hand": "JD KH QH 9S 10S",
         "P4 hand": "AD KD JS QS KS", "upcard": "10H"}


def euchre(**options):
    return load(tuple(sorted(options.items())))


@functools.lru_cache(maxsize=None)
def load(options):
    return koloda.load("euchre", options=dict(options), players=4)


def dealt(**options):
    s = euchre(**options).new_initial_state(3, dealer=0, hands={k: v.split() for k, v in HANDS.items()})
    assert s.dealer == 0 and s.current_player() == 1
    return s


def points(s):
    return [get_var(s, ("points", t)) for t in range(2)]


def tricks(s):
    return [get_var(s, ("tricks", t)) for t in range(2)]


def trump(s):
    value = get_var(s, "trump")
    return None if value is None else "CDHS"[value]


def plays(s, cards):
    for player, c in cards:
        assert s.current_player() == player, f"P{s.current_player() + 1} to play, not P{player + 1}"
        act(s, f"play {c}")


# ------------------------------------------------------------------ the deal
def test_24_cards_in_play_five_each_a_card_turned_up():
    s = euchre().new_initial_state(5)
    assert all(len(hand(s, p)) == 5 for p in range(4))
    assert len(zone_cards(s, "upcard")) == 1 and len(zone_cards(s, "stock")) == 3
    in_play = [c for p in range(4) for c in hand(s, p)] + zone_cards(s, "upcard") + zone_cards(s, "stock")
    assert all(c[:-1] in ("9", "10", "J", "Q", "K", "A") for c in in_play)
    assert len(set(in_play)) == 24 and len(zone_cards(s, "out")) == 28
    conservation(s)


# ------------------------------------------------------------------ making trump
def test_first_round_order_up_or_pick_up_the_turned_card():
    s = dealt()
    assert sorted(legal(s)) == ["order up", "pass"]
    for _ in range(3):
        act(s, "pass")
    assert s.current_player() == 0 and sorted(legal(s)) == ["pass", "pick up"]


def test_ordering_up_gives_the_dealer_the_card_to_discard_then_the_maker_chooses():
    s = dealt()
    act(s, "order up")
    assert trump(s) == "H" and get_var(s, "maker") == 1
    assert s.current_player() == 0 and "10H" in hand(s, 0)
    assert sorted(legal(s, plain=True)) == sorted(f"discard {c}" for c in "9C 10C QC KC AC 10H".split())
    act(s, "discard 9C")
    assert sorted(hand(s, 0)) == sorted("10C QC KC AC 10H".split()) and "9C" in zone_cards(s, "stock")
    assert s.current_player() == 1 and sorted(legal(s)) == ["go alone", "play with partner"]


def test_keep_upcard_forbids_discarding_the_card_picked_up():
    s = dealt(keep_upcard=True)
    for _ in range(3):
        act(s, "pass")
    act(s, "pick up")
    assert s.current_player() == 0 and "discard 10H" not in legal(s, plain=True) and len(legal(s)) == 5
    act(s, "discard 9C")
    assert s.current_player() == 0 and sorted(legal(s)) == ["go alone", "play with partner"]


def test_second_round_names_any_other_suit():
    s = dealt()
    for _ in range(4):
        act(s, "pass")
    assert s.current_player() == 1
    assert sorted(legal(s)) == ["name clubs", "name diamonds", "name spades", "pass"]
    act(s, "name spades")
    assert trump(s) == "S" and get_var(s, "maker") == 1 and zone_cards(s, "upcard") == ["10H"]
    assert sorted(legal(s)) == ["go alone", "play with partner"]


def test_all_passing_twice_throws_the_deal_in():
    s = dealt()
    for _ in range(8):
        act(s, "pass")
    assert s.deal_number == 2 and s.dealer == 1 and points(s) == [0, 0] and not s.is_terminal()


def test_stick_the_dealer_makes_the_dealer_name_trump():
    s = dealt(stick_the_dealer=True)
    for _ in range(7):
        act(s, "pass")
    assert s.current_player() == 0 and sorted(legal(s)) == ["name clubs", "name diamonds", "name spades"]


# ------------------------------------------------------------------ play
def test_a_scripted_hand_bowers_follow_suit_and_one_point_for_four_tricks():
    s = dealt()
    act(s, "order up")
    act(s, "discard 9C")
    act(s, "play with partner")
    assert s.current_player() == 1
    act(s, "play JH")                                   # the right bower leads
    assert sorted(legal(s, plain=True)) == ["play JD", "play KH", "play QH"]   # the left bower is a heart
    plays(s, [(2, "JD"), (3, "AD")])
    assert legal(s, plain=True) == ["play 10H"]         # the dealer must follow with the card picked up
    plays(s, [(0, "10H")])
    assert tricks(s) == [0, 1] and s.current_player() == 1          # the right bower wins and leads
    plays(s, [(1, "AH"), (2, "KH"), (3, "KD"), (0, "10C")])
    assert tricks(s) == [0, 2]
    plays(s, [(1, "9D")])
    assert sorted(legal(s, plain=True)) == ["play 10S", "play 9S", "play QH"]   # void in diamonds: any card
    plays(s, [(2, "QH"), (3, "JS"), (0, "QC")])         # trumped
    assert tricks(s) == [1, 2] and s.current_player() == 2
    act(s, "play 9S")
    assert sorted(legal(s, plain=True)) == ["play KS", "play QS"]
    plays(s, [(3, "KS"), (0, "KC"), (1, "10D"), (3, "QS"), (0, "AC"), (1, "QD"), (2, "10S")])
    assert points(s) == [0, 1] and s.deal_number == 2          # P2+P4 made 4 of 5 tricks


def test_left_bower_is_not_of_its_own_suit():
    s = dealt()
    setup(s, zones={"trick": "9D", ("hand", 2): "JD 9S", ("hand", 1): "QD"}, vars={"trump": "hearts", "maker": 1},
          by={"9D": 1}, phase="play", current=2)
    assert sorted(legal(s, plain=True)) == ["play 9S", "play JD"]     # no diamond to follow with
    setup(s, zones={"trick": "9H", ("hand", 2): "JD 9D"}, vars={"trump": "hearts"}, by={"9H": 1},
          phase="play", current=2)
    assert legal(s, plain=True) == ["play JD"]                        # a heart must follow hearts


@pytest.mark.parametrize("cards,winner", [
    (["AH", "JD", "JH", "KH"], 3),      # right bower over left bower over the ace
    (["AH", "JD", "KH", "QH"], 2),      # the left bower over the ace of trump
    (["AC", "9H", "KC", "QC"], 2),      # the lowest trump over the ace led
    (["9C", "AS", "JC", "10C"], 3),     # off-suit cards never win; the jack of clubs is a plain club here
])
def test_trick_winner(cards, winner):
    s = dealt()
    order = [1, 2, 3, 0]
    setup(s, zones={("hand", p): c for p, c in zip(order, cards)}, vars={"trump": "hearts", "maker": 1},
          phase="play", current=1)
    plays(s, list(zip(order, cards)))
    assert tricks(s)[winner % 2] == 1 and s.current_player() == winner


def test_going_alone_the_partner_sits_out():
    s = dealt()
    act(s, "order up")
    act(s, "discard 9C")
    act(s, "go alone")
    assert get_var(s, "alone") == 1
    plays(s, [(1, "JH"), (2, "JD"), (0, "10H")])        # P4 sits out: three cards make the trick
    assert tricks(s) == [0, 1] and s.current_player() == 1 and len(hand(s, 3)) == 5


def last_trick(maker, won, alone=None, lone=None, **options):
    """One card each left, P2 to lead the ace of trump; the makers' side has `won` tricks, the other 4 - won."""
    s = dealt(**options)
    side = maker % 2
    setup(s, zones={("hand", p): c for p, c in enumerate(["9C", "AH", "10C", "QC"])},
          vars={"trump": "hearts", "maker": maker, "alone": alone, "lone": lone, "chosen": True,
                ("tricks", side): won, ("tricks", 1 - side): 4 - won},
          phase="play", current=1)
    return s


def finish(s, order):
    for p in order:
        assert s.current_player() == p
        act(s, legal(s)[0])


@pytest.mark.parametrize("won,alone,expected", [
    (2, None, [0, 1]),      # 3 tricks: one point
    (3, None, [0, 1]),      # 4 tricks: one point
    (4, None, [0, 2]),      # a march: two
    (4, 1, [0, 4]),         # a march alone: four
])
def test_makers_points(won, alone, expected):
    s = last_trick(1, won, alone)
    finish(s, [1, 2, 0] if alone == 1 else [1, 2, 3, 0])    # P2's ace of trump wins the last trick
    assert points(s) == expected and s.deal_number == 2


def test_lone_defenders_are_asked_in_turn_after_the_maker():
    s = dealt(lone_defender=True)
    act(s, "order up")
    act(s, "discard 9C")
    act(s, "play with partner")
    assert s.current_player() == 2 and sorted(legal(s)) == ["defend alone", "defend with partner"]
    act(s, "defend with partner")
    assert s.current_player() == 0 and sorted(legal(s)) == ["defend alone", "defend with partner"]
    act(s, "defend alone")
    assert get_var(s, "lone") == 0
    plays(s, [(1, "JH"), (3, "AD"), (0, "10H")])        # P3 sits out
    assert tricks(s) == [0, 1] and s.current_player() == 1


def test_a_lone_defender_who_euchres_scores_four():
    s = last_trick(1, 1, lone=0, lone_defender=True)     # P2+P4 end with 2 tricks against P1 alone
    finish(s, [1, 3, 0])
    assert points(s) == [4, 0]


def test_euchred_makers_give_the_defenders_two():
    s = last_trick(3, 1)                                    # P4 made trump; P2+P4 end with 2 tricks
    finish(s, [1, 2, 3, 0])
    assert points(s) == [2, 0]


def test_the_first_side_to_ten_wins():
    s = last_trick(1, 4)
    s.vars[var_index(s.game, ("points", 1))] = 8
    finish(s, [1, 2, 3, 0])
    assert s.is_terminal() and points(s) == [0, 10] and s.returns() == [0.0, 1.0, 0.0, 1.0]


def test_single_hand_scores_the_difference():
    s = euchre(single_hand=True).new_initial_state(3, dealer=0, hands={k: v.split() for k, v in HANDS.items()})
    setup(s, zones={("hand", p): c for p, c in enumerate(["9C", "AH", "10C", "QC"])},
          vars={"trump": "hearts", "maker": 1, "chosen": True, ("tricks", 1): 4}, phase="play", current=1)
    finish(s, [1, 2, 3, 0])
    assert s.is_terminal() and [float(x) for x in s.scores()] == [-2.0, 2.0, -2.0, 2.0]


def test_random_hands_conserve_cards_and_end():
    g = euchre()
    for seed in range(3):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            conservation(s)
        assert max(points(s)) >= 10
