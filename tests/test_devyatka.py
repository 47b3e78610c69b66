"""Девятка (Nine, the Nine Club's rules): one scenario per rule of koloda/rules/devyatka.yaml."""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, new_state, setup, zone_cards

# three hands of twelve, the whole 36-card deck: P1 holds the nine of diamonds and the nine of hearts
HANDS = ["9D 9H 6C 7C 8C 10C JC QC KC AC 6S 7S",
         "8D 10D JD 9C 8S 9S 10S JS QS KS AS 6H",
         "6D 7D QD KD AD 7H 8H 10H JH QH KH AH"]


@functools.lru_cache(maxsize=None)
def devyatka(players=3, **options):
    return koloda.load("devyatka", options, players)


def position(hands, rows="", current=0, players=3, vars=None, **options):
    """Player `current` to move with `hands` (player 0 first) and `rows` laid; any card not listed
    lies in the stock, out of play."""
    s = devyatka(players, **options).new_initial_state(0)
    zones = {("hand", p): h for p, h in enumerate(hands)}
    zones["rows"] = rows
    return setup(s, zones=zones, current=current, phase="play", vars={"out": None, **(vars or {})})


def chips(s):
    return [get_var(s, ("chips", p)) for p in range(s.game.num_players)]


# ------------------------------------------------------------------ the deal and the stakes
def test_the_whole_deck_is_dealt_and_everyone_stakes_the_ante():
    s = devyatka(3).new_initial_state(1)
    assert [len(hand(s, p)) for p in range(3)] == [12, 12, 12] and zone_cards(s, "stock") == []
    assert chips(s) == [80, 80, 80] and get_var(s, "bank") == 60
    s = devyatka(2).new_initial_state(1)
    assert [len(hand(s, p)) for p in range(2)] == [18, 18]


def test_five_players_the_card_left_over_goes_to_the_dealers_left():
    s = devyatka(5).new_initial_state(2)
    sizes = [len(hand(s, p)) for p in range(5)]
    assert sum(sizes) == 36 and sizes[(s.dealer + 1) % 5] == 8 and sorted(sizes) == [7, 7, 7, 7, 8]


def test_stakes_are_options():
    s = devyatka(4, ante=5, purse=50).new_initial_state(1)
    assert chips(s) == [45] * 4 and get_var(s, "bank") == 20


# ------------------------------------------------------------------ laying cards
def test_the_holder_of_the_nine_of_diamonds_opens_with_it():
    g = devyatka(3)
    s = new_state(g, 0, hands=HANDS)
    assert s.current_player() == 0
    assert legal(s, plain=True) == ["lay 9D"]            # not the nine of hearts, and no pass
    act(s, "lay 9D")
    assert zone_cards(s, "rows") == ["9D"] and s.current_player() == 1


def test_after_the_nine_a_neighbour_of_its_suit_or_another_nine():
    s = position([HANDS[0].replace("9D ", ""), HANDS[1], HANDS[2]], rows="9D", current=1)
    assert sorted(legal(s, plain=True)) == ["lay 10D", "lay 8D", "lay 9C", "lay 9S"]


def test_rows_grow_one_card_at_either_end_without_gaps():
    s = position(["JD QD 7D 8D 6D 9H", "", ""], rows="9D 10D")
    assert sorted(legal(s, plain=True)) == ["lay 8D", "lay 9H", "lay JD"]   # not Q♦ past the gap, not 7♦
    act(s, "lay 8D")
    s.current = 0
    s._legal = None
    assert sorted(legal(s, plain=True)) == ["lay 7D", "lay 9H", "lay JD"]


def test_a_row_ends_at_the_ace_and_at_the_six():
    s = position(["AS 6S 6H", "", ""], rows="9S 10S JS QS KS 8S 7S 9H 10H")
    assert sorted(legal(s, plain=True)) == ["lay 6S", "lay AS"]          # 6♥ waits for the 8♥ and 7♥


def test_a_card_of_another_suit_does_not_continue_a_row():
    s = position(["10H 8C", "", ""], rows="9D")
    assert legal(s, plain=True) == ["pass"]


# ------------------------------------------------------------------ passing
def test_who_can_lay_must_lay():
    s = position(["10D 6C", "", ""], rows="9D")
    assert legal(s, plain=True) == ["lay 10D"]


