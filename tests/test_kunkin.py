"""Kun-kin 30.а, big Kun-kin 30.б, 30.в (discard to go out) and Funken 30.г (GAMES.md section 7,
seed 004): one scenario per rule on set-up positions, then seeded random playouts of all four files.

Positions: `position()` puts named cards into the zones (P0 is the player to move, in the
`melding` step unless told), and table melds are made with `state.meld(plan, who)` from
plans of `game.melds.melds_in(...)` (helpers.table_meld).
"""
from __future__ import annotations

import random
import time

import pytest

import koloda
from koloda.ui.table import render

from helpers import (act, check_state, conservation, get_var, hand, legal, meld_cards, setup, table_meld, zone_cards)

OTHER = "4D 6D 8D TD QD"      # P1's hand unless told: no melds in it


def load(name: str = "kunkin", players: int = 2, **options):
    return koloda.load(name, options=options, players=players)


def position(game, hand0: str, hand1: str = OTHER, pile: str = "2D", stock: str | None = None,
             step: str = "melding", vars: dict | None = None, table=(), seed: int = 0):
    """P0 to move. `table`: [(meld text, owner)], made in order (meld 1, meld 2, ...).
    With `stock` given, P1's hand takes every card not placed (so it is not listed)."""
    s = game.new_initial_state(seed)
    zones = {("hand", 0): hand0, "pile": pile}
    if stock is None:
        zones[("hand", 1)] = hand1
        rest = "stock"
    else:
        zones["stock"] = stock
        rest = ("hand", 1)
    setup(s, zones=zones, current=0, step=step, vars=vars or {}, rest=rest)
    for text, owner in table:
        table_meld(s, text, owner, where=rest if stock is None else None)
    return s


def melds_offered(s) -> list[str]:
    return [t for t in legal(s) if t.startswith(("meld", "lay off", "swap"))]


def discards(s) -> list[str]:
    return [t for t in legal(s) if t.startswith("discard")]


def penalties(s) -> list[int]:
    return [get_var(s, ("penalty", p)) for p in range(s.n)]


# ------------------------------------------------------------------ 30.а the opening: 40 points in one turn
def test_a_25_point_meld_is_offered_when_the_rest_of_the_hand_reaches_40():
    g = load()
    s = position(g, "3S 4S 5S 6S 7S KH KD KC 9D")       # 25 + 30
    assert "meld 3♠ 4♠ 5♠ 6♠ 7♠" in legal(s)
    assert "meld K♣ K♦ K♥" in legal(s)


def test_a_25_point_meld_is_not_offered_when_the_rest_cannot_reach_40():
    g = load()
    s = position(g, "3S 4S 5S 6S 7S KH KD 9D 2C")       # 25 and nothing else
    assert melds_offered(s) == []
    assert len(discards(s)) == 9                        # nothing put down: the discard ends the turn


def test_the_opening_is_counted_over_several_melds_and_the_discard_waits_for_40():
    g = load()
    s = position(g, "3S 4S 5S 6S 7S KH KD KC 9D")
    act(s, "meld 3♠ 4♠ 5♠ 6♠ 7♠")
    assert get_var(s, ("turn_points", 0)) == 25 and get_var(s, ("opened", 0)) is False
    assert discards(s) == [], "a discard at 25 points is refused"
    assert melds_offered(s) == ["meld K♣ K♦ K♥"]
    act(s, "meld K♣ K♦ K♥")
    assert get_var(s, ("opened", 0)) is True
    assert discards(s) == ["discard 9♦"]
    act(s, "discard 9♦")
    assert s.deal_number == 2 or s.is_terminal()       # the hand is empty: the deal is over


def test_after_opening_any_amount_may_be_put_down():
    g = load()
    s = position(g, "2S 3S 4S 9D", vars={("opened", 0): True})
    assert melds_offered(s) == ["meld 2♠ 3♠ 4♠"]
    act(s, "meld 2♠ 3♠ 4♠")
    assert discards(s) == ["discard 9♦"]


def test_not_opened_small_meld_refused():
    g = load()
    s = position(g, "2S 3S 4S 9D")
    assert melds_offered(s) == []


