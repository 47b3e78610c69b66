"""Simulation: many seeded games between agents, summarised per seat."""
from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from koloda.agents.registry import make_agent
from koloda.api import load
from koloda.interpreter.errors import RuleRuntimeError
from koloda.interpreter.game import Game, Hands


@dataclass(frozen=True)
class Position:
    """What every game of a simulation starts from besides its seed (see Game.new_initial_state)."""
    deck: list[list[int]] | None = None
    dealer: int | None = None
    hands: Hands | None = None

    def orders(self, game: Game, seed: int) -> list[list[int]] | None:
        """Every deck order of the game with this seed: the hands as the orders that deal them,
        then the deck's (a save keeps these, and replays without the hands)."""
        dealt = game.opening_orders(seed, self.hands, self.dealer) if self.hands is not None else []
        return dealt + (self.deck or []) or None


def _worker(job: tuple) -> "SimulationResult":
    game_ref, options, players, first, count, seed, max_moves, seats, position = job
    return simulate(load(game_ref, options, players), count, seed, max_moves, seats, first=first, position=position)


def simulate_parallel(game_ref: str, options: dict[str, str], players: int, count: int, seed: int, max_moves: int,
                      seats: list[str], jobs: int,
                      progress: Callable[[int], object] | None = None,
                      position: Position = Position(), start: int = 0) -> "SimulationResult":
    """The same games as `simulate`, shared out over `jobs` processes (each loads the game itself);
    `start`: the number of the first game (the games before it are played elsewhere)."""
    chunk = max(1, min(25, (count - start) // (jobs * 4) or 1))
    work = [(game_ref, options, players, first, min(chunk, count - first), seed, max_moves, seats, position)
            for first in range(start, count, chunk)]
    total: SimulationResult | None = None
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for part in pool.imap(_worker, work):
            total = part if total is None else total.merge(part)
            if progress is not None:
                progress(part.games)
    assert total is not None, "simulate_parallel needs count >= 1"
    return total


@dataclass
class SimulationResult:
    games: int = 0
    finished: int = 0
    unfinished: int = 0
    moves: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    score_sum: list[float] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    # games stopped by a rule error: (game number, its seed, the error as file:line:col: message)
    failures: list[tuple[int, int, str]] = field(default_factory=list)

    def merge(self, other: "SimulationResult") -> "SimulationResult":
        return SimulationResult(self.games + other.games, self.finished + other.finished,
                                self.unfinished + other.unfinished, self.moves + other.moves,
                                [a + b for a, b in zip(self.wins, other.wins)],
                                [a + b for a, b in zip(self.score_sum, other.score_sum)], self.seats,
                                self.failures + other.failures)

    def report(self, game: Game) -> str:
        n = len(self.wins)
        mean_moves = sum(self.moves) / max(len(self.moves), 1)
        lines = [f"{game.title}: {self.games} games played, {self.finished} ended"
                 + (f", {self.unfinished} stopped at the move limit" if self.unfinished else "")
                 + (f", {len(self.failures)} stopped by a rule error" if self.failures else ""),
                 f"mean moves per game: {mean_moves:.1f}",
                 ]
        agents = [self.seats[p] if p < len(self.seats) else "random" for p in range(n)]
        # as wide as the longest seat (a program's command can be long)
        width = max([20, *map(len, agents)])
        lines.append(f"seat  {'agent':<{width}}  win share   mean score")
        for p in range(n):
            share = self.wins[p] / max(self.finished, 1)
            mean = self.score_sum[p] / max(self.finished, 1)
            lines.append(f"P{p + 1:<4} {agents[p]:<{width}} {share:>9.3f}   {mean:>10.2f}")
        if self.failures:
            lines.append("games stopped by a rule error (play one again with `koloda play ... --seed SEED`):")
            for number, seed, message in sorted(self.failures):
                lines.append(f"  game {number + 1}, seed {seed}: {message}")
        return "\n".join(lines)


def simulate(game: Game, count: int, seed: int = 0, max_moves: int = 100_000, seats: list[str] | None = None,
             progress: Callable[[], object] | None = None, first: int = 0,
             position: Position = Position()) -> SimulationResult:
    """Play `count` games, game i with seed `seed + i`; seats are agent descriptions (default: random).
    `position`: a dealer, hands or deck orders every game starts from (the seed deals the rest)."""
    n = game.num_players
    seats = list(seats or []) + ["random"] * (n - len(seats or []))
    result = SimulationResult(wins=[0.0] * n, score_sum=[0.0] * n, seats=seats)
    for i in range(first, first + count):
        players = [make_agent(seats[p], seed * 7919 + i * n + p) for p in range(n)]
        moves = 0
        try:
            state = game.new_initial_state(seed + i, position.deck, position.dealer, position.hands)
            while not state.is_terminal() and moves < max_moves:
                state.apply_action(players[state.current_player()].choose(state))
                moves += 1
        except RuleRuntimeError as exc:         # this game's fault; the others go on
            result.games += 1
            result.failures.append((i, seed + i, exc.format(with_source=False)))
            if progress is not None:
                progress()
            continue
        result.games += 1
        result.moves.append(moves)
        if not state.is_terminal():
            result.unfinished += 1
            if progress is not None:
                progress()
            continue
        result.finished += 1
        for p, (r, sc) in enumerate(zip(state.returns(), state.scores())):
            result.wins[p] += r
            result.score_sum[p] += sc
        if progress is not None:
            progress()
    return result


# a run expected to last longer than this many seconds says so before it goes on
ESTIMATE_FROM = 10.0
# starting the worker processes, each of which loads the game
_SPAWN = 1.5


def expected_seconds(first: float, count: int, jobs: int) -> float:
    """How long `count` games will take, all told, when the first took `first` seconds and the
    others are shared out over `jobs` processes."""
    rest = count - 1
    if rest <= 0:
        return first
    workers = max(1, min(jobs, rest))
    return first + first * rest / workers + (_SPAWN if workers > 1 else 0.0)


def duration_text(seconds: float) -> str:
    """`about 40 seconds`, `about 12 minutes`, `about 1.5 hours`: as precise as an estimate is."""
    if seconds < 55:
        return f"about {max(5, 5 * round(seconds / 5))} seconds"
    if seconds < 90 * 60:
        minutes = max(1, round(seconds / 60))
        return f"about {minutes} minute{'s' if minutes > 1 else ''}"
    hours = seconds / 3600
    return f"about {hours:.1f} hours" if hours < 10 else f"about {round(hours)} hours"


def simulate_timed(game: Game, game_ref: str, options: dict[str, str], count: int, seed: int, max_moves: int,
                   seats: list[str], jobs: int, position: Position = Position(),
                   progress: Callable[[int], object] | None = None,
                   estimate: Callable[[float, float], object] | None = None,
                   clock: Callable[[], float] = time.perf_counter) -> "SimulationResult":
    """The games of `simulate`, on `jobs` processes: the first one here, timed, and `estimate` told
    the seconds the whole run should take and the seconds the first game took — before the others
    start, and only when the run should take longer than `ESTIMATE_FROM`. The results are those of
    `simulate` and `simulate_parallel`."""
    advance: Callable[[int], object] = progress or (lambda k: None)
    began = clock()
    result = simulate(game, 1, seed, max_moves, seats, progress=lambda: advance(1), position=position)
    if count == 1:
        return result
    first = clock() - began
    expected = expected_seconds(first, count, jobs)
    if estimate is not None and expected > ESTIMATE_FROM:
        estimate(expected, first)
    if jobs > 1:
        rest = simulate_parallel(game_ref, options, game.num_players, count, seed, max_moves, seats, jobs,
                                 progress=advance, position=position, start=1)
    else:
        rest = simulate(game, count - 1, seed, max_moves, seats, progress=lambda: advance(1), first=1,
                        position=position)
    return result.merge(rest)
