"""CPU time per decision against the size of the hand, in Big Kun-kin's rules.

    python bench/handsize.py --games 10                       # this tree
    python bench/handsize.py --games 10 --against ../koloda-before  # and another tree, in the same run

The hands are made big by the game's own option: `kunkin-big` (two decks, four jokers, a 60-point
opening of at least 4 cards, sets of four that may repeat suits) loaded with `hand` = 12, 18 and
24, so only the number of cards dealt changes. Game `i` is played with the engine's seed `S + i`
and moves chosen by `random.Random(S + i)`, for at most `--max-moves` moves (the first deal or
two, where hands are big). Each decision (listing the legal moves, then applying the chosen one)
is timed with `time.process_time` and counted under the size of the mover's hand when it was
asked: the table gives the mean for hands of 12, 18 and 24 cards (and one card either side),
from the games dealt with that many, the mean number of legal moves listed at those decisions
and the time per legal move, and the mean over all decisions of those games.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

SIZES = (12, 18, 24)
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(size: int, games: int, seed: int, max_moves: int) -> dict:
    import random

    import koloda
    game = koloda.load("kunkin-big", {"hand": str(size)})
    near: list[float] = []
    every: list[float] = []
    offered = 0                   # legal moves listed at the decisions near the size
    clock = time.process_time
    for i in range(games):
        state = game.new_initial_state(seed=seed + i)
        rng = random.Random(seed + i)
        moves = 0
        while not state.is_terminal() and moves < max_moves:
            held = _hand_size(state)
            start = clock()
            legal = state.legal_actions()
            action = rng.choice(legal)
            state.apply_action(action)
            spent = clock() - start
            every.append(spent)
            if abs(held - size) <= 1:
                near.append(spent)
                offered += len(legal)
            moves += 1
    return {"near": sum(near) / max(len(near), 1) * 1e6, "near_count": len(near),
            "moves": offered / max(len(near), 1), "per_move": sum(near) / max(offered, 1) * 1e6,
            "all": sum(every) / max(len(every), 1) * 1e6, "all_count": len(every)}


def _hand_size(state) -> int:
    """The cards in the mover's hand (the zone `hand` of that player)."""
    return len(state.zones[state.game.layout.zone_base["hand"] + state.current])


def _in_tree(tree: str, size: int, games: int, seed: int, max_moves: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    command = [sys.executable, os.path.abspath(__file__), "--child", str(size), "--games", str(games),
               "--seed", str(seed), "--max-moves", str(max_moves)]
    out = subprocess.run(command, env=env, cwd=os.path.abspath(tree), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=300)
    parser.add_argument("--against", help="another tree to measure in the same run")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    a = parser.parse_args(argv)
    if a.child:
        print(json.dumps(measure(a.child, a.games, a.seed, a.max_moves)))
        return 0
    trees = [("here", HERE)] + ([("there", a.against)] if a.against else [])
    print(f"{'tree':6} {'hand':>4} {'µs/decision at that size':>25} {'(decisions)':>11} {'legal moves':>11} "
          f"{'µs/legal move':>13} {'µs/decision, all':>17} {'(decisions)':>11}")
    for size in SIZES:
        for label, tree in trees:
            r = _in_tree(tree, size, a.games, a.seed, a.max_moves)
            print(f"{label:6} {size:4} {r['near']:25,.0f} {r['near_count']:11} {r['moves']:11.1f} {r['per_move']:13,.0f} "
                  f"{r['all']:17,.0f} {r['all_count']:11}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
