"""Machine instructions of random play, counted by valgrind's callgrind: a measure a small change can
be judged by on a machine whose timings spread by several per cent from run to run.

    python bench/instructions.py kunkin --games 6 --seed 200
    python bench/instructions.py kunkin --games 6 --against ../koloda-before
    python bench/instructions.py skat --options "first_come=true, card_points=true, deals=1" --games 20

For each tree the script runs, under `valgrind --tool=callgrind`, a Python that loads the game and plays
`--games` seeded random games (game `i` with the engine's seed `S + i` and moves chosen by
`random.Random(S + i)`), and once more with no game; it prints the difference, the instructions of the
play alone, in millions. `PYTHONHASHSEED` is fixed, so a tree gives the same count run after run. Each
count is preceded by a load outside valgrind, so that the generated code of the rules is in the cache for
both runs (the first load of changed rules compiles it, which would otherwise fall in one run only).

Needs valgrind (`apt-get install valgrind`); each count runs about fifty times slower than Python alone.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PLAY = """
import json, random, sys, koloda
options, players = json.loads(sys.argv[4]), json.loads(sys.argv[5])
game = koloda.load(sys.argv[1], options or None, players)
seed, games = int(sys.argv[2]), int(sys.argv[3])
for s in range(seed, seed + games):
    rng = random.Random(s)
    state = game.new_initial_state(seed=s)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
"""


def count(tree: str, game: str, seed: int, games: int, options: str = "{}", players: str = "null") -> int:
    """Instructions of loading `game` and playing `games` games with the checkout at `tree`."""
    with tempfile.TemporaryDirectory() as folder:
        out, script = os.path.join(folder, "callgrind.out"), os.path.join(folder, "play.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(PLAY)
        # run from a file in an empty folder: `python -c` would import koloda from the current directory
        env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), PYTHONHASHSEED="0")
        # a load outside the count first: the first load of changed rules compiles their generated code
        # and keeps it in the cache, which only one of the two counted runs would pay for
        subprocess.run([sys.executable, script, game, str(seed), "0", options, players], env=env, capture_output=True,
                       cwd=folder)
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                              sys.executable, script, game, str(seed), str(games), options, players],
                             env=env, capture_output=True, text=True, cwd=folder)
        if run.returncode:
            raise SystemExit(f"{tree}: the run failed:\n{run.stderr[-2000:]}")
        found = re.search(r"Collected : (\d+)", run.stderr)
        if not found:
            raise SystemExit(f"{tree}: valgrind printed no count")
        return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=200)
    parser.add_argument("--against", action="append", default=[], help="another checkout to count as well")
    parser.add_argument("--options", default="", help='the table options, as `koloda play` takes them: "deals=1, card_points=true"')
    parser.add_argument("--players", type=int, default=None)
    a = parser.parse_args(argv)
    # the values as text, as the command line gives them (koloda.load reads them by the options' types)
    options = json.dumps(dict(pair.strip().split("=", 1) for pair in a.options.split(",") if pair.strip()))
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    print(f"{a.game}: {a.games} random games from seed {a.seed}, instructions of the play alone (millions)")
    for tree in [HERE] + a.against:
        play = count(tree, a.game, a.seed, a.games, options, json.dumps(a.players)) \
            - count(tree, a.game, a.seed, 0, options, json.dumps(a.players))
        print(f"{play / 1e6:12,.0f}  {os.path.abspath(tree)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
