"""Skat (the International Skat Order): the 3-skat-4-3 deal, the auction (middlehand to forehand, then
rearhand), the skat or a hand game, the trumps of a suit game, a grand and a null, following suit,
the game value with matadors, schneider, schwarz and overbidding, list scoring, and the options that
play OpenSpiel's simplified game (first come, card points).

Players are counted from 0. The dealer is P3 (2), so P1 (0) is forehand, P2 (1) middlehand and P3
rearhand.
"""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, setup, zone_cards

# P1 holds a clubs game with the two top jacks ("with 2"); the skat is 9D QD (3 points).
HANDS = {"P1 hand": "JC JS AC 10C KC QC 9C AS 10S 7H", "P2 hand": "JH JD AH 10H KH QH AD 10D KD 8S",
         "P3 hand": "7C 8C 7S 9S QS KS 8H 9H 7D 8D", "skat": "9D QD"}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


@functools.lru_cache(maxsize=None)
def load(options):
    return koloda.load("skat", options=dict(options), players=3)


def dealt(hands=HANDS, **options):
    s = load(tuple(sorted(options.items()))).new_initial_state(5, dealer=2,
                                                                hands={k: v.split() for k, v in hands.items()})
    assert s.dealer == 2
    return s


def card_points(names) -> int:
    return sum(POINTS.get(n[:-1], 0) for n in names)


def scores(s) -> list[int]:
    return [get_var(s, ("points", p)) for p in range(3)]


def play_out(s, limit: int = 40) -> None:
    """Play the first legal card until the match (of one deal) is over."""
    for _ in range(limit):
        if s.is_terminal():
            return
        s.apply_action(s.legal_actions()[0])
    raise AssertionError("the deal did not end")


def to_declarer(s, bid: str = "bid 18") -> None:
    """Middlehand bids, forehand holds, middlehand and rearhand pass: P1 declares at the bid."""
    act(s, bid)
    act(s, "hold")
    act(s, "pass")
    act(s, "pass")


def test_the_deal_gives_ten_cards_each_and_two_to_the_skat():
    s = load(()).new_initial_state(11)
    assert [len(hand(s, p)) for p in range(3)] == [10, 10, 10] and len(zone_cards(s, "skat")) == 2
    # middlehand opens the auction: a bid or a pass, nothing to hold yet
    assert s.current_player() == (s.dealer + 2) % 3
    assert legal(s, plain=True)[:3] == ["bid 18", "bid 20", "bid 22"] and "hold" not in legal(s, plain=True)


def test_forehand_holds_or_passes_and_the_bidder_goes_higher():
    s = dealt()
    assert s.current_player() == 1
    act(s, "bid 20")
    assert s.current_player() == 0 and sorted(legal(s, plain=True)) == ["hold", "pass"]
    act(s, "hold")
    assert s.current_player() == 1 and "bid 20" not in legal(s, plain=True) and "bid 22" in legal(s, plain=True)
    act(s, "pass")
    # middlehand is out: rearhand bids to forehand, above 20
    assert s.current_player() == 2 and legal(s, plain=True)[0] == "bid 22"
    act(s, "bid 23")
    act(s, "pass")                   # forehand gives up: rearhand plays at 23
    assert get_var(s, "declarer") == 2 and get_var(s, "high") == 23
    assert s.current_player() == 2 and sorted(legal(s, plain=True)) == ["pick up", "play hand"]


def test_forehand_passing_leaves_middlehand_against_rearhand():
    s = dealt()
    act(s, "bid 18")
    act(s, "pass")                   # forehand out
    assert s.current_player() == 2
    act(s, "bid 20")
    assert s.current_player() == 1 and sorted(legal(s, plain=True)) == ["hold", "pass"]
    act(s, "hold")
    act(s, "pass")                   # rearhand out: middlehand plays at 20
    assert get_var(s, "declarer") == 1 and get_var(s, "high") == 20


def test_forehand_alone_may_bid_18_after_two_passes_or_throw_the_deal_in():
    s = dealt()
    act(s, "pass")
    act(s, "pass")
    assert s.current_player() == 0 and legal(s, plain=True)[0] == "bid 18" and "hold" not in legal(s, plain=True)
    act(s, "bid 18")
    assert get_var(s, "declarer") == 0
    s = dealt(deals=1)
    for _ in range(3):
        act(s, "pass")
    assert s.is_terminal() and scores(s) == [0, 0, 0]     # passed in: no game


def test_picking_up_the_skat_and_laying_two_cards_away_counts_them_for_the_declarer():
    s = dealt()
    to_declarer(s)
    act(s, "pick up")
    assert len(hand(s, 0)) == 12 and zone_cards(s, "skat") == []
    assert all(t.startswith("lay away") for t in legal(s, plain=True)) and len(legal(s)) == 12
    act(s, "lay away 9D")
    assert s.current_player() == 0 and len(legal(s)) == 11
    act(s, "lay away QD")
    assert sorted(zone_cards(s, "skat")) == ["9D", "QD"]
    assert sorted(legal(s, plain=True)) == sorted(["declare clubs", "declare diamonds", "declare hearts",
                                                   "declare spades", "declare grand", "declare null"])


