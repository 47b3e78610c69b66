"""Klondike's and FreeCell's legal moves against an independent model, on many seeded random games.

The model (tests/solitaire_models.py) is each game written again in plain Python over card names,
apart from the rule files: at every position of every game it lists the moves the rulebook allows and
must offer exactly koloda's, and after every move the cards must lie alike in both. The suite checks
40 games of each table (tests/test_klondike.py, tests/test_freecell.py); this runs as many as asked:

    python bench/solitaire_moves.py --games 1000              # every table below, 1,000 games each
    python bench/solitaire_moves.py --games 200 --only freecell --cap 500

It prints, per table, the games and positions compared, the mismatches (0 is agreement) and the first
of them, and exits 1 if there was any.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from solitaire_models import compare  # noqa: E402

TABLES: dict[str, list[dict]] = {
    "klondike": [{}, {"draw": 3}, {"draw": 3, "passes": 3}, {"passes": 1, "from_home": False}],
    "freecell": [{}, {"cells": 2}, {"cells": 1}],
}


def run(name: str, options: dict, games: int, seed: int) -> tuple[int, int, list[str]]:
    """(games played, positions compared, mismatches) of one table."""
    import koloda
    game = koloda.load(name, options, 1)
    positions, mismatches = 0, []
    for k in range(games):
        try:
            positions += compare(game, options, seed + k) + 1
        except AssertionError as exc:
            mismatches.append(str(exc))
    return games, positions, mismatches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=int, default=150, help="the most moves a game lasts (the games' `cap`)")
    parser.add_argument("--only", nargs="*", choices=sorted(TABLES), help="the games (default: both)")
    a = parser.parse_args()
    failed = False
    for name in a.only or sorted(TABLES):
        for options in TABLES[name]:
            opts = {**options, "cap": a.cap}
            start = time.process_time()
            games, positions, mismatches = run(name, opts, a.games, a.seed)
            shown = ", ".join(f"{k}={v}" for k, v in opts.items())
            print(f"{name} ({shown}): {games} games, {positions} positions, {len(mismatches)} mismatches, "
                  f"{time.process_time() - start:.0f} CPU s")
            if mismatches:
                failed = True
                print("  first:", mismatches[0])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
