"""Spades (Pagat.com's rules): one scenario per rule of koloda/rules/spades.yaml."""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, legal, setup

HANDS = ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
         "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"]


@functools.lru_cache(maxsize=None)
def spades(**options):
    return koloda.load("spades", options)


def dealt(**options):
    """The first deal, P4 dealing: P1 holds the clubs, P2 the diamonds, P3 the hearts, P4 the spades."""
    return spades(**options).new_initial_state(0, dealer=3, hands={f"P{p + 1} hand": h.split()
                                                                   for p, h in enumerate(HANDS)})


def side_vars(s, name):
    return [get_var(s, (name, t)) for t in range(2)]


def test_bids_start_left_of_the_dealer_and_a_side_bids_at_most_13():
    s = dealt()
    assert s.current_player() == 0
    assert legal(s, plain=True) == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    act(s, "bid 10")
    act(s, "bid 2")
    assert legal(s, plain=True) == ["bid nil", "bid 1", "bid 2", "bid 3"]   # P3: partner bid 10
    act(s, "bid nil")
    assert len(legal(s)) == 12                   # P4: partner bid 2, so 1..11 and nil
    assert "bid nil" not in legal(dealt(nil=False), plain=True)


def test_without_nil_the_first_partner_leaves_a_trick_for_the_other():
    # "A side's bids may not add up to more than 13 tricks", and without nil every bid is at
    # least 1: the first of the partners bids at most 12, and the other always has a bid
    s = dealt(nil=False)
    assert legal(s, plain=True) == [f"bid {n}" for n in range(1, 13)]
    act(s, "bid 12")
    assert legal(s, plain=True)[-1] == "bid 12"      # P2's partner has not bid either
    act(s, "bid 3")
    assert legal(s, plain=True) == ["bid 1"]         # P3: partner bid 12
    act(s, "bid 1")
    assert legal(s, plain=True) == [f"bid {n}" for n in range(1, 11)]   # P4: partner bid 3
    assert legal(dealt(), plain=True)[-1] == "bid 13"                   # with nil, 13 leaves nil


def bid_and_start(s, bids=("bid 1", "bid 1", "bid 1", "bid 1")):
    for b in bids:
        act(s, b)
    assert s.current_player() == 0               # the player left of the dealer leads


def test_spades_are_not_led_until_broken():
    s = dealt()
    bid_and_start(s)
    setup(s, zones={("hand", 0): "2S 3C", ("hand", 1): "4D 5S"}, vars={"broken": False}, current=0)
    assert legal(s, plain=True) == ["play 3C"]
    act(s, "play 3C")
    act(s, "play 5S")                            # void in clubs: trumps, and breaks spades
    assert get_var(s, "broken") is True
    setup(s, zones={("hand", 0): "2S 3S", "trick": ""}, vars={"broken": False}, current=0)
    assert legal(s, plain=True) == ["play 2S", "play 3S"]   # nothing but spades


def test_without_breaking_spades_stay_closed():
    s = dealt(breaking=False)
    bid_and_start(s)
    setup(s, zones={("hand", 0): "2S 3C", ("hand", 1): "4D 5S"}, current=0)
    act(s, "play 3C")
    act(s, "play 5S")
    assert get_var(s, "broken") is False


def test_the_highest_spade_takes_the_trick():
    s = dealt()
    bid_and_start(s)
    setup(s, zones={("hand", 0): "AC 5C", ("hand", 1): "2S 5D", ("hand", 2): "KC 5H", ("hand", 3): "3S 6H",
                    "trick": ""}, current=0)
    for text in ("play AC", "play 2S", "play KC", "play 3S"):
        act(s, text)
    assert [get_var(s, ("tricks", p)) for p in range(4)] == [0, 0, 0, 1]
    assert s.current_player() == 3               # and leads the next


def last_trick(tricks, bids, bags=(0, 0), scores=(0, 0), **options):
    """Bids made, 12 tricks taken as `tricks` (the last one still to come: P4 takes it with the ace
    of spades); returns the state after that trick."""
    s = dealt(**options)
    bid_and_start(s)
    variables = {("tricks", p): tricks[p] for p in range(4)}
    variables.update({("bid", p): bids[p] for p in range(4)})
    variables.update({("bags", t): bags[t] for t in range(2)})
    variables.update({("score", t): scores[t] for t in range(2)})
    setup(s, zones={("hand", 0): "2C", ("hand", 1): "3C", ("hand", 2): "4C", ("hand", 3): "AS", "trick": ""},
          vars=variables, current=0)
    for text in ("play 2C", "play 3C", "play 4C", "play AS"):
        act(s, text)
    return s


def test_a_bid_made_scores_ten_a_trick_and_one_a_bag():
    s = last_trick([4, 3, 2, 2], [4, 2, 1, 3])  # P1+P3 bid 5, take 6; P2+P4 bid 5, take 6 (with the last)
    assert side_vars(s, "score") == [51, 51] and side_vars(s, "bags") == [1, 1]


def test_a_bid_missed_loses_ten_a_trick():
    s = last_trick([2, 3, 2, 4], [4, 2, 3, 3])  # P1+P3 bid 7, take 4
    assert side_vars(s, "score")[0] == -70


def test_nil_made_and_missed():
    s = last_trick([0, 0, 6, 6], [0, 0, 5, 5])  # P1 nil made; P2 nil made too, P4 takes the last
    assert side_vars(s, "score") == [100 + 51, 100 + 52]
    s = last_trick([1, 5, 5, 1], [0, 4, 5, 2])  # P1 nil missed: -100; the side's 6 tricks on 5
    assert side_vars(s, "score")[0] == -100 + 51


def test_every_tenth_bag_costs_100():
    s = last_trick([4, 3, 2, 2], [2, 2, 1, 1], bags=(9, 0))  # P1+P3: 3 bags on 9
    assert side_vars(s, "score")[0] == 33 - 100 and side_vars(s, "bags")[0] == 2


def test_the_match_ends_at_500_or_at_minus_200():
    s = last_trick([4, 3, 2, 2], [4, 2, 1, 3], scores=(460, 300))
    assert s.is_terminal() and s.scores() == [511, 351, 511, 351] and s.returns() == [1.0, 0.0, 1.0, 0.0]
    s = last_trick([2, 3, 2, 4], [4, 2, 3, 3], scores=(-140, 0))
    assert s.is_terminal() and s.returns() == [0.0, 1.0, 0.0, 1.0]
    s = last_trick([2, 3, 2, 4], [4, 2, 3, 3], scores=(-140, 0), lose_at=0)
    assert not s.is_terminal()
