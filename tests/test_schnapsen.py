"""Schnapsen (pagat.com's rules): one scenario per rule of koloda/rules/schnapsen.yaml."""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, new_state, setup, zone_cards


@functools.lru_cache(maxsize=None)
def schnapsen(**options):
    return koloda.load("schnapsen", options, 2)


def position(hands, stock="", trump_card="", trump="hearts", current=0, vars=None, won=("", ""), trick="",
             **options):
    """Player `current` to move with `hands`, the face-down talon `stock` (top last) and the turn-up
    `trump_card`; every card not listed lies in P1's tricks taken unless `won` says where."""
    s = schnapsen(**options).new_initial_state(0)
    zones = {("hand", 0): hands[0], ("hand", 1): hands[1], "stock": stock, "trump_card": trump_card,
             "trick": trick, ("won", 1): won[1]}
    listed = set(" ".join([hands[0], hands[1], stock, trump_card, trick, won[1], won[0]]).split())
    zones[("won", 0)] = " ".join([won[0]] + [n for n in s.game.cards.names if n not in listed]).split()
    base = {"trump": trump, "closer": None, "last": None, "rival_tricks": 0, "rival_points": 0}
    for p in range(2):
        base.update({("points", p): 0, ("melded", p): 0, ("tricks", p): 0})
    return setup(s, zones=zones, current=current, phase="play", step="turn", vars={**base, **(vars or {})},
                 rest="stock" if not stock else "trick")


def test_twenty_cards_five_each_a_turn_up_and_nine_in_the_talon():
    g = schnapsen()
    s = g.new_initial_state(3)
    assert g.cards.size == 20 and [len(hand(s, p)) for p in range(2)] == [5, 5]
    turn_up = zone_cards(s, "trump_card")
    assert len(turn_up) == 1 and g.cards.names.index(turn_up[0]) >= 0
    assert len(zone_cards(s, "stock")) == 9 and s.current_player() == (s.dealer + 1) % 2
    assert get_var(s, "trump") == "CDHS".index(turn_up[0][-1])


def test_the_deal_is_three_and_two_round_the_turn_up():
    g = schnapsen()
    dealer = g.new_initial_state(0).dealer
    order = ["AH", "AS", "10H", "10S", "KH", "KS",    # three each, the non-dealer first
             "AC",                                     # the turn-up
             "QH", "QS", "JH", "JS"]                   # two each
    order += [n for n in g.cards.names if n not in order]
    from helpers import cards
    s = g.new_initial_state(0, deck=[cards(g, order)])
    first = (dealer + 1) % 2
    assert sorted(hand(s, first)) == sorted("AH 10H KH QH JH".split())
    assert zone_cards(s, "trump_card") == ["AC"]


def test_while_the_talon_lasts_any_card_may_be_played():
    s = position(["AS 10S", "KH QD JD"], stock="AD 10D KD QC JC KC QS", trump_card="JS", trick="AH",
                 current=1)
    assert sorted(legal(s, plain=True)) == ["play JD", "play KH", "play QD"]


def test_the_winner_draws_first_and_leads():
    s = position(["AS KH", "10S QD"], stock="JC QC", trump_card="JD", trump="diamonds")
    act(s, "play AS")
    act(s, "play 10S")
    assert get_var(s, ("points", 0)) == 21 and get_var(s, ("tricks", 0)) == 1
    assert "QC" in hand(s, 0) and "JC" in hand(s, 1)      # the top of the talon to the winner
    assert s.current_player() == 0


def test_a_trump_takes_the_trick_and_the_last_card_drawn_is_the_turn_up():
    s = position(["AS KC", "JD QH"], stock="QC", trump_card="AD", trump="diamonds")
    act(s, "play AS")
    act(s, "play JD")
    assert s.current_player() == 1 and get_var(s, ("points", 1)) == 13
    assert "QC" in hand(s, 1) and "AD" in hand(s, 0) and zone_cards(s, "trump_card") == []


def test_once_the_talon_is_exhausted_follow_and_head_the_trick():
    s = position(["QC", "AS JS 10C AD"], trick="KS", current=1, trump="diamonds")
    assert legal(s, plain=True) == ["play AS"]                 # the jack follows but does not head


def test_void_of_the_suit_led_a_trump_is_played():
    s = position(["QC", "10C AD 10D"], trick="KS", current=1, trump="diamonds")
    assert sorted(legal(s, plain=True)) == ["play 10D", "play AD"]
    s = position(["QC", "10C AH"], trick="KS", current=1, trump="diamonds")
    assert sorted(legal(s, plain=True)) == ["play 10C", "play AH"]       # neither: any card


