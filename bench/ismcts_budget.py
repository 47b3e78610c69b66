"""Does the `ismcts` bot finish its search within the table's time cap, in every shipped game?

    python bench/ismcts_budget.py                 # every shipped game, 6 positions each
    python bench/ismcts_budget.py --only kunkin canasta --positions 10

At the table (`koloda play`) an `ismcts` seat searches `iterations` (400) times a move but never
longer than its cap (2 seconds). For each game the script reaches `--positions` positions by
seeded random play (position k: the state after `--every`·(k+1) random moves of game `S + k`,
or of the next game if that one ended), asks the bot with the table's settings for a move
there, and counts the iterations it made, the wall time it took (what the cap reads) and the CPU
time (`time.process_time`). A position with a single legal move is skipped (the bot answers it
without searching).

On a machine that other work shares, the wall clock runs on while the bot waits for a core, and
searches are cut short that an idle machine finishes: `--cap 1000` then lets every search run to
its iteration count, and the most CPU seconds a move took, against the table's 2 s, says whether
an idle machine would finish it.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time


def positions(game, count: int, every: int, seed: int) -> list:
    found = []
    k = 0
    while len(found) < count and k < count * 20:
        state = game.new_initial_state(seed=seed + k)
        rng = random.Random(seed + k)
        want = every * (len(found) + 1)
        for _ in range(want):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        k += 1
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
    return found


def measure(name: str, count: int, every: int, seed: int, iterations: int, cap: float) -> dict:
    import koloda
    from koloda.agents.ismcts import IsmctsAgent
    game = koloda.load(name)
    done, seconds, cpu = [], [], []
    for i, state in enumerate(positions(game, count, every, seed)):
        bot = IsmctsAgent(seed=seed + i, iterations=iterations, cap=cap)
        start, start_cpu = time.perf_counter(), time.process_time()
        bot.choose(state)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        done.append(bot.searched)
    return {"positions": len(done), "full": sum(d >= iterations for d in done),
            "iterations": statistics.median(done) if done else 0, "least": min(done, default=0),
            "seconds": statistics.median(seconds) if seconds else 0.0, "most": max(seconds, default=0.0),
            "most_cpu": max(cpu, default=0.0)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--every", type=int, default=15, help="random moves between positions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=400, help="the table's default")
    parser.add_argument("--cap", type=float, default=2.0, help="the table's cap, seconds")
    a = parser.parse_args(argv)
    import koloda
    names = a.only or koloda.shipped_games()
    print(f"ismcts at the table: {a.iterations} iterations a move, at most {a.cap:g} s "
          f"(python {sys.version.split()[0]})")
    print(f"{'game':20} {'positions':>9} {'full search':>11} {'iterations':>10} {'least':>6} "
          f"{'s/move':>7} {'most s':>7} {'most CPU s':>10}")
    short = 0
    for name in names:
        r = measure(name, a.positions, a.every, a.seed, a.iterations, a.cap)
        short += r["positions"] - r["full"]
        print(f"{name:20} {r['positions']:9} {r['full']:11} {r['iterations']:10.0f} {r['least']:6} "
              f"{r['seconds']:7.2f} {r['most']:7.2f} {r['most_cpu']:10.2f}", flush=True)
    print(f"searches cut short by the cap: {short}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