def test_a_layoff_counts_towards_the_opening():
    g = load()
    s = position(g, "TS JS QS AC 5H", table=[("AH AD AS", 1)])
    assert "lay off A♣ on meld 1" in legal(s)               # 11 + 30 from the rest
    act(s, "lay off A♣ on meld 1")
    assert get_var(s, ("turn_points", 0)) == 11
    act(s, "meld 10♠ J♠ Q♠")
    assert get_var(s, ("opened", 0)) is True


def test_a_meld_is_offered_when_a_layoff_of_the_rest_completes_the_opening():
    g = load()
    s = position(g, "TS JS QS AC 5H", table=[("AH AD AS", 1)])
    assert "meld 10♠ J♠ Q♠" in legal(s)


@pytest.mark.parametrize("order", [["meld K♦ K♥ K♠", "lay off 5♣ on meld 1", "lay off 6♣ on meld 1"],
                                   ["lay off 5♣ on meld 1", "lay off 6♣ on meld 1", "meld K♦ K♥ K♠"],
                                   ["lay off 5♣ on meld 1", "meld K♦ K♥ K♠", "lay off 6♣ on meld 1"]])
def test_an_opening_of_a_set_and_two_layoffs_on_one_run(order):
    """30 + 5♣ + 6♣ on another player's 2♣ 3♣ 4♣: 6♣ fits only once 5♣ is down."""
    g = load()
    s = position(g, "KH KD KS 5C 6C 9D", table=[("2C 3C 4C", 1)])
    assert sorted(melds_offered(s)) == ["lay off 5♣ on meld 1", "meld K♦ K♥ K♠"]
    for move in order:
        act(s, move)
        assert get_var(s, ("opened", 0)) or discards(s) == [], "short of 40: no discard"
    assert get_var(s, ("opened", 0)) is True and get_var(s, ("turn_points", 0)) == 41
    assert meld_cards(s, 0) == ["2C", "3C", "4C", "5C", "6C"]
    assert discards(s) == ["discard 9♦"]


def test_layoffs_short_of_the_opening_are_not_offered():
    g = load()
    s = position(g, "KH KD 5C 6C 9D", table=[("2C 3C 4C", 1)])         # 5 + 6 and no meld
    assert melds_offered(s) == []


def test_jokers_count_as_the_card_they_stand_for_in_the_opening():
    g = load()
    s = position(g, "QS KS JK 5H 5D 5C 9D")          # Q K 🃏=A (31) + 15 = 46; Q K 🃏=J (30) + 15 = 45
    assert "meld Q♠ K♠ 🃏=A♠" in legal(s)
    act(s, "meld Q♠ K♠ 🃏=A♠")
    assert get_var(s, ("turn_points", 0)) == 31


def test_stuck_short_of_the_opening_the_turn_still_ends_with_a_discard():
    g = load()
    s = position(g, "2H 9D", vars={("turn_points", 0): 25, ("turn_cards", 0): 5})
    assert melds_offered(s) == []
    assert sorted(discards(s)) == ["discard 2♥", "discard 9♦"]


# ------------------------------------------------------------------ 30.в the card kept for the last discard
def test_discard_out_the_opening_leaves_a_card_for_the_last_discard():
    """42 points in six cards, but a card must stay to be discarded: the kings would stay down short of 40."""
    g = load("kunkin-discard-out")
    s = position(g, "KH KD KS 3S 4S 5S")
    assert melds_offered(s) == []
    assert len(discards(s)) == 6
    s = position(g, "KH KD KS 3S 4S 5S 9D")
    assert sorted(melds_offered(s)) == ["meld 3♠ 4♠ 5♠", "meld K♦ K♥ K♠"]
    act(s, "meld K♦ K♥ K♠")
    act(s, "meld 3♠ 4♠ 5♠")
    assert get_var(s, ("opened", 0)) is True and discards(s) == ["discard 9♦"]


def test_a_without_the_last_discard_the_same_hand_opens_and_goes_out():
    g = load()
    s = position(g, "KH KD KS 3S 4S 5S")
    act(s, "meld K♦ K♥ K♠")
    act(s, "meld 3♠ 4♠ 5♠")
    assert s.deal_number == 2 or s.is_terminal()


# ------------------------------------------------------------------ 30.а taking the discard top
def test_the_discard_top_is_offered_only_when_it_can_be_melded_at_once():
    g = load()
    s = position(g, "QS JS 5H 5D 5C 9H", pile="3H KS", step="start")
    assert legal(s) == ["draw", "take K♠"]
    s = position(g, "QS JS 5H 5D 9H", pile="3H KS", step="start")      # 30 + 0: no opening
    assert legal(s) == ["draw"]
    s = position(g, "QS 5H 5D 5C 9H 2C", pile="3H KS", step="start")   # K♠ makes no meld
    assert legal(s) == ["draw"]


