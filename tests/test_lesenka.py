"""Lesenka, the ladder (GAMES.md section 5, seed 003): one scenario per rule on set-up positions.

Positions: `position()` puts named cards into the hands and the open row (P0 to move, in the
`main` step - after the draw - unless told); every card not placed goes to the stock. The
seed's own examples of building on the ladder are played out exactly: 10♥ J♥ Q♥ extended by
9♥, by 9♥ then 8♥, and not by an ace and an eight.
"""
from __future__ import annotations

import pytest

import koloda

from helpers import (act, conservation, each_player, get_var, hand, legal, meld_cards, moves_starting,
                     open_row_position, table_meld, zone_cards)

# cards for the hands not given (four each, in this order, skipping cards placed elsewhere):
# they make no meld and build on none of the melds used below
SPARE = "6D 8S AC 7H 6C 8C 9S 7S 9D KC 6S 8D 9C AS"


def load(players: int = 3, **options):
    return koloda.load("lesenka", options=options, players=players)


def position(game, hands, row="6H", step="main", current=0, vars=None):
    """`hands`: one per player (P0 first); players not given get hands with no meld and nothing to
    build on the melds used below. Every card not placed goes to the stock."""
    return open_row_position(game, hands, SPARE, row, step, current, vars)


def melds(s) -> list[str]:
    return moves_starting(s, "meld")


def adds(s) -> list[str]:
    return moves_starting(s, "add")


def melded(s) -> list[int]:
    return each_player(s, "melded")


def scores(s) -> list[int]:
    return each_player(s, "score")


# ------------------------------------------------------------------ the deck and the deal
def test_the_deck_is_36_cards_six_to_ace_by_default():
    g = load()
    assert g.cards.size == 36
    assert sorted(set(g.cards.ranks)) == list(range(6, 15))


def test_the_52_card_option():
    g = load(deck="standard52")
    assert g.cards.size == 52
    assert sorted(set(g.cards.ranks)) == list(range(2, 15))
    s = g.new_initial_state(2)
    assert len(zone_cards(s, "stock")) == 52 - 3 * 5 - 1
    assert "2H" in [g.cards.names[c] for c in range(g.cards.size)]


def test_three_or_four_players():
    assert load(players=3).num_players == 3
    assert load(players=4).num_players == 4
    with pytest.raises(Exception):
        load(players=2)
    with pytest.raises(Exception):
        load(players=5)


@pytest.mark.parametrize("players", [3, 4])
def test_five_dealt_and_one_card_turned_up_as_the_row(players):
    g = load(players=players)
    s = g.new_initial_state(7)
    assert [len(hand(s, p)) for p in range(players)] == [5] * players
    assert len(zone_cards(s, "row")) == 1
    assert len(zone_cards(s, "stock")) == 36 - 5 * players - 1
    obs = s.observation(0)
    row = next(z for z in obs["zones"] if z["zone"] == "row")
    assert row["cards"] == zone_cards(s, "row"), "the row lies face up for all"
    stock = next(z for z in obs["zones"] if z["zone"] == "stock")
    assert "cards" not in stock and "top" not in stock
    conservation(s)


def test_the_player_left_of_the_dealer_starts():
    g = load()
    s = g.new_initial_state(3)
    assert s.current_player() == (s.dealer + 1) % 3


# ------------------------------------------------------------------ the turn: draw, then meld or add to the row
def test_a_turn_starts_with_a_draw_and_nothing_else():
    g = load()
    s = g.new_initial_state(5)
    p = s.current_player()
    assert legal(s) == ["draw"]
    top = zone_cards(s, "stock")[-1]
    act(s, "draw")
    assert len(hand(s, p)) == 6 and hand(s, p)[-1] == top
    assert s.current_player() == p and s.step == "main"
    assert all(t.startswith(("meld", "add", "take")) for t in legal(s))


