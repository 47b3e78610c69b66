"""Preferans (Sochi convention): one scenario per rule of koloda/rules/preferans.yaml."""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, play_all, setup, zone_cards

HANDS = {"P1 hand": "7S 8S 9S 10S JS QS KS AS 7C 8C", "P2 hand": "7H 8H 9H 10H JH QH KH AH 9C 10C",
         "P3 hand": "7D 8D 9D 10D JD QD KD AD JC QC", "talon": "KC AC"}
SIX_SPADES, SEVEN_HEARTS, MISERE = 60, 73, 85


@functools.lru_cache(maxsize=None)
def preferans(**options):
    return koloda.load("preferans", options)


def dealt(players=3, **options):
    """The first deal, P3 dealing (P4 at four): P1 holds the spades, P2 the hearts, P3 the diamonds."""
    return preferans(players=players, **options).new_initial_state(0, dealer=players - 1, hands=HANDS)


def each(s, var):
    return [get_var(s, (var, p)) for p in range(s.game.num_players)]


def test_bidding_starts_left_of_the_dealer_and_every_call_goes_higher():
    s = dealt()
    assert s.current_player() == 0 and len(hand(s, 0)) == 10 and len(zone_cards(s, "talon")) == 2
    first = legal(s, plain=True)
    assert len(first) == 27 and {"6 spades", "10 no trump", "misère", "pass"} <= set(first)
    act(s, "7 hearts")
    second = legal(s, plain=True)
    assert "7 spades" not in second and "7 hearts" not in second       # spades, clubs, diamonds, hearts, no trump
    assert {"7 no trump", "8 spades", "misère"} <= set(second)
    act(s, "misère")                                                      # between 8 no trump and 9 spades
    assert set(legal(s, plain=True)) == {f"{n} {t}" for n in (9, 10)
                                         for t in ("spades", "clubs", "diamonds", "hearts", "no trump")} | {"pass"}


def test_misere_is_a_first_call_only_and_its_bidder_may_only_pass():
    s = dealt()
    play_all(s, ["6 spades", "6 clubs", "pass"])
    assert "misère" not in legal(s, plain=True)                          # P1 has called already
    act(s, "pass")
    s = dealt()
    play_all(s, ["misère", "9 spades", "pass"])
    assert legal(s, plain=True) == ["pass"]


def test_the_last_bidder_takes_the_talon_discards_two_and_names_a_game_not_below_the_bid():
    s = dealt()
    play_all(s, ["7 hearts", "pass", "pass"])
    assert get_var(s, "declarer") == 0 and len(hand(s, 0)) == 12 and zone_cards(s, "talon") == []
    assert {"KC", "AC"} <= set(hand(s, 0))
    play_all(s, ["discard 7C", "discard 8C"])
    named = legal(s, plain=True)
    assert "play 7 spades" not in named and "play 6 no trump" not in named
    assert {"play 7 hearts", "play 7 no trump", "play 10 spades"} <= set(named)
    act(s, "play 8 spades")
    assert get_var(s, "contract") == 80 and get_var(s, "trump") == 3    # spades
    assert s.current_player() == 1 and legal(s, plain=True) == ["whist", "pass"]


def named(contract="play 6 spades", **options):
    s = dealt(**options)
    play_all(s, ["6 spades", "pass", "pass", "discard 7C", "discard 8C", contract])
    return s


def test_when_both_defenders_pass_the_game_is_written_unplayed():
    s = named()
    play_all(s, ["pass", "pass"])
    assert each(s, "pool") == [2, 0, 0]
    assert len(hand(s, 0)) == 10                                        # the next deal is dealt


def test_follow_suit_else_trump_else_any_card():
    s = named()
    play_all(s, ["whist", "pass"])
    assert s.current_player() == 0                                      # the first hand leads
    setup(s, zones={("hand", 0): "AC 7S", ("hand", 1): "8S 7H", ("hand", 2): "8H 9D"},
          current=0)
    act(s, "play AC")
    assert legal(s, plain=True) == ["play 8S"]                          # no club: must trump
    act(s, "play 8S")
    assert sorted(legal(s, plain=True)) == ["play 8H", "play 9D"]       # neither: any card