def test_after_taking_only_plays_that_use_the_card_are_offered():
    g = load()
    s = position(g, "QS JS 5H 5D 5C 9H", pile="3H KS", step="start")
    act(s, "take K♠")
    assert hand(s, 0)[-1] == "KS" and zone_cards(s, "pile") == ["3H"]
    assert legal(s) == ["meld J♠ Q♠ K♠"], "no other meld, no discard before the taken card is used"
    act(s, "meld J♠ Q♠ K♠")
    assert get_var(s, ("must_meld", 0)) is None
    assert legal(s) == ["meld 5♣ 5♦ 5♥"]                 # 30: still short of 40, so no discard
    act(s, "meld 5♣ 5♦ 5♥")
    assert discards(s) == ["discard 9♥"]


def test_an_opened_player_may_take_the_top_to_lay_it_off():
    g = load()
    s = position(g, "2H 9C", pile="3C 8H", step="start", vars={("opened", 0): True}, table=[("5H 6H 7H", 1)])
    assert "take 8♥" in legal(s)
    act(s, "take 8♥")
    assert legal(s) == ["lay off 8♥ on meld 1"]
    act(s, "lay off 8♥ on meld 1")
    assert meld_cards(s, 0) == ["5H", "6H", "7H", "8H"]
    assert sorted(discards(s)) == ["discard 2♥", "discard 9♣"]


def test_the_top_may_be_taken_to_lay_it_off_as_part_of_the_opening():
    """«обязан тут же ее выложить в виде новой выкладки или приложить к уже имеющейся»: Q♣ on 9♣ 10♣ J♣ (10)
    and the three kings (30) make 40."""
    g = load()
    s = position(g, "KH KD KS 2H 5D", pile="3D QC", step="start", table=[("9C 10C JC", 1)])
    assert legal(s) == ["draw", "take Q♣"]
    act(s, "take Q♣")
    assert legal(s) == ["lay off Q♣ on meld 1"], "the taken card first"
    act(s, "lay off Q♣ on meld 1")
    assert get_var(s, ("turn_points", 0)) == 10 and discards(s) == []
    act(s, "meld K♦ K♥ K♠")
    assert get_var(s, ("opened", 0)) is True
    assert sorted(discards(s)) == ["discard 2♥", "discard 5♦"]


def test_the_top_is_not_taken_to_lay_it_off_short_of_the_opening():
    g = load()
    s = position(g, "KH KD 2H 5D 7S", pile="3D QC", step="start", table=[("9C 10C JC", 1)])
    assert legal(s) == ["draw"]


def test_an_opened_player_cannot_take_an_unusable_top():
    g = load()
    s = position(g, "2H 9C", pile="3C KD", step="start", vars={("opened", 0): True}, table=[("5H 6H 7H", 1)])
    assert legal(s) == ["draw"]


# ------------------------------------------------------------------ after discarding
def test_no_meld_after_discarding_the_turn_passes():
    g = load()
    s = position(g, "2S 3S 4S 9D KH", vars={("opened", 0): True})
    act(s, "discard K♥")
    assert s.current_player() == 1 and s.step == "start"
    assert s.legal_actions(0) == [], "P0 may not meld after discarding"
    assert set(legal(s)) <= {"draw", "take K♥"}
    assert "draw" in legal(s)


def test_a_turn_starts_with_a_draw_not_a_meld():
    g = load()
    s = position(g, "2S 3S 4S 9D", step="start", vars={("opened", 0): True})
    assert melds_offered(s) == [] and discards(s) == []


# ------------------------------------------------------------------ jokers: swaps
def test_an_opened_player_swaps_a_joker_for_the_card_it_stands_for():
    g = load()
    s = position(g, "6S 6H 9D", vars={("opened", 0): True}, table=[("5S JK=6S 7S", 1)])
    assert [t for t in legal(s) if t.startswith("swap")] == ["swap 6♠ for the joker in meld 1"]
    act(s, "swap 6♠ for the joker in meld 1")
    assert meld_cards(s, 0) == ["5S", "6S", "7S"]
    assert sorted(hand(s, 0)) == sorted(["6H", "9D", "JK"])
    joker = [c for c in s.zones[g.layout.zone_base["hand"]] if g.cards.names[c] == "JK"][0]
    assert s.stands[joker] is None, "a joker back in hand stands for nothing"