def test_who_cannot_lay_passes_and_pays_the_fine_into_the_bank():
    s = position(["6C 7C", "KH", "8D"], rows="9D", vars={"bank": 60})
    assert legal(s, plain=True) == ["pass"]
    act(s, "pass")
    assert get_var(s, "bank") == 70 and chips(s)[0] == 80 - 10 and get_var(s, ("passes", 0)) == 1
    assert s.current_player() == 1


def test_passing_when_able_is_an_option():
    s = position(["10D 6C", "", ""], rows="9D", pass_when_able=True, fine=3, vars={"bank": 60})
    assert sorted(legal(s, plain=True)) == ["lay 10D", "pass"]
    act(s, "pass")
    assert get_var(s, "bank") == 63 and chips(s)[0] == 77


def test_a_fine_may_take_a_purse_below_nothing():
    s = position(["6C 7C", "KH", "8D"], rows="9D", vars={("chips", 0): 4})
    act(s, "pass")
    assert chips(s)[0] == -6


# ------------------------------------------------------------------ going out and the bank
def test_the_first_to_lay_all_cards_takes_the_bank():
    s = position(["10D", "KH QH", "8D 7D"], rows="9D", vars={"bank": 75})
    act(s, "lay 10D")
    assert s.deal_number == 2                                 # the deal is over, the next one dealt
    # P1 took the bank of 75; everyone has staked 20 for the new deal
    assert chips(s) == [80 + 75 - 20, 80 - 20, 80 - 20] and get_var(s, "bank") == 60
    assert [get_var(s, ("passes", p)) for p in range(3)] == [0, 0, 0]


def test_losers_pay_for_each_card_left_in_hand():
    s = position(["10D", "KH QH", "8D 7D 6D"], rows="9D", per_card=2, vars={"bank": 60})
    act(s, "lay 10D")
    assert chips(s) == [80 + 60 + 2 * 5 - 20, 80 - 4 - 20, 80 - 6 - 20]


def test_the_match_ends_when_a_player_cannot_pay_the_stake_and_the_most_chips_wins():
    s = position(["10D", "KH QH", "8D 7D"], rows="9D",
                 vars={"bank": 60, ("chips", 1): 19, ("chips", 2): 40})
    act(s, "lay 10D")
    assert s.is_terminal()
    assert s.scores() == [140, 19, 40] and s.returns() == [1.0, 0.0, 0.0]


def test_a_player_with_no_chips_is_bankrupt_even_without_an_ante():
    s = position(["10D", "KH QH", "8D 7D"], rows="9D", ante=0,
                 vars={"bank": 30, ("chips", 1): 0})
    act(s, "lay 10D")
    assert s.is_terminal() and s.scores()[1] == 0


def test_a_fixed_number_of_deals():
    s = position(["10D", "KH QH", "8D 7D"], rows="9D", deals=1, vars={"bank": 60})
    act(s, "lay 10D")
    assert s.is_terminal() and s.scores() == [140, 80, 80]
    s = position(["10D", "KH QH", "8D 7D"], rows="9D", deals=2, vars={"bank": 60})
    act(s, "lay 10D")
    assert not s.is_terminal() and s.deal_number == 2


# ------------------------------------------------------------------ the opening by the dealer's left
def test_the_dealers_left_may_open_with_any_nine():
    g = devyatka(3, start="left_of_dealer")
    s = g.new_initial_state(0)
    first = (s.dealer + 1) % 3
    assert s.current_player() == first
    nines = sorted(f"lay {c}" for c in hand(s, first) if c.startswith("9"))
    assert sorted(legal(s, plain=True)) == (nines or ["pass"])


def test_without_a_nine_the_opener_passes_and_pays():
    s = position(["6C 7C", "9H", "8D"], start="left_of_dealer", vars={"bank": 60})
    assert legal(s, plain=True) == ["pass"]
    act(s, "pass")
    assert legal(s, plain=True) == ["lay 9H"] and get_var(s, "bank") == 70


def test_a_nine_of_another_suit_cannot_open_the_holders_game():
    s = position(["9H 9D", "", ""])
    assert legal(s, plain=True) == ["lay 9D"]


def test_refusals_say_the_rule_in_the_players_words():
    from koloda.interpreter.words.refusal import why_refused
    s = position(["JD 9H", "", ""], rows="9D")
    assert "J♦ does not fit" in why_refused(s, "lay JD")
    assert "не подходит" in why_refused(s, "lay JD", language="ru")
    assert "must lay it" in why_refused(s, "pass")
    s = position(["9H 9D", "", ""])
    assert "cannot open" in why_refused(s, "lay 9H")
