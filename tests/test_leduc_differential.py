"""examples/leduc.yaml, whose split pots are fractions of a chip, against OpenSpiel's `leduc_poker` for
2..4 players: the same deal, the same random choices, the same legal moves at every step and the same
returns (OpenSpiel's money won, `pot / winners - put`, exact in koloda and a float there). OpenSpiel is
not a dependency of koloda; without `pyspiel` this file is skipped.

OpenSpiel's card k (0 .. 2 * (players + 1) - 1) is of rank k // 2 and suit k % 2: koloda's rank
k // 2 + 1 of spades or hearts. It deals the private cards to each player in turn and the public card
after the first round; koloda deals that card face down with the hands (into `board`, seen by nobody),
so the test draws it first and gives it to both. Actions: 0 fold, 1 call, 2 raise.

Outside the suite, 1,000 seeded games for each of 2, 3 and 4 players (3,000 in all) agree, 0 mismatches:

    python tests/test_leduc_differential.py 1000
"""
from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import koloda
from differential import play_in_step

pyspiel = pytest.importorskip("pyspiel")

LEDUC = str(Path(__file__).resolve().parent.parent / "examples" / "leduc.yaml")
WORDS = ["fold", "call", "raise"]
SEEDS = range(60)


def name(card: int) -> str:
    return f"{card // 2 + 1}{'SH'[card % 2]}"


def play_both(players: int, seed: int, game: koloda.Game | None = None) -> tuple[int, list]:
    """One game played by both engines on the same random choices; (its number of moves, koloda's scores)."""
    rng = random.Random(f"leduc/{players}/{seed}")
    spiel = pyspiel.load_game("leduc_poker", {"players": players}).new_initial_state()
    private = []
    while len(private) < players:
        card = rng.choice(spiel.chance_outcomes())[0]
        private.append(card)
        spiel.apply_action(card)
    public = rng.choice([c for c in range(2 * (players + 1)) if c not in private])
    game = game or koloda.load(LEDUC, players=players)
    hands = {f"P{p + 1} hand": name(private[p]) for p in range(players)}
    state = game.new_initial_state(seed, hands={**hands, "board": name(public)})

    def board(spiel) -> int:
        assert public in [c for c, _ in spiel.chance_outcomes()]
        return public

    moves = play_in_step(state, spiel, rng, lambda k, _: {k.action_to_string(a): a for a in k.legal_actions()},
                         lambda o, _: {WORDS[a]: a for a in o.legal_actions()}, board)
    assert [float(x) for x in state.scores()] == spiel.returns(), f"seed {seed}"
    return moves, state.scores()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_leduc_agrees_with_openspiel(players):
    game = koloda.load(LEDUC, players=players)
    results = [play_both(players, seed, game) for seed in SEEDS]
    lengths = {moves for moves, _ in results}
    assert min(lengths) >= 1 and max(lengths) <= 4 * players + 2
    assert len(lengths) > 3, "the seeds play games of several lengths"
    if players == 3:     # a pot split between two of three, after a fold, is a fraction of a chip
        assert any(isinstance(x, Fraction) and x.denominator == 2 for _, scores in results for x in scores)


def test_leduc_inside_openspiel_passes_pyspiel_s_own_checks():
    # koloda's Leduc as an OpenSpiel game (koloda.openspiel): tensors with fractions as floats,
    # serialized states with fractions in them, returns
    import koloda.openspiel  # noqa: F401  (registers the `koloda` game)
    game = pyspiel.load_game("koloda", {"rules": LEDUC, "players": 3, "seeds": 100, "max_moves": 40})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


if __name__ == "__main__":        # the long run: python tests/test_leduc_differential.py 1000
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for count in (2, 3, 4):
        loaded = koloda.load(LEDUC, players=count)
        for s in range(n):
            play_both(count, s, loaded)
        print(f"{count} players: {n} games, 0 mismatches")
