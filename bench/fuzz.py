"""Fuzz koloda with mutants of its shipped rule files, for as long as asked.

    python bench/fuzz.py --count 10000 --seed 1 [--moves 300] [--seconds 10] [--keep DIR]

Each mutant is a shipped file with one random change (see tests/fuzzing.py). It is checked,
loaded and played for a few random moves; the run reports how many gave a rule error, how many
played, and every traceback and hang with the mutant's file (kept with --keep). Exit status 1
if any traceback or hang was found.
"""
from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=300, help="random moves played on each mutant that loads")
    parser.add_argument("--seconds", type=float, default=10.0, help="a mutant taking longer counts as a hang")
    parser.add_argument("--keep", metavar="DIR", help="write the mutants here (default: a temporary folder)")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="koloda-fuzz-"))
    started = time.perf_counter()
    outcomes = run(args.count, args.seed, folder, args.moves, args.seconds)
    kinds = collections.Counter(o.kind for o in outcomes)
    print(f"{len(outcomes)} mutants in {time.perf_counter() - started:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    for o in outcomes:
        if o.kind in ("traceback", "hang"):
            print(f"\n== {folder / o.name}: {o.kind} ({o.seconds:.1f} s)\n{o.detail}")
    return 1 if kinds["traceback"] or kinds["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
