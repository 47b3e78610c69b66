"""Durak (koloda/rules/durak.yaml): a test for every rule of its notes, in set-up positions.

Players are counted from 0; cards are written `7S`, `10H`. Trump is set to clubs in the positions.
"""
from __future__ import annotations

import pytest

import koloda

from koloda.interpreter.game import compile_expression

from helpers import act, conservation, get_var, hand, legal, setup, zone_cards


@pytest.fixture(scope="module")
def two():
    return koloda.load("durak")


@pytest.fixture(scope="module")
def three():
    return koloda.load("durak", players=3)


@pytest.fixture(scope="module")
def transfer():
    return koloda.load("durak", players=3, options={"transfer": True})


def position(game, hands, stock="", trump_card="9C", current=0, seed=1):
    s = game.new_initial_state(seed)
    zones = {("hand", p): h for p, h in enumerate(hands)}
    zones.update({"stock": stock, "trump_card": trump_card, "attack": "", "beaten": ""})
    setup(s, zones=zones, vars={"trump": "clubs", "took": False, "defender": None}, current=current,
          step="lead", rest="discard")
    return s


RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_the_deal_six_cards_each_and_the_trump_turned_up(two):
    s = two.new_initial_state(5)
    assert two.cards.size == 36
    assert [len(hand(s, p)) for p in range(2)] == [6, 6]
    assert len(zone_cards(s, "stock")) == 23 and len(zone_cards(s, "trump_card")) == 1
    same, _ = compile_expression(two, "trump == trump_card.top.suit")
    assert same(s, {}) is True


def test_six_players_the_last_card_dealt_is_shown_for_trumps():
    # 36 cards, six each: no talon and no card left to turn. "Козырем становится последняя сданная
    # карта, которая открывается, показывается всем и только потом отдаётся игроку"
    six = koloda.load("durak", players=6)
    for seed in range(4):
        s = six.new_initial_state(seed)
        assert [len(hand(s, p)) for p in range(6)] == [6] * 6
        assert zone_cards(s, "stock") == [] and zone_cards(s, "trump_card") == []
        shown = hand(s, s.dealer)[-1]                                   # dealt last, to the dealer
        same, _ = compile_expression(six, "trump == dealer.hand.top.suit")
        assert same(s, {}) is True
        card_id = six.cards.parse(shown)[0]
        assert s.known[card_id] == (1 << 6) - 1                         # every player saw it
        for p in range(6):
            if p != s.dealer:
                said = s.observation(p).get("said", [])
                assert any(f"P{s.dealer + 1} shows the last card dealt" in m for m in said), said
        others = [c for p in range(6) if p != s.dealer for c in hand(s, p)]
        assert not any(s.known[six.cards.parse(c)[0]] == (1 << 6) - 1 for c in others)
        trumps = [(RANKS.index(c[:-1]), p) for p in range(6) for c in hand(s, p) if c[-1] == shown[-1]]
        assert s.current_player() == min(trumps)[1]                   # the lowest trump attacks


def test_the_holder_of_the_lowest_trump_attacks_first(two):
    for seed in range(8):
        s = two.new_initial_state(seed)
        trump = zone_cards(s, "trump_card")[0][-1]
        trumps = [(RANKS.index(c[:-1]), p) for p in range(2) for c in hand(s, p) if c[-1] == trump]
        assert s.current_player() == (min(trumps)[1] if trumps else (s.dealer + 1) % 2)


def test_the_defender_beats_higher_of_the_suit_or_any_trump_or_takes(two):
    s = position(two, ["9H 6S", "10H 7H KS 6C 8D"])
    act(s, "attack 9H")
    assert s.current_player() == 1 and get_var(s, "defender") == 1
    assert sorted(legal(s)) == sorted(["beat 9♥ with 10♥", "beat 9♥ with 6♣", "take"])


def test_throw_ins_only_of_ranks_on_the_table(two):
    s = position(two, ["9H 10S 9S 6D", "10H 7H KS 6C 8D AD"])
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    assert s.current_player() == 0
    assert sorted(legal(s)) == sorted(["throw 10♠", "throw 9♠", "pass"])     # 9 and 10 are on the table
    act(s, "throw 10♠")
    assert s.current_player() == 1
    assert sorted(legal(s)) == sorted(["beat 10♠ with K♠", "beat 10♠ with 6♣", "take"])


def test_no_more_cards_than_the_defender_holds(two):
    s = position(two, ["9H 9S 9D 6D", "10H 7S"])
    act(s, "attack 9H")
    act(s, "take")
    # the defender holds 2 cards: one is unbeaten already, so one more may be thrown in, then no more
    assert sorted(legal(s)) == sorted(["throw 9♠", "throw 9♦", "pass"])
    act(s, "throw 9♠")
    # the attacker may throw nothing more: passed over, and the defender (who took) too: the bout is over,
    # the defender takes both, and (two players) the attacker attacks again
    assert s.current_player() == 0 and s.step == "lead" and "9D" in hand(s, 0)
    assert sorted(hand(s, 1)) == sorted(["10H", "7S", "9H", "9S"])


def test_at_most_six_cards_a_bout(two):
    s = position(two, ["6S 6H 6D 8S 8H 9S 9H", "8C 9C 10C JC QC KC AC"], trump_card="10D")
    act(s, "attack 6S")
    for attack, trump, throw in [("6♠", "8♣", "6♥"), ("6♥", "9♣", "6♦"), ("6♦", "10♣", "8♠"), ("8♠", "J♣", "8♥"),
                                 ("8♥", "Q♣", "9♠")]:
        act(s, f"beat {attack} with {trump}")
        act(s, f"throw {throw}")
    act(s, "beat 9♠ with K♣")
    # six cards played at the defender: the 9♥ (a 9 lies on the table) may not be thrown in; the bout is over
    assert s.current_player() == 1 and s.step == "lead"
    assert hand(s, 0) == ["9H", "10D"]                             # (and the attacker drew the trump card)
    assert len(zone_cards(s, "beaten")) == 0


