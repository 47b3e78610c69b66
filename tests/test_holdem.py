"""Texas Hold'em (koloda/rules/holdem.yaml): each rule of its notes in a known position.

The last seat deals the first deal. Deck orders are given top first through helpers.new_state: the hole
cards one at a time from the dealer's left, then (`then`) the stock from its top: a burnt card, the flop's
three, a burnt card, the turn, a burnt card, the river.
"""
from __future__ import annotations

import functools

import pytest

import koloda
from helpers import act, get_var, legal, new_state, setup, zone_cards


@functools.lru_cache(maxsize=None)
def game(players: int = 2, **options):
    return koloda.load("holdem", options or None, players=players)


BOARD = "2C AH KD 7S 3C 9D 4H 5S"     # burnt 2C, flop A♥ K♦ 7♠, burnt 3C, turn 9♦, burnt 4H, river 5♠


def heads_up(p1="QS QH", p2="JC 10C", board=BOARD, **options):
    return new_state(game(2, **options), hands=[p1, p2], then=board)


def chips(state, p):
    return get_var(state, ("stack", p))


def put(state, p):
    return get_var(state, ("put", p))


# ------------------------------------------------------------------ blinds and the first to act
def test_heads_up_the_dealer_posts_the_small_blind_and_acts_first():
    s = heads_up()
    assert s.dealer == 1
    assert (put(s, 0), put(s, 1)) == (2, 1) and (chips(s, 0), chips(s, 1)) == (198, 199)
    assert s.current_player() == 1
    moves = legal(s)
    assert moves[:2] == ["fold", "call"]
    # no-limit: a raise is to 4 (the big blind again) or more, up to all in
    assert moves[2] == "raise to 4" and moves[-1] == "raise to 200" and len(moves) == 2 + 197


def test_three_players_blinds_left_of_the_dealer_and_the_next_acts_first():
    s = new_state(game(3), hands=["AS AH", "KS KH", "QS QH"], then="2C 8D 3H 4C 3C 9D 4H 5S")
    assert s.dealer == 2
    assert [put(s, p) for p in range(3)] == [1, 2, 0]
    assert s.current_player() == 2


def test_the_big_blind_may_check_its_option_but_not_fold():
    s = heads_up()
    act(s, "call")
    assert s.current_player() == 0
    assert "fold" not in legal(s) and "check" in legal(s) and "raise to 4" in legal(s)


def test_after_the_flop_the_player_left_of_the_dealer_acts_first():
    s = heads_up()
    act(s, "call")
    act(s, "check")
    assert sorted(zone_cards(s, "board")) == ["7S", "AH", "KD"]
    assert zone_cards(s, "burnt") == ["2C"]
    assert s.current_player() == 0
    assert legal(s)[0] == "check" and "fold" not in legal(s)


# ------------------------------------------------------------------ raises
def test_a_no_limit_raise_is_at_least_the_last_raise_again():
    s = heads_up()
    act(s, "raise to 10")            # a raise of 8 over the big blind
    moves = legal(s)
    assert "raise to 17" not in moves and moves[2] == "raise to 18"


def test_a_raise_short_of_the_minimum_may_still_go_all_in():
    s = heads_up()
    setup(s, vars={("stack", 0): 10})          # P1 has 12 in all, the big blind in
    act(s, "raise to 10")
    assert [m for m in legal(s) if m.startswith("raise")] == ["raise to 12"]


def test_limit_raises_are_fixed_and_capped():
    s = heads_up(betting="limit")
    assert legal(s) == ["fold", "call", "raise to 4"]
    act(s, "raise to 4")
    act(s, "raise to 6")
    act(s, "raise to 8")          # the big blind and three raises: the cap of four
    assert legal(s) == ["fold", "call"]
    act(s, "call")
    assert legal(s) == ["check", "raise to 10"]        # the flop: the small bet, 2
    act(s, "check")
    act(s, "check")
    assert legal(s) == ["check", "raise to 12"]        # the turn: the big bet, 4


def test_nobody_may_raise_when_everyone_else_is_all_in():
    s = heads_up()
    act(s, "raise to 200")
    assert legal(s) == ["fold", "call"]


# ------------------------------------------------------------------ the end of a deal
def test_a_fold_gives_the_pot_to_the_last_player_in():
    s = heads_up()
    act(s, "raise to 6")
    act(s, "fold")
    assert s.is_terminal()
    assert s.scores() == [-2, 2]


def test_all_in_before_the_flop_deals_the_board_out_and_the_best_five_of_seven_win():
    s = heads_up()       # P1 queens, P2 J-10 of clubs; board A K 7 9 5: queens hold
    act(s, "raise to 200")
    act(s, "call")
    assert s.is_terminal()
    assert len(zone_cards(s, "board")) == 5 and zone_cards(s, "burnt") == ["2C", "3C", "4H"]
    assert s.scores() == [200, -200]
    assert sorted(zone_cards(s, ("shown", 0))) == ["QH", "QS"]