def test_without_a_meld_the_player_must_add_one_card_to_the_row():
    g = load()
    s = position(g, ["6S 8H TC QD AS 7C"], row="9D")
    assert melds(s) == [] and "take the row" not in " ".join(legal(s))
    assert sorted(adds(s)) == sorted(f"add {c} to the row" for c in ["6♠", "8♥", "10♣", "Q♦", "A♠", "7♣"])
    assert len(legal(s)) == 6
    act(s, "add Q♦ to the row")
    assert zone_cards(s, "row") == ["9D", "QD"]
    assert "QD" not in hand(s, 0)
    assert s.current_player() == 1 and legal(s) == ["draw"], "adding to the row ends the turn"


def test_a_meld_of_a_set_and_of_a_run_from_the_hand():
    g = load()
    s = position(g, ["7S 7H 7C JD QD KD"], row="9C")
    assert sorted(melds(s)) == sorted(["meld 7♣ 7♥ 7♠", "meld J♦ Q♦ K♦"])
    act(s, "meld J♦ Q♦ K♦")
    assert meld_cards(s, 0) == ["JD", "QD", "KD"]
    assert s.slot_owner[0] == 0
    assert melded(s)[0] == 30


def test_a_set_of_four_is_a_meld_and_sets_need_three():
    g = load()
    s = position(g, ["7S 7H 7C 7D 9S"], row="9C")
    assert "meld 7♣ 7♦ 7♥ 7♠" in melds(s)
    s = position(g, ["7S 7H 9S 10S AD"], row="9C")
    assert melds(s) == []


def test_runs_are_of_one_suit_and_have_no_gaps_ace_high():
    g = load()
    s = position(g, ["9S TS JH 6D 8D"], row="QC")
    assert melds(s) == []                  # 9♠ 10♠ J♥ is not a run
    s = position(g, ["9S TS QS 6D 8D"], row="7C")
    assert melds(s) == []                  # a gap
    s = position(g, ["AS 6S 7S 9D 8D"], row="7C")
    assert melds(s) == [], "the ace is high only: A-6-7 is no run in a 36-card deck"
    s = position(g, ["QS KS AS 9D"], row="7C")
    assert melds(s) == ["meld Q♠ K♠ A♠"]


def test_melding_is_never_forced():
    g = load()
    s = position(g, ["7S 7H 7C 9D KH"], row="6C")
    assert melds(s) and len(adds(s)) == 5


def test_after_melding_one_card_goes_to_the_row_and_ends_the_turn():
    g = load()
    s = position(g, ["JD QD KD 6S 9H"], row="8C")
    act(s, "meld J♦ Q♦ K♦")
    for p in (1, 2):                        # nobody can build
        assert s.current_player() == p and legal(s) == ["pass"]
        act(s, "pass")
    assert s.current_player() == 0 and s.step == "main"
    assert sorted(adds(s)) == ["add 6♠ to the row", "add 9♥ to the row"]
    act(s, "add 9♥ to the row")
    assert zone_cards(s, "row") == ["8C", "9H"] and hand(s, 0) == ["6S"]
    assert s.current_player() == 1 and s.step == "start"


def test_several_melds_in_one_turn():
    g = load()
    s = position(g, ["JD QD KD 7S 7H 7C 9H"], row="8C")
    act(s, "meld J♦ Q♦ K♦")
    act(s, "pass")
    act(s, "pass")
    assert melds(s) == ["meld 7♣ 7♥ 7♠"]
    act(s, "meld 7♣ 7♥ 7♠")
    act(s, "pass")
    act(s, "pass")
    assert adds(s) == ["add 9♥ to the row"]
    assert melded(s)[0] == 30 + 21


# ------------------------------------------------------------------ the open row
def test_the_row_is_taken_whole_when_one_of_its_cards_makes_a_meld():
    g = load()
    s = position(g, ["TH JH 6S 7C 8S"], row="AD QH 9C")
    assert "take_row" in legal(s)
    act(s, "take_row")
    assert zone_cards(s, "row") == []
    assert sorted(zone_cards(s, ("taken", 0))) == ["9C", "AD", "QH"]
    assert melds(s) == ["meld 10♥ J♥ Q♥"]


def test_the_row_cannot_be_taken_without_a_meld_using_it():
    g = load()
    s = position(g, ["7S 7H 7C 9D KH"], row="AD QH")
    assert "take_row" not in legal(s)
    assert melds(s) == ["meld 7♣ 7♥ 7♠"]


