"""Memory a game keeps after play: traced with `tracemalloc`, after seeded random games.

    python bench/memory.py splin-29g --games 5 --against ../koloda-before

The game is loaded, then `tracemalloc` starts and `--games` seeded random games are played (game
`i`: engine seed `S + i`, moves chosen by `random.Random(S + i)`); the states are dropped and
the memory still held — by the game's caches — is reported, with the peak during play.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tracemalloc

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(name: str, games: int, seed: int) -> dict:
    import random

    import koloda
    game = koloda.load(name)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(games):
        state = game.new_initial_state(seed=seed + i)
        rng = random.Random(seed + i)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        del state
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"held": (held - base) / 1e6, "peak": (peak - base) / 1e6}


def _in_tree(tree: str, a: argparse.Namespace) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    command = [sys.executable, os.path.abspath(__file__), a.game, "--games", str(a.games), "--seed", str(a.seed),
               "--child"]
    out = subprocess.run(command, env=env, cwd=os.path.abspath(tree), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", help="another tree to measure in the same run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = parser.parse_args(argv)
    if a.child:
        print(json.dumps(measure(a.game, a.games, a.seed)))
        return 0
    print(f"{'tree':6} {'game':12} {'games':>5} {'MB held after':>14} {'MB peak':>8}")
    for label, tree in [("here", HERE)] + ([("there", a.against)] if a.against else []):
        r = _in_tree(tree, a)
        print(f"{label:6} {a.game:12} {a.games:5} {r['held']:14.1f} {r['peak']:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
