"""Euchre against OpenSpiel's `euchre`: the same deal and the same moves give the same legal moves
and the same points, with and without "stick the dealer".

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_euchre_differential.py

How the two are matched, read from pyspiel itself: `euchre` starts with a chance node for the
dealer (seats N E S W are P1..P4, so partners N+S are P1+P3), then one for each of the 20 cards
dealt, the i-th to seat (dealer + i) mod 4, then the turned card. A trump action (`Hearts`) in
the first round is koloda's `order up` (or the dealer's `pick up`), in the second `name hearts`;
a card is the dealer's `discard` right after the first round's trump, else `play`. OpenSpiel
plays one hand and returns the makers' points to the makers and their negation to the
defenders, which is koloda's option `single_hand`; its dealer may not discard the card just
picked up, koloda's option `keep_upcard`; its `allow_lone_defender` is koloda's
`lone_defender`, and OpenSpiel's `Alone` and `Partner` after the maker's are koloda's
`defend alone` and `defend with partner`.
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda

pyspiel = pytest.importorskip("pyspiel")

SEEDS = range(24)
SUIT_WORDS = {"Clubs": "clubs", "Diamonds": "diamonds", "Hearts": "hearts", "Spades": "spades"}


@functools.lru_cache(maxsize=None)
def euchre(stick: bool, lone: bool):
    return koloda.load("euchre", {"single_hand": True, "stick_the_dealer": stick, "keep_upcard": True,
                                  "lone_defender": lone}, 4)


def card_name(text: str) -> str:
    """OpenSpiel's `CT` (suit, then rank) as koloda's `10C`."""
    suit, rank = text[0], text[1:]
    assert suit in "CDHS" and rank in "9TJQKA", f"not a card: {text}"
    return ("10" if rank == "T" else rank) + suit


class Reader:
    """Names OpenSpiel's moves as koloda writes them, following the bidding to know its round."""

    def __init__(self, dealer: int):
        self.dealer = dealer
        self.passes = 0
        self.discarding = False
        self.maker_chose = False

    def text(self, state, action: int) -> str:
        player = state.current_player()
        word = state.action_to_string(player, action)
        if word == "Pass":
            return "pass"
        if word in SUIT_WORDS:
            if self.passes < 4:
                return "pick up" if player == self.dealer else "order up"
            return f"name {SUIT_WORDS[word]}"
        if word == "Alone":
            return "defend alone" if self.maker_chose else "go alone"
        if word == "Partner":
            return "defend with partner" if self.maker_chose else "play with partner"
        return ("discard " if self.discarding else "play ") + card_name(word)

    def applied(self, text: str) -> None:
        if text == "pass":
            self.passes += 1
        self.discarding = text in ("order up", "pick up")
        self.maker_chose = self.maker_chose or text in ("go alone", "play with partner")


def play_both(seed: int, stick: bool, lone: bool) -> tuple[int, list[float]]:
    """One hand played in both engines with the same random choices; returns the moves compared
    and the returns."""
    rng = random.Random(f"euchre/{seed}/{stick}/{lone}")
    spiel = pyspiel.load_game("euchre", {"stick_the_dealer": stick, "allow_lone_defender": lone}).new_initial_state()
    dealer = rng.choice([d for d, _ in spiel.chance_outcomes()])
    spiel.apply_action(dealer)
    dealt = []
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        dealt.append(card_name(spiel.action_to_string(card)))
        spiel.apply_action(card)
    assert len(dealt) == 21
    hands = {f"P{p + 1} hand": [c for i, c in enumerate(dealt[:20]) if (dealer + i) % 4 == p] for p in range(4)}
    hands["upcard"] = dealt[20:]

    state = euchre(stick, lone).new_initial_state(seed, dealer=dealer, hands=hands)
    reader = Reader(dealer)
    moves = 0
    while not spiel.is_terminal():
        assert not state.is_terminal()
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        theirs = {reader.text(spiel, a): a for a in spiel.legal_actions()}
        ours = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert ours == sorted(theirs), f"after {moves} moves"
        text = rng.choice(ours)
        spiel.apply_action(theirs[text])
        state.apply_action(state.string_to_action(text))
        reader.applied(text)
        moves += 1
    assert state.is_terminal()
    returns = spiel.returns()
    assert [float(x) for x in state.scores()] == returns
    return moves, returns


@pytest.mark.parametrize("stick,lone", [(False, False), (True, False), (True, True)])
def test_euchre_agrees_with_openspiel(stick, lone):
    outcomes = set()
    for seed in SEEDS:
        moves, returns = play_both(seed, stick, lone)
        assert moves >= 4
        outcomes.add(returns[0])
    # the seeds reach hands won and lost by either side, marches included; with lone defenders,
    # lone hands and euchres against them too
    assert {1.0, -1.0, 2.0, -2.0} <= outcomes
    if lone:
        assert {4.0, -4.0} <= outcomes
