"""One variant of a search, played on the run's deals in growing chunks and stopped as soon as its
intervals answer the question.

Game k of every variant (and of the base) has the same seed, so each trial plays the same deals as
the baseline and their differences are paired (report/compare.py). A trial plays games 0..c-1,
then up to 2c, 4c, ... and at most n; after each chunk every target's 95% interval is asked: one
that lies wholly outside its target means the variant cannot meet it (the trial stops, pruned),
and when every target's interval lies wholly inside it the variant clearly meets them all (it
stops, done) — unless there are objectives to measure, which take the full n. The chunks are
played by koloda/sim as `simulate` plays them (local processes or Ray), so a chunk's records are
the same on 1 or many workers, and Ctrl-C ends the chunk with the games played."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.api import load
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.interpreter.game import Game
from koloda.report.records import GameRecord
from koloda.report.summary import summarise
from koloda.sim import SimulationResult, Table, simulate, simulate_parallel
from koloda.sim.stop import stop_if_asked
from koloda.sim.timing import Backend
from koloda.tune.measures import Estimate, catalogue
from koloda.tune.targets import Target

MET, MISSED, OPEN = "met", "missed", "open"
# games per worker below which a chunk is played in this process rather than shared out
SHARED_FROM = 200


@dataclass(frozen=True)
class Setup:
    """What every trial of a search shares: the base game, the deals, the seats, the workers."""
    game_ref: str
    seed: int = 0
    games: int = 2000                     # the most games a trial plays
    chunk: int = 200                      # the games of its first chunk (then doubled)
    seats: tuple[str, ...] = ()
    max_moves: int = 100_000
    rotate: bool = False
    jobs: int = 1
    backend: Backend | None = None

    def ends(self) -> list[int]:
        """Where each chunk of a trial ends (game numbers from 0): c, 2c, 4c, ..., n."""
        out, end = [], max(1, min(self.chunk, self.games))
        while end < self.games:
            out.append(end)
            end *= 2
        return out + [self.games]


@dataclass
class Outcome:
    options: dict[str, str]
    players: int
    records: list[GameRecord] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    estimates: dict[str, Estimate] = field(default_factory=dict)
    verdict: str = OPEN                   # MET (stopped early, clearly met), MISSED (pruned) or OPEN
    stopped: bool = False                 # interrupted: the games are those played
    error: str = ""                       # the variant cannot be loaded or a game hit a rule error
    lost: int = 0                         # games given up as lost (their workers kept dying)

    @property
    def games(self) -> int:
        return len(self.records)


def load_variant(game_ref: str, options: dict[str, str], players: int) -> Game:
    return load(game_ref, options, players)


def report_of(game: Game, records: Sequence[GameRecord], setup: Setup, options: dict[str, str]) -> dict[str, Any]:
    return summarise(records, game={"name": game.name, "title": game.title, "options": dict(options),
                                    "players": game.num_players},
                     run={"games": len(records), "seed": setup.seed, "seats": list(setup.seats),
                          "rotate": setup.rotate, "max_moves": setup.max_moves, "stopped": False,
                          "options": dict(options)},
                     counters=list(game.counters))


def estimates_of(report: dict[str, Any], records: Sequence[GameRecord], players: int,
                 counters: Sequence[str], measures: Sequence[str]) -> dict[str, Estimate]:
    known = catalogue(players, counters)
    return {name: known[name](report, records) for name in dict.fromkeys(measures) if name in known}


def verdict(targets: Sequence[Target], estimates: dict[str, Estimate]) -> str:
    """MISSED when some target's interval lies wholly outside it; MET when every target (and no
    objective) lies wholly inside; else OPEN: more games are needed to tell."""
    answers = [t.verdict(estimates[t.measure]) if t.measure in estimates else MISSED for t in targets]
    if MISSED in answers:
        return MISSED
    if answers and all(a == MET for a in answers) and not any(t.objective for t in targets):
        return MET
    return OPEN


def _chunk(game: Game, setup: Setup, options: dict[str, str], first: int, end: int,
           progress: Callable[[int], object]) -> SimulationResult:
    # a chunk too small to be worth starting the workers for (each loads the game) is played here:
    # the records are the same wherever a game is played
    if setup.backend is None and setup.jobs <= 1 or end - first < SHARED_FROM * setup.jobs:
        return simulate(game, end - first, setup.seed, setup.max_moves, list(setup.seats),
                        progress=lambda: progress(1), first=first, rotate=setup.rotate)
    table = Table(setup.game_ref, options, game.num_players, setup.seed, setup.max_moves, setup.seats,
                  rotate=setup.rotate)
    if setup.backend is not None:
        return setup.backend(table, end, setup.jobs, progress, first)
    return simulate_parallel(table, end, setup.jobs, progress, first)


def play_trial(setup: Setup, options: dict[str, str], players: int, targets: Sequence[Target],
               progress: Callable[[int], object] = lambda k: None, early: bool = True) -> Outcome:
    """Play one variant until its targets are answered (`early`) or for setup.games games."""
    out = Outcome(dict(options), players)
    try:
        game = load_variant(setup.game_ref, options, players)
    except (RuleError, RuleErrors) as exc:
        out.error, out.verdict = _error_text(exc), MISSED
        return out
    measures = [t.measure for t in targets]
    first = 0
    for end in setup.ends():
        stop_if_asked()                 # a Ctrl-C whose exception Python dropped still stops the search
        result = _chunk(game, setup, options, first, end, progress)
        out.records += result.records
        out.lost += len(result.lost)
        first = end
        out.report = report_of(game, out.records, setup, options)
        out.estimates = estimates_of(out.report, out.records, players, list(game.counters), measures)
        failed = result.failures
        if failed:
            out.error = f"game {failed[0][0] + 1} (seed {failed[0][1]}): {failed[0][2]}"
        if result.stopped:
            out.stopped = True
            return out
        out.verdict = verdict(targets, out.estimates)
        unended = sum(not r.ended for r in out.records)
        if unended and early:
            # the measures are of the games that ended: a variant some of whose games never end
            # (a rule error, or --max-moves reached) would look as short as its ended games
            out.error = out.error or f"{unended} of {out.games} games did not end within --max-moves {setup.max_moves:,}"
            out.verdict = MISSED
        if early and out.verdict != OPEN:
            return out
    return out


def _error_text(exc: RuleError | RuleErrors) -> str:
    if isinstance(exc, RuleErrors):
        return "; ".join(e.format(with_source=False) for e in exc.errors)
    return exc.format(with_source=False)
