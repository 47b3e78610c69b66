"""koloda's bots against OpenSpiel's, through the OpenSpiel adapter, and a Bradley-Terry ladder over
every bot kind with bootstrap intervals.

    python bench/ladder.py                                   # Crazy Eights, 2 players, one deal
    python bench/ladder.py --games 40 --iterations 50 --rules pony --options ""
    python bench/ladder.py --twin euchre                     # a twin's rules, players and options

`--options` and `--players` default to Crazy Eights' one deal for two; `--twin NAME` (an OpenSpiel
game or a rule file of bench/same_rules.py's TWINS) takes the rule file, the player count and the
options of the differential tests from there instead, as OpenSpiel's twin plays it. A rule file's
`turns: together` rounds (Goofspiel's bids) are played in turn (the adapter's `together` "in_turn"):
OpenSpiel's MCTS and ISMCTS search only sequential games, and nobody learns of a choice of the round
before making theirs.

Needs the `koloda[openspiel]` extra. Every pair of bot kinds plays `--games` matches of the game
through `pyspiel.load_game("koloda", ...)`: match k of a pair is dealt by seed `--seed + k // 2` (the
chance node's outcome) and the two kinds swap seats from one match to the next, so each deal is
played from both seats (with more than two players the two kinds sit in turn, a b a ..., then
b a b ...; a kind's share of a match is its seats' share of the win). The kinds:

  random, greedy          koloda's, playing whole moves (their tokens applied in turn)
  ismcts                  koloda's ISMCTS, `--iterations` iterations a move; `ismcts:OPTIONS` (such
                          as `ismcts:rollout=random`) the same with the seat's options
  os-ismcts               OpenSpiel's Python ISMCTS bot (`--iterations` simulations, one random
                          rollout each), on the adapter's resample_from_infostate
  os-mcts                 OpenSpiel's MCTS bot (the same budget): it searches the true state, so
                          it sees every card — a bot that cheats, as a ceiling, not a rival
  os-cfr                  OpenSpiel's CFR+ (`--cfr-iterations` iterations), solved once before the
                          matches on the same rules with every shuffle dealt at chance nodes (the
                          adapter's `chance` "cards", whose information-state strings are the
                          seed game's), playing its average policy by sampling: only for tiny
                          games, since CFR walks the whole tree (Kuhn poker, Leduc); the solve's
                          CPU and the policy's exploitability are printed, and are not in the
                          kind's milliseconds a decision

A match's result is each seat's share of the win (a tie shared). A game of one player against the
house (Blackjack) has no pairs to play: each kind plays the same `--games` deals alone, and its
mean return (1 won, 0.5 level, 0 lost) is printed with Wilson's interval instead of a ladder.

The ladder fits Bradley-Terry strengths to the pairs' results (Hunter's MM algorithm, a tie as half
a win each way), shown as Elo (400 log10 of the odds), `random` at 0; the interval is the 2.5-97.5
percentiles of the fits to `--boot` resamplings of each pair's matches. Printed too: each pair's win share (with Wilson's
95% interval) and each kind's CPU milliseconds per decision.
"""
from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts  # noqa: E402

import koloda.openspiel  # noqa: E402,F401
from koloda.agents.registry import make_agent  # noqa: E402
from koloda.dsl.errors import RuleError  # noqa: E402
from same_rules import TWINS  # noqa: E402

KINDS = ["random", "greedy", "ismcts", "os-ismcts", "os-mcts"]
_SOLVED: dict[str, Any] = {}          # game string -> os-cfr's average policy, solved once a run


def cfr_policy(game: Any, iterations: int) -> Any:
    """CFR+'s average policy for `game`'s rules, solved on the game dealt card by card."""
    key = str(game)
    if key not in _SOLVED:
        params = {k: v for k, v in game.get_parameters().items() if k != "chance_base"}
        dealt = pyspiel.load_game("koloda", {**params, "chance": "cards"})
        start = time.process_time()
        solver = cfr.CFRPlusSolver(dealt)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        solved = time.process_time() - start
        print(f"os-cfr: {iterations} iterations of CFR+ over {len(policy.state_lookup)} information states in "
              f"{solved:.1f} s of CPU; exploitability {exploitability.exploitability(dealt, policy):.4f}", flush=True)
        _SOLVED[key] = policy
    return _SOLVED[key]


