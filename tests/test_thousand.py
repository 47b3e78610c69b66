"""Тысяча (koloda/rules/thousand.yaml): a test for every rule of its notes, in set-up positions.

Players are counted from 0; P3 (2) deals the first deal, so P1 (0) opens at 100 and P2 (1) bids first.
"""
from __future__ import annotations

import functools
import random

import koloda
from click.testing import CliRunner

from koloda.cli.main import main

from helpers import act, conservation, get_var, hand, legal, setup, zone_cards

# P1 holds the spade marriage (40), P2 the heart marriage (100), P3 the diamond (80) and club (60) ones
HANDS = {"P1 hand": "AS 10S KS QS AC 10C 9H", "P2 hand": "AH 10H KH QH 9S JS 9C",
         "P3 hand": "AD 10D KD QD JD KC QC", "talon": "JH JC 9D"}


@functools.lru_cache(maxsize=None)
def thousand(**options):
    return koloda.load("thousand", options)


def dealt(**options):
    return thousand(**options).new_initial_state(0, dealer=2, hands=HANDS)


def scores(s, name="score"):
    return [get_var(s, (name, p)) for p in range(3)]


def raises(s):
    """The bids offered, as raises over the last bid: `bid 115` over 100 is `raise 15`."""
    last = get_var(s, "bid")
    bids = [m for m in legal(s, plain=True) if m.startswith("bid ")]
    return [f"raise {int(m.split()[1]) - last}" for m in bids] if last is not None else []


def test_24_cards_worth_120_seven_each_and_three_in_the_talon():
    s = thousand().new_initial_state(3)
    assert [len(hand(s, p)) for p in range(3)] == [7, 7, 7]
    assert len(zone_cards(s, "talon")) == 3
    assert thousand().num_distinct_actions > 0 and s.game.cards.size == 24      # 9 to ace only
    in_play = [c for p in range(3) for c in hand(s, p)] + zone_cards(s, "talon")
    assert len(set(in_play)) == 24
    worth = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    assert sum(worth[c[:-1]] for c in in_play) == 120
    conservation(s)


def test_the_dealers_left_opens_at_100_and_the_next_player_bids_first():
    s = dealt()
    assert get_var(s, "bid") == 100 and get_var(s, "declarer") == 0
    assert s.current_player() == 1
    assert raises(s) == [f"raise {k}" for k in range(5, 121, 5)] and "pass" in legal(s)   # P2's hearts: 220
    assert "bid 100" not in legal(s)


def test_raises_go_by_tens_with_the_option():
    assert raises(dealt(step=10)) == [f"raise {k}" for k in range(10, 121, 10)]


def test_a_raise_is_not_capped_unless_the_table_caps_it():
    # Neither Russian Wikipedia nor pagat.com limits a raise: "каждая следующая заявка должна быть
    # больше предыдущей" (in fives). A cap of 30 is a house rule, option `max_raise`.
    s = dealt()
    act(s, "bid 220")                                                    # P2 jumps 120 at once
    assert get_var(s, "bid") == 220 and get_var(s, "declarer") == 1
    capped = dealt(max_raise=30)
    assert raises(capped) == [f"raise {k}" for k in range(5, 31, 5)]
    assert "bid 135" not in legal(capped, plain=True)
    assert raises(dealt(max_raise=30, step=10)) == ["raise 10", "raise 20", "raise 30"]
    s = dealt(max_raise=30)
    act(s, "pass")
    act(s, "pass")
    act(s, "give 9D to P2")
    act(s, "give JC to P3")
    assert legal(s, plain=True) == [f"contract {n}" for n in range(105, 131, 5)] + ["keep the contract"]


