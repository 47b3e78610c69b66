"""Contract Bridge against OpenSpiel's `bridge`: the same deal, the same calls and the same plays give
the same legal moves, the same player to move and the same points.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_bridge_differential.py

How the two are matched, read from OpenSpiel's source (open_spiel/games/bridge/bridge.cc and
bridge_scoring.cc): `bridge` is one deal, scored as duplicate bridge is (no honours). With
`use_double_dummy_result=false` the play is played out. Its chance nodes deal the i-th card to
player i mod 4, North (player 0, koloda's P1) first; koloda is given those hands. Its parameter
`dealer` is koloda's dealer, and `dealer_vul`/`non_dealer_vul` are koloda's option `vulnerable`.
Its actions are the 52 cards (suit fastest: ♣2 ♦2 ♥2 ♠2 ♣3 …), then pass, double, redouble and the
35 bids (1♣ 1♦ 1♥ 1♠ 1NT 2♣ …). In the play OpenSpiel's player to move is the declarer whenever the
dummy's hand plays, as in koloda. Its returns are the declarer's score for the declarer's side and
its negative for the other; koloda scores each side's points, so a side's return is its score
minus the other side's.
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda

pyspiel = pytest.importorskip("pyspiel")

SUITS = ["C", "D", "H", "S"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
STRAINS = ["clubs", "diamonds", "hearts", "spades", "no trump"]
VULNERABLE = {(False, False): "none", (True, False): "dealer", (False, True): "others", (True, True): "both"}

# (dealer, dealer_vul, non_dealer_vul, seed): every dealer, every vulnerability
TABLES = [(0, False, False, 0), (1, True, False, 1), (2, False, True, 2), (3, True, True, 3),
          (0, True, True, 4), (2, False, False, 5)]


@functools.lru_cache(maxsize=None)
def bridge(vulnerable: str):
    return koloda.load("bridge", {"scoring": "duplicate", "vulnerable": vulnerable})


def card_name(action: int) -> str:
    return RANKS[action // 4] + SUITS[action % 4]


def move_text(action: int) -> str:
    """OpenSpiel's action id as koloda's move text."""
    if action < 52:
        return f"play {card_name(action)}"
    call = action - 52
    if call < 3:
        return ["pass", "double", "redouble"][call]
    level, strain = divmod(call - 3, 5)
    return f"bid {level + 1} {STRAINS[strain]}"


def play_both(dealer: int, dealer_vul: bool, non_dealer_vul: bool, seed: int) -> tuple[int, bool]:
    """One deal in both engines with the same random choices (passing often, so that auctions stop
    at every level and some deals are passed out, and doubling often); returns the moves compared and whether the deal
    was played."""
    rng = random.Random(f"bridge/{dealer}/{seed}")
    params = {"use_double_dummy_result": False, "dealer": dealer,
              "dealer_vul": dealer_vul, "non_dealer_vul": non_dealer_vul}
    spiel = pyspiel.load_game("bridge", params).new_initial_state()
    dealt = []
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        dealt.append(card_name(card))
        spiel.apply_action(card)
    hands = {f"P{p + 1} hand": dealt[p::4] for p in range(4)}
    state = bridge(VULNERABLE[dealer_vul, non_dealer_vul]).new_initial_state(seed, dealer=dealer, hands=hands)
    moves = 0
    played = False
    while not spiel.is_terminal():
        assert not state.is_terminal(), f"after {moves} moves"
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        theirs = {move_text(a): a for a in spiel.legal_actions()}
        # the dummy's cards are played `from dummy`: the same card for OpenSpiel
        ours = {state.action_to_string(a, plain=True).removesuffix(" from dummy"): a for a in state.legal_actions()}
        assert sorted(ours) == sorted(theirs), f"after {moves} moves"
        doubles = [t for t in ("double", "redouble") if t in theirs]
        if doubles and rng.random() < 0.5:
            text = doubles[0]
        elif "pass" in theirs and rng.random() < 0.7:
            text = "pass"
        else:
            text = rng.choice(sorted(ours))
        played = played or text.startswith("play")
        spiel.apply_action(theirs[text])
        state.apply_action(ours[text])
        moves += 1
    assert state.is_terminal()
    scores = [float(x) for x in state.scores()]
    assert [scores[p] - scores[(p + 1) % 4] for p in range(4)] == spiel.returns(), str(spiel)
    return moves, played


@pytest.mark.parametrize("table", TABLES)
def test_bridge_agrees_with_openspiel(table):
    moves, played = play_both(*table)
    assert moves >= 4 and (not played or moves >= 52 + 4)


def test_the_tables_play_out_contracts_and_a_passed_out_deal():
    """The seeds above are chosen so the comparison covers played deals and a deal passed out."""
    results = [play_both(*table)[1] for table in TABLES]
    assert any(results) and not all(results)