def test_a_bout_beaten_off_goes_to_the_discard_and_the_defender_attacks(two):
    s = position(two, ["9H 6S", "10H 7H KS 6C 8D"], stock="AS AH")
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    # nothing to throw in: the attacker is passed over, the defender too; the bout is over
    assert zone_cards(s, "beaten") == [] and s.current_player() == 1 and s.step == "lead"
    assert len(s.zones[s.game.layout.zone_base["discard"]]) >= 2
    conservation(s)


def test_taking_and_the_next_attacker_is_after_the_defender(three):
    s = position(three, ["9H 6S 7S", "10S 7H", "8D 8C"])
    act(s, "attack 9H")
    act(s, "take")
    assert get_var(s, "took") is True
    assert s.current_player() == 2 and s.step == "lead"            # P3 attacks next
    assert "9H" in hand(s, 1) and zone_cards(s, "attack") == []


def test_refilling_the_attacker_first_the_defender_last_the_trump_card_last(three):
    s = position(three, ["9H 6S 7S 8S JS QS", "10H 7H 6C 8D 9D 10D", "AS KS QS JS 6D 7D".replace("QS JS", "QD JD")],
                 stock="KD", trump_card="9C")
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    # nobody can throw in: the bout is beaten off. P1 (the attacker) draws first, the stock's last card;
    # P3 holds six; the defender P2 draws last, the trump card
    assert "KD" in hand(s, 0) and len(hand(s, 0)) == 6
    assert "9C" in hand(s, 1) and len(hand(s, 1)) == 6 and len(hand(s, 2)) == 6
    assert zone_cards(s, "stock") == [] and zone_cards(s, "trump_card") == []
    assert s.current_player() == 1                                 # beaten off: the defender attacks
    conservation(s)


def test_the_last_player_holding_cards_is_the_durak(two):
    s = position(two, ["9H", "10H 7S"], stock="", trump_card="")
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    assert s.is_terminal()
    assert get_var(s, "fool") == 1 and s.returns() == [1.0, 0.0]


def test_a_draw_when_the_last_cards_go_together(two):
    s = position(two, ["9H", "10H"], stock="", trump_card="")
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    assert s.is_terminal() and get_var(s, "fool") is None and s.returns() == [0.5, 0.5]


def test_every_player_may_throw_in(three):
    s = position(three, ["9H 6S", "10H 7H KS", "9S 8D"])
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    # the attacker has no 9 or 10 to add and is passed over; P3 is offered
    assert s.current_player() == 2 and legal(s) == ["throw 9♠", "pass"]
    act(s, "throw 9♠")
    assert s.current_player() == 1


def test_transfer_passes_the_attack_on(transfer, three):
    s = position(transfer, ["9H 6S", "9S 7H KS", "8D 8C 7D"])
    act(s, "attack 9H")
    assert "transfer 9♠" in legal(s)
    act(s, "transfer 9♠")
    assert get_var(s, "defender") == 2 and s.current_player() == 2
    assert sorted(zone_cards(s, "attack")) == ["9H", "9S"]
    # without the option, there is no transfer
    s = position(three, ["9H 6S", "9S 7H KS", "8D 8C 7D"])
    act(s, "attack 9H")
    assert not any(m.startswith("transfer") for m in legal(s))


def test_no_transfer_to_a_player_who_cannot_beat_them_all(transfer):
    s = position(transfer, ["9H 6S", "9S 7H KS", "8D"])
    act(s, "attack 9H")
    assert not any(m.startswith("transfer") for m in legal(s))


@pytest.fixture(scope="module")
def four():
    return koloda.load("durak", players=4)


def test_throw_ins_are_offered_round_the_table_from_the_attacker(four):
    s = position(four, ["9S 7D", "9H 6S", "10H 7H KS", "9D 8D"], current=1)
    act(s, "attack 9H")
    assert get_var(s, "defender") == 2 and s.current_player() == 2
    act(s, "beat 9♥ with 10♥")
    # the attacker P2 has no 9 or 10 and is passed over; P4, next round the table from P2, before P1
    assert s.current_player() == 3 and legal(s) == ["throw 9♦", "pass"]


def test_refilling_goes_round_the_table_from_the_attacker(four):
    s = position(four, ["JH QH KH AH 6H", "9H 6S 7S 8S JS QS", "10H 7H 6C 8D 9D 10D", "AS KS 6D 7D 8H"],
                 stock="KD QD", trump_card="9C", current=1)
    act(s, "attack 9H")
    act(s, "beat 9♥ with 10♥")
    # beaten off, nobody can throw in: P2 (the attacker) draws the top card, then P4, then P1 the
    # trump card; the defender P3 comes last and finds nothing left
    assert "QD" in hand(s, 1) and "KD" in hand(s, 3) and "9C" in hand(s, 0)
    assert len(hand(s, 2)) == 5 and s.current_player() == 2
    conservation(s)


def test_players_out_of_the_game_are_passed_over(four):
    s = position(four, ["10H 7S", "9D", "9H 6S", ""], stock="", trump_card="", current=2)
    act(s, "attack 9H")
    assert get_var(s, "defender") == 0 and s.current_player() == 0
