"""Gin Rummy (the common rules): the deal and the upcard offer, drawing and discarding, the knock
and its discard, the knocker's melds, the defender's layoffs and melds, the points of a knock, gin
and an undercut, the wall, the limits on a hand, the game to 100 and Oklahoma.

Players are counted from 0; P2 (1) deals, so P1 (0) is offered the upcard first.
"""
from __future__ import annotations

import functools
import random

import koloda

from helpers import act, conservation, get_var, hand, legal, setup, table_meld, var_index, zone_cards

KNOCKER = "AC 2C 3C 4H 4S 4D 9H 9S 9C KD"      # three melds and a king: 10 of deadwood
DEFENDER = "4C 5C 6C 7C 8D 8S 8H JH QH 2H"


@functools.lru_cache(maxsize=None)
def load(options=()):
    return koloda.load("gin-rummy", options=dict(options), players=2)


def gin(**options):
    return load(tuple(sorted(options.items())))


def dealt(p1=KNOCKER, p2=DEFENDER, upcard="KS", stock_top="10D", **options):
    g = gin(**options)
    given = (p1 + " " + p2 + " " + upcard + " " + stock_top).split()
    rest = [n for n in g.cards.names if n not in given]
    hands = {"P1 hand": p1.split(), "P2 hand": p2.split(), "pile": [upcard], "stock": [stock_top] + rest}
    s = g.new_initial_state(1, dealer=1, hands=hands)
    assert s.current_player() == 0
    return s


def scores(s):
    return [get_var(s, ("score", p)) for p in range(2)]


def knocked(s):
    """P1 passes the upcard, P2 too; P1 draws the 10D and knocks, discarding the KD."""
    act(s, "pass")
    act(s, "pass")
    act(s, "draw")
    act(s, "knock")
    act(s, "discard KD")
    return s


# ------------------------------------------------------------------ the deal
def test_ten_cards_each_an_upcard_and_the_stock():
    s = gin().new_initial_state(4)
    assert len(hand(s, 0)) == len(hand(s, 1)) == 10
    assert len(zone_cards(s, "pile")) == 1 and len(zone_cards(s, "stock")) == 31
    assert get_var(s, "limit") == 10
    conservation(s)


def test_the_upcard_is_offered_to_the_non_dealer_then_the_dealer():
    s = dealt()
    assert sorted(legal(s, plain=True)) == ["pass", "take KS"]
    act(s, "pass")
    assert s.current_player() == 1 and sorted(legal(s, plain=True)) == ["pass", "take KS"]
    act(s, "pass")
    assert s.current_player() == 0 and legal(s) == ["draw"]      # both passed: the non-dealer draws
    act(s, "draw")
    assert "10D" in hand(s, 0) and len(hand(s, 0)) == 11


def test_a_turn_is_a_draw_or_the_discard_then_a_discard():
    s = dealt()
    act(s, "take KS")
    assert sorted(legal(s, plain=True)) == sorted([f"discard {c}" for c in KNOCKER.split() + ["KS"]] + ["knock"])
    act(s, "discard KD")
    assert s.current_player() == 1 and sorted(legal(s, plain=True)) == ["draw", "take KD"]
    act(s, "draw")
    act(s, "discard 2H")
    assert zone_cards(s, "pile")[-1] == "2H" and s.current_player() == 0


def test_no_throw_back_keeps_the_card_taken():
    s = dealt()
    act(s, "take KS")
    assert "discard KS" in legal(s, plain=True)
    s = dealt(no_throw_back=True)
    act(s, "take KS")
    assert "discard KS" not in legal(s, plain=True) and "discard KD" in legal(s, plain=True)


# ------------------------------------------------------------------ the knock
def test_knock_is_offered_when_a_discard_leaves_ten_or_less():
    s = dealt()
    act(s, "pass")
    act(s, "pass")
    act(s, "draw")                                    # KD and 10D unmatched: discard one, 10 left
    assert "knock" in legal(s)
    s = dealt(stock_top="JD")
    act(s, "take KS")                                 # KD and KS: 10 left
    assert "knock" in legal(s)
    s = dealt(p1="AC 2C 3C 4H 4S 4D 9H 9S QS KD")       # 9H 9S QS KD unmatched: too much
    act(s, "take KS")
    assert "knock" not in legal(s)


