"""French Tarot (the FFT's rules, four players): the 78-card deal and the dog, the petit sec, one round
of bidding over four contracts, the discard, following, trumping and overtrumping, the Excuse and its
half point, handfuls, the petit au bout, the chelem and the scoring by the oudlers the taker holds.

Players are counted from 0. The dealer is P4 (3), so P1 (0) bids and leads first.
"""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, setup, zone_cards

# P1: ten trumps, the 21 and the Excuse (a single handful), three kings; the dog is low hearts
HANDS = {"P1 hand": "21T 20T 19T 18T 17T 16T 15T 14T 13T 12T EX KC QC CC JC 10C KS KH",
         "dog": "1H 2H 3H 4H 5H 6H"}
POINTS = {"K": 9, "Q": 7, "C": 5, "J": 3}


@functools.lru_cache(maxsize=None)
def load(options):
    return koloda.load("tarot", options=dict(options), players=4)


def dealt(hands=HANDS, **options):
    s = load(tuple(sorted(options.items()))).new_initial_state(5, dealer=3,
                                                                hands={k: v.split() for k, v in hands.items()})
    assert s.dealer == 3
    return s


def scores(s) -> list[int]:
    return [get_var(s, ("score", p)) for p in range(4)]


def value(name: str) -> int:
    if name in ("1T", "21T", "EX"):
        return 9
    return POINTS.get(name[:-1], 1)


ALL = list(load(()).cards.names)


def pile(points: int, oudlers: list[str], leave: set[str]) -> list[str]:
    """The given oudlers and other cards (none of `leave`) worth exactly `points`, doubled."""
    others = [n for n in ALL if n not in leave and n not in ("1T", "21T", "EX")]
    need = points - sum(value(n) for n in oudlers)
    reach: dict[int, list[str]] = {0: []}
    for name in others:
        for total, picked in list(reach.items()):
            if total + value(name) not in reach:
                reach[total + value(name)] = picked + [name]
    return oudlers + reach[need]


def last_trick(taken: int, contract: str = "garde", oudlers=("21T",), trick=("10C", "2C", "3C", "4C"),
               taker_tricks: int = 10, **vars):
    """Seventeen tricks played, P1 the taker holding these oudlers; in the last trick each plays one
    card, P1 first, and P1 takes it, ending with `taken` points (doubled)."""
    s = dealt(deals=1)
    act(s, contract)
    for _ in range(3):
        act(s, "pass")
    leave = set(trick)
    ours = pile(taken - sum(value(c) for c in trick), list(oudlers), leave)      # P1 takes the trick
    theirs = [n for n in ALL if n not in ours and n not in leave]
    values = {"tricks_played": 17, "taker": 0, "contract": contract, ("tricks", 0): taker_tricks,
              ("tricks", 1): 17 - taker_tricks}
    values.update(vars)
    setup(s, zones={("hand", 0): trick[0], ("hand", 1): trick[1], ("hand", 2): trick[2], ("hand", 3): trick[3],
                    ("won", 0): ours, ("won", 1): theirs, ("won", 2): [], ("won", 3): [], "dog": [], "trick": []},
          vars=values, current=0, phase="play")
    for card in trick:
        act(s, f"play {card}")
    assert s.is_terminal()
    return s


def test_the_deal_gives_eighteen_each_and_six_to_the_dog():
    s = load(()).new_initial_state(11)
    assert len(s.game.cards.names) == 78 and [len(hand(s, p)) for p in range(4)] == [18] * 4
    assert len(zone_cards(s, "dog")) == 6 and s.current_player() == (s.dealer + 1) % 4
    assert legal(s, plain=True) == ["pass", "prise", "garde", "garde_sans", "garde_contre"]


def test_each_bids_once_above_the_contract_before_and_all_passing_throws_the_deal_in():
    s = dealt()
    act(s, "garde")
    assert s.current_player() == 1 and legal(s, plain=True) == ["pass", "garde_sans", "garde_contre"]
    act(s, "garde_sans")
    act(s, "pass")
    act(s, "pass")
    assert get_var(s, "taker") == 1 and get_var(s, "contract") == "garde_sans"
    s = dealt(deals=1)
    for _ in range(4):
        act(s, "pass")
    assert s.is_terminal() and scores(s) == [0, 0, 0, 0]


def test_the_petit_sec_annuls_the_deal():
    plain = "1C 2C 3C 4C 5C 6C 7C 8C 9C 1D 2D 3D 4D 5D 6D 7D 8D"
    s = dealt({"P2 hand": "1T " + plain}, deals=1)
    assert s.is_terminal() and scores(s) == [0, 0, 0, 0]
    s = dealt({"P2 hand": "1T 2T " + plain[3:]}, deals=1)      # with another trump the deal goes on
    assert not s.is_terminal()


def test_a_prise_takes_the_dog_and_lays_six_away_but_no_king_oudler_or_trump_while_others_can_go():
    s = dealt()
    act(s, "prise")
    for _ in range(3):
        act(s, "pass")
    assert s.current_player() == 0 and len(hand(s, 0)) == 24 and zone_cards(s, "dog") == []
    assert sorted(legal(s, plain=True)) == sorted(f"lay away {c}" for c in
                                                  "QC CC JC 10C 1H 2H 3H 4H 5H 6H".split())
    for c in "1H 2H 3H 4H 5H 6H".split():
        assert s.current_player() == 0
        act(s, f"lay away {c}")
    assert sorted(zone_cards(s, ("won", 0))) == sorted("1H 2H 3H 4H 5H 6H".split())
    # the play: P1 leads, and may first show a single handful (11 trumps with the Excuse)
    assert s.current_player() == 0 and "single handful" in legal(s, plain=True)
    assert "double handful" not in legal(s, plain=True)
    act(s, "single handful")
    assert get_var(s, "handfuls") == 20 and "single handful" not in legal(s, plain=True)