def test_above_120_only_as_far_as_the_marriages_held():
    s = dealt()
    setup(s, vars={"bid": 115})
    assert raises(s) == [f"raise {k}" for k in range(5, 106, 5)]          # P2's hearts: up to 220
    setup(s, zones={("hand", 1): "AH 10H KH 9H 9S JS 9C"}, vars={"bid": 110})
    assert raises(s) == ["raise 5", "raise 10"]                          # no marriage: 120 at most
    s = dealt()
    setup(s, vars={"bid": 150}, current=0)                               # P1's spades: 160 at most
    assert raises(s) == ["raise 5", "raise 10"]
    s = dealt(marriage_to_bid=False)
    setup(s, zones={("hand", 1): "AH 10H KH 9H 9S JS 9C"}, vars={"bid": 150})
    assert len(raises(s)) == 30                                          # any bid up to 300


def test_who_passes_bids_no_more_and_the_last_left_declares():
    s = dealt()
    act(s, "bid 105")                  # P2
    act(s, "pass")                     # P3 out
    assert s.current_player() == 0     # P1, outbid, speaks again
    act(s, "bid 110")
    assert s.current_player() == 1     # P3 is passed over
    act(s, "pass")
    assert get_var(s, "declarer") == 0 and get_var(s, "bid") == 110
    # the talon is shown to all and taken
    assert sorted(hand(s, 0)) == sorted("AS 10S KS QS AC 10C 9H JH JC 9D".split())
    assert s.current_player() == 0 and legal(s, plain=True)[0].startswith("give")


def test_when_both_others_pass_the_opener_plays_100():
    s = dealt()
    act(s, "pass")
    act(s, "pass")
    assert get_var(s, "declarer") == 0 and get_var(s, "bid") == 100
    assert len(hand(s, 0)) == 10


def test_without_a_forced_opening_a_deal_all_pass_is_dealt_again():
    s = dealt(forced=False)
    assert get_var(s, "bid") is None and s.current_player() == 0
    assert legal(s, plain=True) == ["bid 100", "pass"]
    for _ in range(3):
        act(s, "pass")
    assert s.deal_number == 2 and scores(s) == [0, 0, 0]


def test_the_declarer_gives_one_card_to_each_then_names_the_contract():
    s = dealt()
    act(s, "pass")
    act(s, "pass")
    act(s, "give 9D to P2")
    assert not any(m.endswith("to P2") for m in legal(s, plain=True))   # one card each
    act(s, "give JC to P3")
    assert [len(hand(s, p)) for p in range(3)] == [8, 8, 8]
    assert get_var(s, "contract") == 100
    # P1 holds the spade marriage: 120 + 40 = 160 at most
    assert legal(s, plain=True) == [f"contract {n}" for n in range(105, 161, 5)] + ["keep the contract"]
    act(s, "contract 130")
    act(s, "contract 160")
    assert legal(s, plain=True) == ["keep the contract"]
    act(s, "keep the contract")
    assert get_var(s, "contract") == 160
    assert s.current_player() == 0 and legal(s, plain=True)[0].startswith("play")   # the declarer leads


def in_play(hands, trick="", current=0, trump=None, tricks=(0, 0, 0), points=(0, 0, 0), **options):
    """The play phase, P1 declaring 100, with these hands and trick."""
    s = dealt(**options)
    act(s, "pass")
    act(s, "pass")
    act(s, "give 9D to P2")
    act(s, "give JC to P3")
    act(s, "keep the contract")
    zones = {("hand", p): h for p, h in enumerate(hands)}
    zones["trick"] = trick
    v = {"trump": trump, **{("tricks", p): tricks[p] for p in range(3)}, **{("points", p): points[p] for p in range(3)}}
    return setup(s, zones=zones, vars=v, current=current, rest="won", by={c: i for i, c in enumerate(trick.split())})


def test_follow_suit_else_trump_else_anything():
    s = in_play(["AS", "9S KH AD", "9C"], trick="10S", current=1, trump="diamonds")
    assert legal(s, plain=True) == ["play 9S"]
    s = in_play(["AS", "KH AD 9C", "9H"], trick="10S", current=1, trump="diamonds")
    assert legal(s, plain=True) == ["play AD"]                           # void: must trump
    s = in_play(["AS", "KH 9C", "9H"], trick="10S", current=1, trump="diamonds")
    assert sorted(legal(s, plain=True)) == ["play 9C", "play KH"]       # neither: any card


