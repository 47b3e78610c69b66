"""Dou Dizhu (pagat.com's rules as OpenSpiel's `dou_dizhu` plays them): one scenario per rule of
koloda/rules/doudizhu.yaml. tests/test_doudizhu_differential.py plays it against OpenSpiel."""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, is_legal, legal, setup, zone_cards


@functools.lru_cache(maxsize=None)
def doudizhu(**options):
    return koloda.load("doudizhu", options, 3)


def position(hands, current=0, landlord=0, last=None, low=0, length=0, leader=None, passes=0, bid=1,
             table="", **options):
    """The play, `current` to move with `hands` (every card not listed lies among the cards played),
    `last` the kind on the table to beat (none: a lead), its lowest value `low` and its `length`."""
    s = doudizhu(**options).new_initial_state(0)
    zones = {("hand", p): hands[p] for p in range(3)}
    zones["table"] = table
    vars = {"landlord": landlord, "bid": bid, "stake": bid, "last": last, "last_low": low, "last_length": length,
            "leader": leader if leader is not None else landlord, "passes": passes, "bombs": 0}
    for p in range(3):
        vars[("plays", p)] = 2            # no spring unless a test says so
    return setup(s, zones=zones, vars=vars, current=current, phase="play", rest="played")


def plays(s) -> list[str]:
    return sorted(m for m in legal(s, plain=True) if m != "pass")


def test_fifty_four_cards_seventeen_each_and_a_kitty_of_three():
    g = doudizhu()
    assert g.cards.size == 54 and {"BJ", "RJ"} <= set(g.cards.names)
    s = g.new_initial_state(5)
    assert [len(hand(s, p)) for p in range(3)] == [17, 17, 17]
    assert len(zone_cards(s, "kitty")) == 3
    assert s.current_player() == (s.dealer + 1) % 3           # the player after the dealer bids first
    assert sorted(legal(s)) == ["bid 1", "bid 2", "bid 3", "pass"]


def test_a_bid_must_be_higher_and_a_passer_may_bid_later():
    s = doudizhu().new_initial_state(5)
    first = s.current_player()
    act(s, "pass")
    act(s, "bid 1")
    assert sorted(legal(s)) == ["bid 2", "bid 3", "pass"]
    act(s, "pass")
    assert s.current_player() == first and is_legal(s, "bid 2")     # the first to pass bids after all
    act(s, "bid 2")
    assert get_var(s, "bid") == 2 and get_var(s, "landlord") == first


def test_a_bid_then_two_passes_makes_the_landlord_who_takes_the_kitty_and_leads():
    s = doudizhu().new_initial_state(5)
    bidder = s.current_player()
    kitty = zone_cards(s, "kitty")
    act(s, "bid 1")
    act(s, "pass")
    act(s, "pass")
    assert get_var(s, "landlord") == bidder and s.current_player() == bidder
    assert len(hand(s, bidder)) == 20 and set(kitty) <= set(hand(s, bidder))
    assert "pass" not in legal(s)                                  # the leader must play


def test_a_bid_of_three_ends_the_bidding_at_once():
    s = doudizhu().new_initial_state(5)
    act(s, "pass")
    bidder = s.current_player()
    act(s, "bid 3")
    assert get_var(s, "landlord") == bidder and s.current_player() == bidder and len(hand(s, bidder)) == 20


def test_three_passes_end_the_deal_with_no_score():
    s = doudizhu().new_initial_state(5)
    for _ in range(3):
        act(s, "pass")
    assert s.is_terminal() and s.scores() == [0, 0, 0]


