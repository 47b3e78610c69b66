"""Peklo / Oh Hell (GAMES.md section 4, seed 002): one scenario per rule and per option."""
from __future__ import annotations

import random

import pytest

import koloda
import koloda.interpreter.base.errors

from helpers import act, card, conservation, get_var, hand, legal, new_state, suit, zone_cards

SUIT_NAMES = "CDHS"


def peklo(players: int = 4, **options):
    return koloda.load("peklo", options=options, players=players)


def seed_with_dealer(game, dealer: int) -> int:
    for seed in range(200):
        if game.new_initial_state(seed).dealer == dealer:
            return seed
    raise AssertionError("no seed gives that dealer")


def bids(s):
    return [get_var(s, ("bid", p)) for p in range(s.n)]


def tricks(s):
    return [get_var(s, ("tricks", p)) for p in range(s.n)]


def scores(s):
    return [get_var(s, ("score", p)) for p in range(s.n)]


# The scripted deal: 4 players, dealer P0 (so P1 bids and leads first), 3 cards each, 7H turned up.
HANDS = ["3S 6D 9C", "AS 2H 3C", "KS 5S 4D", "2S AH 5C"]


def scripted(**options):
    g = peklo(4, deal_size=3, **options)
    s = new_state(g, seed_with_dealer(g, 0), hands=HANDS, then="7H")
    assert s.dealer == 0
    return s


def play_scripted_tricks(s):
    """Trick 1: P1 3C, P2 KS (void), P3 5C, P0 9C -> P0 (highest club; the off-suit king does not win).
    Trick 2: P0 6D, P1 2H (void, trumps), P2 4D, P3 2S -> P1 (the lowest trump beats the suit led).
    Trick 3: P1 AS, P2 5S, P3 AH (trump), P0 3S -> P3."""
    for p, c in [(1, "3C"), (2, "KS"), (3, "5C"), (0, "9C")]:
        assert s.current_player() == p
        act(s, f"play {c}")
    for p, c in [(0, "6D"), (1, "2H"), (2, "4D"), (3, "2S")]:
        assert s.current_player() == p
        act(s, f"play {c}")
    for p, c in [(1, "AS"), (2, "5S"), (3, "AH"), (0, "3S")]:
        assert s.current_player() == p
        act(s, f"play {c}")


def bid_all(s, numbers):
    for n in numbers:
        act(s, f"bid {n}")


# ------------------------------------------------------------------ the deal
def test_deck_is_full_52_ace_high():
    g = peklo()
    assert g.cards.size == 52
    assert g.cards.order[14] > g.cards.order[13] > g.cards.order[2]


@pytest.mark.parametrize("k", [1, 3, 7])
def test_deal_k_gives_k_cards_and_turns_up_trump(k):
    g = peklo(4, deal_size=k)
    s = g.new_initial_state(9)
    conservation(s)
    for p in range(4):
        assert len(hand(s, p)) == k
    assert get_var(s, "cards") == k
    up = zone_cards(s, "trump_card")
    assert len(up) == 1
    assert get_var(s, "trump") == g.cards.suits[card(g, up[0])]
    assert len(zone_cards(s, "stock")) == 52 - 4 * k - 1     # the rest is out of play
    for p in range(4):
        assert up[0] not in hand(s, p)


def test_the_next_card_is_turned_up_for_trump():
    s = scripted()
    for p in range(4):
        assert hand(s, p) == HANDS[p].split()
    assert zone_cards(s, "trump_card") == ["7H"]
    assert get_var(s, "trump") == suit("hearts")


def test_trump_card_stays_out_of_play():
    s = scripted()
    bid_all(s, [1, 1, 0, 1])
    play_scripted_tricks(s)
    assert s.is_terminal()
    assert zone_cards(s, "trump_card") == ["7H"]
    conservation(s)


