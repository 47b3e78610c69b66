"""Goofspiel against OpenSpiel's `goofspiel`, both through OpenSpiel's simultaneous-move API: koloda's
rule file loaded by koloda.openspiel (a `turns: together` phase is a simultaneous node) and OpenSpiel's
own game give every player the same legal bids at every node, and the same points and winners.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. The suite plays a
sample; for more games:

    PYTHONPATH=. python tests/test_goofspiel_differential.py 1000     # 1000 games, 0 mismatches (2026-12-02)

How the two are matched (open_spiel/games/goofspiel): OpenSpiel turns up each point card at a chance
node (with `points_order=random`), and its action k is the card worth k + 1. koloda's seed decides
the point cards, so OpenSpiel's chance node is given the card koloda turned up. OpenSpiel plays the
last round's bids itself, as koloda's rule file does. Its `win_loss` returns are compared with
koloda's shares of the win through the points: the players with the most points win.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
import koloda.openspiel as kos  # noqa: E402
from differential import count_mismatches, play_in_step  # noqa: E402
from helpers import zone_cards  # noqa: E402

WORTH = {"A": 1, "J": 11, "Q": 12, "K": 13}
# (num_cards, players, points_order) played in the suite, each on a few seeds
CASES = [(13, 2, "random"), (5, 2, "random"), (6, 3, "random"), (4, 2, "descending"), (7, 2, "ascending"),
         (13, 3, "descending")]


def worth(name: str) -> int:
    rank = name.split()[-1][:-1]
    return WORTH.get(rank) or int(rank)


def _koloda_points(state) -> list[int]:
    native = state.episode.native
    base = native.game.layout.var_base["points"]
    return [int(native.vars[base + p]) for p in range(state.get_game().num_players())]


def _prize(state) -> int:
    (card,) = zone_cards(state.episode.native, "prize")
    return worth(card)


def play_both(cards: int, players: int, order: str, seed: int) -> int:
    """One seeded game on both sides; returns the number of simultaneous nodes."""
    rng = random.Random(f"goofspiel/{cards}/{players}/{order}/{seed}")
    ours = kos.load_game("goofspiel", players=players, seeds=1 << 20, cards=cards, points_order=order)
    theirs = pyspiel.load_game("goofspiel", {"num_cards": cards, "players": players, "points_order": order})
    k, o = ours.new_initial_state(), theirs.new_initial_state()
    k.apply_action(rng.randrange(1 << 20))

    def prize(o) -> int:
        prize = _prize(k)
        assert prize - 1 in [a for a, _ in o.chance_outcomes()], f"point card {prize}"
        return prize - 1

    nodes = play_in_step(k, o, rng, lambda k, p: {worth(k.action_to_string(p, t)) - 1: t for t in k.legal_actions(p)},
                         lambda o, p: {a: a for a in o.legal_actions(p)}, prize, players)
    points = [float(x) for x in str(o).split("Points:")[1].split()]
    assert _koloda_points(k) == points
    best = [p for p in range(players) if points[p] == max(points)]
    assert k.returns() == [1.0 / len(best) if p in best else 0.0 for p in range(players)]
    spiel = o.returns()
    assert all(spiel[p] == max(spiel) for p in best)
    return nodes


@pytest.mark.parametrize("cards, players, order", CASES)
def test_goofspiel_agrees_with_openspiel(cards, players, order):
    for seed in range(4):
        assert play_both(cards, players, order, seed) == cards - 1


def main(games: int) -> int:
    return count_mismatches(games, lambda i: play_both(*CASES[i % len(CASES)], seed=i),
                            lambda i: f"{i} {CASES[i % len(CASES)]}")


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