def test_following_without_a_higher_card_any_of_the_suit():
    s = position(["QC", "JS QS AD"], trick="KS", current=1, trump="diamonds")
    assert sorted(legal(s, plain=True)) == ["play JS", "play QS"]


def test_a_marriage_counts_20_or_40_in_trumps_once_a_trick_is_taken():
    s = position(["KC QC KH QH AS", "JS 10D JD QD KD"], stock="10S JC", trump_card="JH")
    assert {"marriage KC", "marriage QC", "marriage KH", "marriage QH"} <= set(legal(s, plain=True))
    act(s, "marriage KH")
    assert get_var(s, ("melded", 0)) == 40
    act(s, "play JS")
    assert get_var(s, ("points", 0)) == 6 and s.current_player() == 0
    s = position(["KC QC AS", "JS 10H JD"], stock="10S JC", trump_card="JH")
    act(s, "marriage QC")
    act(s, "play 10H")                                     # a trump takes the queen
    # the marriage's 20 wait for a trick of its own
    assert get_var(s, ("melded", 0)) == 20 and get_var(s, ("tricks", 0)) == 0


def test_a_marriage_only_on_lead_and_only_with_both_cards():
    s = position(["KC QC AS", "KH QH JD"], stock="10S JC", trump_card="JH", trick="AD", current=1)
    assert not any(m.startswith("marriage") for m in legal(s, plain=True))
    s = position(["KC AS", "KH JD"], stock="10S JC", trump_card="JH")
    assert not any(m.startswith("marriage") for m in legal(s, plain=True))


def test_the_trump_jack_is_exchanged_for_the_turn_up():
    s = position(["JH AS", "KS QS"], stock="10S JC QC", trump_card="AH")
    act(s, "exchange JH")
    assert zone_cards(s, "trump_card") == ["JH"] and "AH" in hand(s, 0)
    assert s.current_player() == 0                         # still on lead
    assert "exchange JH" not in legal(s, plain=True)


def test_no_exchange_when_not_on_lead_or_the_talon_is_closed():
    s = position(["KC", "JH KS"], stock="10S JC QC", trump_card="AH", trick="AS", current=1)
    assert "exchange JH" not in legal(s, plain=True)
    s = position(["JH AS", "KS QS"], stock="10S JC QC", trump_card="AH", vars={"closer": 1})
    assert "exchange JH" not in legal(s, plain=True)


def test_the_strict_exchange_waits_for_a_trick_and_not_at_two_cards():
    s = position(["JH AS", "KS QS"], stock="10S JC QC", trump_card="AH", strict_exchange=True)
    assert "exchange JH" not in legal(s, plain=True)       # no trick yet
    s = position(["JH AS", "KS QS"], stock="10S JC QC", trump_card="AH", strict_exchange=True,
                 vars={("tricks", 1): 1})
    assert "exchange JH" in legal(s, plain=True)
    s = position(["JH AS", "KS QS"], stock="10S", trump_card="AH", strict_exchange=True,
                 vars={("tricks", 1): 1})
    assert "exchange JH" not in legal(s, plain=True)       # the talon is down to two cards


def test_closing_stops_the_drawing_and_makes_play_strict():
    s = position(["AS KH", "10S QS AD"], stock="JC QC 10C", trump_card="JD", trump="diamonds",
                 vars={("tricks", 1): 1, ("points", 1): 20})
    assert "close" in legal(s, plain=True)
    act(s, "close")
    assert get_var(s, "closer") == 0 and get_var(s, "rival_tricks") == 1 and get_var(s, "rival_points") == 20
    act(s, "play AS")
    assert legal(s, plain=True) == ["play 10S", "play QS"]     # follow: no trump over the ace
    act(s, "play QS")
    assert len(hand(s, 0)) == 1 and len(zone_cards(s, "stock")) == 3     # no card drawn


def test_no_closing_with_two_cards_left():
    s = position(["AS KH", "10S QS"], stock="JC", trump_card="JD", trump="diamonds")
    assert "close" not in legal(s, plain=True)


def test_66_ends_the_hand_at_once_and_scores_by_the_losers_points():
    # P1 has 60 and takes 11 + 3: 74; P2 has 40 and a trick: one game point
    s = position(["AS KH", "QS JH"], stock="JC QC 10C", trump_card="JD", trump="diamonds",
                 vars={("points", 0): 60, ("tricks", 0): 3, ("points", 1): 40, ("tricks", 1): 2})
    act(s, "play AS")
    act(s, "play QS")
    assert s.deal_number == 2 and [get_var(s, ("game_points", p)) for p in range(2)] == [1, 0]


