"""What the OpenSpiel adapter costs per step: koloda through pyspiel ÷ koloda direct, in the same run.

    python bench/adapter.py                      # pony, kunkin, canasta; 3 rounds of 4 matches
    python bench/adapter.py --games 10 kunkin

Needs the `koloda[openspiel]` extra. For each game and round, the same seeded random matches
(match i: seed S + i; the moves chosen by random.Random(S + i) among the legal ones) are played

  native   koloda's engine alone: State.legal_actions / apply_action on engine moves;
  compact  the compact view (koloda.compact): the same matches, each move spelled token by token;
  pyspiel  the compact view through pyspiel: pyspiel.load_game("koloda", ...), legal_actions and
           apply_action called on the pyspiel state (the chance node first), as OpenSpiel's algorithms do;

the three one right after the other, in the reverse order every other round. Every match is
played to its end (max_moves is set above any match's length). The figures are CPU time
(time.process_time) per engine move, the median over the rounds; `tokens/move` is how many tokens
a move takes on average; the ratios are pyspiel ÷ native and pyspiel ÷ compact. A clone of a
state halfway through a match is timed too (pyspiel's `clone()`, which OpenSpiel's algorithms
call at every `child`, against the engine's State.clone()).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pyspiel  # noqa: E402

import koloda  # noqa: E402
import koloda.openspiel  # noqa: E402,F401
from koloda.compact import CompactGame  # noqa: E402


def native(name: str, seeds: range) -> tuple[float, int, object]:
    game = koloda.load(name)
    moves, start = 0, time.process_time()
    middle = None
    for seed in seeds:
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
            if middle is None and moves == 200:
                middle = state.clone()
    return time.process_time() - start, moves, middle


def compact(name: str, seeds: range) -> tuple[float, int, int]:
    cg = CompactGame(koloda.load(name))
    moves = tokens = 0
    start = time.process_time()
    for seed in seeds:
        state, rng = cg.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            # the same engine move as `native` chose, spelled token by token
            move = rng.choice(state.native.legal_actions())
            for token in cg.spell(move):
                assert token in state.legal_actions()
                state.apply_action(token)
                tokens += 1
            moves += 1
    return time.process_time() - start, moves, tokens


def through_pyspiel(name: str, seeds: range) -> tuple[float, int, int, object]:
    game = pyspiel.load_game("koloda", {"rules": name, "max_moves": 10_000_000, "seeds": max(seeds) + 1})
    cg = game.table.spelling
    moves = tokens = 0
    middle = None
    start = time.process_time()
    for seed in seeds:
        state, rng = game.new_initial_state(), random.Random(seed)
        state.apply_action(seed)
        while not state.is_terminal():
            move = rng.choice(state.episode.native.legal_actions())
            for token in cg.spell(move):
                assert token in state.legal_actions()
                state.apply_action(token)
                tokens += 1
            moves += 1
            if middle is None and moves == 200:
                middle = state.clone()
    return time.process_time() - start, moves, tokens, middle


def per_clone(state: object, repeat: int = 200) -> float:
    start = time.process_time()
    for _ in range(repeat):
        state.clone()      # type: ignore[attr-defined]
    return (time.process_time() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["pony", "kunkin", "canasta"])
    parser.add_argument("--games", dest="count", type=int, default=4, help="matches per game and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':<10} {'native µs/move':>15} {'compact µs/move':>16} {'pyspiel µs/move':>16} "
          f"{'tokens/move':>12} {'pyspiel÷native':>15} {'pyspiel÷compact':>16} {'clone µs (native, pyspiel)':>28}")
    for name in args.games:
        rows: dict[str, list[float]] = {"native": [], "compact": [], "pyspiel": []}
        token_ratio = 0.0
        clones: tuple[float, float] = (0.0, 0.0)
        for r in range(args.rounds):
            seeds = range(args.seed + r * args.count, args.seed + (r + 1) * args.count)
            order = ["native", "compact", "pyspiel"]
            for side in order if r % 2 == 0 else order[::-1]:
                if side == "native":
                    seconds, moves, kept = native(name, seeds)
                    rows[side].append(seconds / moves)
                    native_clone = per_clone(kept)
                elif side == "compact":
                    seconds, moves, tokens = compact(name, seeds)
                    rows[side].append(seconds / moves)
                else:
                    seconds, moves, tokens, spiel_kept = through_pyspiel(name, seeds)
                    rows[side].append(seconds / moves)
                    token_ratio = tokens / moves
                    pyspiel_clone = per_clone(spiel_kept)
            clones = (native_clone, pyspiel_clone)
        med = {k: statistics.median(v) for k, v in rows.items()}
        print(f"{name:<10} {med['native'] * 1e6:>15.1f} {med['compact'] * 1e6:>16.1f} {med['pyspiel'] * 1e6:>16.1f} "
              f"{token_ratio:>12.2f} {med['pyspiel'] / med['native']:>15.2f} {med['pyspiel'] / med['compact']:>16.2f} "
              f"{clones[0] * 1e6:>13.1f}, {clones[1] * 1e6:>12.1f}", flush=True)


if __name__ == "__main__":
    main()