def test_only_trumps_are_laid_away_when_nothing_else_can_go():
    s = dealt({"P1 hand": "21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T 9T 8T KC KS KH KD",
               "dog": "EX 1T 7T 6T 5T 4T"})
    act(s, "garde")
    for _ in range(3):
        act(s, "pass")
    # kings and oudlers never; the trumps, as nothing else can go
    assert sorted(legal(s, plain=True)) == sorted(f"lay away {n}T" for n in range(4, 21))


def test_garde_sans_gives_the_dog_to_the_taker_and_garde_contre_to_the_defenders():
    s = dealt()
    act(s, "garde_sans")
    for _ in range(3):
        act(s, "pass")
    assert sorted(zone_cards(s, ("won", 0))) == sorted(HANDS["dog"].split()) and len(hand(s, 0)) == 18
    s = dealt()
    act(s, "pass")
    act(s, "garde_contre")
    act(s, "pass")
    act(s, "pass")
    assert sorted(zone_cards(s, ("won", 2))) == sorted(HANDS["dog"].split())
    assert s.current_player() == 0                   # the dealer's neighbour leads


def test_without_the_suit_trump_and_overtrump_if_you_can():
    s = dealt()
    act(s, "garde_sans")
    for _ in range(3):
        act(s, "pass")
    setup(s, zones={("hand", 0): "5C 9H", ("hand", 1): "3T 10T 1H", ("hand", 2): "4T 12T 2H",
                    ("hand", 3): "2T 3H 4H", "trick": []}, current=0, phase="play")
    act(s, "play 5C")
    assert sorted(legal(s, plain=True)) == ["play 10T", "play 3T"]   # no club: trump
    act(s, "play 10T")
    assert legal(s, plain=True) == ["play 12T"]                        # overtrump
    act(s, "play 12T")
    assert legal(s, plain=True) == ["play 2T"]                         # trump, though lower
    act(s, "play 2T")
    assert s.current_player() == 2 and get_var(s, ("tricks", 2)) == 1
    act(s, "play 2H")
    act(s, "play 3H")
    act(s, "play 9H")
    assert legal(s, plain=True) == ["play 1H"]                         # hearts led: follow
    setup(s, zones={("hand", 0): "8T 1C", ("hand", 1): "5T 9T 1D", "trick": []}, current=0, phase="play")
    act(s, "play 8T")
    assert legal(s, plain=True) == ["play 9T"]                         # trumps led: higher if you can


def test_the_excuse_never_takes_goes_back_to_its_owner_and_costs_half_a_point():
    s = dealt()
    act(s, "garde_sans")
    for _ in range(3):
        act(s, "pass")
    setup(s, zones={("hand", 0): "EX 9H", ("hand", 1): "5C 1H", ("hand", 2): "6C 2H", ("hand", 3): "KC 3H",
                    "trick": []}, current=0, phase="play")
    act(s, "play EX")
    assert sorted(legal(s, plain=True)) == ["play 1H", "play 5C"]      # the next card sets the suit
    act(s, "play 5C")
    assert legal(s, plain=True) == ["play 6C"]
    act(s, "play 6C")
    act(s, "play KC")
    assert get_var(s, ("tricks", 3)) == 1 and "EX" in zone_cards(s, ("won", 0))
    assert "EX" not in zone_cards(s, ("won", 3)) and get_var(s, "excuse_swing") == -1


def test_the_taker_needs_51_with_one_oudler_and_wins_25_plus_the_difference_times_the_contract():
    assert scores(last_trick(102)) == [150, -50, -50, -50]              # 51 exactly: 25 × 2
    assert scores(last_trick(101)) == [-156, 52, 52, 52]                # 50½: lost by 1 (a half rounds up)
    assert scores(last_trick(112, oudlers=(), contract="prise")) == [75, -25, -25, -25]   # 56 with none
    assert scores(last_trick(82, oudlers=("21T", "EX"), contract="garde_contre")) == [450, -150, -150, -150]
    assert scores(last_trick(92, oudlers=("21T", "1T", "EX"), contract="prise")) == [3 * 35, -35, -35, -35]


def test_the_petit_au_bout_counts_ten_times_the_contract_to_the_side_taking_it():
    s = last_trick(102, trick=("5T", "1T", "2C", "3C"))
    # the petit in the taker's last trick: two oudlers (the 21 and the 1), 51 against 41: 25 + 10 + 10
    assert get_var(s, "petit_last") == 1 and scores(s) == [3 * 90, -90, -90, -90]
    s = last_trick(102, trick=("2T", "5T", "2C", "1T"))          # P2 takes it: ten to the defenders
    assert get_var(s, "petit_last") == -1


def test_a_handful_goes_to_the_side_that_wins_and_a_chelem_counts_200():
    assert scores(last_trick(102, handfuls=20)) == [3 * 70, -70, -70, -70]
    assert scores(last_trick(101, handfuls=20)) == [-3 * 72, 72, 72, 72]
    assert scores(last_trick(102, taker_tricks=17))[1] == -(50 + 200)


def test_the_match_lasts_option_deals_deals():
    s = load((("deals", 2),)).new_initial_state(3)
    for _ in range(2000):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[-1])
    assert s.is_terminal() and sum(scores(s)) == 0