class Seat:
    """One bot at one seat of one match: a token each time it is asked."""

    def __init__(self, kind: str, game: Any, seat: int, iterations: int, seed: int, cfr_iterations: int = 0):
        self.kind, self.seat, self.queue = kind, seat, []
        self.seconds, self.decisions = 0.0, 0
        self.rng = rng = np.random.RandomState(seed % (1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        if kind == "os-ismcts":
            self.bot: Any = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=iterations,
                                             random_state=rng)
        elif kind == "os-mcts":
            self.bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=iterations, evaluator=evaluator, random_state=rng)
        elif kind == "os-cfr":
            self.bot = cfr_policy(game, cfr_iterations)
        else:
            self.bot = make_agent(_spec(kind, iterations), seed)
        self.spelling = game.table.spelling

    def token(self, state: Any) -> int:
        if self.queue:                      # the rest of a whole move chosen by a koloda bot
            return self.queue.pop(0)
        start = time.process_time()
        if self.kind == "os-cfr":
            probabilities = self.bot.action_probabilities(state)
            actions = list(probabilities)
            token = int(actions[self.rng.choice(len(actions), p=[probabilities[a] for a in actions])])
        elif self.kind.startswith("os-"):
            token = self.bot.step(state)
        else:
            tokens = list(self.spelling.spell(self.bot.choose(state.episode.native)))
            token, self.queue = tokens[0], tokens[1:]
        self.seconds += time.process_time() - start
        self.decisions += 1
        return token


def _spec(kind: str, iterations: int) -> str:
    """A koloda seat for a kind: `ismcts` and `ismcts:OPTIONS` think for `iterations` a move."""
    if kind.split(":")[0] != "ismcts":
        return kind
    return f"{kind}{',' if ':' in kind else ':'}iterations={iterations}"


def match(game: Any, kinds: tuple[str, str], seed: int, iterations: int,
          cfr_iterations: int = 0) -> tuple[list[float], list[Seat]]:
    """One match; with more than two players the two kinds take the seats in turn (a, b, a, ...)."""
    seats = [Seat(kinds[p % 2], game, p, iterations, seed * 10 + p, cfr_iterations) for p in range(game.num_players())]
    state = game.new_initial_state()
    while state.is_chance_node():            # the match's seed (digit by digit with chance_base)
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[seed % len(outcomes)][0])
        seed //= len(outcomes)
    while not state.is_terminal():
        state.apply_action(seats[state.current_player()].token(state))
    return list(state.returns()), seats


def alone(game: Any, args: argparse.Namespace) -> None:
    """One player against the house: each kind plays the same deals, its mean return is its strength."""
    print(f"{args.rules} ({args.options or 'no options'}), alone against the house; {args.games} deals a kind, "
          f"{args.iterations} iterations a move; seeds from {args.seed}", flush=True)
    print(f"\n{'kind':>10} {'mean return':>12} {'Wilson 95%':>12} {'ms a decision':>14}")
    for kind in args.kinds:
        total, seconds, decisions = 0.0, 0.0, 0
        for k in range(args.games):
            returns, seats = match(game, (kind, kind), args.seed + k, args.iterations, args.cfr_iterations)
            total += returns[0]
            seconds, decisions = seconds + seats[0].seconds, decisions + seats[0].decisions
        mean = total / max(args.games, 1)
        low, high = wilson(mean, args.games)
        print(f"{kind:>10} {mean:12.3f} {f'{low:.2f}-{high:.2f}':>12} {1000 * seconds / max(decisions, 1):14.2f}",
              flush=True)


def bradley_terry(wins: np.ndarray, rounds: int = 2000) -> np.ndarray:
    """Strengths (log scale, the first kind at 0) from wins[i, j], i's wins over j (ties half)."""
    n = len(wins)
    games = wins + wins.T
    p = np.ones(n)
    for _ in range(rounds):
        total = wins.sum(axis=1)
        denom = np.array([sum(games[i, j] / (p[i] + p[j]) for j in range(n) if j != i and games[i, j])
                          for i in range(n)])
        new = np.where(denom > 0, (total + 1e-3) / np.maximum(denom, 1e-12), p)   # a little prior: no 0 or inf
        new /= new[0]
        if np.allclose(new, p, rtol=1e-9):
            break
        p = new
    return np.log(p)