def test_a_joker_put_on_the_table_may_be_swapped_at_once():
    g = load()
    s = position(g, "6S 9D", vars={("opened", 0): True}, table=[("8H 9H 10H", 1)])
    assert not any(t.startswith("swap") for t in legal(s)), "no joker on the table yet"
    table_meld(s, "5S JK=6S 7S", 1, where="stock")
    assert [t for t in legal(s) if t.startswith("swap")] == ["swap 6♠ for the joker in meld 2"]
    act(s, "swap 6♠ for the joker in meld 2")
    assert not any(t.startswith("swap") for t in legal(s)), "the joker is back in hand"


def test_a_player_who_has_not_opened_cannot_swap():
    g = load()
    s = position(g, "6S 6H 9D", table=[("5S JK=6S 7S", 1)])
    assert not any(t.startswith("swap") for t in legal(s))


# ------------------------------------------------------------------ going out: 30.а and 30.в
def test_kunkin_a_player_may_meld_out_without_a_discard():
    g = load()
    s = position(g, "AS AH AD", hand1="2C 3D", vars={("opened", 0): True})
    act(s, "meld A♦ A♥ A♠")
    assert s.deal_number == 2
    assert penalties(s) == [0, 5]


def test_discard_out_a_meld_that_would_empty_the_hand_is_not_offered():
    g = load("kunkin-discard-out")
    s = position(g, "AS AH AD", vars={("opened", 0): True})
    assert melds_offered(s) == []
    assert len(discards(s)) == 3


def test_discard_out_a_layoff_or_swap_that_would_empty_the_hand_is_not_offered():
    g = load("kunkin-discard-out")
    s = position(g, "8H", vars={("opened", 0): True}, table=[("5H 6H 7H", 1), ("9S JK=TS JS", 1)])
    assert melds_offered(s) == []
    s = position(g, "TS", vars={("opened", 0): True}, table=[("9S JK=TS JS", 1)])
    assert melds_offered(s) == []


def test_discard_out_going_out_by_discarding_the_last_card_ends_the_deal():
    g = load("kunkin-discard-out")
    s = position(g, "AS AH AD 9C", hand1="JK KD 2C", vars={("opened", 0): True})
    assert melds_offered(s) == ["meld A♦ A♥ A♠"]
    act(s, "meld A♦ A♥ A♠")
    act(s, "discard 9♣")
    assert s.deal_number == 2
    assert penalties(s) == [0, 32]


def test_discard_out_the_top_is_not_taken_to_meld_out():
    g = load("kunkin-discard-out")
    s = position(g, "AS AH", pile="2C AD", step="start", vars={("opened", 0): True})
    assert legal(s) == ["draw"]
    g = load()
    s = position(g, "AS AH", pile="2C AD", step="start", vars={("opened", 0): True})
    assert legal(s) == ["draw", "take A♦"]


# ------------------------------------------------------------------ 30.б big Kun-kin
def test_big_the_opening_needs_60_points():
    g = load("kunkin-big")
    s = position(g, "AS AH AD 5S 6S 7S 2D")              # 33 + 18 = 51
    assert melds_offered(s) == []
    s = position(g, "AS AH AD KS QS JS 2D")              # 33 + 30 = 63
    assert "meld J♠ Q♠ K♠" in legal(s)
    act(s, "meld J♠ Q♠ K♠")
    assert discards(s) == []                             # 30: not yet
    act(s, "meld A♦ A♥ A♠")
    assert get_var(s, ("opened", 0)) is True and get_var(s, ("turn_cards", 0)) == 6
    assert discards(s) == ["discard 2♦"]


def test_big_a_set_of_four_may_repeat_suits():
    """«Четыре карты одного достоинства могут быть любой масти, например ... два короля пик и два короля треф»"""
    g = load("kunkin-big")
    s = position(g, "KS KS KC KC 9D", vars={("opened", 0): True})
    offered = [sorted(t.split()[1:]) for t in melds_offered(s)]
    assert offered == [["K♠", "K♠", "K♣", "K♣"]], "no set of three repeats a suit"
    s2 = position(load("kunkin", decks=2, jokers=4), "KS KS KC KC 9D", vars={("opened", 0): True})
    assert melds_offered(s2) == [], "plain Kun-kin with two decks: sets keep different suits"