def test_matadors_with_and_against_count_the_skat():
    s = dealt()
    to_declarer(s)
    act(s, "play hand")
    act(s, "declare clubs")
    assert get_var(s, "matadors") == 2 and get_var(s, "hand_game")      # with J♣ J♠, not J♥
    s = dealt()
    to_declarer(s)
    act(s, "play hand")
    act(s, "declare grand")
    assert get_var(s, "matadors") == 2
    # rearhand holds no jack: "against 4" in a grand, and in diamonds against the four jacks only
    # (the skat's 9♦ and Q♦ are the declarer's, but the A♦ is not)
    s = dealt()
    act(s, "pass")
    act(s, "bid 18")
    act(s, "pass")
    assert get_var(s, "declarer") == 2
    act(s, "play hand")
    act(s, "declare grand")
    assert get_var(s, "matadors") == 4
    s = dealt()
    act(s, "pass")
    act(s, "bid 18")
    act(s, "pass")
    act(s, "play hand")
    act(s, "declare diamonds")
    # J♣ J♠ J♥ J♦ A♦ 10♦ K♦ are the others', Q♦ lies in the skat: "against 7"
    assert get_var(s, "matadors") == 7


def declared(game: str, **options):
    s = dealt(**options)
    to_declarer(s)
    act(s, "play hand")
    act(s, f"declare {game}")
    if game != "null":
        assert sorted(legal(s, plain=True)) == ["no announcement", "schneider", "schwarz"]
        act(s, "no announcement")
    assert s.current_player() == 0        # forehand leads
    return s


def test_a_jack_led_in_a_grand_asks_for_jacks_and_a_jack_does_not_follow_its_suit():
    s = declared("grand")
    act(s, "play JC")
    assert sorted(legal(s, plain=True)) == ["play JD", "play JH"]
    act(s, "play JH")
    # rearhand holds no jack: anything
    assert len(legal(s)) == 10
    act(s, "play 7C")
    assert get_var(s, ("tricks", 0)) == 1 and s.current_player() == 0
    act(s, "play AS")
    assert sorted(legal(s, plain=True)) == ["play 8S"]          # J♦ is no spade
    act(s, "play 8S")
    act(s, "play KS")
    assert s.current_player() == 0
    act(s, "play 10S")
    assert sorted(legal(s, plain=True)) == sorted(["play AD", "play AH", "play JD", "play KD", "play KH",
                                                   "play QH", "play 10D", "play 10H"])
    act(s, "play JD")                 # the jack trumps the spade ten
    act(s, "play 9S")
    assert get_var(s, ("tricks", 1)) == 1 and s.current_player() == 1


def test_in_a_suit_game_the_jacks_and_the_suit_are_trumps():
    s = declared("hearts")           # P1 declares hearts, holding one heart
    act(s, "play 7H")
    assert sorted(legal(s, plain=True)) == sorted(["play 10H", "play AH", "play JD", "play JH", "play KH",
                                                   "play QH"])
    act(s, "play AH")
    assert sorted(legal(s, plain=True)) == ["play 8H", "play 9H"]
    act(s, "play 9H")
    assert s.current_player() == 1                                # the ace takes the seven
    act(s, "play 10D")
    assert sorted(legal(s, plain=True)) == ["play 7D", "play 8D"]
    act(s, "play 8D")
    # forehand has no diamond: a jack (a trump) takes the trick
    act(s, "play JS")
    assert get_var(s, ("tricks", 0)) == 1 and s.current_player() == 0


def test_a_null_has_no_trumps_ranks_the_ten_below_the_jack_and_ends_at_the_declarers_first_trick():
    s = declared("null", deals=1)
    act(s, "play 9C")
    assert sorted(legal(s, plain=True)) == sorted(["play 8S", "play AD", "play AH", "play JD", "play JH",
                                                   "play KD", "play KH", "play QH", "play 10D", "play 10H"])   # any
    act(s, "play JH")
    act(s, "play 8C")
    assert get_var(s, ("tricks", 0)) == 1
    # the declarer took a trick: the null hand (35) is lost at once, twice and 50, and 40 to each defender
    assert s.is_terminal() and scores(s) == [-2 * 35 - 50, 40, 40]
    s = declared("null", deals=1)
    act(s, "play 7H")
    assert "play JH" in legal(s, plain=True) and "play 8S" not in legal(s, plain=True)   # a jack is a heart


def test_a_won_suit_game_scores_its_value_and_50_and_a_lost_one_twice_and_50_and_40_each():
    s = declared("clubs", deals=1)
    play_out(s)
    taken = card_points(zone_cards(s, ("won", 0)) + zone_cards(s, "skat"))
    tricks = get_var(s, ("tricks", 0))
    level = 2 + 1 + 1 + (taken >= 90 or taken <= 30) + (tricks in (0, 10))   # with 2, game, hand
    assert s.is_terminal()
    if taken >= 61:
        assert scores(s) == [12 * level + 50, 0, 0]
    else:
        assert scores(s) == [-2 * 12 * level - 50, 40, 40]
    assert taken >= 61         # this hand wins: the test would need another deal otherwise


