"""Crazy Eights (Pagat.com's common rules): one scenario per rule of koloda/rules/crazy-eights.yaml."""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, new_state, setup, zone_cards


@functools.lru_cache(maxsize=None)
def crazy_eights(players=2, **options):
    return koloda.load("crazy-eights", options, players)


def position(players=2, top="9H", stock="2C 3C", hands=None, current=0, vars=None, **options):
    """P1 to play onto `top`, with `stock` (top last) and `hands` (player 0 first, empty if not
    given); every other card lies in the discard pile under `top`."""
    s = crazy_eights(players, **options).new_initial_state(0)
    hands = hands or [""] * players
    listed = set(" ".join([top, stock] + hands).split())
    under = [n for n in s.game.cards.names if n not in listed]
    zones = {("hand", p): hands[p] for p in range(players)}
    zones.update({"stock": stock, "pile": under + [top]})
    s = setup(s, zones=zones, current=current,
              vars={"named": None, "drawn": 0, "passes": 0, "to_draw": 0, **(vars or {})})
    s.direction = 1                     # whatever a special starter of the seed's deal did
    return s


def test_seven_cards_each_for_two_five_for_more_and_a_starter():
    s = crazy_eights(2).new_initial_state(3)
    assert [len(hand(s, p)) for p in range(2)] == [7, 7]
    s = crazy_eights(4).new_initial_state(3)
    assert [len(hand(s, p)) for p in range(4)] == [5] * 4
    assert len(zone_cards(s, "pile")) == 1 and s.current_player() == (s.dealer + 1) % 4


def test_an_eight_turned_up_is_buried_and_the_next_card_turned():
    g = crazy_eights(2)
    s = new_state(g, 0, hands=["2C 3C 4C 5C 6C 7C 9C", "2D 3D 4D 5D 6D 7D 9D"], then="8S 8H KH")
    assert zone_cards(s, "pile") == ["KH"]
    assert zone_cards(s, "stock")[:2] == ["8H", "8S"]     # at the bottom of the stock


def test_match_suit_or_rank_or_any_eight():
    s = position(hands=["2H 9C 8D KS", ""])
    assert sorted(legal(s, plain=True)) == ["play 2H", "play 8D", "play 9C"]


def test_an_eight_names_the_suit_to_follow():
    s = position(stock="2D 3D", hands=["8D KS", "9S 2C 8C"])
    act(s, "play 8D")
    assert s.current_player() == 0 and legal(s, plain=True) == ["name clubs", "name diamonds", "name hearts",
                                                                "name spades"]
    act(s, "name spades")
    assert s.current_player() == 1
    assert sorted(legal(s, plain=True)) == ["play 8C", "play 9S"]   # not the 2 of clubs: spades named


def test_who_cannot_play_draws_until_able():
    s = position(stock="AH 3C 4D", hands=["KS", "5C"])   # draws 4D, then 3C, then AH
    assert legal(s, plain=True) == ["draw"]
    act(s, "draw")
    assert legal(s, plain=True) == ["draw"] and s.current_player() == 0
    act(s, "draw")
    act(s, "draw")
    assert legal(s, plain=True) == ["play AH"]      # able to play: no more drawing, no pass


def test_a_draw_limit_then_pass():
    s = position(stock="AH 3C 4D", draw_limit=2, hands=["KS", "5C"])
    act(s, "draw")
    act(s, "draw")
    assert legal(s, plain=True) == ["pass"]
    act(s, "pass")
    assert s.current_player() == 1


def test_with_the_stock_empty_who_cannot_play_passes_and_a_blocked_deal_ends():
    s = position(stock="", hands=["KS 2C", "5C"])
    assert legal(s, plain=True) == ["pass"]
    act(s, "pass")
    assert legal(s, plain=True) == ["pass"]
    act(s, "pass")                                 # both passed in a row: blocked
    assert s.deal_number == 2
    assert [get_var(s, ("penalty", p)) for p in range(2)] == [12, 5]


def test_going_out_ends_the_deal_and_hands_score_penalty_points():
    s = position(players=3, hands=["9C", "8S KD AC 5H", "10S JH QH"])
    act(s, "play 9C")
    assert s.deal_number == 2
    assert [get_var(s, ("penalty", p)) for p in range(3)] == [0, 50 + 10 + 1 + 5, 30]