def test_after_taking_the_row_a_row_card_must_be_melded_before_the_turn_ends():
    g = load()
    s = position(g, ["TH JH 7S 7H 7C"], row="AD QH 9C")
    act(s, "take_row")
    assert get_var(s, ("owes", 0)) is True
    assert adds(s) == [], "no card goes to the row before a row card is melded"
    assert melds(s) == ["meld 10♥ J♥ Q♥"], "a meld without row cards does not settle the debt"
    act(s, "meld 10♥ J♥ Q♥")
    assert get_var(s, ("owes", 0)) is False
    act(s, "pass")
    act(s, "pass")
    assert "meld 7♣ 7♥ 7♠" in melds(s)
    assert len(adds(s)) == 5                 # 7♠ 7♥ 7♣ and the two row cards not melded
    act(s, "add A♦ to the row")
    assert zone_cards(s, "row") == ["AD"]
    assert zone_cards(s, ("taken", 0)) == []
    assert sorted(hand(s, 0)) == sorted(["7S", "7H", "7C", "9C"]), "the row cards left over join the hand"


# ------------------------------------------------------------------ building on the ladder
def test_after_a_meld_the_others_are_asked_in_seat_order_then_play_returns():
    g = load(players=4)
    s = position(g, ["6H", "6S", "JD QD KD 9H", "6C"], current=2, row="8C")
    act(s, "meld J♦ Q♦ K♦")
    seen = []
    while s.current_player() != 2:
        seen.append(s.current_player())
        assert s.step == "build" and legal(s) == ["pass"]
        act(s, "pass")
        assert len(seen) < 5
    assert seen == [3, 0, 1], "from the melder's left, round the table"
    assert s.step == "main" and adds(s) == ["add 9♥ to the row"]


def test_seed_example_nine_of_hearts_extends_ten_jack_queen():
    g = load()
    s = position(g, ["TH JH QH 6S 7C", "9H 6D 8S AC KD"])
    act(s, "meld 10♥ J♥ Q♥")
    assert s.current_player() == 1
    assert legal(s) == ["build 9♥ on meld 1 (low end)", "pass"]
    act(s, "build 9♥ on meld 1 (low end)")
    assert meld_cards(s, 0) == ["9H", "10H", "JH", "QH"]
    assert s.current_player() == 1 and legal(s) == ["pass"], "nothing more to build"
    act(s, "pass")
    assert s.current_player() == 2
    act(s, "pass")
    assert s.current_player() == 0 and s.step == "main"


def test_seed_example_nine_and_eight_of_hearts_both_extend_it():
    g = load()
    s = position(g, ["TH JH QH 6S 7C", "9H 8H 6D AC KD"])
    act(s, "meld 10♥ J♥ Q♥")
    assert legal(s) == ["build 9♥ on meld 1 (low end)", "pass"], "the 8♥ waits for the 9♥"
    act(s, "build 9♥ on meld 1 (low end)")
    assert legal(s) == ["build 8♥ on meld 1 (low end)", "pass"]
    act(s, "build 8♥ on meld 1 (low end)")
    assert meld_cards(s, 0) == ["8H", "9H", "10H", "JH", "QH"]
    assert hand(s, 1) == ["6D", "AC", "KD"]
    assert melded(s)[1] == 17


def test_seed_example_an_ace_and_an_eight_alone_do_not_extend_it():
    g = load()
    s = position(g, ["TH JH QH 6S 7C", "AH 8H 6D AC KD"])
    act(s, "meld 10♥ J♥ Q♥")
    assert s.current_player() == 1 and legal(s) == ["pass"]


def test_building_at_the_high_end():
    g = load()
    s = position(g, ["TH JH QH 6S 7C", "6D 8S AC KH AH"])
    act(s, "meld 10♥ J♥ Q♥")
    assert legal(s) == ["build K♥ on meld 1", "pass"]
    act(s, "build K♥ on meld 1")
    assert legal(s) == ["build A♥ on meld 1", "pass"]
    act(s, "build A♥ on meld 1")
    assert meld_cards(s, 0) == ["10H", "JH", "QH", "KH", "AH"]


