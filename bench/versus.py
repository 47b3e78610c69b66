"""CPU time of seeded random games, this tree against another, interleaved.

    python bench/versus.py --against ../koloda-before --games 20 --rounds 3 --only kunkin canasta

Each round plays, for each game type, the same seeded random games (game `i`: engine seed
`S + i`, moves chosen by `random.Random(S + i)`, as bench/bench.py) once with this tree's code and
once with the other tree's (`PYTHONPATH=TREE`), each in a fresh subprocess, in alternating order
from round to round so that a busy moment on the machine does not always fall on the same side.
The clock is the subprocess's CPU time (`time.process_time`) over the games alone, loading the
game excluded. The table gives each side's median and the ratio of the medians (above 1: this
tree is faster).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

RUMMIES = ["kunkin", "kunkin-big", "kunkin-discard-out", "funken", "lesenka", "splin", "splin-29g", "canasta"]
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def play(name: str, games: int, seed: int, max_moves: int) -> dict:
    """Plays the games in this process: CPU seconds and decisions."""
    import random

    import koloda
    game = koloda.load(name)
    decisions = 0
    start = time.process_time()
    for i in range(games):
        state = game.new_initial_state(seed=seed + i)
        rng = random.Random(seed + i)
        moves = 0
        while not state.is_terminal() and moves < max_moves:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        decisions += moves
    return {"cpu": time.process_time() - start, "decisions": decisions}


def _run(tree: str, name: str, games: int, seed: int, max_moves: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    command = [sys.executable, os.path.abspath(__file__), "--child", name, "--games", str(games), "--seed", str(seed),
               "--max-moves", str(max_moves)]
    out = subprocess.run(command, env=env, cwd=os.path.abspath(tree), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", required=False, help="the other tree (its PYTHONPATH)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-moves", type=int, default=100000)
    parser.add_argument("--only", nargs="*", help="game types (default: the rummies)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    a = parser.parse_args(argv)
    if a.child:
        print(json.dumps(play(a.child, a.games, a.seed, a.max_moves)))
        return 0
    if not a.against:
        parser.error("--against TREE is needed")
    names = a.only or RUMMIES
    print(f"{'game':20} {'games':>5} {'decisions':>9} {'here CPU-s':>10} {'there CPU-s':>11} {'there/here':>10}")
    for name in names:
        here: list[float] = []
        there: list[float] = []
        decisions = 0
        for r in range(a.rounds):
            order = [(HERE, here), (a.against, there)]
            for tree, times in order if r % 2 == 0 else order[::-1]:
                result = _run(tree, name, a.games, a.seed, a.max_moves)
                times.append(result["cpu"])
                decisions = result["decisions"]
        h, t = statistics.median(here), statistics.median(there)
        print(f"{name:20} {a.games:5} {decisions:9} {h:10.2f} {t:11.2f} {t / max(h, 1e-9):9.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
