"""Dou Dizhu against OpenSpiel's `dou_dizhu`: koloda's rule file (koloda/rules/doudizhu.yaml) and
OpenSpiel's own game, given the same deal, offer the same legal moves at every decision (the bids, then
every combination) and end with the same points.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. The suite plays a
sample; for more games:

    PYTHONPATH=. python tests/test_doudizhu_differential.py 1000     # 1000 games, 0 mismatches (2026-12-02)

koloda's file is loaded with its option `openspiel` (a bomb may beat the rocket, no chain from a rank
held four times: OpenSpiel's code). How the two are matched (open_spiel/games/dou_dizhu): OpenSpiel first draws the place in the deal of a
card turned up (its holder bids first), then deals 51 cards one at a time, the k-th (from 0) to player
k mod 3, and leaves the last three as the kitty. koloda's seed decides the deal and the first bidder (the
player after a dealer drawn by lot), so OpenSpiel is given place k = the first bidder and then koloda's
hands, card by card, in turn. A move is compared by its cards: OpenSpiel's action string
(`33344`, an airplane with its wings `333444-78`, `(BWJ)(CJ)`) is written from koloda's combination, whose
ranks are its values 3..15 and the jokers 16 and 17; passes and bids by their words. Each move is drawn at
random among OpenSpiel's legal moves and played on both sides. OpenSpiel's returns are compared with
koloda's points (`match: score`), as its returns are the stakes won and lost.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import koloda  # noqa: E402
from koloda.dsl.types import COMBO  # noqa: E402
from differential import count_mismatches, play_in_step  # noqa: E402
from helpers import zone_index  # noqa: E402

RANK_CHARS = "3456789TJQKA2"
SUIT_ORDER = "CDHS"
WINGED = ("airplane_solo", "airplane_pair")


def rank_text(value: int) -> str:
    """OpenSpiel's name of a rank by koloda's value of it."""
    return {16: "(BWJ)", 17: "(CJ)"}.get(value) or RANK_CHARS[value - 3]


def spiel_card(name: str) -> int:
    """OpenSpiel's card id (suit * 13 + rank, then the black and the red joker) of a koloda card name."""
    if name in ("BJ", "RJ"):
        return 52 if name == "BJ" else 53
    rank, suit = name[:-1], name[-1]
    index = RANK_CHARS.index("T" if rank == "10" else rank)
    return SUIT_ORDER.index(suit) * 13 + index


def move_text(game, action: int) -> str:
    """A koloda move as OpenSpiel's action string."""
    code, values = game.codec.decode(action)
    if code.name == "pass":
        return "Pass"
    if code.name == "bid":
        return f"Bid {values['n']}"
    (combo,) = [values[p.var] for p in code.params if p.type == COMBO]
    counts = dict(combo.counts)
    if combo.kind in WINGED:
        core = "".join(rank_text(v) * 3 for v in range(combo.low, combo.high + 1))
        wings = "".join(rank_text(v) * n for v, n in sorted(counts.items()) if not combo.low <= v <= combo.high)
        return core + "-" + wings
    return "".join(rank_text(v) * n for v, n in sorted(counts.items()))


def deal_both(game, theirs, seed: int):
    """koloda's deal of this seed, and OpenSpiel's state given the same deal."""
    k = game.new_initial_state(seed=seed)
    o = theirs.new_initial_state()
    first = k.current_player()
    o.apply_action(first)                         # the card turned up: dealt to the first bidder
    hands = [[spiel_card(game.cards.names[c]) for c in k.zones[zone_index(game, ("hand", p))]] for p in range(3)]
    for i in range(51):
        o.apply_action(51 + hands[i % 3][i // 3])
    assert o.current_player() == first, "OpenSpiel's first bidder"
    return k, o


def play_both(seed: int, game=None, theirs=None) -> int:
    """One seeded game on both sides; returns the number of moves."""
    game = game or koloda.load("doudizhu", {"openspiel": True})
    theirs = theirs or pyspiel.load_game("dou_dizhu")
    rng = random.Random(f"doudizhu/{seed}")
    k, o = deal_both(game, theirs, seed)
    moves = play_in_step(k, o, rng, lambda k, _: {move_text(game, a): a for a in k.legal_actions()},
                         lambda o, _: {o.action_to_string(a): a for a in o.legal_actions()})
    assert k.scores() == [int(r) for r in o.returns()], f"points {k.scores()} against {o.returns()}"
    return moves


def test_doudizhu_agrees_with_openspiel():
    game, theirs = koloda.load("doudizhu", {"openspiel": True}), pyspiel.load_game("dou_dizhu")
    lengths = [play_both(seed, game, theirs) for seed in range(12)]
    assert max(lengths) > 20          # games that reach the play, not only auctions passed out


def main(games: int) -> int:
    game, theirs = koloda.load("doudizhu", {"openspiel": True}), pyspiel.load_game("dou_dizhu")
    return count_mismatches(games, lambda seed: play_both(seed, game, theirs))


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