def random_play(s, rng, on_deal_start=None, limit=20000):
    last_deal = None
    for _ in range(limit):
        if s.is_terminal():
            return
        if s.deal_number != last_deal:
            last_deal = s.deal_number
            if on_deal_start:
                on_deal_start(s)
        s.apply_action(rng.choice(s.legal_actions()))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("players,last", [(3, 17), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_cycle_length_by_player_count_and_last_deal_without_trump(players, last):
    g = peklo(players)
    s = g.new_initial_state(players * 7)
    seen = []

    def record(st):
        seen.append((st.deal_number, st.dealer, [len(hand(st, p)) for p in range(players)],
                     get_var(st, "trump"), zone_cards(st, "trump_card")))

    random_play(s, random.Random(players), record)
    assert [d for d, *_ in seen] == list(range(1, last + 1))
    first_dealer = seen[0][1]
    for deal, dealer, sizes, trump, up in seen:
        assert sizes == [deal] * players                     # deal k gives k cards
        assert dealer == (first_dealer + deal - 1) % players  # the deal passes in turn
        if deal < last:
            assert len(up) == 1 and trump == g.cards.suits[card(g, up[0])]
        else:
            assert trump is None and up == []                  # the last deal has no trump
    assert s.is_terminal()


def test_last_deal_no_trump_and_suit_led_wins():
    # 4 players, 13 cards each: the whole deck is dealt, nothing is turned up.
    g = peklo(4, deal_size=13)
    ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    hands = [" ".join(r + x for r in ranks) for x in "SCDH"]   # P0 spades, P1 clubs, P2 diamonds, P3 hearts
    s = new_state(g, seed_with_dealer(g, 0), hands=hands)
    assert get_var(s, "trump") is None
    assert zone_cards(s, "trump_card") == [] and zone_cards(s, "stock") == []
    bid_all(s, [0, 0, 0, 0])
    act(s, "play 2C")
    act(s, "play AD")
    act(s, "play AH")
    act(s, "play AS")
    assert tricks(s) == [0, 1, 0, 0]
    assert s.current_player() == 1


@pytest.mark.parametrize("players,size", [(3, 17), (5, 10), (6, 8), (7, 7)])
def test_a_single_deal_of_the_last_deals_size_turns_up_trump_when_a_card_is_left(players, size):
    # "the last deal of the cycle is always played without trump" is about the cycle; one deal has trump
    g = peklo(players, deal_size=size)
    s = g.new_initial_state(4)
    up = zone_cards(s, "trump_card")
    assert len(up) == 1 and get_var(s, "trump") == g.cards.suits[card(g, up[0])]
    assert len(zone_cards(s, "stock")) == 52 - players * size - 1


def test_a_single_deal_of_seventeen_trumps_the_suit_led():
    g = peklo(3, deal_size=17)
    ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    hands = {"P1 hand": [r + "S" for r in ranks] + ["2H", "3H", "4H", "5H"],
             "P2 hand": [r + "C" for r in ranks] + ["6H", "7H", "8H", "9H"],
             "P3 hand": [r + "D" for r in ranks] + ["10H", "JH", "QH", "KH"],
             "trump_card": "AH"}
    s = g.new_initial_state(0, dealer=2, hands=hands)
    assert get_var(s, "trump") == suit("hearts") and zone_cards(s, "stock") == []
    bid_all(s, [0, 0, 0])
    for c in ("AS", "6H", "10H"):              # P2 and P3 are void in spades and trump
        act(s, f"play {c}")
    assert tricks(s) == [0, 0, 1]              # without trump the ace led would have taken it


def test_option_no_trump_plays_the_single_deal_without_trump():
    g = peklo(4, deal_size=3, no_trump=True)
    s = g.new_initial_state(4)
    assert get_var(s, "trump") is None and zone_cards(s, "trump_card") == []
    assert len(zone_cards(s, "stock")) == 52 - 12


def test_deal_size_larger_than_the_deck_allows_is_a_clear_error():
    # deal_size accepts up to 17 (for 3 players); 4 x 14 = 56 > 52 cannot be dealt: said at load, located
    with pytest.raises(koloda.RuleError, match="needs 56 cards") as info:
        peklo(4, deal_size=14)
    assert info.value.span.file.endswith("peklo.yaml")


# ------------------------------------------------------------------ bidding
@pytest.mark.parametrize("dealer", [0, 2])
def test_bidding_once_each_from_left_of_dealer(dealer):
    g = peklo(4, deal_size=3)
    s = g.new_initial_state(seed_with_dealer(g, dealer))
    order = []
    for n in (2, 0, 3, 1):
        assert g.flow.phases[s.phase].name == "bidding"
        order.append(s.current_player())
        act(s, f"bid {n}")
    assert order == [(dealer + 1 + j) % 4 for j in range(4)]
    assert g.flow.phases[s.phase].name == "play"
    expect = [None] * 4
    for who, n in zip(order, (2, 0, 3, 1)):
        expect[who] = n
    assert bids(s) == expect
    assert s.current_player() == (dealer + 1) % 4      # the player after the dealer leads


@pytest.mark.parametrize("k", [1, 3, 5])
def test_bids_from_zero_to_k(k):
    g = peklo(4, deal_size=k)
    s = g.new_initial_state(1)
    for _ in range(4):
        assert legal(s) == [f"bid {n}" for n in range(k + 1)]
        act(s, "bid 0")


def test_without_hook_dealer_may_make_the_sum():
    s = scripted()
    bid_all(s, [1, 0, 1])
    assert legal(s) == ["bid 0", "bid 1", "bid 2", "bid 3"]


def test_hook_forbids_exactly_the_dealers_bid_that_makes_k():
    s = scripted(hook=True)
    bid_all(s, [1, 0, 1])
    assert s.current_player() == s.dealer
    assert legal(s) == ["bid 0", "bid 2", "bid 3"]


def test_hook_can_forbid_zero():
    s = scripted(hook=True)
    bid_all(s, [1, 1, 1])
    assert legal(s) == ["bid 1", "bid 2", "bid 3"]


def test_hook_forbids_nothing_when_the_sum_is_already_over():
    s = scripted(hook=True)
    bid_all(s, [2, 2, 0])
    assert legal(s) == ["bid 0", "bid 1", "bid 2", "bid 3"]


def test_hook_does_not_bind_the_other_players():
    s = scripted(hook=True)
    bid_all(s, [3])
    assert legal(s) == ["bid 0", "bid 1", "bid 2", "bid 3"]    # 3 + 0 == k is fine for a non-dealer
    bid_all(s, [0])
    assert legal(s) == ["bid 0", "bid 1", "bid 2", "bid 3"]


# ------------------------------------------------------------------ trick play
def test_follow_suit_if_you_can():
    s = scripted()
    bid_all(s, [1, 1, 0, 1])
    act(s, "play 3C")
    assert sorted(legal(s, plain=True)) == ["play 4D", "play 5S", "play KS"]     # P2 is void in clubs
    act(s, "play KS")
    assert legal(s, plain=True) == ["play 5C"]                                   # P3 holds a club
    act(s, "play 5C")
    assert legal(s, plain=True) == ["play 9C"]


def test_leader_may_lead_anything():
    s = scripted()
    bid_all(s, [1, 1, 0, 1])
    assert sorted(legal(s, plain=True)) == ["play 2H", "play 3C", "play AS"]


def test_void_may_play_anything_including_trump():
    s = scripted()
    bid_all(s, [1, 1, 0, 1])
    for c in ("3C", "KS", "5C", "9C"):
        act(s, f"play {c}")
    act(s, "play 6D")
    assert sorted(legal(s, plain=True)) == ["play 2H", "play AS"]


def test_trick_winners_and_winner_leads():
    s = scripted()
    bid_all(s, [1, 1, 0, 1])
    for c in ("3C", "KS", "5C", "9C"):
        act(s, f"play {c}")
    # the highest of the suit led wins; the off-suit king does not
    assert tricks(s) == [1, 0, 0, 0]
    assert s.current_player() == 0
    assert zone_cards(s, "trick") == []
    assert sorted(zone_cards(s, ("won", 0))) == sorted(["3C", "KS", "5C", "9C"])
    for c in ("6D", "2H", "4D", "2S"):
        act(s, f"play {c}")
    # the lowest trump beats the suit led
    assert tricks(s) == [1, 1, 0, 0]
    assert s.current_player() == 1
    conservation(s)


def test_highest_trump_wins_among_trumps():
    g = peklo(4, deal_size=1)
    s = new_state(g, seed_with_dealer(g, 0), hands=["5H", "AS", "3H", "KS"], then="2H")
    bid_all(s, [0, 0, 0, 0])
    for c in ("AS", "3H", "KS", "5H"):
        act(s, f"play {c}")
    assert tricks(s) == [1, 0, 0, 0]     # 5H over 3H; the ace of the suit led loses to any trump


def test_trump_led_highest_trump_wins():
    g = peklo(4, deal_size=1)
    s = new_state(g, seed_with_dealer(g, 0), hands=["AC", "4D", "QD", "9D"], then="2D")
    bid_all(s, [0, 0, 0, 0])
    for c in ("4D", "QD", "9D", "AC"):
        act(s, f"play {c}")
    assert tricks(s) == [0, 0, 1, 0]


def test_ace_is_high_in_the_suit_led():
    g = peklo(3, deal_size=1)
    s = new_state(g, seed_with_dealer(g, 0), hands=["KS", "2S", "AS"], then="2H")
    bid_all(s, [0, 0, 0])
    for c in ("2S", "AS", "KS"):
        act(s, f"play {c}")
    assert tricks(s) == [0, 0, 1]


# ------------------------------------------------------------------ scoring
def test_scoring_exact_bid_is_tricks_plus_ten_missed_is_tricks():
    s = scripted()
    bid_all(s, [1, 1, 0, 1])          # P1 1, P2 1, P3 0, P0 1
    play_scripted_tricks(s)
    assert tricks(s) == [1, 1, 0, 1]
    assert bids(s) == [1, 1, 1, 0]
    assert scores(s) == [11, 11, 0, 1]


def test_option_missed_bid_penalty():
    s = scripted(missed_bid_penalty=True)
    bid_all(s, [1, 3, 3, 1])          # P1 1, P2 3, P3 3, P0 1
    play_scripted_tricks(s)
    assert bids(s) == [1, 1, 3, 3]
    assert scores(s) == [11, 11, -3, -2]


def test_zero_bid_made_scores_ten():
    s = scripted()
    bid_all(s, [1, 0, 1, 1])          # P2 bids 0 and takes none
    play_scripted_tricks(s)
    assert scores(s)[2] == 10


def test_deal_size_plays_a_single_deal_and_highest_total_wins():
    s = scripted()
    bid_all(s, [0, 0, 1, 1])          # P1 0 (takes 1), P2 0 (takes 0), P3 1 (takes 1), P0 1 (takes 1)
    play_scripted_tricks(s)
    assert s.is_terminal()
    assert s.deal_number == 1
    assert scores(s) == [11, 1, 10, 11]
    assert s.scores() == [11, 1, 10, 11]
    assert s.returns() == [0.5, 0.0, 0.0, 0.5]


def test_sole_winner_takes_the_whole_return():
    s = scripted()
    bid_all(s, [0, 1, 0, 1])
    play_scripted_tricks(s)
    assert scores(s) == [11, 1, 0, 1]
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]


# ------------------------------------------------------------------ whole cycles against a reference
def reference_winner(game, played, trump):
    """played: [(player, card)] in order. Highest trump, else highest card of the suit led."""
    suits, ranks, order = game.cards.suits, game.cards.ranks, game.cards.order
    led = suits[played[0][1]]
    pool = [pc for pc in played if trump is not None and suits[pc[1]] == trump] or \
           [pc for pc in played if suits[pc[1]] == led]
    return max(pool, key=lambda pc: order[ranks[pc[1]]])[0]


@pytest.mark.parametrize("players,options", [(4, {}), (5, {"missed_bid_penalty": True}),
                                             (3, {"hook": True, "missed_bid_penalty": True})])
def test_random_cycle_against_reference(players, options):
    g = peklo(players, **options)
    s = g.new_initial_state(17)
    rng = random.Random(17)
    trick_zone = g.layout.zone_base["trick"]
    expected = [0] * players
    deals = 0
    while not s.is_terminal():
        phase = g.flow.phases[s.phase].name
        me = s.current_player()
        acts = s.legal_actions()
        if phase == "bidding":
            k = get_var(s, "cards")
            offered = sorted(int(g.action_to_string(a).split()[1]) for a in acts)
            forbidden = set()
            if options.get("hook") and me == s.dealer:
                forbidden = {k - sum(b for b in bids(s) if b is not None)}
            assert offered == [n for n in range(k + 1) if n not in forbidden]
            s.apply_action(rng.choice(acts))
            continue
        my_hand = s.zones[g.layout.zone_base["hand"] + me]
        trick = list(s.zones[trick_zone])
        if trick:
            led = g.cards.suits[trick[0]]
            follow = [c for c in my_hand if g.cards.suits[c] == led]
            allowed = follow or list(my_hand)
        else:
            allowed = list(my_hand)
        offered = [g.decode(a)[1]["c"] for a in acts]
        assert sorted(offered) == sorted(allowed)
        a = rng.choice(acts)
        c = g.decode(a)[1]["c"]
        if len(trick) < players - 1:
            s.apply_action(a)
            assert s.current_player() == (me + 1) % players
            continue
        played = [(s.by[x], x) for x in trick] + [(me, c)]
        w = reference_winner(g, played, get_var(s, "trump"))
        t = tricks(s)
        t[w] += 1
        b = bids(s)
        last = sum(len(s.zones[g.layout.zone_base["hand"] + p]) for p in range(players)) == 1
        s.apply_action(a)
        if not last:
            assert tricks(s) == t
            assert s.current_player() == w            # the winner leads
            continue
        deals += 1
        for p in range(players):
            if t[p] == b[p]:
                expected[p] += t[p] + 10
            elif options.get("missed_bid_penalty"):
                expected[p] -= abs(t[p] - b[p])
            else:
                expected[p] += t[p]
        assert scores(s) == expected
    assert deals == 52 // players
    best = max(expected)
    winners = [p for p in range(players) if expected[p] == best]
    assert s.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(players)]