def last_trick(tricks, whisting=(True, False), contract=SIX_SPADES, trump=3, cards=("AS", "7H", "7D"),
               pools=(0, 0, 0), **options):
    """P1 declares `contract`; nine tricks are taken as `tricks`, and the tenth is played with
    `cards` (P1 leads). Returns the state after that trick (the deal is scored)."""
    s = named(**options)
    play_all(s, ["whist" if whisting[0] else "pass", "whist" if whisting[1] else "pass"])
    variables = {("tricks", p): tricks[p] for p in range(3)}
    variables.update({("whisting", p + 1): whisting[p] for p in range(2)})
    variables.update({("pool", p): pools[p] for p in range(3)})
    variables.update({"tricks_played": 9, "contract": contract, "high": contract, "trump": trump})
    setup(s, zones={("hand", p): cards[p] for p in range(3)} | {"trick": ""}, vars=variables, current=0,
          phase="play")
    play_all(s, [f"play {c}" for c in cards])
    return s


def test_a_game_made_goes_to_the_pool_and_a_lone_whister_writes_the_defenders_tricks():
    s = last_trick([5, 2, 2])                       # P1 takes the last: 6 of 6; P2 whists alone
    assert each(s, "pool") == [2, 0, 0] and each(s, "mountain") == [0, 0, 0]
    assert each(s, "whists_for") == [0, 8, 0] and each(s, "whists_against") == [8, 0, 0]   # 2 a trick, 4 tricks


def test_a_game_short_goes_to_the_mountain_and_every_other_player_is_consoled():
    # Sochi, full consolation: for each trick short every other player writes the price in whists
    # on the declarer, the defender who passed and, at four, the dealer sitting out too
    s = last_trick([4, 3, 2])                       # 5 of 6: one short; P2 whists, P3 passes
    assert each(s, "pool") == [0, 0, 0] and each(s, "mountain") == [2, 0, 0]
    assert each(s, "whists_for") == [0, 2 * 5 + 2, 2] and each(s, "whists_against") == [14, 0, 0]
    s = last_trick([4, 3, 2], players=4)            # P4 deals and sits out
    assert each(s, "whists_for") == [0, 2 * 5 + 2, 2, 2] and each(s, "whists_against") == [16, 0, 0, 0]


def test_whisters_short_of_the_norm_write_into_the_mountain():
    s = last_trick([8, 1, 0], whisting=(True, True))            # two whisters answer for 2 tricks each against 6
    assert each(s, "pool") == [2, 0, 0] and each(s, "mountain") == [0, 2, 4]   # the pair is 3 short
    assert each(s, "whists_for") == [0, 2, 0]
    s = last_trick([7, 2, 0], whisting=(True, False), contract=70)   # alone against 7: 2 tricks, met
    assert each(s, "mountain") == [0, 0, 0] and each(s, "whists_for") == [0, 4 * 2, 0]
    s = last_trick([8, 0, 1], whisting=(True, False), contract=80)   # alone against 8, the passer's trick counts
    assert each(s, "mountain") == [0, 0, 0]


def test_two_whisters_who_take_the_norm_between_them_owe_nothing():
    # the norm is the pair's: 4 tricks against 6, whoever of the two took them
    s = last_trick([5, 4, 0], whisting=(True, True))            # P1 takes the last: 6, the pair 4
    assert each(s, "mountain") == [0, 0, 0] and each(s, "whists_for") == [0, 8, 0]
    # one trick short between them: P3 is two short of their half, but owes only the pair's one
    s = last_trick([6, 3, 0], whisting=(True, True))
    assert each(s, "mountain") == [0, 0, 2]


def test_against_8_9_and_10_the_second_whister_answers_for_the_trick():
    # Parlett and the Sochi rules: with two whisters against 8 or 9 the one trick of the norm is the
    # second whister's (the first to speak could whist alone; the second joins at their own risk)
    for contract, price in ((80, 6), (90, 8), (100, 10)):
        s = last_trick([9, 0, 0], whisting=(True, True), contract=contract)   # the declarer takes all 10
        assert each(s, "mountain") == [0, 0, price], contract
    s = last_trick([8, 1, 0], whisting=(True, True), contract=80)            # the first whister's trick
    assert each(s, "mountain") == [0, 0, 0]                                   # covers the pair's norm


def test_against_10_the_whist_norm_is_one_trick():
    # Кодекс преферанса, the whist norms: "при шестерной — 4, … при десятерной — 1"
    s = last_trick([9, 0, 0], whisting=(True, False), contract=100)           # the lone whister takes none
    assert each(s, "pool") == [10, 0, 0] and each(s, "mountain") == [0, 10, 0]
    s = last_trick([8, 1, 0], whisting=(True, False), contract=100, cards=("7H", "AH", "7D"))
    assert each(s, "mountain") == [20, 0, 0]                                  # 8 of 10: two short, norm met
    assert each(s, "whists_for") == [0, 10 * 2 + 10 * 2, 10 * 2]


