"""Blackjack (koloda/rules/blackjack.yaml), rule by rule: the deal and the hole card, how a hand
counts, hitting, busting, standing, the dealer drawing to 16 and standing on 17, naturals, doubling
down, and the result against the house (returns 1 / 0.5 / 0, the score in chips of a stake of two)."""
from __future__ import annotations

import pytest

import koloda
from helpers import act, get_var, legal, new_state, zone_cards

OPENSPIEL = {"naturals": False, "double": False, "split": False}


def deal(hand: str, hole: str, up: str, then: str = "", **options):
    """A match whose player holds `hand`; the dealer's hole card (face down) and up card; then the shoe."""
    game = koloda.load("blackjack", options or None)
    return new_state(game, hands=[hand], then=f"{hole} {up} {then}".split())


def total_of(state, zone: str) -> int:
    ranks = [name[:-1] for name in zone_cards(state, (zone, 0))]
    hard = sum(1 if r == "A" else 10 if r in "JQK" else int(r) for r in ranks)
    return hard + 10 if "A" in ranks and hard <= 11 else hard


def dealer(state) -> list[str]:
    return zone_cards(state, "dealer_cards")


def test_the_deal_two_cards_each_and_the_dealers_hole_card_face_down():
    s = deal("8H 2C", "KD", "6S")
    assert zone_cards(s, ("hand", 0)) == ["8H", "2C"] and dealer(s) == ["KD", "6S"]
    hole = s.zones[s.game.layout.zone_base["dealer_cards"]][0]
    assert s.face[hole] is False                      # the hole card lies face down
    assert "K♦" not in str(s.observation(0))          # and the player cannot see it
    assert sorted(legal(s)) == ["double", "hit", "stand"]      # no pair: no split


def test_hit_takes_the_top_card_and_the_player_plays_on():
    s = deal("8H 2C", "KD", "6S", "5D", **OPENSPIEL)
    act(s, "hit")
    assert zone_cards(s, ("hand", 0)) == ["8H", "2C", "5D"] and not s.is_terminal()
    assert sorted(legal(s)) == ["hit", "stand"]       # OpenSpiel's rules: no doubling


def test_a_bust_loses_at_once_and_the_dealer_does_not_play():
    s = deal("KH QC", "5D", "6S", "2H 3H", **OPENSPIEL)
    act(s, "hit")
    assert s.is_terminal() and s.returns() == [0.0] and get_var(s, ("won", 0)) == -2
    assert dealer(s) == ["5D", "6S"]                  # the dealer drew nothing


def test_the_dealer_draws_to_16_and_stands_on_17():
    s = deal("10H 8C", "5D", "6S", "4H 2H 9C", **OPENSPIEL)       # dealer 11, +4 = 15, +2 = 17: stands
    act(s, "stand")
    assert dealer(s) == ["5D", "6S", "4H", "2H"]
    assert s.returns() == [1.0] and get_var(s, ("won", 0)) == 2     # 18 beats 17


def test_a_soft_17_stands_and_an_ace_counts_one_when_eleven_would_bust():
    s = deal("10H 7C", "AD", "6S", "9C", **OPENSPIEL)       # the dealer's A 6 is a soft 17
    act(s, "stand")
    assert dealer(s) == ["AD", "6S"] and s.returns() == [0.5] and get_var(s, ("won", 0)) == 0   # 17 = 17: a push
    s = deal("AH 5C", "10D", "7S", "9C", **OPENSPIEL)       # A 5 9: the ace counts one, 15
    act(s, "hit")
    act(s, "stand")
    assert s.returns() == [0.0]                              # 15 below the dealer's 17


def test_the_dealer_busting_pays_the_player():
    s = deal("10H 2C", "10D", "6S", "KC", **OPENSPIEL)      # dealer 16 draws K: 26
    act(s, "stand")
    assert s.returns() == [1.0] and get_var(s, ("won", 0)) == 2


def test_a_natural_pays_3_to_2_at_once_and_ties_a_dealers_natural():
    s = deal("AH KC", "5D", "6S")
    assert s.is_terminal() and get_var(s, ("won", 0)) == 3 and s.returns() == [1.0]
    s = deal("AH KC", "AD", "QS")
    assert s.is_terminal() and get_var(s, ("won", 0)) == 0 and s.returns() == [0.5]


