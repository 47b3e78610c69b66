"""What a small game costs a game: koloda's whole random playout against OpenSpiel's, in CPU time.

    python bench/small_games.py                    # 3 rounds of 2,000 games of each
    python bench/small_games.py --games 5000 --rounds 5

Small games are where a generic engine's fixed costs show: a new state, its deal, the first
listings. The rule files are written from the rules OpenSpiel's games play (Kuhn and Leduc poker,
examples/kuhn.yaml and examples/leduc.yaml, at two players; the shipped Goofspiel at 13 cards, its
simultaneous bids made in turn on both sides: OpenSpiel's through its
`turn_based_simultaneous_game`, koloda's engine underneath its `turns: together` phase,
docs/language.md §8.7; the shipped Blackjack and Skat with the options of bench/same_rules.py;
the shipped Dou Dizhu, whose plays are combinations of `combos:`; all are checked against
OpenSpiel's games by the tests/test_*_differential.py of their names).
Each round loads every game afresh (outside the clock), plays the same seeds on each side (the
engines' own deals, `random.Random(seed)` choosing the moves: bench/engines.py, the loops bench.py
times), the two sides one after the other, in the reverse order every other round. Printed: CPU
microseconds a game (median over rounds, least and most in brackets), decisions a game, and
koloda ÷ OpenSpiel per game (lower is better: 1.0 is as cheap as OpenSpiel), then where koloda's
time goes: the share of a game spent in `new_initial_state` (a state and its first deal).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from engines import openspiel_available, openspiel_setup, play_koloda, play_openspiel  # noqa: E402

PAIRS = [
    ("kuhn", "kuhn_poker"),
    ("leduc", "leduc_poker"),
    ("goofspiel", "turn_based_simultaneous_game(game=goofspiel(num_cards=13))"),
    ("blackjack", "blackjack"),
    ("skat", "skat"),
    ("doudizhu", "dou_dizhu"),
]
# the rule files: Kuhn poker is the example tests/test_kuhn_differential.py checks against OpenSpiel's,
# Goofspiel and Dou Dizhu the shipped games (names, not paths)
FILES = {"kuhn": str(HERE.parent / "examples" / "kuhn.yaml"), "leduc": str(HERE.parent / "examples" / "leduc.yaml"),
         "goofspiel": "goofspiel", "blackjack": "blackjack", "skat": "skat", "doudizhu": "doudizhu"}
# the options that play OpenSpiel's rules (as the differential tests load them)
OPTIONS = {"doudizhu": {"openspiel": True}, "skat": {"first_come": True, "card_points": True, "deals": 1},
           "blackjack": {"naturals": False, "double": False, "split": False}}


def koloda_file(name: str) -> str:
    return FILES[name]


def starts(game, n: int, base: int) -> float:
    """CPU seconds of `n` new states (each dealt), on the same seeds as the playouts."""
    began = time.process_time()
    for i in range(n):
        game.new_initial_state(seed=base + i)
    return time.process_time() - began


def median_range(values: list[float]) -> str:
    return f"{statistics.median(values):8.1f} ({min(values):.1f}–{max(values):.1f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="games per game and round (default 2000)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--only", nargs="+", metavar="GAME", help="some of: " + ", ".join(k for k, _ in PAIRS))
    args = ap.parse_args(argv)
    import koloda

    ok, why = openspiel_available()
    if not ok:
        print(f"OpenSpiel is not installed ({why}): koloda's side only", file=sys.stderr)
    pairs = [p for p in PAIRS if not args.only or p[0] in args.only]
    per_game: dict[str, list[float]] = {}
    decisions: dict[str, int] = {}
    games: dict[str, int] = {}
    start_share: dict[str, list[float]] = {}
    for r in range(args.rounds):
        base = args.seed + r * args.games
        sides = [(k, "koloda") for k, _ in pairs] + ([(k, "openspiel") for k, _ in pairs] if ok else [])
        sides.sort(key=lambda side: [k for k, _ in pairs].index(side[0]))
        for name, engine in sides if r % 2 == 0 else sides[::-1]:
            label = f"{engine}:{name}"
            if engine == "koloda":
                game = koloda.load(koloda_file(name), OPTIONS.get(name))
                played = play_koloda(game, args.games, base, 100_000)
                start_share.setdefault(name, []).append(starts(game, args.games, base) / played.cpu)
            else:
                spec = dict(pairs)[name]
                played = play_openspiel(openspiel_setup(spec)(base), args.games, base, 100_000)
            if played.error:
                print(f"{label}: {played.error}", file=sys.stderr)
                return 1
            per_game.setdefault(label, []).append(played.cpu / played.games * 1e6)
            decisions[label] = decisions.get(label, 0) + played.decisions
            games[label] = games.get(label, 0) + played.games
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    print(f"CPU microseconds a game, median of {args.rounds} rounds of {args.games} games "
          f"(python {sys.version.split()[0]})")
    print(f"{'game':28} {'us/game':>24} {'dec/game':>9} {'koloda÷OpenSpiel':>17} {'in new state':>13}")
    for name, _ in pairs:
        for engine in ("koloda", "openspiel"):
            label = f"{engine}:{name}"
            if label not in per_game:
                continue
            ratio = share = ""
            if engine == "koloda":
                share = f"{statistics.median(start_share[name]):12.0%}"
                if f"openspiel:{name}" in per_game:
                    ratios = [k / o for k, o in zip(per_game[label], per_game[f"openspiel:{name}"])]
                    ratio = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"
            print(f"{label:28} {median_range(per_game[label]):>24} {decisions[label] / games[label]:9.2f} "
                  f"{ratio:>17} {share:>13}")
    return 0


if __name__ == "__main__":
    random.seed(0)
    raise SystemExit(main())