def test_two_game_points_under_33_and_three_without_a_trick():
    s = position(["AS KH", "QS JH"], stock="JC QC 10C", trump_card="JD", trump="diamonds",
                 vars={("points", 0): 60, ("tricks", 0): 3, ("points", 1): 32, ("tricks", 1): 2})
    act(s, "play AS")
    act(s, "play QS")
    assert [get_var(s, ("game_points", p)) for p in range(2)] == [2, 0]
    s = position(["AS KH", "QS JH"], stock="JC QC 10C", trump_card="JD", trump="diamonds",
                 vars={("points", 0): 60, ("tricks", 0): 3})
    act(s, "play AS")
    act(s, "play QS")
    assert [get_var(s, ("game_points", p)) for p in range(2)] == [3, 0]


def test_a_marriage_that_reaches_66_wins_before_the_trick_is_played():
    s = position(["KC QC AS", "JS 10D JD"], stock="10S JC QH", trump_card="JH",
                 vars={("points", 0): 50, ("tricks", 0): 2, ("points", 1): 35, ("tricks", 1): 1})
    act(s, "marriage KC")
    assert s.deal_number == 2 and get_var(s, ("game_points", 0)) == 1


def test_without_66_the_last_trick_wins_the_exhausted_hand():
    s = position(["AS", "QS"], vars={("points", 0): 40, ("tricks", 0): 4, ("points", 1): 50, ("tricks", 1): 5})
    act(s, "play AS")
    act(s, "play QS")
    # P1 took the last trick with 54 against 50: one game point
    assert [get_var(s, ("game_points", p)) for p in range(2)] == [1, 0]


def test_a_closer_who_reaches_66_scores_by_the_opponent_at_closing():
    s = position(["AS KH", "QS JH"], stock="JC QC 10C", trump_card="JD", trump="diamonds",
                 vars={("points", 0): 60, ("tricks", 0): 3, ("points", 1): 40, ("tricks", 1): 2,
                       "closer": 0, "rival_tricks": 0, "rival_points": 0})
    act(s, "play AS")
    act(s, "play QS")
    assert [get_var(s, ("game_points", p)) for p in range(2)] == [3, 0]


def test_a_closer_who_fails_gives_two_or_three():
    s = position(["QS", "AS"], current=1,
                 vars={("points", 0): 50, ("tricks", 0): 4, ("points", 1): 40, ("tricks", 1): 5,
                       "closer": 0, "rival_tricks": 1, "rival_points": 10})
    act(s, "play AS")
    act(s, "play QS")
    assert [get_var(s, ("game_points", p)) for p in range(2)] == [0, 2]
    s = position(["QS", "AS"], current=1,
                 vars={("points", 0): 50, ("tricks", 0): 4, ("points", 1): 40, ("tricks", 1): 5,
                       "closer": 0, "rival_tricks": 0})
    act(s, "play AS")
    act(s, "play QS")
    assert [get_var(s, ("game_points", p)) for p in range(2)] == [0, 3]


def test_the_bummerl_is_seven_game_points():
    s = position(["AS KH", "QS JH"], stock="JC QC 10C", trump_card="JD", trump="diamonds",
                 vars={("points", 0): 60, ("tricks", 0): 3, ("points", 1): 40, ("tricks", 1): 2,
                       ("game_points", 0): 6, ("game_points", 1): 5})
    act(s, "play AS")
    act(s, "play QS")
    assert s.is_terminal() and s.scores() == [7, 5] and s.returns() == [1.0, 0.0]
    s = position(["AS KH", "QS JH"], stock="JC QC 10C", trump_card="JD", trump="diamonds", target=3,
                 vars={("points", 0): 60, ("tricks", 0): 3, ("points", 1): 40, ("tricks", 1): 2,
                       ("game_points", 0): 2})
    act(s, "play AS")
    act(s, "play QS")
    assert s.is_terminal() and s.scores() == [3, 0]


def test_refusals_say_the_rule_in_the_players_words():
    from koloda.interpreter.words.refusal import why_refused
    s = position(["QC", "JS QS AD"], trick="KS", current=1, trump="diamonds")
    assert "follow" in why_refused(s, "play AD") and "перебейте" in why_refused(s, "play AD", language="ru")
    s = position(["JH AS", "KS QS"], stock="10S JC QC", trump_card="AH", vars={"closer": 1})
    assert "not now" in why_refused(s, "exchange JH")
