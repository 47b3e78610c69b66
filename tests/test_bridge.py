"""Contract Bridge (the Laws; ACBL Chicago): one scenario per rule of koloda/rules/bridge.yaml."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import pytest

import koloda

from helpers import act, get_var, legal, setup, zone_cards

# P1 North, P2 East, P3 South, P4 West; P1 deals, and the dealer calls first
HANDS = ["AS KS QS JS 10S 2H 3H 4H 2D 3D 4D 2C 3C", "9S 8S 7S AH KH QH 5D 6D 7D 4C 5C 6C 7C",
         "6S 5S 4S 3S JH 10H 9H 8H AD KD QD AC KC", "2S 7H 6H 5H JD 10D 9D 8D QC JC 10C 9C 8C"]
PASS3 = ["pass", "pass", "pass"]
ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def bridge(**options):
    return koloda.load("bridge", options)


def dealt(**options):
    return bridge(**options).new_initial_state(0, dealer=0, hands={f"P{p + 1} hand": h.split()
                                                                   for p, h in enumerate(HANDS)})


def calls(s, texts):
    for text in texts:
        act(s, text)


def sides(s, name):
    return [get_var(s, (name, t)) for t in range(2)]


def test_the_dealer_calls_first_and_a_bid_must_be_higher():
    s = dealt()
    assert s.current_player() == 0
    first = legal(s, plain=True)
    assert first[0] == "pass" and len(first) == 1 + 35 and "double" not in first
    act(s, "bid 1 hearts")
    after = legal(s, plain=True)
    assert "bid 1 clubs" not in after and "bid 1 hearts" not in after
    assert {"bid 1 spades", "bid 1 no trump", "bid 2 clubs", "double"} <= set(after)
    assert "redouble" not in after


def test_double_the_opponents_and_redouble_your_own_side():
    s = dealt()
    calls(s, ["bid 1 hearts", "double"])
    assert "double" not in legal(s, plain=True)              # P3: partner's bid, already doubled
    assert "redouble" in legal(s, plain=True)
    act(s, "redouble")
    assert get_var(s, "doubled") == 4
    assert not {"double", "redouble"} & set(legal(s, plain=True))
    act(s, "bid 2 clubs")                                    # a new bid cancels the doubles
    assert get_var(s, "doubled") == 1
    assert "double" in legal(s, plain=True) and "redouble" not in legal(s, plain=True)


def test_the_declarer_is_the_first_of_the_side_to_name_the_strain():
    s = dealt()
    calls(s, ["bid 1 hearts", "pass", "bid 2 hearts"] + PASS3)
    assert get_var(s, "declarer") == 0 and s.current_player() == 1    # P1 declares, P2 leads
    s = dealt()
    calls(s, ["bid 1 hearts", "pass", "bid 3 no trump"] + PASS3)
    assert get_var(s, "declarer") == 2 and s.current_player() == 3


def test_four_passes_pass_the_deal_out():
    s = dealt(scoring="duplicate")
    calls(s, ["pass"] * 4)
    assert s.is_terminal() and s.scores() == [0, 0, 0, 0]
    s = dealt()                                              # Chicago: the same dealer deals again
    calls(s, ["pass"] * 4)
    assert not s.is_terminal() and s.dealer == 0 and get_var(s, "counted") == 0
    assert s.current_player() == 0


def test_the_dummy_lies_face_up_after_the_opening_lead_and_the_declarer_plays_it():
    s = dealt()
    calls(s, ["bid 1 hearts", "pass", "bid 2 hearts"] + PASS3)  # P1 declares, P3 is the dummy
    dummy = s.game.layout.zone_base["dummy"]
    assert s.zones[dummy] == []
    act(s, "play AH")                                        # the opening lead, by P2
    assert len(s.zones[dummy]) == 13 and zone_cards(s, ("hand", 2)) == []
    assert s.current_player() == 0                           # the declarer, for the dummy
    assert legal(s, plain=True) == [f"play {c} from dummy" for c in ("8H", "9H", "10H", "JH")]   # following suit
    seen = s.observation(1)["zones"]
    assert any(z["zone"] == "dummy" and len(z.get("cards") or []) == 13 for z in seen)
    act(s, "play 8H from dummy")
    assert s.current_player() == 3
    act(s, "play 5H")
    assert s.current_player() == 0 and legal(s, plain=True) == ["play 2H", "play 3H", "play 4H"]   # own hand
    act(s, "play 2H")
    assert s.current_player() == 1 and sides(s, "tricks") == [0, 1]      # P2's ace wins, P2 leads


def test_a_dummy_that_wins_leads_and_a_trump_takes_the_trick():
    s = dealt()
    calls(s, ["bid 1 hearts", "pass", "bid 2 hearts"] + PASS3)
    act(s, "play 4C")
    calls(s, ["play AC from dummy", "play 8C", "play 2C"])              # the dummy's ace wins
    assert s.current_player() == 0 and get_var(s, "to_play") == 2
    assert set(legal(s, plain=True)) == {f"play {c} from dummy" for c in "8H 9H 10H JH QD KD AD KC 3S 4S 5S 6S".split()}
    setup(s, zones={("hand", 0): "2H 3D", ("hand", 1): "AS KD", ("hand", 2): "", "dummy": "3S 4D",
                    ("hand", 3): "6S 7D", "trick": ""}, vars={"to_play": 1}, current=1)
    act(s, "play AS")
    assert legal(s, plain=True) == ["play 3S from dummy"]
    calls(s, ["play 3S from dummy", "play 6S"])
    assert legal(s, plain=True) == ["play 3D", "play 2H"]    # void in spades: any card
    act(s, "play 2H")                                        # the ruff takes the trick
    assert sides(s, "tricks") == [2, 0] and s.current_player() == 0 and get_var(s, "to_play") == 0


def last_trick(auction, ns_tricks, vars=(), **options):
    """P1 declares after `auction`; North-South have taken `ns_tricks` of the first 12 tricks, and
    take the last one (P1's ace of clubs). Returns the state once the deal is scored."""
    s = dealt(**options)
    calls(s, auction)
    assert get_var(s, "declarer") == 0
    variables = {("tricks", 0): ns_tricks, ("tricks", 1): 12 - ns_tricks, "to_play": 1}
    variables.update(dict(vars))
    setup(s, zones={("hand", 0): "AC", ("hand", 1): "2C", ("hand", 2): "", "dummy": "3C",
                    ("hand", 3): "4C", "trick": ""}, vars=variables, current=1)
    calls(s, ["play 2C", "play 3C from dummy", "play 4C", "play AC"])
    return s


def duplicate(auction, ns_tricks, vulnerable="none"):
    s = last_trick(auction, ns_tricks, scoring="duplicate", vulnerable=vulnerable)
    assert s.is_terminal()
    return sides(s, "score")


def test_duplicate_contracts_made():
    assert duplicate(["bid 4 spades"] + PASS3, 9) == [420, 0]             # 4♠ just made
    assert duplicate(["bid 4 spades"] + PASS3, 9, "both") == [620, 0]     # vulnerable
    assert duplicate(["bid 3 no trump"] + PASS3, 9) == [430, 0]           # 3NT, one overtrick
    assert duplicate(["bid 2 hearts"] + PASS3, 7) == [110, 0]             # a part score
    assert duplicate(["bid 1 no trump", "double"] + PASS3, 6) == [180, 0]  # 80, 50 part score, 50 insult
    assert duplicate(["bid 2 spades", "double"] + PASS3, 9) == [670, 0]   # doubled into game, two over
    assert duplicate(["bid 6 diamonds"] + PASS3, 11, "others") == [920, 0]  # P1 deals: North-South not vulnerable
    assert duplicate(["bid 6 diamonds"] + PASS3, 11, "dealer") == [1370, 0]  # small slam vulnerable
    assert duplicate(["bid 7 no trump"] + PASS3, 12) == [1520, 0]         # grand slam


def test_duplicate_contracts_defeated():
    assert duplicate(["bid 4 spades", "double"] + PASS3, 6) == [0, 500]   # three down doubled
    assert duplicate(["bid 4 spades", "double"] + PASS3, 5) == [0, 800]   # four down: 300 more
    assert duplicate(["bid 4 spades", "double"] + PASS3, 7, "both") == [0, 500]   # two down vulnerable
    assert duplicate(["bid 4 spades", "double", "redouble"] + PASS3, 8) == [0, 200]
    assert duplicate(["bid 2 spades"] + PASS3, 5, "both") == [0, 200]     # undoubled: 100 a trick


def test_chicago_game_bonus_and_the_fourth_deal_part_score():
    s = last_trick(["bid 4 spades"] + PASS3, 9, honours=False)
    assert not s.is_terminal() and sides(s, "score") == [420, 0] and sides(s, "games") == [1, 0]
    assert sides(s, "vulnerable") == [False, True]           # the second deal: P2 deals, East-West
    s = last_trick(["bid 2 hearts"] + PASS3, 7, vars={"counted": 3}, honours=False)
    assert s.is_terminal() and sides(s, "score") == [160, 0]   # 60 and 100 on the fourth deal
    s = last_trick(["bid 2 hearts"] + PASS3, 7, vars={"counted": 2, ("below", 0): 40}, honours=False)
    assert sides(s, "score") == [360, 0] and sides(s, "below") == [0, 0]   # a game from two part scores
    assert sides(s, "vulnerable") == [True, True]            # the fourth deal: both


def test_rubber_games_and_the_rubber_bonus():
    s = last_trick(["bid 2 hearts"] + PASS3, 7, vars={("below", 0): 60, ("below", 1): 40},
                   scoring="rubber", honours=False)
    assert sides(s, "score") == [60, 0] and sides(s, "games") == [1, 0] and sides(s, "below") == [0, 0]
    assert sides(s, "vulnerable") == [True, False] and not s.is_terminal()
    s = last_trick(["bid 4 spades"] + PASS3, 9, vars={("games", 0): 1, ("games", 1): 1},
                   scoring="rubber", honours=False)
    assert s.is_terminal() and sides(s, "score") == [620, 0] and s.returns() == [1.0, 0.0, 1.0, 0.0]
    s = last_trick(["bid 4 spades"] + PASS3, 9, vars={("games", 0): 1}, scoring="rubber", honours=False)
    assert sides(s, "score") == [820, 0]                     # two games to none: 700


def test_honours_in_one_hand_score_made_or_not():
    s = last_trick(["bid 4 spades"] + PASS3, 9, scoring="rubber")   # P1 holds A K Q J 10 of spades
    assert sides(s, "score") == [120 + 150, 0]
    s = last_trick(["bid 4 spades"] + PASS3, 8, scoring="rubber")   # one down: still 150
    assert sides(s, "score") == [150, 50]
    s = last_trick(["bid 4 spades"] + PASS3, 9, scoring="duplicate")
    assert sides(s, "score") == [420, 0]                     # no honours in duplicate


def test_an_unfinished_rubber():
    s = last_trick(["bid 2 hearts"] + PASS3, 7, scoring="rubber", deals=1, honours=False)
    assert s.is_terminal() and sides(s, "score") == [60 + 100, 0]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_declarer_plays_both_hands_at_the_terminal(pexpect):
    env = dict(os.environ, COLUMNS="100", TERM="dumb", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "play", "bridge", "--seat", "human"]
                          + ["--seat", "random"] * 3 + ["--seed", "3", "--fast", "--dealer", "1",
                                                        "-o", "scoring=duplicate"],
                          encoding="utf-8", timeout=60, env=env, cwd=str(ROOT))
    child.expect("your move")
    child.sendline("bid 7 no trump")             # nobody can bid over it: P1 declares
    moves = 1
    seen = ""
    while child.expect([r"your move", pexpect.EOF]) == 0:
        seen += child.before
        child.sendline("1")
        moves += 1
    child.close()
    assert child.exitstatus == 0 and "Game over." in child.before
    assert moves >= 1 + 26 and "from dummy" in seen   # 13 cards of each hand, and maybe a redouble
