"""How long a state's clone takes, in every shipped game.

    python bench/clones.py                        # this tree
    python bench/clones.py --against ../koloda-before   # and another tree, in the same run

For each game, `--games` seeded random games are played (game `i`: engine seed `S + i`, moves
chosen by `random.Random(S + i)`), and a state is kept every `--every` moves. Each kept state is
cloned `--repeat` times; the figure is CPU time (`time.process_time`) per clone, the median over
the kept states, so a clone late in a long game (a long history) counts like an early one.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(name: str, games: int, seed: int, every: int, repeat: int) -> dict:
    import random

    import koloda
    game = koloda.load(name)
    kept = []
    for i in range(games):
        state = game.new_initial_state(seed=seed + i)
        rng = random.Random(seed + i)
        moves = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
            if moves % every == 0:
                kept.append(state.clone())
    per_clone = []
    late = []
    for state in kept:
        start = time.process_time()
        for _ in range(repeat):
            state.clone()
        per_clone.append((time.process_time() - start) / repeat * 1e6)
        late.append(state.moves)
    return {"median": statistics.median(per_clone), "max": max(per_clone), "states": len(kept),
            "moves": max(late)}


def _in_tree(tree: str, name: str, a: argparse.Namespace) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    command = [sys.executable, os.path.abspath(__file__), "--child", name, "--games", str(a.games), "--seed",
               str(a.seed), "--every", str(a.every), "--repeat", str(a.repeat)]
    out = subprocess.run(command, env=env, cwd=os.path.abspath(tree), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--against", help="another tree to measure in the same run")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    a = parser.parse_args(argv)
    if a.child:
        print(json.dumps(measure(a.child, a.games, a.seed, a.every, a.repeat)))
        return 0
    import koloda
    names = a.only or koloda.shipped_games()
    head = f"{'game':20} {'states':>6} {'last move':>9} {'µs/clone here':>14}"
    print(head + (f" {'µs/clone there':>15}" if a.against else ""))
    for name in names:
        here = _in_tree(HERE, name, a)
        line = f"{name:20} {here['states']:6} {here['moves']:9} {here['median']:14.1f}"
        if a.against:
            there = _in_tree(a.against, name, a)
            line += f" {there['median']:15.1f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
