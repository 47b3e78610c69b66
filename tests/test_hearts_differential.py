"""Hearts against OpenSpiel's `hearts`: the same deal, the same passes and the same plays give
the same legal moves and the same points, under every table rule OpenSpiel's game knows.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_hearts_differential.py

How the two are matched, read from OpenSpiel's source (open_spiel/games/hearts/hearts.cc):
`hearts` is one deal. Its first chance node picks the pass direction (0 none, 1 left, 2 across,
3 right), which koloda's `first_pass` option sets for its first deal (`deals=1` plays one deal).
Then each card, the i-th to player i mod 4, North (player 0) first, as koloda deals when the
fourth seat deals. Players pass three cards one at a time, North first, and then the holder of
the 2 of clubs leads. Every OpenSpiel parameter is one of koloda's options of the same meaning.
OpenSpiel's returns are 26 minus the points taken, so they are compared with 26 minus koloda's
score for the deal.
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda
from helpers import spiel_card_name

pyspiel = pytest.importorskip("pyspiel")

DIRECTIONS = {0: "none", 1: "left", 2: "across", 3: "right"}

# OpenSpiel's parameter -> koloda's option of the same meaning
OPTIONS = {
    "pass_cards": "passing",
    "no_pts_on_first_trick": "clean_first_trick",
    "can_lead_any_club": "lead_any_club",
    "jd_bonus": "jack_of_diamonds",
    "avoid_all_tricks_bonus": "no_tricks_bonus",
    "must_break_hearts": "must_break_hearts",
    "qs_breaks_hearts": "queen_breaks_hearts",
    "can_lead_hearts_instead_of_qs": "hearts_instead_of_queen",
}

# the defaults, then each parameter turned against its default, then a few mixtures
DEFAULTS = pyspiel.load_game("hearts").get_parameters()
TABLES = [dict(DEFAULTS)] + [{**DEFAULTS, name: not value} for name, value in DEFAULTS.items()]
TABLES += [{name: random.Random(k).random() < 0.5 for name in DEFAULTS} for k in range(1)]
SEEDS = range(3)


@functools.lru_cache(maxsize=None)
def hearts(options: tuple):
    return koloda.load("hearts", dict(options))


def play_both(params: dict, seed: int) -> int:
    """One deal played in both engines with the same random choices; returns the moves compared."""
    rng = random.Random(f"{sorted(params.items())}/{seed}")
    spiel = pyspiel.load_game("hearts", params).new_initial_state()
    # its chance outcomes offer every direction even without `pass_cards`; its legal actions do not
    direction = rng.choice(spiel.legal_actions())
    spiel.apply_action(direction)
    dealt = []
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        dealt.append(spiel_card_name(spiel.action_to_string(card), rank_first=True))
        spiel.apply_action(card)
    hands = {f"P{p + 1} hand": dealt[p::4] for p in range(4)}

    options = {OPTIONS[name]: value for name, value in params.items()}
    options.update(first_pass=DIRECTIONS[direction], deals=1)
    state = hearts(tuple(sorted(options.items()))).new_initial_state(seed, dealer=3, hands=hands)
    passes = 12 if direction else 0
    moves = 0
    while not spiel.is_terminal():
        assert not state.is_terminal()
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        verb = "pass" if moves < passes else "play"
        theirs = {f"{verb} {spiel_card_name(spiel.action_to_string(a), rank_first=True)}": a
                  for a in spiel.legal_actions()}
        ours = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert ours == sorted(theirs), f"after {moves} moves"
        text = rng.choice(ours)
        spiel.apply_action(theirs[text])
        state.apply_action(state.string_to_action(text))
        moves += 1
    assert state.is_terminal()
    assert [26 - float(x) for x in state.scores()] == spiel.returns()
    return moves


@pytest.mark.parametrize("table", range(len(TABLES)))
def test_hearts_agrees_with_openspiel(table):
    params = TABLES[table]
    for seed in SEEDS:
        moves = play_both(params, seed)
        assert moves in (52, 64)
