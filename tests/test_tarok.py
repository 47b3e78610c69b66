"""Slovenian Tarok (koloda/rules/tarok.yaml): each rule in a position set up by hand, the deal given
card by card (P1 forehand, the dealer the last seat), the moves named by their texts."""
from __future__ import annotations

import koloda

TAROKS = [f"{i}T" for i in range(1, 23)]
SUITS = [r + s for s in "HD" for r in ("4", "3", "2", "1", "J", "C", "Q", "K")] + \
        [r + s for s in "SC" for r in ("7", "8", "9", "10", "J", "C", "Q", "K")]


def start(hands: dict[str, list[str]], talon: list[str], players: int = 3, **options):
    """A deal of these hands and talon (the talon's first card at the bottom)."""
    game = koloda.load("tarok", {"deals": 1, **options}, players)
    given = {f"{p} hand": " ".join(cards) for p, cards in hands.items()}
    given["talon"] = " ".join(reversed(talon))
    return game.new_initial_state(0, dealer=players - 1, hands=given)


def moves(state) -> set[str]:
    return {state.action_to_string(a, plain=True) for a in state.legal_actions()}


def play(state, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def three_hands():
    """16 cards each at three: P1 the high taroks, P2 the middle, P3 the low ones and the suits."""
    p1 = TAROKS[14:22] + SUITS[0:8]             # 15T..22T, all hearts
    p2 = TAROKS[6:14] + SUITS[8:16]             # 7T..14T, all diamonds
    p3 = TAROKS[1:6] + SUITS[16:27]             # 2T..6T, spades and three clubs
    talon = [TAROKS[0]] + SUITS[27:32]          # the pagat and five clubs
    return {"P1": p1, "P2": p2, "P3": p3}, talon


def test_bidding_starts_after_forehand_and_forehand_alone_may_say_klop_or_three():
    hands, talon = three_hands()
    s = start(hands, talon)
    assert s.current_player() == 1
    assert moves(s) == {"pass", "two", "one", "beggar", "solo_without", "open_beggar", "colour_valat", "valat"}
    play(s, "pass", "pass")
    assert s.current_player() == 0
    assert {"klop", "three", "two"} <= moves(s) and "pass" not in moves(s)


def test_forehand_may_hold_an_equal_bid_and_the_last_one_left_bids_again():
    hands, talon = three_hands()
    s = start(hands, talon)
    play(s, "two", "pass")
    assert "two" in moves(s)                    # forehand holds the two
    play(s, "two")
    assert "two" not in moves(s) and "one" in moves(s)   # P2 must go higher
    play(s, "pass")
    assert s.current_player() == 0 and "pass" not in moves(s)
    play(s, "two")
    assert s.current_player() == 0
    assert moves(s) == {"talon set 1", "talon set 2", "talon set 3"}


def test_talon_sets_and_what_may_be_laid_away():
    hands, talon = three_hands()
    s = start(hands, talon)
    play(s, "pass", "pass", "three", "talon set 1")
    # the pagat and two clubs taken; no tarok and no king laid away while a heart can go
    assert moves(s) == {"lay away " + c for c in SUITS[0:7]} | {"lay away " + c for c in ("10C", "JC")}


def test_klop_asks_to_beat_and_keeps_the_pagat_back():
    hands, talon = three_hands()
    s = start(hands, talon)
    play(s, "pass", "pass", "klop")
    assert s.current_player() == 0
    play(s, "play 1H")                          # forehand leads the 1 of hearts
    assert s.current_player() == 1 and moves(s) == {"play " + t for t in TAROKS[6:14]}   # no heart: a tarok
    play(s, "play 7T")
    # P3 has no heart; a tarok over 7T is due, and P3 has none higher: any tarok
    assert moves(s) == {"play " + t for t in TAROKS[1:6]}


def test_a_beggar_ends_when_the_declarer_takes_a_trick_and_costs_70():
    hands, talon = three_hands()
    s = start(hands, talon)
    play(s, "pass", "pass", "beggar")
    assert s.current_player() == 0               # the declarer leads
    play(s, "play 15T")
    assert moves(s) == {"play " + t for t in TAROKS[6:14]}   # none higher: any tarok
    play(s, "play 7T", "play 2T")
    assert s.is_terminal()
    assert [float(x) for x in s.scores()] == [-70.0, 0.0, 0.0]