def test_settlements_add_up_to_nothing():
    # what one player wins at the settlement another loses: every pair settles its mountains in
    # whole whists, so the scores of a finished match add up to 0 at three and at four
    import random
    uneven = 0
    for players in (3, 4):
        game = preferans(players=players, deals=6)
        for seed in range(6):
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            for _ in range(2000):
                if s.is_terminal():
                    break
                s.apply_action(rng.choice(s.legal_actions()))
            assert s.is_terminal() and sum(s.scores()) == 0, (players, seed, s.scores())
            owed = [m + max(0, 10 - p) for m, p in zip(each(s, "mountain"), each(s, "pool"))]
            uneven += 10 * sum(owed) % players != 0       # where 10/players whists a point leave a fraction
    assert uneven > 0


def test_misere_made_and_missed():
    s = dealt()
    play_all(s, ["misère", "pass", "pass", "discard AS", "discard KS"])
    assert get_var(s, "contract") == MISERE and s.current_player() == 0      # no naming, no whisting
    assert each(s, "tricks") == [0, 0, 0]
    s = last_trick([0, 5, 4], contract=MISERE, trump=None, cards=("8H", "9H", "7D"))
    assert each(s, "pool") == [10, 0, 0] and each(s, "mountain") == [0, 0, 0]
    s = last_trick([0, 5, 4], contract=MISERE, trump=None, cards=("7S", "7H", "7D"))
    assert each(s, "pool") == [0, 0, 0] and each(s, "mountain") == [10, 0, 0]   # nobody follows the 7S
    s = last_trick([1, 4, 4], contract=MISERE, trump=None, cards=("AS", "7H", "7D"))
    assert each(s, "mountain") == [20, 0, 0]


def test_all_pass_the_talon_sets_the_suit_of_the_first_two_tricks():
    s = dealt()
    play_all(s, ["pass", "pass", "pass"])
    assert get_var(s, "declarer") is None and zone_cards(s, "lead_card") == ["KC"]
    assert legal(s, plain=True) == ["play 7C", "play 8C"]             # P1 must follow the talon's club
    play_all(s, ["play 8C", "play 9C", "play JC"])
    assert get_var(s, ("tricks", 2)) == 1 and zone_cards(s, "lead_card") == ["AC"]
    assert s.current_player() == 2 and legal(s, plain=True) == ["play QC"]
    play_all(s, ["play QC", "play 7C", "play 10C"])                     # the talon's ace is nobody's
    assert get_var(s, ("tricks", 2)) == 2 and zone_cards(s, "lead_card") == []


def test_all_pass_tricks_go_to_the_mountain():
    s = dealt()
    play_all(s, ["pass", "pass", "pass"])
    setup(s, zones={("hand", 0): "AS", ("hand", 1): "7H", ("hand", 2): "7D", "trick": "", "lead_card": ""},
          vars={("tricks", 0): 4, ("tricks", 1): 3, ("tricks", 2): 2, "tricks_played": 9}, current=0)
    play_all(s, ["play AS", "play 7H", "play 7D"])
    assert each(s, "mountain") == [5, 3, 2]


def test_at_four_the_dealer_sits_out():
    s = dealt(players=4)
    assert hand(s, 3) == [] and s.current_player() == 0
    play_all(s, ["pass", "pass", "pass"])                                # the dealer is not asked
    assert get_var(s, "declarer") is None and s.current_player() == 0
    play_all(s, ["play 8C", "play 9C", "play JC"])
    assert s.current_player() == 2


def test_a_full_pool_helps_the_others_and_the_match_ends_when_every_pool_is_full():
    s = last_trick([5, 2, 2], pools=(9, 9, 10))
    # P1's pool takes 1, P2's the other for 10 whists, and every pool is full
    assert each(s, "pool") == [10, 10, 10] and s.is_terminal()
    assert each(s, "whists_for") == [10, 8, 0] and each(s, "whists_against") == [8 + 0, 10, 0]
    assert s.scores() == [2, -2, 0]
    s = last_trick([4, 3, 2], pools=(10, 10, 10))                      # a game short: the mountain is settled
    # the mountain, 2 points: P1 pays each of the others 20 / 3 whists, 6 in whole whists
    assert s.is_terminal() and s.scores() == [-14 - 12, 12 + 6, 2 + 6] and sum(s.scores()) == 0


def test_option_deals_stops_the_match():
    s = last_trick([5, 2, 2], deals=1)
    assert s.is_terminal()
    assert not last_trick([5, 2, 2]).is_terminal()