def test_a_lead_offers_every_combination_the_hand_makes():
    s = position(["3H 3S 3D 4H 4S 4D 5C 6C 7C 8C BJ RJ 2H 2S", "9H", "9S"])
    moves = plays(s)
    for made in ["play 3", "play 3 3", "play 3 3 3", "play BJ", "play RJ", "play BJ RJ", "play 2 2",
                 "play 3 4 5 6 7", "play 3 4 5 6 7 8", "play 3 3 4 4",                  # no pair chain of two
                 "play 3 3 3 4 4 4", "play 3 3 3 with 5", "play 3 3 3 with 2 2",
                 "play 3 3 3 4 4 4 with 5 6", "play 3 3 3 4 4 4 with 2 BJ", "play 3 3 3 4 4 4 with 2 2"]:
        assert (made in moves) == (made != "play 3 3 4 4"), made
    assert "play 3 4 5 6" not in moves                             # a chain is five or more
    assert "play 3 3 3 4 4 4 with BJ RJ" not in moves              # the rocket is never two wings
    assert "play 3 3 3 4 4 4 with 2 2 2 2" not in moves            # two pairs of wings are two ranks


def test_no_two_and_no_joker_in_a_chain():
    s = position(["10H JH QH KH AH 2H BJ", "9H", "9S"])
    assert "play 10 J Q K A" in plays(s)
    assert not any(m.startswith("play J Q K A") for m in plays(s))


def test_solo_wings_may_share_a_rank_up_to_three():
    s = position(["3H 3S 3D 4H 4S 4D 5H 5S 5D 7H 7S 7D", "9H", "9S"])
    moves = plays(s)
    assert "play 3 3 3 4 4 4 5 5 5 with 7 7 7" in moves
    assert "play 4 4 4 5 5 5 7 7 7 with 3 3 3" not in moves        # 5 and 7 are not in a row
    assert "play 3 3 3 4 4 4 with 7 7" in moves


def test_an_airplane_of_four_trios_may_be_read_as_three_with_wings():
    s = position(["3H 3S 3D 4H 4S 4D 5H 5S 5D 6H 6S 6D", "9H", "9S"])
    moves = plays(s)
    assert {"play 3 3 3 4 4 4 5 5 5 6 6 6", "play 3 3 3 4 4 4 5 5 5 with 6 6 6",
            "play 4 4 4 5 5 5 6 6 6 with 3 3 3"} <= set(moves)


def test_following_a_higher_combination_of_the_same_kind_and_length():
    s = position(["9H", "5H 5S 6H 6S 7H 7S 8H 8S 3H 4H KH", "9S"], current=1, last="pair_chain", low=4,
                 length=3, leader=0, table="4C 4D 5C 5D 6C 6D")
    assert plays(s) == ["play 5 5 6 6 7 7", "play 6 6 7 7 8 8"]
    assert "pass" in legal(s)


def test_a_bomb_beats_anything_but_a_higher_bomb_and_the_rocket():
    s = position(["9H", "5H 5S 5D 5C 3H", "9S"], current=1, last="pair", low=14, length=1, leader=0,
                 table="AH AS")
    assert plays(s) == ["play 5 5 5 5"]
    s = position(["9H", "5H 5S 5D 5C 3H", "9S"], current=1, last="bomb", low=7, length=1, leader=0,
                 table="7H 7S 7D 7C")
    assert plays(s) == []
    s = position(["9H", "8H 8S 8D 8C BJ RJ", "9S"], current=1, last="bomb", low=7, length=1, leader=0,
                 table="7H 7S 7D 7C")
    assert plays(s) == ["play 8 8 8 8", "play BJ RJ"]


def test_the_rocket_beats_everything_and_a_bomb_beats_it_only_as_openspiel_plays():
    hands = ["9H", "5H 5S 5D 5C 3H", "9S"]
    s = position(hands, current=1, last="rocket", low=16, length=2, leader=0, table="BJ RJ")
    assert plays(s) == []
    s = position(hands, current=1, last="rocket", low=16, length=2, leader=0, table="BJ RJ", openspiel=True)
    assert plays(s) == ["play 5 5 5 5"]                            # OpenSpiel's code lets a bomb on the rocket


def test_no_chain_from_a_rank_held_four_times_as_openspiel_plays():
    hands = ["3H 3S 3D 3C 4H 5H 6H 7H 4S 5S 6S 7S", "9H", "9S"]
    moves = plays(position(hands, openspiel=True))
    assert "play 3 4 5 6 7" not in moves and "play 4 5 6 7" not in moves and "play 3 3 3 3" in moves
    assert "play 3 3 4 4 5 5" not in moves and "play 4 4 5 5 6 6" in moves
    assert "play 3 4 5 6 7" in plays(position(hands))