def test_openspiel_points():
    s = position(players=3, openspiel_points=True, hands=["9C", "8S KD AC 5H", "7C 3D"])
    act(s, "play 9C")
    # an eight 50, king and ace 10, 5H: 4 * 3 + 2 + 2; 7C: 4 * 5 + 0 + 2, 3D: 4 * 1 + 1 + 2
    assert [get_var(s, ("penalty", p)) for p in range(3)] == [0, 50 + 10 + 10 + 16, 22 + 7]


def test_reshuffle_when_the_stock_runs_out():
    s = position(stock="AH", top="9H", reshuffle=True, hands=["KS", "5C"])
    act(s, "draw")
    assert len(zone_cards(s, "stock")) == 52 - 4 and zone_cards(s, "pile") == ["9H"]


def test_draw_anyway_and_max_plays():
    s = position(draw_anyway=True, max_plays=1, hands=["9C KS", "5C"])
    assert sorted(legal(s, plain=True)) == ["draw", "play 9C"]
    act(s, "play 9C")
    assert s.deal_number == 2                      # one card played: the deal is over


def test_the_match_ends_at_100_and_the_lowest_total_wins():
    s = position(players=2, hands=["9C", "8S 8D"], vars={("penalty", 1): 10})
    act(s, "play 9C")
    assert s.is_terminal() and s.scores() == [0, 110] and s.returns() == [1.0, 0.0]


# ------------------------------------------------------------------ more players, special cards
def test_six_or_seven_players_play_with_two_decks():
    assert crazy_eights(5).cards.size == 52 and crazy_eights(6).cards.size == 104
    s = crazy_eights(7).new_initial_state(1)
    assert [len(hand(s, p)) for p in range(7)] == [5] * 7
    assert len(zone_cards(s, "stock")) == 104 - 35 - 1


HANDS3 = ["QH AH 2H 4S", "2S 10H KD 4C", "2D 5H 6C 7C"]


def test_a_queen_skips_the_next_player():
    s = position(3, hands=HANDS3, special_cards=True)
    act(s, "play QH")
    assert s.current_player() == 2
    s = position(3, hands=HANDS3)                      # without the option a queen is a plain card
    act(s, "play QH")
    assert s.current_player() == 1


def test_an_ace_reverses_the_direction_of_play():
    s = position(3, hands=HANDS3, special_cards=True)
    act(s, "play AH")
    assert s.current_player() == 2                      # to the right now
    act(s, "play 5H")
    assert s.current_player() == 1


def test_a_two_makes_the_next_player_draw_two_or_pass_them_on():
    s = position(3, stock="3D 4D 5D 6D 7D 9D", hands=HANDS3, special_cards=True)
    act(s, "play 2H")
    assert get_var(s, "to_draw") == 2
    # only a two, or drawing what is owed: the 10H matches but may not be played
    assert sorted(legal(s, plain=True)) == ["draw", "play 2S"]
    act(s, "play 2S")
    assert get_var(s, "to_draw") == 4 and s.current_player() == 2
    act(s, "draw")                                      # four cards at once, and the turn passes
    assert sorted(hand(s, 2)) == sorted("2D 5H 6C 7C 9D 7D 6D 5D".split())
    assert get_var(s, "to_draw") == 0 and s.current_player() == 0


def test_a_two_on_an_empty_stock_asks_nothing():
    s = position(3, stock="", hands=HANDS3, special_cards=True)
    act(s, "play 2H")
    assert get_var(s, "to_draw") == 0 and "play 10H" in legal(s, plain=True)


def test_a_special_starter_works_as_if_the_dealer_played_it():
    g = crazy_eights(3, special_cards=True)
    hands = ["3C 4C 5C 6C 7C", "3D 4D 5D 6D 7D", "3H 4H 5H 6H 7H"]
    dealer = g.new_initial_state(0).dealer
    s = new_state(g, 0, hands=hands, then="QS")
    assert s.current_player() == (dealer + 2) % 3       # the player at the dealer's left is skipped
    s = new_state(g, 0, hands=hands, then="AS")
    assert s.current_player() == (dealer + 2) % 3       # to the dealer's right
    s = new_state(g, 0, hands=hands, then="2S")
    assert s.current_player() == (dealer + 1) % 3 and get_var(s, "to_draw") == 2