def test_cards_rank_a_10_k_q_j_9_and_a_trump_takes():
    s = in_play(["KS AH", "10S 9H", "QS JH"])
    for m in ("play KS", "play 10S", "play QS"):
        act(s, m)
    assert get_var(s, ("tricks", 1)) == 1 and get_var(s, ("points", 1)) == 17
    assert s.current_player() == 1                                      # the winner leads
    s = in_play(["AS 9D", "9C 9H", "QS JH"], trump="clubs")
    for m in ("play AS", "play 9C", "play QS"):
        act(s, m)
    assert get_var(s, ("tricks", 1)) == 1                               # the 9 of trumps takes the ace


def test_a_marriage_only_on_lead_after_a_trick_and_it_makes_trumps():
    s = in_play(["KH QH 9S", "AS 10S JS", "JH 9H 10H"])
    assert not any(m.startswith("marriage") for m in legal(s, plain=True))   # no trick taken yet
    s = in_play(["KH QH 9S", "AS 10S JS", "JH 9H 10H"], tricks=(1, 0, 0), points=(10, 0, 0))
    assert sorted(legal(s, plain=True)) == ["marriage KH", "marriage QH", "play 9S", "play KH", "play QH"]
    act(s, "marriage KH")
    assert get_var(s, "trump") == 2                                     # hearts
    assert get_var(s, ("points", 0)) == 110
    assert sorted(legal(s, plain=True)) == ["play 10S", "play AS", "play JS"]   # P2: no hearts, no trump
    s2 = in_play(["KS QS AH", "9S", "9H"], trick="", tricks=(1, 0, 0), trump="hearts")
    act(s2, "marriage QS")
    assert get_var(s2, "trump") == 3 and get_var(s2, ("points", 0)) == 40   # spades now trumps


def last_trick(points, made_by_p1=True, score=(0, 0, 0), contract=100, **extra):
    """P1 declares `contract`; the last trick (10S QS KS, 17 points) goes to P1 or, led by P2, to P2.
    `points` are the points taken before it."""
    if made_by_p1:
        s = in_play(["10S", "QS", "KS"], points=points, **extra.pop("options", {}))
    else:
        s = in_play(["QS", "10S", "KS"], points=points, current=1, **extra.pop("options", {}))
    v = {"contract": contract, **{("score", p): score[p] for p in range(3)}}
    v.update(extra.pop("vars", {}))
    setup(s, vars=v)
    for _ in range(3):
        legal_now = legal(s, plain=True)
        act(s, legal_now[0])
    return s


def test_the_contract_made_scores_it_and_opponents_score_their_points_rounded_to_5():
    s = last_trick((90, 12, 1))                      # P1 90 + 17 = 107 >= 100
    assert scores(s) == [100, 10, 0]
    s = last_trick((80, 13, 4), contract=110)        # P1 97 < 110; 13 -> 15, 4 -> 5
    assert scores(s) == [-110, 15, 5]
    s = last_trick((80, 11, 9), made_by_p1=False)    # P2 takes the last: 11 + 17 = 28 -> 30
    assert scores(s) == [-100, 30, 10]
    assert s.deal_number == 2


def test_the_barrel_at_880_no_points_for_an_opponent_on_it():
    s = last_trick((90, 12, 1), score=(700, 870, 0))
    assert scores(s) == [800, 880, 0] and get_var(s, ("on_barrel", 1)) is True
    s = last_trick((90, 12, 1), score=(0, 880, 0), vars={("on_barrel", 1): True})
    assert scores(s) == [100, 880, 0] and get_var(s, ("barrel_deals", 1)) == 1


def test_three_deals_on_the_barrel_then_a_fall_of_120():
    s = last_trick((90, 12, 1), score=(0, 880, 0), vars={("on_barrel", 1): True, ("barrel_deals", 1): 2})
    assert scores(s) == [100, 760, 0] and get_var(s, ("on_barrel", 1)) is False