def wilson(share: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") is None:
        # OpenSpiel's ISMCTS follows the adapter's information-state strings through dicts and
        # sets, so the hash seed changes its matches: pin it (its matches still differ a little
        # from run to run, for a reason not found yet; docs/strength.md)
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="crazy-eights")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--options", default="deals=1")
    parser.add_argument("--twin", help="an OpenSpiel game or rule file of bench/same_rules.py: its rules, "
                                       "players and options (instead of the three above)")
    parser.add_argument("--games", type=int, default=20, help="matches per pair of kinds (default 20)")
    parser.add_argument("--iterations", type=int, default=30, help="search budget a move (default 30)")
    parser.add_argument("--kinds", nargs="*", default=KINDS, help=f"default {' '.join(KINDS)}; also os-cfr")
    parser.add_argument("--cfr-iterations", type=int, default=100, help="os-cfr's CFR+ iterations (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boot", type=int, default=500)
    args = parser.parse_args()
    if args.twin:
        twin = next((t for t in TWINS if args.twin in (t.openspiel, t.koloda)), None)
        if twin is None:
            parser.error(f"no twin `{args.twin}`; bench/same_rules.py has {', '.join(t.koloda for t in TWINS)}")
        args.rules, args.players = twin.koloda, twin.players or 0
        args.options = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                                 for k, v in twin.options.items())
    try:
        game = pyspiel.load_game("koloda", {"rules": args.rules, "players": args.players, "options": args.options,
                                            "chance_base": 16, "together": "in_turn"})
    except RuleError as e:      # most often options or players of another game (the defaults are Crazy Eights')
        sys.exit(f"{e}\n(--options defaults to Crazy Eights' `deals=1` and --players to 2: give the game's own, "
                 f"or --twin)")
    if game.num_players() == 1:
        alone(game, args)
        return
    kinds = args.kinds
    index = {k: i for i, k in enumerate(kinds)}
    results: dict[tuple[str, str], list[float]] = {}        # (a, b) -> a's share, match by match
    seconds = {k: 0.0 for k in kinds}
    decisions = {k: 0 for k in kinds}
    print(f"{args.rules} ({args.options or 'no options'}), {game.num_players()} players; {args.games} matches a pair, "
          f"{args.iterations} iterations a move; seeds from {args.seed}", flush=True)
    for a, b in itertools.combinations(kinds, 2):
        shares = []
        for k in range(args.games):
            order = (a, b) if k % 2 == 0 else (b, a)
            returns, seats = match(game, order, args.seed + k // 2, args.iterations, args.cfr_iterations)
            mine = [p for p in range(len(returns)) if p % 2 == k % 2]       # a's seats
            shares.append(sum(returns[p] for p in mine) / max(sum(returns), 1e-12))
            for seat in seats:
                seconds[seat.kind] += seat.seconds
                decisions[seat.kind] += seat.decisions
        results[(a, b)] = shares
        low, high = wilson(float(np.mean(shares)), len(shares))
        print(f"  {a:>9} v {b:<9} {np.mean(shares):.3f} ({low:.2f}-{high:.2f})", flush=True)

    def fit(sample: dict[tuple[str, str], list[float]]) -> np.ndarray:
        wins = np.zeros((len(kinds), len(kinds)))
        for (a, b), shares in sample.items():
            wins[index[a], index[b]] += sum(shares)
            wins[index[b], index[a]] += len(shares) - sum(shares)
        return bradley_terry(wins)

    elo = 400 / math.log(10)
    point = fit(results) * elo
    rng = random.Random(args.seed)
    boots = np.array([fit({pair: [rng.choice(s) for _ in s] for pair, s in results.items()}) * elo
                      for _ in range(args.boot)])
    print(f"\n{'kind':>10} {'Elo':>6} {'95% interval':>16} {'ms a decision':>14}")
    for i in np.argsort(-point):
        low, high = np.percentile(boots[:, i], [2.5, 97.5])
        per = 1000 * seconds[kinds[i]] / max(decisions[kinds[i]], 1)
        print(f"{kinds[i]:>10} {point[i]:6.0f} {f'{low:.0f} .. {high:.0f}':>16} {per:14.2f}")


if __name__ == "__main__":
    main()
