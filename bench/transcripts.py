"""Behaviour digests: seeded random games of every shipped game, hashed move by move.

Each game `i` of a game type is played with the engine's seed `S + i` and a
`random.Random(S + i)` choosing among the legal moves, for at most `--max-moves`
moves. Its digest hashes, at every decision, the legal action ids and the text
of each, the move chosen; every 37th move the game goes on in a clone of the
state; at the end, the scores, returns, the number of moves, the first seat's
observation and the table as text. A change to the engine that changes a move
list, a move's id or text, or a score changes a digest.

    python bench/transcripts.py --games 1000 --write /tmp/digests.json   # store
    python bench/transcripts.py --games 1000 --compare /tmp/digests.json # compare with a stored file
    python bench/transcripts.py --games 100 --compare /tmp/digests.json  # with its first 100 games
    python bench/transcripts.py --games 1000 --against ../koloda-before        # compare with another tree
    python bench/transcripts.py --games 1000 --moves-only --against ../koloda-before   # play alone

`--moves-only` leaves the first seat's observation and the table at the end out of the digest:
to compare with a tree whose table shows more (who played each card) but plays the same.

`--against TREE` plays the same games with `PYTHONPATH=TREE` in a subprocess,
game type by game type, and also prints both trees' CPU times and their ratio.
The test suite checks a few games of each against tests/golden/transcripts.json.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

CLONE_EVERY = 37


def digest(game: Any, seed: int, max_moves: int, moves_only: bool = False) -> str:
    """The digest of one seeded random game; with `moves_only`, of its moves, their texts and
    the scores alone (what the table shows may change while play stays the same)."""
    h = hashlib.sha256()
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    text = game.action_to_string
    moves = 0
    while not s.is_terminal() and moves < max_moves:
        legal = s.legal_actions()
        h.update(repr(legal).encode())
        h.update("\x1f".join(text(a) for a in legal).encode())
        action = rng.choice(legal)
        h.update(str(action).encode())
        s.apply_action(action)
        moves += 1
        if moves % CLONE_EVERY == 0:
            s = s.clone()
    h.update(repr((s.scores(), s.returns(), moves, s.is_terminal())).encode())
    if not moves_only:
        h.update(repr(s.observation(0)).encode())
        h.update(str(s).encode())
    return h.hexdigest()[:16]


def digests(name: str, games: int, seed: int, max_moves: int, moves_only: bool = False) -> tuple[list[str], float]:
    """The digests of `games` games of one game type, and the CPU seconds they took."""
    import koloda
    game = koloda.load(name)
    start = time.process_time()
    out = [digest(game, seed + i, max_moves, moves_only) for i in range(games)]
    return out, time.process_time() - start


def run(names: list[str], games: int, seed: int, max_moves: int, moves_only: bool = False) -> dict:
    result: dict[str, Any] = {"games": games, "seed": seed, "max_moves": max_moves, "digests": {}, "cpu": {}}
    if moves_only:
        result["moves_only"] = True
    for name in names:
        result["digests"][name], result["cpu"][name] = digests(name, games, seed, max_moves, moves_only)
    return result


def _in_tree(tree: str, name: str, games: int, seed: int, max_moves: int, moves_only: bool = False) -> dict:
    """One game type's digests, computed by the code of another tree in a subprocess."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    command = [sys.executable, os.path.abspath(__file__), "--games", str(games), "--seed", str(seed),
               "--max-moves", str(max_moves), "--json", "--only", name] + (["--moves-only"] if moves_only else [])
    out = subprocess.run(command, env=env, cwd=os.path.abspath(tree), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def _first_difference(mine: list[str], theirs: list[str], seed: int) -> str:
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if a != b:
            return f"first at seed {seed + i}"
    return f"{len(mine)} games against {len(theirs)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=5000)
    parser.add_argument("--only", nargs="*", help="game types (default: every shipped game)")
    parser.add_argument("--write", help="store the digests in this JSON file")
    parser.add_argument("--compare", help="compare with the digests stored in this JSON file")
    parser.add_argument("--against", help="compare with the same games played by the code of this tree")
    parser.add_argument("--json", action="store_true", help="print the digests as JSON")
    parser.add_argument("--moves-only", action="store_true",
                        help="digest the moves, their texts and the scores only, not the table at the end")
    a = parser.parse_args(argv)
    import koloda
    names = a.only or koloda.shipped_games()
    if a.json:
        print(json.dumps(run(names, a.games, a.seed, a.max_moves, a.moves_only)))
        return 0
    failed = False
    if a.against:
        print(f"{'game':22} {'games':>6} {'here CPU-s':>11} {'there CPU-s':>12} {'there/here':>11}  digests")
        for name in names:
            # each side in its own subprocess, one after the other, so both meet the same load
            here = _in_tree(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name, a.games, a.seed,
                            a.max_moves, a.moves_only)
            there = _in_tree(a.against, name, a.games, a.seed, a.max_moves, a.moves_only)
            mine, theirs = here["digests"][name], there["digests"][name]
            same = mine == theirs
            failed |= not same
            t_here, t_there = here["cpu"][name], there["cpu"][name]
            print(f"{name:22} {a.games:6} {t_here:11.2f} {t_there:12.2f} {t_there / max(t_here, 1e-9):10.2f}x  "
                  + ("same" if same else "DIFFERENT, " + _first_difference(mine, theirs, a.seed)), flush=True)
        return 1 if failed else 0
    result = run(names, a.games, a.seed, a.max_moves, a.moves_only)
    if a.write:
        with open(a.write, "w") as f:
            json.dump({k: v for k, v in result.items() if k != "cpu"}, f, indent=1, sort_keys=True)
            f.write("\n")
    if a.compare:
        with open(a.compare) as f:
            stored = json.load(f)
        for key in ("seed", "max_moves", "moves_only"):
            if stored.get(key) != result.get(key):
                print(f"the stored file has {key} {stored[key]}, this run {result[key]}")
                return 2
        if stored["games"] < result["games"]:
            print(f"the stored file has {stored['games']} games, this run {result['games']}")
            return 2
        for name in names:
            theirs = stored["digests"].get(name)
            theirs = None if theirs is None else theirs[:result["games"]]     # fewer games: the first ones
            same = theirs == result["digests"][name]
            failed |= not same
            print(f"{name:22} {result['cpu'][name]:8.2f} CPU-s  "
                  + ("same" if same else "DIFFERENT, " + ("not stored" if theirs is None else
                                                          _first_difference(result["digests"][name], theirs, a.seed))))
        return 1 if failed else 0
    for name in names:
        print(f"{name:22} {result['cpu'][name]:8.2f} CPU-s  {hashlib.sha256(''.join(result['digests'][name]).encode()).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