def test_big_a_set_of_three_keeps_three_suits():
    g = load("kunkin-big")
    s = position(g, "KS KS KC 9D 2H", vars={("opened", 0): True})
    assert melds_offered(s) == []
    s = position(g, "KS KS KC KH 2H", vars={("opened", 0): True})
    assert sorted(melds_offered(s)) == ["meld K♣ K♥ K♠", "meld K♣ K♥ K♠ K♠"]


def test_big_a_fourth_card_of_a_suit_already_there_may_be_laid_off():
    g = load("kunkin-big")
    s = position(g, "KS 9D 2H", vars={("opened", 0): True}, table=[("KS KH KC", 1)])
    assert melds_offered(s) == ["lay off K♠ on meld 1"]
    act(s, "lay off K♠ on meld 1")
    assert sorted(meld_cards(s, 0)) == ["KC", "KH", "KS", "KS"]


def test_big_a_meld_is_offered_when_two_equal_runs_complete_the_opening():
    g = load("kunkin-big")
    s = position(g, "5S 5S 6S 6S 7S 7S AH AD AC 2D 9C")
    assert "meld 5♠ 6♠ 7♠" in legal(s)
    assert "meld A♣ A♦ A♥" in legal(s)


def test_big_the_deal_is_24_cards_from_108():
    g = load("kunkin-big")
    s = g.new_initial_state(3)
    assert g.cards.size == 108
    assert [len(hand(s, p)) for p in range(2)] == [24, 24]
    assert len(zone_cards(s, "pile")) == 1 and len(zone_cards(s, "stock")) == 108 - 48 - 1


# ------------------------------------------------------------------ 30.г Funken
def test_funken_a_set_of_four_goes_under_the_stock():
    g = load("funken")
    s = position(g, "KS KH KD KC 9H")
    before = zone_cards(s, "stock")
    act(s, "meld K♣ K♦ K♥ K♠")
    after = zone_cards(s, "stock")
    assert len(after) == len(before) + 4
    assert sorted(after[:4]) == ["KC", "KD", "KH", "KS"] and after[4:] == before
    assert all(k is None for k in s.slot_kind), "the meld is gone from the table"
    conservation(s)


def test_funken_a_set_of_four_by_layoff_goes_under_the_stock_with_its_joker():
    g = load("funken")
    s = position(g, "KC 9H", table=[("KH KD JK=KS", 1)])
    n = len(zone_cards(s, "stock"))
    act(s, "lay off K♣ on meld 1")
    assert len(zone_cards(s, "stock")) == n + 4 and "JK" in zone_cards(s, "stock")[:4]
    assert all(x is None for x in s.stands), "the joker under the stock stands for nothing"


def test_funken_a_set_of_three_stays():
    g = load("funken")
    s = position(g, "KS KH KD 9H")
    act(s, "meld K♦ K♥ K♠")
    assert meld_cards(s, 0) == ["KD", "KH", "KS"]


def test_funken_has_no_opening_minimum():
    g = load("funken")
    s = position(g, "2S 3S 4S 9D 9C")
    assert melds_offered(s) == ["meld 2♠ 3♠ 4♠"]
    act(s, "meld 2♠ 3♠ 4♠")
    assert sorted(discards(s)) == ["discard 9♣", "discard 9♦"]


def test_funken_sets_have_different_suits():
    g = load("funken")
    s = position(g, "KS KS KH 9D")
    assert melds_offered(s) == []


def test_funken_a_player_with_nothing_down_takes_the_top_to_lay_it_off():
    """No opening minimum: the discard top may be laid off at once by anyone, as a card from hand may."""
    g = load("funken")
    s = position(g, "2H 5D 8S", pile="3D QC", step="start", table=[("9C 10C JC", 1)])
    assert legal(s) == ["draw", "take Q♣"]
    act(s, "take Q♣")
    assert legal(s) == ["lay off Q♣ on meld 1"]
    act(s, "lay off Q♣ on meld 1")
    assert meld_cards(s, 0) == ["9C", "10C", "JC", "QC"]
    assert sorted(discards(s)) == ["discard 2♥", "discard 5♦", "discard 8♠"]
    s = position(g, "2H 5D QC", table=[("9C 10C JC", 1)])
    assert melds_offered(s) == ["lay off Q♣ on meld 1"], "the same card from hand"


