"""Games per second of `koloda simulate` on 1 and 2 local worker processes and on Ray, and the
scaling ratios (N workers / 1 worker).

    python bench/scaling.py                        # Pony, 4000 games a run, 3 rounds
    python bench/scaling.py --games 8000 --rounds 5 --ray

Each round plays the same games (seeds S .. S+N-1) three ways, in turn, the order reversed every
other round so that a busy moment of a shared machine falls on each alike:

- **1 worker**: `simulate` in this process, the game loaded before the clock starts;
- **2 workers**: `simulate_parallel` on 2 spawned processes; the clock includes starting them and
  each loading the game, as a user waits for that too;
- **Ray, 2 actors** (`--ray`, with `koloda[ray]`): a local Ray instance started once before the
  rounds (as a cluster would be, already running); the clock includes starting the actors.

Every way must give the same records (the results depend on the master seed only): the script
checks it. It reports wall-clock games/s, the median round with the slowest and fastest in
brackets, the ratio of medians, and the load average before and after (a ratio measured while
other work holds the cores says little). For the local ways it also reads the CPU time of this
process and its worker processes: CPU seconds a game, and the efficiency (1 worker's CPU a game
over N workers'), which other work on the machine does not change: what the extra processes cost
(starting, loading, sending records). On idle cores the wall ratio is at most N × efficiency.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import koloda  # noqa: E402
from koloda.sim import Table, simulate, simulate_parallel  # noqa: E402


def cpu_time() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers, once joined)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="pony")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ray", action="store_true", help="also on a local Ray instance (2 actors)")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    game = koloda.load(args.game, options)
    table = Table(args.game, options, game.num_players, args.seed, 100_000, ())
    ways = {"1 worker": lambda: simulate(game, args.games, args.seed),
            "2 workers": lambda: simulate_parallel(table, args.games, 2)}
    if args.ray:
        from koloda.sim.ray_backend import connect, simulate_ray
        connect(None, 2)
        ways["Ray, 2 actors"] = lambda: simulate_ray(table, args.games, 2)
    load_before = os.getloadavg()
    rates: dict[str, list[float]] = {name: [] for name in ways}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    reference = None
    for r in range(args.rounds):
        order = list(ways) if r % 2 == 0 else list(reversed(ways))
        for name in order:
            began, used = time.perf_counter(), cpu_time()
            result = ways[name]()
            rates[name].append(args.games / (time.perf_counter() - began))
            cpu[name].append((cpu_time() - used) / args.games)
            if reference is None:
                reference = result.records
            elif result.records != reference:
                sys.exit(f"{name} gave other games than the first run: results must depend on the seed only")
    load_after = os.getloadavg()
    print(f"{args.game} {options or ''}: {args.games} games a run, {args.rounds} rounds, {os.cpu_count()} cores")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 minute)")
    print(f"{'':<14} {'games/s (wall)':>28}  {'ratio':>6}  {'CPU ms/game':>11}  {'efficiency':>10}")
    base = statistics.median(rates["1 worker"])
    base_cpu = statistics.median(cpu["1 worker"])
    for name, values in rates.items():
        median = statistics.median(values)
        per_game = statistics.median(cpu[name])
        local = not name.startswith("Ray")        # Ray's workers are not this process's children
        print(f"{name:<14} {median:>10.1f} [{min(values):.1f} .. {max(values):.1f}]"
              f"  {median / base:>6.2f}  {1000 * per_game if local else float('nan'):>11.2f}"
              f"  {base_cpu / per_game if local else float('nan'):>10.2f}")


if __name__ == "__main__":
    main()