def test_the_knocker_discards_keeping_ten_or_less_and_lays_the_melds():
    s = dealt()
    act(s, "pass")
    act(s, "pass")
    act(s, "draw")
    act(s, "knock")
    assert sorted(legal(s, plain=True)) == ["discard 10D", "discard KD"]   # a meld card would break a meld
    act(s, "discard KD")
    melds = sorted(sorted(m.split()[1:]) for m in legal(s, plain=True))
    assert melds == [["2C", "3C", "AC"], ["4D", "4H", "4S"], ["9C", "9H", "9S"]]
    assert "show deadwood" not in legal(s)            # 55 points still in hand
    for _ in range(3):
        act(s, legal(s)[0])
    assert hand(s, 0) == ["10D"] and legal(s) == ["show deadwood"]


def test_a_meld_that_leaves_too_much_is_not_offered():
    # 6-7-8 of spades and 8-9-10-J of diamonds leave 10; the eights, or 9-10-J alone, leave more
    s = dealt(p1="6S 7S 8S 8H 8D 9D 10D JD AD AH", p2="4C 5C 6C 7C 9C 9S 9H JH QH 2H", stock_top="KC")
    act(s, "pass")
    act(s, "pass")
    act(s, "draw")
    act(s, "knock")
    assert legal(s, plain=True) == ["discard KC"]
    act(s, "discard KC")
    melds = sorted(sorted(m.split()[1:]) for m in legal(s, plain=True))
    assert melds == [["10D", "8D", "9D", "JD"], ["6S", "7S", "8S"]]


def test_the_defender_lays_off_then_melds_and_the_knocker_wins_the_difference():
    s = knocked(dealt())
    while "show deadwood" not in legal(s):
        act(s, legal(s)[0])
    act(s, "show deadwood")
    assert s.current_player() == 1
    # the 4C goes on the run or on the fours
    assert sorted(m.split(" on ")[0] for m in legal(s, plain=True)) == ["done laying off", "lay off 4C", "lay off 4C"]
    for move in [m for m in legal(s) if m.startswith("lay off")]:
        after = s.clone()
        act(after, move)
        if any(m.startswith("lay off 5") for m in legal(after)):      # the run grows card by card
            s = after
            break
    else:
        raise AssertionError("the 4C on the run lets the 5C follow")
    act(s, "done laying off")
    assert "done" in legal(s) and not any(m.startswith("lay off") for m in legal(s))
    act(s, next(m for m in legal(s, plain=True) if sorted(m.split()[2:]) == ["5C", "6C", "7C"]))
    act(s, next(m for m in legal(s, plain=True) if sorted(m.split()[2:]) == ["8D", "8H", "8S"]))
    assert sorted(hand(s, 1)) == ["2H", "JH", "QH"]
    act(s, "done")
    assert scores(s) == [22 - 10, 0]                   # 22 of deadwood against 10
    assert get_var(s, ("boxes", 0)) == 1 and s.deal_number == 2


def test_with_short_runs_the_knock_counts_only_runs_that_can_go_down():
    """`longest_run=3`: 10-J-Q-K of spades goes down as J-Q-K and leaves the 10 (OpenSpiel's runs
    of at most five, and the table's three or four): the knock counts no run it cannot put down,
    else the knocker would have no meld to lay and no move."""
    p1, p2 = "10S JS QS KS 2H 2D 2C AD AH 3D", "4C 5C 6C 7C 8D 8S 8H JH QH 5H"

    def drawn(top: str, **options):
        s = dealt(p1=p1, p2=p2, upcard="9H", stock_top=top, **options)
        for move in ("pass", "pass", "draw"):
            act(s, move)
        return s
    assert "knock" in legal(drawn("9C"))                          # discard 9C: 5 of deadwood
    assert "knock" not in legal(drawn("9C", longest_run=3))       # 15 with J-Q-K and the 10
    s = drawn("2S", longest_run=3)                                # 2S: the 10 may go instead
    act(s, "knock")
    act(s, "discard 10S")
    for _ in range(5):
        moves = legal(s, plain=True)
        assert all(len(m.split()) <= 5 for m in moves), moves     # no meld of more than four
        if "show deadwood" in moves:
            break
        act(s, moves[0])
    assert "show deadwood" in legal(s)


def defending(p1: str, p2: str, **options):
    """P1 has knocked and shown `p1`; P2 holds `p2` and is done laying off."""
    s = dealt(**options)
    zones = {("hand", 0): p1, ("hand", 1): p2}
    setup(s, zones=zones, vars={"knocker": 0, "offer": 3, "laid_off": True}, current=1, step="defending")
    return s