def test_an_overbid_game_is_lost_at_the_multiple_of_its_base_value_reaching_the_bid():
    s = dealt(deals=1)
    act(s, "bid 100")
    act(s, "hold")
    act(s, "pass")
    act(s, "pass")
    act(s, "play hand")
    act(s, "declare diamonds")       # base 9, with 2, hand: at most 9 × 6 = 54
    act(s, "no announcement")
    play_out(s)
    # lost: 9 × 12 = 108 is the lowest multiple of 9 reaching 100
    assert scores(s) == [-2 * 108 - 50, 40, 40]


def test_without_seeger_fabian_only_the_values_count():
    s = dealt(deals=1, seeger_fabian=False)
    act(s, "bid 100")
    act(s, "hold")
    act(s, "pass")
    act(s, "pass")
    act(s, "play hand")
    act(s, "declare diamonds")
    act(s, "no announcement")
    play_out(s)
    assert scores(s) == [-216, 0, 0]


def test_an_announced_schwarz_counts_four_more_and_is_lost_unless_every_trick_is_taken():
    s = dealt(deals=1)
    to_declarer(s)
    act(s, "play hand")
    act(s, "declare clubs")
    act(s, "schwarz")
    assert get_var(s, "announced") == 2
    play_out(s)
    value = 12 * (2 + 1 + 1 + 1 + 1 + 1 + 1)     # with 2, game, hand, schneider, announced, schwarz, announced
    # 101 points and 7 tricks: the game made, the schwarz missed, so lost at the announced value
    assert get_var(s, ("tricks", 0)) < 10 and card_points(zone_cards(s, ("won", 0)) + zone_cards(s, "skat")) >= 90
    assert scores(s) == [-2 * value - 50, 40, 40]


def test_announcing_is_for_hand_games_only():
    s = dealt()
    to_declarer(s)
    act(s, "pick up")
    act(s, "lay away 9D")
    act(s, "lay away QD")
    act(s, "declare clubs")
    assert s.current_player() == 0 and all(t.startswith("play ") for t in legal(s, plain=True))


def test_first_come_names_the_game_and_takes_the_skat():
    s = dealt(first_come=True, card_points=True, deals=1)
    assert s.current_player() == 0
    assert sorted(legal(s, plain=True)) == sorted(["pass", "play clubs", "play diamonds", "play hearts",
                                                   "play spades", "play grand", "play null"])
    act(s, "pass")
    act(s, "play grand")
    assert get_var(s, "declarer") == 1 and len(hand(s, 1)) == 12
    act(s, "lay away 8S")
    act(s, "lay away 10D")
    assert s.current_player() == 0 and all(t.startswith("play ") for t in legal(s, plain=True))
    play_out(s)
    taken = card_points(zone_cards(s, ("won", 1)) + zone_cards(s, "skat"))
    assert scores(s) == [60 - taken, 2 * (taken - 60), 60 - taken]      # OpenSpiel's returns in 240ths


def test_first_come_with_everyone_passing_scores_nothing():
    s = dealt(first_come=True, card_points=True, deals=1)
    for _ in range(3):
        act(s, "pass")
    assert s.is_terminal() and scores(s) == [0, 0, 0]


def test_a_null_by_card_points_is_60_won_and_minus_30_to_each_defender():
    s = dealt(first_come=True, card_points=True, deals=1)
    act(s, "pass")
    act(s, "pass")
    act(s, "play null")               # rearhand's low cards
    act(s, "lay away KS")
    act(s, "lay away QS")
    play_out(s)
    won = get_var(s, ("tricks", 2)) == 0
    assert scores(s) == ([-30, -30, 60] if won else [30, 30, -60])


def test_a_null_picked_up_is_worth_23():
    s = dealt(deals=1)
    to_declarer(s)
    act(s, "pick up")
    act(s, "lay away 9D")
    act(s, "lay away QD")
    act(s, "declare null")
    act(s, "play 9C")
    act(s, "play JH")
    act(s, "play 8C")
    assert s.is_terminal() and scores(s) == [-2 * 23 - 50, 40, 40]


def test_the_match_lasts_option_deals_deals():
    s = load((("deals", 2),)).new_initial_state(3)
    dealers = []
    for _ in range(200):
        if s.is_terminal():
            break
        if not dealers or dealers[-1][0] != s.deal_number:
            dealers.append((s.deal_number, s.dealer))
        s.apply_action(s.legal_actions()[-1])      # every player passes: each deal is thrown in
    assert s.is_terminal() and s.deal_number == 2
    assert [d for _, d in dealers] == [dealers[0][1], (dealers[0][1] + 1) % 3]    # the deal passes left