def test_funken_swap_only_with_a_meld_of_ones_own():
    g = load("funken")
    s = position(g, "6S 9D 9C", vars={("opened", 0): True}, table=[("5S JK=6S 7S", 1)])
    assert not any(t.startswith("swap") for t in legal(s))
    s = position(g, "6S 9D 9C", vars={("opened", 0): True}, table=[("5S JK=6S 7S", 1), ("2H 3H 4H", 0)])
    assert "swap 6♠ for the joker in meld 1" in legal(s)
    g = load()                                           # Kun-kin: any player who has opened
    s = position(g, "6S 9D 9C", vars={("opened", 0): True}, table=[("5S JK=6S 7S", 1)])
    assert "swap 6♠ for the joker in meld 1" in legal(s)


def test_funken_losses_are_cards_left_doubled_per_joker():
    g = load("funken")
    s = position(g, "9D", hand1="2C 3D JK JK 5H", vars={("opened", 0): True, ("earlier", 0): True},
                 table=[("2S 3S 4S", 0)])
    act(s, "discard 9♦")
    assert s.deal_number == 2 or s.is_terminal()
    assert penalties(s) == [0, 5 * 2 * 2]


def test_funken_going_out_in_one_turn_doubles_the_losses():
    g = load("funken")
    s = position(g, "2S 3S 4S 9D", hand1="2C 3D JK 5H", vars={("earlier", 0): False})
    act(s, "meld 2♠ 3♠ 4♠")
    act(s, "discard 9♦")
    assert penalties(s) == [0, 4 * 2 * 2]


def test_funken_going_out_after_earlier_melds_is_not_doubled():
    g = load("funken")
    s = position(g, "2S 3S 4S 9D", hand1="2C 3D JK 5H", vars={("opened", 0): True, ("earlier", 0): True},
                 table=[("7H 7D 7C", 0)])
    act(s, "meld 2♠ 3♠ 4♠")
    act(s, "discard 9♦")
    assert penalties(s) == [0, 4 * 2]


def test_funken_earlier_is_what_opened_was_at_the_draw():
    g = load("funken")
    s = position(g, "2S 3S 4S 9D", step="start", vars={("opened", 0): True})
    act(s, "draw")
    assert get_var(s, ("earlier", 0)) is True


# ------------------------------------------------------------------ 30.а scoring and the match
def test_kunkin_hands_are_counted_joker_20_ace_11_pictures_10_others_face():
    g = load()
    s = position(g, "9D", hand1="JK AS KD QH JC TC 5H 2S", vars={("opened", 0): True})
    act(s, "discard 9♦")
    assert penalties(s) == [0, 20 + 11 + 10 + 10 + 10 + 10 + 5 + 2]


def test_kunkin_the_match_ends_at_the_limit_and_the_lowest_wins():
    g = load(limit=60)
    s = position(g, "9D", hand1="JK AS KD 2C", vars={("opened", 0): True, ("penalty", 1): 20,
                                                      ("penalty", 0): 55})
    act(s, "discard 9♦")
    assert s.is_terminal()
    assert penalties(s) == [55, 20 + 43]
    assert s.returns()[0] > s.returns()[1]


def test_kunkin_the_match_goes_on_below_the_limit():
    g = load(limit=60)
    s = position(g, "9D", hand1="2C 3D", vars={("opened", 0): True})
    act(s, "discard 9♦")
    assert not s.is_terminal() and s.deal_number == 2
    assert [len(hand(s, p)) for p in range(2)] == [12, 12]
    assert all(get_var(s, ("opened", p)) is False for p in range(2))
    assert all(k is None for k in s.slot_kind)


# ------------------------------------------------------------------ the stock runs out
def test_the_discard_pile_is_turned_over_when_the_stock_runs_out():
    g = load()
    s = position(g, "2H 9H", pile="3C 4C 5C KD", stock="7C", step="start")
    act(s, "draw")
    assert hand(s, 0)[-1] == "7C"
    assert zone_cards(s, "pile") == []
    assert zone_cards(s, "stock") == ["KD", "5C", "4C", "3C"], "turned over: the first discard is on top"
    act(s, "discard 9♥")
    assert zone_cards(s, "pile") == ["9H"]
    assert s.current_player() == 1 and legal(s)[0] == "draw"


