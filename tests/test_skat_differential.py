"""Skat against OpenSpiel's `skat`: the same deal and the same moves give the same legal moves and
the same returns.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_skat_differential.py

The suite plays 40 seeded deals; `KOLODA_DIFFERENTIAL_GAMES=1000` plays that many (the 1,000 of
bench/README.md, "The same rules").

How the two are matched, read from OpenSpiel's skat.cc: its `skat` is a simplified game. Its 32
chance nodes deal one card each, the i-th to a fixed place (0-2, 11-14, 23-25 to player 0; 3-5,
15-18, 26-28 to player 1; 6-8, 19-22, 29-31 to player 2; 9 and 10 to the skat); player 0 is
forehand, so koloda's dealer is P3 and players 0, 1, 2 are P1, P2, P3. There is no auction: from
player 0 each names a game or passes (`unknown/pass`, `diamonds` ... `grand`, `null`) and the first
to name one plays it, takes the skat and lays two cards away, one move each: koloda's option
`first_come`. Player 0 leads. OpenSpiel returns (points - 60) / 120 to the declarer and
(team points - 60) / 240 to each defender, a null ±0.25 / ∓0.125, and 0 to all when every player
passes: koloda's option `card_points` scores 240 times that, one deal (`deals: 1`).
"""
from __future__ import annotations

import functools
import os
import random

import pytest

import koloda

pyspiel = pytest.importorskip("pyspiel")

SEEDS = range(int(os.environ.get("KOLODA_DIFFERENTIAL_GAMES", "40")))
OPTIONS = {"first_come": True, "card_points": True, "deals": 1}
GAMES = {"unknown/pass": "pass", "diamonds": "play diamonds", "hearts": "play hearts",
         "spades": "play spades", "clubs": "play clubs", "grand": "play grand", "null": "play null"}


@functools.lru_cache(maxsize=None)
def skat():
    return koloda.load("skat", OPTIONS, 3)


def card_name(text: str) -> str:
    """OpenSpiel's `CT` (suit, then rank) as koloda's `10C`."""
    suit, rank = text[0], text[1:]
    assert suit in "DHSC" and rank in "789TJQKA", f"not a card: {text}"
    return ("10" if rank == "T" else rank) + suit


def place(i: int) -> str:
    """Where OpenSpiel deals its i-th card."""
    if i in (9, 10):
        return "skat"
    for p, rounds in enumerate(((0, 3), (3, 6), (6, 9))):
        first, second, third = range(*rounds), range(11 + 4 * p, 15 + 4 * p), range(23 + 3 * p, 26 + 3 * p)
        if i in first or i in second or i in third:
            return f"P{p + 1} hand"
    raise AssertionError(i)


def play_both(seed: int) -> tuple[int, list[float]]:
    """One deal played in both engines with the same random choices; returns the moves compared and
    OpenSpiel's returns."""
    rng = random.Random(f"skat/{seed}")
    spiel = pyspiel.load_game("skat").new_initial_state()
    hands: dict[str, list[str]] = {}
    i = 0
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        hands.setdefault(place(i), []).append(card_name(spiel.action_to_string(card)))
        spiel.apply_action(card)
        i += 1
    assert i == 32
    state = skat().new_initial_state(seed, dealer=2, hands=hands)
    laid_away = -1               # cards still to lay away once a game is named
    moves = 0
    while not spiel.is_terminal():
        assert not state.is_terminal()
        player = spiel.current_player()
        assert state.current_player() == player, f"after {moves} moves"
        theirs = {}
        for a in spiel.legal_actions():
            word = spiel.action_to_string(player, a)
            theirs[GAMES[word] if word in GAMES else ("lay away " if laid_away > 0 else "play ") + card_name(word)] = a
        ours = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert ours == sorted(theirs), f"after {moves} moves"
        text = rng.choice(ours)
        spiel.apply_action(theirs[text])
        state.apply_action(state.string_to_action(text))
        if text.startswith("play ") and text[5:] in ("diamonds", "hearts", "spades", "clubs", "grand", "null"):
            laid_away = 2
        elif text.startswith("lay away"):
            laid_away -= 1
        moves += 1
    assert state.is_terminal()
    returns = spiel.returns()
    assert [float(x) for x in state.scores()] == [round(240 * r, 9) for r in returns]   # 240ths, exact after rounding
    return moves, returns


def test_skat_agrees_with_openspiel():
    outcomes = set()
    for seed in SEEDS:
        moves, returns = play_both(seed)
        assert moves >= 1
        outcomes.add(returns[0] > 0)
        outcomes.add(("null", returns[0]) if abs(returns[0]) in (0.25, 0.125) else None)
    # the seeds reach games won and lost by the declarer, null games among them
    assert {True, False} <= outcomes
    assert any(isinstance(o, tuple) for o in outcomes)
