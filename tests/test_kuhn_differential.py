"""examples/kuhn.yaml, whose deck follows the number of players (player_count + 1 ranks), against
OpenSpiel's `kuhn_poker` for 2..5 players: the same deal, the same random choices, the same legal moves
at every step and the same returns. OpenSpiel is not a dependency of koloda; without `pyspiel` this file
is skipped. OpenSpiel deals card k (0..n) to each player in turn; koloda's deck is 1S..(n+1)S, so card k is
rank k + 1. Its action 0 is a check, or a fold facing a bet; 1 a bet, or a call."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import koloda
from differential import play_in_step

pyspiel = pytest.importorskip("pyspiel")

KUHN = str(Path(__file__).resolve().parent.parent / "examples" / "kuhn.yaml")
SEEDS = range(40)


def play_both(players: int, seed: int) -> int:
    rng = random.Random(f"kuhn/{players}/{seed}")
    spiel = pyspiel.load_game("kuhn_poker", {"players": players}).new_initial_state()
    dealt = []
    while spiel.is_chance_node():
        card = rng.choice(spiel.chance_outcomes())[0]
        dealt.append(f"{card + 1}S")
        spiel.apply_action(card)
    game = koloda.load(KUHN, players=players)
    state = game.new_initial_state(seed, hands={f"P{p + 1} hand": dealt[p] for p in range(players)})

    def words(spiel, _) -> dict[str, int]:       # OpenSpiel's 0 and 1 (pass, bet) by koloda's words
        bet = 1 in spiel.history()[players:]
        return dict(zip(["fold", "call"] if bet else ["check", "bet"], spiel.legal_actions()))

    moves = play_in_step(state, spiel, rng, lambda k, _: {k.action_to_string(a): a for a in k.legal_actions()}, words)
    assert [float(x) for x in state.scores()] == spiel.returns()
    return moves


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kuhn_for_n_players_agrees_with_openspiel(players):
    lengths = {play_both(players, seed) for seed in SEEDS}
    assert min(lengths) >= players and max(lengths) <= 2 * players - 1
    assert len(lengths) > 1, "the seeds play deals of several lengths"