def test_the_fourth_card_of_a_set():
    g = load()
    s = position(g, ["TS TH TC 6S 7C", "6D 8S AC KD 7H", "TD 9C 7D 8D KC"])
    act(s, "meld 10♣ 10♥ 10♠")
    assert legal(s) == ["pass"], "P1 has no ten"
    act(s, "pass")
    assert s.current_player() == 2
    assert legal(s) == ["build 10♦ on meld 1", "pass"]
    act(s, "build 10♦ on meld 1")
    assert sorted(meld_cards(s, 0)) == ["10C", "10D", "10H", "10S"]
    assert legal(s) == ["pass"], "a set has at most four cards"
    act(s, "pass")
    assert s.current_player() == 0


def test_built_cards_count_for_the_builder():
    g = load()
    s = position(g, ["TH JH QH 6S 7C", "9H 8H 6D AC KD"])
    act(s, "meld 10♥ J♥ Q♥")
    act(s, "build 9♥ on meld 1 (low end)")
    act(s, "build 8♥ on meld 1 (low end)")
    act(s, "pass")
    act(s, "pass")
    assert melded(s) == [30, 17, 0]
    c9 = g.cards.parse("9H")[0]
    assert s.by[c9] == 1


def test_building_is_only_on_the_meld_just_made():
    g = load()
    s = position(g, ["7S 7H 7C 6S 9C", "9H 7D 6D AC KD"])
    table_meld(s, "10H JH QH", 2)                  # an older meld of P2's
    act(s, "meld 7♣ 7♥ 7♠")
    assert legal(s) == ["build 7♦ on meld 2", "pass"], "9♥ would fit the old meld, but only the new one is open"


def test_the_melder_does_not_build_on_their_own_meld_out_of_turn():
    g = load()
    s = position(g, ["TH JH QH 9H 7C"])
    act(s, "meld 10♥ J♥ Q♥")
    assert s.current_player() == 1
    act(s, "pass")
    act(s, "pass")
    assert s.current_player() == 0 and not any(t.startswith("build") for t in legal(s))


def test_a_builder_emptying_their_hand_ends_the_deal():
    g = load()
    s = position(g, ["TH JH QH 6S 7C", "9H"])
    act(s, "meld 10♥ J♥ Q♥")
    act(s, "build 9♥ on meld 1 (low end)")
    assert s.deal_number == 2 or s.is_terminal()
    # P0: 30 melded, 6 + 7 in hand; P1: 9 melded, nothing in hand
    assert scores(s)[:2] == [30 - 13, 9]


# ------------------------------------------------------------------ the end of the deal and scoring
def test_melding_the_last_cards_ends_the_deal_at_once():
    g = load()
    s = position(g, ["JD QD KD", "9D 9H AC", "KS QS 6C"])
    act(s, "meld J♦ Q♦ K♦")
    assert s.deal_number == 2 or s.is_terminal()
    assert scores(s) == [30, -(9 + 9 + 11), -(10 + 10 + 6)], "melded minus hand, negative allowed"


def test_the_last_card_to_the_row_ends_the_deal():
    g = load()
    s = position(g, ["JD QD KD 6S", "9D 9H AC", "KS QS 6C"])
    act(s, "meld J♦ Q♦ K♦")
    act(s, "pass")
    act(s, "pass")
    act(s, "add 6♠ to the row")
    assert s.deal_number == 2 or s.is_terminal()
    assert scores(s) == [30, -29, -26]


def test_scoring_counts_ace_11_pictures_and_tens_10_others_face():
    g = load()
    s = position(g, ["JD QD KD", "AS KC QC JC", "TD 9C 8H 7S 6C"],
                 vars={("melded", 1): 14, ("melded", 2): 50})
    act(s, "meld J♦ Q♦ K♦")
    assert scores(s) == [30, 14 - 41, 50 - 40]