def test_the_board_plays_and_the_pot_is_split():
    # board A K Q J 10 of mixed suits: both play the straight
    s = heads_up("2S 3H", "2D 3C", board="4C AH KD QS 5C JD 6H 10S")
    act(s, "raise to 200")
    act(s, "call")
    assert s.scores() == [0, 0]


def test_a_flush_beats_a_straight_by_the_best_five_of_seven():
    s = heads_up("QH 2H", "QS 10C", board="2C AH KH 7H 3C JD 4C 9S")
    act(s, "raise to 200")
    act(s, "call")
    assert s.scores() == [200, -200]          # hearts A K Q 7 2 beat A K Q J 10


def test_a_player_all_in_for_less_wins_only_the_main_pot():
    s = new_state(game(3), hands=["AS AH", "KS KH", "QS QH"], then="2C 8D 3H 4C 3C 9D 4H 5S")
    setup(s, vars={("stack", 0): 19})           # P1: 20 chips in all, the small blind in
    act(s, "raise to 50")                       # P3
    act(s, "call")                              # P1, all in for 20
    act(s, "call")                              # P2
    for _ in range(6):                          # P2 and P3 check it down
        act(s, "check")
    assert s.is_terminal()
    # main pot 3 x 20 to P1's aces; the side pot 2 x 30 to P2's kings
    assert [chips(s, p) for p in range(3)] == [60, 198 + 60 - 48, 150]


def test_the_match_lasts_its_hands_and_scores_the_chips_won():
    s = new_state(game(2, hands=2), hands=["QS QH", "JC 10C"], then=BOARD)
    act(s, "fold")
    assert not s.is_terminal() and s.deal_number == 2
    assert s.dealer == 0 and s.current_player() == 0        # the deal passed: P1 deals, posts the small blind
    act(s, "fold")
    assert s.is_terminal() and s.scores() == [0, 0]


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_random_matches_keep_the_chips(players):
    import random
    g = game(players, hands=5)
    for seed in range(5):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            assert sum(chips(s, p) + put(s, p) for p in range(players)) == 200 * players
        assert sum(s.scores()) == 0


def test_an_all_in_raise_short_of_a_full_raise_opens_the_betting_again():
    s = new_state(game(3), hands=["AS AH", "KS KH", "QS QH"], then="2C 8D 3H 4C 3C 9D 4H 5S")
    setup(s, vars={("stack", 0): 11})           # P1: 12 chips in all
    act(s, "raise to 10")                       # P3: the least raise after it is to 18
    assert [m for m in legal(s) if m.startswith("raise")] == ["raise to 12"]
    act(s, "raise to 12")                       # P1 all in, 2 more
    act(s, "call")                              # P2
    # P3 may raise again, still to 18 at least: a short raise does not make the next one bigger
    assert s.current_player() == 2 and legal(s)[:3] == ["fold", "call", "raise to 18"]


def test_the_odd_chip_goes_to_the_first_tied_player_left_of_the_dealer():
    # the board is a straight, A K Q J 10: every hand plays it
    s = new_state(game(3), hands=["2S 3H", "2D 3C", "4D 5C"], then="6C AH KD QS 7C JD 8H 10S")
    act(s, "call")                              # P3 calls 2
    act(s, "fold")                              # P1 folds the small blind
    act(s, "check")                             # P2, the big blind
    for _ in range(6):
        act(s, "check")
    assert s.is_terminal()
    # a pot of 5 between P2 and P3: P2 is the first of them left of the dealer (P3)
    assert [chips(s, p) for p in range(3)] == [199, 201, 200]


def test_the_match_ends_when_a_player_has_no_chips_left():
    s = new_state(game(2, hands=5), hands=["QS QH", "JC 10C"], then=BOARD)
    act(s, "raise to 200")
    act(s, "call")
    assert s.is_terminal() and s.deal_number == 1
    assert s.scores() == [200, -200]


def test_a_limit_raise_short_of_the_bet_size_goes_all_in():
    s = heads_up(betting="limit")
    setup(s, vars={("stack", 1): 2})           # P2: 3 chips in all, the small blind in
    assert legal(s) == ["fold", "call", "raise to 3"]
    act(s, "raise to 3")
    assert legal(s) == ["fold", "call"]        # P2 is all in: nobody is left to answer a raise
    act(s, "call")
    assert s.is_terminal()          # P1's queens take P2's 3 chips
    assert (chips(s, 0), chips(s, 1)) == (203, 0)