def test_off_the_barrel_to_1000_ends_the_match_and_a_lost_contract_costs_it():
    s = last_trick((110, 5, 5), score=(880, 0, 0), contract=120, vars={("on_barrel", 0): True})
    assert scores(s) == [1000, 5, 5] and s.is_terminal()
    assert s.returns()[0] > s.returns()[1]
    s = last_trick((50, 5, 5), score=(880, 0, 0), contract=120, vars={("on_barrel", 0): True})
    assert scores(s) == [760, 5, 5] and get_var(s, ("on_barrel", 0)) is False
    s = last_trick((90, 5, 5), score=(880, 0, 0), contract=100, vars={("on_barrel", 0): True})
    assert scores(s) == [880, 5, 5] and get_var(s, ("barrel_deals", 0)) == 1   # 980 is not 1000


def test_a_newcomer_knocks_the_sitter_off_the_barrel():
    s = last_trick((90, 12, 1), score=(870, 880, 0), vars={("on_barrel", 1): True, ("barrel_deals", 1): 1})
    assert scores(s) == [880, 760, 0]
    assert get_var(s, ("on_barrel", 0)) is True and get_var(s, ("on_barrel", 1)) is False


def test_the_match_ends_at_1000_or_at_minus_1000():
    s = last_trick((90, 12, 1), score=(950, 0, 0))
    assert scores(s)[0] == 1050 and s.is_terminal()
    s = last_trick((10, 60, 33), score=(-900, 0, 0))
    assert scores(s)[0] == -1000 and s.is_terminal()
    s = last_trick((10, 60, 33), score=(-900, 0, 0), options={"lose_at": 0})
    assert not s.is_terminal()


def test_bolts_and_555_only_with_their_options():
    s = last_trick((90, 12, 0), vars={("bolts", 2): 2, ("tricks", 2): 0})
    assert scores(s) == [100, 10, 0]
    s = last_trick((90, 12, 0), options={"bolts": True}, vars={("bolts", 2): 2, ("tricks", 1): 1})
    assert scores(s) == [100, 10, -120] and get_var(s, ("bolts", 2)) == 0
    assert get_var(s, ("bolts", 1)) == 0                               # P2 took a trick
    s = last_trick((90, 12, 0), score=(455, 0, 0), options={"dump_555": True})
    assert scores(s)[0] == 0
    s = last_trick((90, 12, 0), score=(455, 0, 0))
    assert scores(s)[0] == 555


def test_seeded_playouts_end_and_keep_every_card():
    g = thousand()
    for seed in range(2):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            conservation(s)
        assert any(v >= 1000 or v <= -1000 for v in scores(s))


def test_the_four_aces_score_200_only_with_their_option():
    hands = ["AS AC AD AH", "9S 10S JS KS", "9H 10H JH QH"]
    s = in_play(hands, tricks=(1, 0, 0))
    assert not any(m.startswith("four aces") for m in legal(s, plain=True))
    s = in_play(hands, tricks=(1, 0, 0), ace_marriage=True)
    assert sum(m.startswith("four aces") for m in legal(s, plain=True)) == 4
    act(s, "four aces AS")
    assert get_var(s, ("points", 0)) == 200 and get_var(s, "trump") is None
    s = in_play(hands, ace_marriage=True)                               # no trick taken yet
    assert not any(m.startswith("four aces") for m in legal(s, plain=True))


def test_a_deal_at_the_table(tmp_path):
    """A person takes the first move offered through a whole deal against two random players."""
    result = CliRunner().invoke(main, ["play", "thousand", "--seat", "human", "--seat", "random", "--seat", "random",
                                       "--fast", "--seed", "3", "--save", str(tmp_path / "s.json")],
                                input="1\n" * 12 + "quit\n")
    out = result.output
    assert "Traceback" not in out
    assert "takes the talon" in out and "Deal 1 is over" in out, out