def test_gin_scores_the_bonus_and_allows_no_layoffs():
    s = defending("", "5D 3S 10H")
    table_meld(s, "2S 3S 4S", 0)                      # the 5D or 3S could not go on gin anyway; the 5S could
    setup(s, zones={("hand", 1): "5S 5D 10H"}, vars={"laid_off": False}, step="start")
    assert legal(s) == ["done"]                       # no layoffs on gin, and no meld in hand
    act(s, "done")
    assert scores(s) == [20 + 25, 0]


def test_an_undercut_gives_the_defender_the_difference_and_the_bonus():
    s = defending("10D", "5D 3S")
    act(s, "done")
    assert scores(s) == [0, 10 - 8 + 25]


def test_an_equal_count_is_an_undercut_unless_the_table_says_otherwise():
    s = defending("10D", "10S")
    act(s, "done")
    assert scores(s) == [0, 25]
    s = defending("10D", "10S", tie_undercuts=False)
    act(s, "done")
    assert scores(s) == [0, 0]


# ------------------------------------------------------------------ the end of a hand without a knock
def test_at_the_wall_the_discard_may_be_taken_only_to_knock():
    s = dealt()
    stock = zone_cards(s, "stock")
    setup(s, zones={"stock": stock[-2:], "pile": zone_cards(s, "pile") + ["QD"]}, vars={"offer": 3},
          current=0, step="start", rest=("hand", 1))
    assert sorted(legal(s, plain=True)) == ["end the hand", "take QD and knock"]
    act(s, "take QD and knock")
    assert sorted(legal(s, plain=True)) == ["discard KD", "discard QD"]
    s = dealt(p1="AC 2C 3C 4H 4S 4D 9H 9S QS KD")
    setup(s, zones={"stock": zone_cards(s, "stock")[-2:], "pile": zone_cards(s, "pile") + ["QD"]},
          vars={"offer": 3}, current=0, step="start", rest=("hand", 1))
    assert legal(s, plain=True) == ["end the hand"]
    act(s, "end the hand")
    assert s.deal_number == 2 and scores(s) == [0, 0]


def test_taking_and_throwing_back_the_same_card_twice_voids_the_hand():
    s = dealt()
    act(s, "take KS")
    act(s, "discard KS")
    act(s, "take KS")
    act(s, "discard KS")
    assert s.deal_number == 2 and scores(s) == [0, 0]


def test_the_fiftieth_take_of_the_discard_voids_the_hand():
    s = dealt()
    setup(s, vars={"offer": 3, "takes": 49}, current=0, step="start")
    act(s, "take KS")
    assert s.deal_number == 2 and scores(s) == [0, 0]


# ------------------------------------------------------------------ the game
def test_the_game_ends_at_100_with_the_game_and_box_bonuses():
    s = defending("10D", "JH QH")
    s.vars[var_index(s.game, ("score", 0))] = 95
    s.vars[var_index(s.game, ("boxes", 0))] = 3
    s.vars[var_index(s.game, ("boxes", 1))] = 2
    act(s, "done")
    assert s.is_terminal() and scores(s) == [105, 0]
    assert [float(x) for x in s.scores()] == [105 + 100 + 4 * 25, 2 * 25] and s.returns() == [1.0, 0.0]


def test_single_hand_scores_the_difference():
    s = defending("10D", "JH QH", single_hand=True)
    act(s, "done")
    assert s.is_terminal() and [float(x) for x in s.scores()] == [10.0, -10.0]


def test_oklahoma_knocks_at_the_upcard_value():
    assert get_var(dealt(upcard="5S", oklahoma=True), "limit") == 5
    assert get_var(dealt(upcard="AS", oklahoma=True), "limit") == 0     # an ace: gin only
    s = dealt(upcard="5S", oklahoma=True)
    act(s, "pass")
    act(s, "pass")
    act(s, "draw")                                     # 10 of deadwood is too much
    assert "knock" not in legal(s)


def test_random_hands_conserve_cards():
    g = gin(single_hand=True)
    for seed in range(3):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            conservation(s)


def test_table_meld_helper_sees_the_knockers_melds():
    s = defending("10D", "4C 5C JH")
    table_meld(s, "AC 2C 3C", 0)
    setup(s, vars={"laid_off": False}, step="defending")
    assert [m.split(" on ")[0] for m in legal(s, plain=True) if m.startswith("lay off")] == ["lay off 4C"]