def test_a_play_moves_its_cards_to_the_table_and_two_passes_give_the_lead_back():
    s = position(["3H 3S 9D", "4H 4S 10D", "KH KD JD"], current=0, bid=1)
    act(s, "play 3 3")
    assert sorted(zone_cards(s, "table")) == ["3H", "3S"] and hand(s, 0) == ["9D"]
    act(s, "play 4 4")
    act(s, "play K K")
    act(s, "pass")
    act(s, "pass")
    assert s.current_player() == 2 and get_var(s, "last") is None and "pass" not in legal(s)
    assert zone_cards(s, "table") == []


def test_the_first_out_wins_twice_the_stake_for_the_landlord():
    s = position(["3H", "4H 4S", "KH KD JD"], current=0, bid=2)
    act(s, "play 3")
    assert s.is_terminal() and s.scores() == [4, -2, -2]


def test_a_farmer_out_first_wins_for_both_farmers():
    s = position(["3H 3S", "4H", "KH KD JD"], current=1, last="solo", low=3, length=1, leader=0, bid=3,
                 table="3C")
    act(s, "play 4")
    assert s.is_terminal() and s.scores() == [-6, 3, 3]


def test_each_bomb_doubles_the_stake():
    s = position(["5H 5S 5D 5C 3H", "9H 9S", "KH KD JD"], current=0, bid=1)
    act(s, "play 5 5 5 5")
    act(s, "pass")
    act(s, "pass")
    act(s, "play 3")
    assert s.scores() == [4, -2, -2]


def test_spring_doubles_when_the_landlord_played_once_or_no_farmer_played():
    s = position(["3H 4H 5H 6H 7H", "9H 9S", "KH KD JD"], current=0, bid=1)
    for p in range(3):
        s.vars[s.game.layout.var_base["plays"] + p] = 0
    act(s, "play 3 4 5 6 7")                                       # out in one play: a spring
    assert s.scores() == [4, -2, -2]


def test_neither_farmer_playing_is_a_spring_too():
    s = position(["3H 4H 5H 6H 7H 9C", "9H 9S", "KH KD JD"], current=0, bid=1)
    for p in (1, 2):
        s.vars[s.game.layout.var_base["plays"] + p] = 0
    act(s, "play 9")
    act(s, "pass")
    act(s, "pass")
    act(s, "play 3 4 5 6 7")
    assert s.scores() == [4, -2, -2]


def test_a_move_that_does_not_beat_is_refused_with_the_rule():
    from koloda.interpreter.words.refusal import why_refused
    s = position(["9H", "5H 5S 6H 6S 7H 7S 8H 8S 3H", "9S"], current=1, last="pair_chain", low=4, length=3,
                 leader=0, table="4C 4D 5C 5D 6C 6D")
    assert "does not beat" in why_refused(s, "play 3")
    assert "is not among" in why_refused(s, "play 9 9")
    assert why_refused(s, "play 5 5 6 6 7 7") is None
    lead = position(["3H 3S 9D", "4H", "KH"], current=0)
    assert "must play" in why_refused(lead, "pass")


def test_a_bad_combination_or_a_bad_move_is_a_message_and_a_non_zero_exit(tmp_path):
    from click.testing import CliRunner
    from koloda.cli.main import main
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: doudizhu\ngame: bad\ncombos:\n  chain: {run: 12..5}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "bad.yaml:4:16: combination `chain`: `run: 12..5` holds no length" in result.output
    result = CliRunner().invoke(main, ["play", "doudizhu", "--seat", "human", "--seat", "random", "--seat", "random",
                                       "--seed", "1"], input="play 9 9 9 9 9\nquit\n")
    assert "Traceback" not in result.output
    assert "`play 9 9 9 9 9`: you can't play a combination now" in result.output     # told, and play goes on