def test_a_dealers_natural_ends_the_hand_before_the_player_acts():
    s = deal("9H 8C", "AD", "KS")
    assert s.is_terminal() and get_var(s, ("won", 0)) == -2 and s.returns() == [0.0]


def test_without_naturals_a_two_card_21_is_only_21():
    s = deal("AH KC", "5D", "6S", "10C", **OPENSPIEL)
    assert not s.is_terminal() and sorted(legal(s)) == ["hit", "stand"]


def test_double_down_doubles_the_stake_for_one_card_and_stands():
    s = deal("6H 5C", "10D", "7S", "9C")
    act(s, "double")
    assert zone_cards(s, ("hand", 0)) == ["6H", "5C", "9C"] and s.is_terminal()
    assert get_var(s, ("won", 0)) == 4 and s.returns() == [1.0]      # 20 beats 17: the doubled stake
    s = deal("6H 5C", "10D", "9S", "2C")
    act(s, "double")
    assert get_var(s, ("won", 0)) == -4 and s.returns() == [0.0]


def test_a_pair_splits_into_two_hands_played_in_turn_each_with_the_stake():
    s = deal("8H 8C", "10D", "7S", "3C 10H 9D")      # hands 8 3 and 8 10; then 9 on the first
    assert "split" in legal(s)
    act(s, "split")
    assert zone_cards(s, ("hand", 0)) == ["8H", "3C"] and zone_cards(s, ("second_hand", 0)) == ["8C", "10H"]
    assert get_var(s, ("second_stake", 0)) == 2
    assert sorted(legal(s)) == ["hit", "stand"]          # no doubling and no second split after a split
    act(s, "hit")                                        # the first hand: 8 3 9 = 20
    assert zone_cards(s, ("hand", 0)) == ["8H", "3C", "9D"] and not s.is_terminal()
    act(s, "stand")                                      # on to the split hand: 18
    assert not s.is_terminal()
    act(s, "stand")                                      # the dealer's 17 stands
    assert s.is_terminal() and get_var(s, ("won", 0)) == 4 and s.returns() == [1.0]


def test_a_busted_first_hand_moves_play_to_the_split_hand_and_the_results_add_up():
    s = deal("8H 8C", "10D", "9S", "4C 2H KD")       # hands 8 4 and 8 2; the first draws K: 22
    act(s, "split")
    act(s, "hit")
    assert total_of(s, "hand") > 21 and not s.is_terminal()      # the split hand is still to play
    act(s, "stand")                                              # 10 against the dealer's 19
    assert get_var(s, ("won", 0)) == -4 and s.returns() == [0.0]
    s = deal("8H 8C", "10D", "8S", "KC 2H")          # 18 and 10 against 18: a push and a loss
    act(s, "split")
    act(s, "stand")
    act(s, "stand")
    assert get_var(s, ("won", 0)) == -2 and s.returns() == [0.0]


def test_a_split_hands_21_is_no_natural():
    s = deal("AH AC", "10D", "7S", "KC 9H")          # A K after a split is 21, played on, not paid 3 to 2
    act(s, "split")
    assert not s.is_terminal()
    act(s, "stand")
    act(s, "stand")                                  # 21 and 20 against 17
    assert get_var(s, ("won", 0)) == 4


def test_only_a_pair_of_one_rank_splits_and_only_with_the_option():
    assert "split" not in legal(deal("KH QC", "5D", "6S"))
    assert "split" not in legal(deal("8H 8C", "5D", "6S", split=False))


def test_double_down_only_on_the_first_two_cards():
    s = deal("2H 3C", "10D", "7S", "4C")
    act(s, "hit")
    assert "double" not in legal(s)


@pytest.mark.parametrize("seed", range(30))
def test_every_game_ends_with_a_result_against_the_house(seed):
    game = koloda.load("blackjack")
    s = game.new_initial_state(seed)
    moves = 0
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[(seed + moves) % len(s.legal_actions())])
        moves += 1
        assert moves < 20
    won = get_var(s, ("won", 0))
    assert s.returns() == [1.0 if won > 0 else 0.5 if won == 0 else 0.0]
