"""What a match start costs through OpenSpiel's samplers: one chance node of `seeds` outcomes
against the seed drawn digit by digit (`chance_base`), CPU ms per match start.

    python bench/chance.py                      # Pony, seeds = 65,536; 200 starts a round, 3 rounds

Needs the `koloda[openspiel]` extra. A match start is what open_spiel.python.rl_environment and
evaluate_bots do at every chance node until the first player's turn: `chance_outcomes()`, then
`np.random.choice` over the outcomes with their probabilities, then `apply_action`, on a fresh
`new_initial_state()`. The clock is CPU time (time.process_time), the median of the rounds.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import koloda.openspiel  # noqa: E402,F401


def starts(game: pyspiel.Game, count: int, rng: np.random.RandomState) -> float:
    start = time.process_time()
    for _ in range(count):
        state = game.new_initial_state()
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pony")
    parser.add_argument("--seeds", type=int, default=1 << 16)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.RandomState(0)
    print(f"{args.rules}, seeds = {args.seeds:,}: CPU ms per match start (median of {args.rounds} rounds)")
    for base in (0, 256, 16, 2):
        try:
            game = pyspiel.load_game("koloda", {"rules": args.rules, "seeds": args.seeds, "chance_base": base})
        except Exception as exc:        # seeds not a power of this base
            print(f"chance_base {base}: {exc}")
            continue
        ms = statistics.median(starts(game, args.count, rng) for _ in range(args.rounds)) / args.count * 1000
        print(f"chance_base {base:>3} ({game.max_chance_outcomes():>6,} outcomes a node): {ms:8.3f} ms")


if __name__ == "__main__":
    main()
