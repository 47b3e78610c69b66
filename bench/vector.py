"""Env steps per CPU second for learners: one SeatEnv, Gymnasium's SyncVectorEnv of N copies, and
koloda.vector.SeatVectorEnv of N, in the same run.

    python bench/vector.py                       # pony, peklo, kunkin; N = 256; 3 rounds of 10,240 steps
    python bench/vector.py --envs 64 --steps 5000 pony

Needs the `koloda[pettingzoo]` extra. Each game's seat 0 is played against `random` bots (the
other seats), every env step choosing a uniformly random legal token from the observation's mask
with NumPy (the same vectorised choice for all three, one row for the single env). A step is one
token of the learner's seat, with the bots' moves that follow it: `--steps` is the number of such
steps in a round, counted over all N envs for the batched two. The envs are made outside the clock
(N copies load the game N times) and reset once: the matches go on from round to round (a match
that ends starts the next), after a first round that is not counted, so that the N matches are
spread over their lengths as in training, not all at their first moves. The clock is CPU time (time.process_time), the median over the
rounds, the three run one right after the other in the reverse order every other round. Printed:
steps per CPU second and the ratios vector ÷ single and vector ÷ SyncVectorEnv; and, as the
ceiling of any env on this engine, `engine`: the same steps of N matches with no tensor or mask
written (a random legal token of the seat, then the bots' moves, on the engine's states directly),
and the ratio engine ÷ single.

`--against TREE` adds another koloda tree's one SeatEnv, run by a process of its own (this script,
with that tree first on its path) in the same interleaved rounds: how many times the steps of that
tree's single env the batch makes, e.g. the tree from before the batch existed:

    python bench/vector.py --against ../koloda-before pony
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# `--serve TREE ...` is this script run for another tree: that tree's koloda is the one imported
TREE = sys.argv[sys.argv.index("--serve") + 1] if "--serve" in sys.argv else HERE
sys.path.insert(0, os.path.abspath(TREE))

import subprocess  # noqa: E402

import numpy as np  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

import koloda.gymnasium as kgym  # noqa: E402


def choose(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal token in each row."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def single(rules: str, steps: int, seed: int) -> Callable[[], float]:
    env = kgym.env(rules, seat=0, others="random")
    rng = np.random.default_rng(seed)
    observation = env.reset(seed=seed)[0]

    def run() -> float:
        nonlocal observation
        start = time.process_time()
        for _ in range(steps):
            action = choose(rng, observation["action_mask"][None, :])[0]
            observation, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                observation, _ = env.reset()
        return time.process_time() - start
    return run


def serve(rules: str, steps: int, seed: int) -> None:
    """One SeatEnv of this process's tree: a round for every line read, its CPU seconds written back."""
    run = single(rules, steps, seed)
    for _ in sys.stdin:
        print(run(), flush=True)


def elsewhere(tree: str, rules: str, steps: int, seed: int) -> Callable[[], float]:
    """One SeatEnv of another tree, in a process of its own that plays a round when asked."""
    child = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--serve", tree, rules, str(steps), str(seed)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=os.path.abspath(tree))

    def run() -> float:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("\n")
        child.stdin.flush()
        answer = child.stdout.readline()
        if not answer:
            raise SystemExit(f"the single env of {tree} stopped (see its error above)")
        return float(answer)
    return run


def batched(make: Callable[[], Any], n: int, steps: int, seed: int) -> Callable[[], float]:
    envs = make()
    rng = np.random.default_rng(seed)
    observations = envs.reset(seed=seed)[0]

    def run() -> float:
        nonlocal observations
        start = time.process_time()
        for _ in range(max(1, steps // n)):
            observations, *_ = envs.step(choose(rng, observations["action_mask"]))
        return time.process_time() - start
    return run


def engine(rules: str, n: int, steps: int, seed: int) -> Callable[[], float]:
    """The vector env's matches played without writing an observation or a mask: what the engine's
    moves (the seat's and the bots') cost alone."""
    from koloda.vector import SeatVectorEnv
    envs = SeatVectorEnv(rules, n, seat=0, others="random")
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def run() -> float:
        start = time.process_time()
        for _ in range(max(1, steps // n)):
            for row, match in enumerate(envs.matches):
                legal = envs._legal(match)
                envs._play(match, legal[int(rng.integers(len(legal)))])
                if envs._over(match):
                    envs._start(row, None)
        return time.process_time() - start
    return run


def main() -> None:
    if "--serve" in sys.argv:
        rules, steps, seed = sys.argv[sys.argv.index("--serve") + 2:][:3]
        serve(rules, int(steps), int(seed))
        return
    from koloda.vector import SeatVectorEnv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=["pony", "peklo", "kunkin"])
    parser.add_argument("--envs", type=int, default=256, help="N, the batch (default 256)")
    parser.add_argument("--steps", type=int, default=10240, help="env steps a round (default 10,240)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", metavar="TREE", help="also another tree's one SeatEnv, in a process of its own")
    args = parser.parse_args()
    n, steps = args.envs, args.steps
    print(f"N = {n}, {steps:,} env steps a round, {args.rounds} rounds; steps per CPU second (median)")
    print(f"{'game':8} {'single':>9} {'SyncVector':>11} {'vector':>9} {'engine':>9} {'vector/single':>14} "
          f"{'vector/Sync':>12} {'engine/single':>14}")
    for rules in args.games:
        runs = {
            "single": single(rules, steps, args.seed),
            "sync": batched(lambda: SyncVectorEnv([lambda: kgym.env(rules, seat=0, others="random")] * n,
                                                  autoreset_mode=AutoresetMode.SAME_STEP), n, steps, args.seed),
            "vector": batched(lambda: SeatVectorEnv(rules, n, seat=0, others="random"), n, steps, args.seed),
            "engine": engine(rules, n, steps, args.seed),
        }
        if args.against:
            runs["against"] = elsewhere(args.against, rules, steps, args.seed)
        done = {k: steps if k in ("single", "against") else max(1, steps // n) * n for k in runs}
        times: dict[str, list[float]] = {k: [] for k in runs}
        for run in runs.values():       # a round not counted: the N matches spread over their lengths
            run()
        for r in range(args.rounds):
            for k in (list(runs) if r % 2 == 0 else list(reversed(runs))):
                times[k].append(runs[k]())
        rate = {k: done[k] / statistics.median(times[k]) for k in runs}
        print(f"{rules:8} {rate['single']:9,.0f} {rate['sync']:11,.0f} {rate['vector']:9,.0f} {rate['engine']:9,.0f} "
              f"{rate['vector'] / rate['single']:13.2f}x {rate['vector'] / rate['sync']:11.2f}x "
              f"{rate['engine'] / rate['single']:13.2f}x", flush=True)
        if args.against:
            print(f"{'':8} single env of {args.against}: {rate['against']:,.0f}; vector ÷ it "
                  f"{rate['vector'] / rate['against']:.2f}x, single ÷ it {rate['single'] / rate['against']:.2f}x", flush=True)


if __name__ == "__main__":
    main()