# ------------------------------------------------------------------ jokers on show
def test_observation_shows_a_jokers_identity():
    g = load()
    s = position(g, "KS 9H", table=[("QS QH JK=QC", 1), ("5D JK=6D 7D", 0)])
    melds = [z for z in s.observation(0)["zones"] if "meld" in z]
    assert [z["cards"] for z in melds] == [["QH", "QS", "JK=QC"], ["5D", "JK=6D", "7D"]]
    assert [(z["owner"], z["meld"]["kind"]) for z in melds] == [(1, "set"), (0, "run")]
    assert melds == [z for z in s.observation(1)["zones"] if "meld" in z], "melds are public"


def test_render_shows_a_jokers_identity():
    g = load()
    s = position(g, "KS 9H", table=[("QS QH JK=QC", 1)])
    text = render(g, s, 0).plain
    assert "🃏=Q♣" in text
    assert "Q♥ Q♠ 🃏=Q♣" in text


def test_a_suitless_identity_is_shown_by_rank():
    g = load("kunkin-big")
    s = position(g, "KS 9H", table=[("QS QS QH JK", 1)])
    melds = [z for z in s.observation(0)["zones"] if "meld" in z]
    assert melds[0]["cards"] == ["QH", "QS", "QS", "JK=Q"]
    assert "Q♥ Q♠ Q♠ 🃏=Q\n" in render(g, s, 0).plain


# ------------------------------------------------------------------ one move per meaning
def test_each_legal_action_is_offered_once():
    g = load()
    s = position(g, "JK JK 9D", vars={("opened", 0): True}, table=[("5S 6S 7S", 1)])
    texts = legal(s)
    assert len(texts) == len(set(texts)), texts


# ------------------------------------------------------------------ playouts
PLAYOUTS = [          # file, options, seeds, move cap (None: to the end), bound on legal actions
    ("kunkin", {}, [1, 2], None, 100),
    ("kunkin", {"jokers": 4, "limit": 60, "decks": 2}, [4], None, 150),
    ("kunkin", {"limit": 80}, [5], None, 100, 3),
    ("kunkin-discard-out", {}, [1, 2], None, 100),
    ("funken", {}, [1], None, 100),
    ("funken", {"limit": 20}, [3], None, 100, 4),
    ("kunkin-big", {"limit": 60}, [1, 2], None, 300),
]
EVERY_MOVE = 200      # the first moves of a match get every check; later ones every 10th
MAX_SEEN: dict[str, int] = {}


@pytest.mark.parametrize("name,options,seeds,cap,bound,players",
                         [p if len(p) == 6 else (*p, 2) for p in PLAYOUTS],
                         ids=[f"{p[0]}-{p[5] if len(p) == 6 else 2}p-"
                              f"{'-'.join(f'{k}={v}' for k, v in p[1].items()) or 'default'}" for p in PLAYOUTS])
def test_playouts(name, options, seeds, cap, bound, players):
    game = load(name, players=players, **options)
    most, started = 0, time.time()
    for seed in seeds:
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        moves = 0
        while not s.is_terminal():
            actions = s.legal_actions()
            assert actions, f"no legal move in a live state:\n{s}"
            assert len(actions) == len(set(actions))
            most = max(most, len(actions))
            if moves < EVERY_MOVE or moves % 10 == 0:
                check_state(s, rng)
            else:
                conservation(s)
            s.apply_action(rng.choice(actions))
            moves += 1
            assert moves < 20000, "the match does not end"
            if cap is not None and moves >= cap:
                break
        check_state(s, rng)
        if cap is None:
            assert s.is_terminal()
            assert any(p >= game.options["limit"] for p in penalties(s))
    MAX_SEEN[name] = max(MAX_SEEN.get(name, 0), most)
    print(f"\n{name} {options}: at most {most} legal actions, {time.time() - started:.1f}s")
    assert most <= bound


def test_the_two_jokers_in_hand_are_one_discard_and_every_other_card_one_each():
    # the listing looks copies up by kind (the two jokers are one move); a card with no copy is a move by itself
    g = load()
    s = position(g, "JK JK 5H 5D 9C", vars={("opened", 0): True})
    assert sorted(discards(s)) == sorted(["discard 5♥", "discard 5♦", "discard 9♣", "discard 🃏"])