def test_cards_still_held_from_the_row_count_against_the_player():
    g = load()
    s = position(g, ["JD QD KD", "AS 9C"], vars={("melded", 1): 0})
    s.zones[g.layout.zone_base["hand"] + 1].remove(g.cards.parse("9C")[0])
    s.zones[g.layout.zone_base["taken"] + 1].append(g.cards.parse("9C")[0])
    s.loc[g.cards.parse("9C")[0]] = g.layout.zone_base["taken"] + 1
    s._legal = None
    act(s, "meld J♦ Q♦ K♦")
    assert scores(s)[1] == -(11 + 9)


def test_scores_add_up_over_deals_and_the_next_deal_starts_fresh():
    g = load()
    s = position(g, ["JD QD KD", "9D", "6C"], vars={("score", 0): 40, ("score", 1): -5})
    act(s, "meld J♦ Q♦ K♦")
    assert not s.is_terminal() and s.deal_number == 2
    assert scores(s) == [70, -14, -6]
    assert melded(s) == [0, 0, 0]
    assert [len(hand(s, p)) for p in range(3)] == [5, 5, 5] and len(zone_cards(s, "row")) == 1
    assert all(k is None for k in s.slot_kind), "the table is cleared for the new deal"


def test_the_match_ends_at_the_target_default_150():
    g = load()
    s = position(g, ["JD QD KD", "9D", "6C"], vars={("score", 0): 120})
    act(s, "meld J♦ Q♦ K♦")
    assert s.is_terminal()
    assert s.scores() == [150, -9, -6]
    assert s.returns() == [1.0, 0.0, 0.0]


def test_the_match_goes_on_below_the_target():
    g = load()
    s = position(g, ["JD QD KD", "9D", "6C"], vars={("score", 0): 100})
    act(s, "meld J♦ Q♦ K♦")
    assert not s.is_terminal() and scores(s)[0] == 130


def test_the_target_option():
    g = load(target=25)
    s = position(g, ["JD QD KD", "9D", "6C"])
    act(s, "meld J♦ Q♦ K♦")
    assert s.is_terminal()
    assert s.scores() == [30, -9, -6]
    assert s.returns() == [1.0, 0.0, 0.0]
    g = load(target=31)
    s = position(g, ["JD QD KD", "9D", "6C"])
    act(s, "meld J♦ Q♦ K♦")
    assert not s.is_terminal()


# ------------------------------------------------------------------ the stock runs out
def test_when_the_stock_is_empty_the_turn_starts_without_a_draw():
    g = load()
    s = position(g, ["6S 8H"], step="start")
    stock = g.layout.zone_base["stock"]
    for c in list(s.zones[stock]):
        s.move(c, g.layout.zone_base["row"], None)
    s._legal = None
    assert legal(s) == ["go_on"]
    act(s, "go_on")
    assert s.step == "main" and len(hand(s, 0)) == 2


# ------------------------------------------------------------------ seeded random playouts
PLAYOUTS = [           # players, options, seeds
    (3, {}, [1, 2]),
    (4, {}, [5]),
    (4, {"deck": "standard52", "target": 60}, [1, 2, 3]),
]
MAX_LEGAL: dict[str, int] = {}


@pytest.mark.parametrize("players,options,seeds", PLAYOUTS,
                         ids=[f"{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default")
                              for p, o, _ in PLAYOUTS])
def test_playouts(players, options, seeds):
    import time
    from helpers import random_playout
    g = load(players=players, **options)
    most, started = 0, time.time()
    for seed in seeds:
        s, m, moves = random_playout(g, seed)
        most = max(most, m)
        assert s.is_terminal()
        target = g.options["target"]
        assert any(x >= target for x in s.scores()), "the match ends when someone reaches the target"
        assert sum(s.returns()) == pytest.approx(1.0)
    key = f"lesenka {players}p {options}"
    MAX_LEGAL[key] = most
    print(f"\n{key}: at most {most} legal actions, {time.time() - started:.1f}s")
    assert most <= 300


def test_same_seed_same_game():
    from helpers import random_playout, snapshot
    g = load()
    a, _, n = random_playout(g, 2, every=50)
    b, _, m = random_playout(g, 2, every=50)
    assert n == m and a.history == b.history and snapshot(a) == snapshot(b)
    c, _, _ = random_playout(g, 3, every=50)
    assert c.history != a.history
