"""The search: Optuna asks for variants, koloda/sim plays them, and every trial is kept in a local
SQLite file (Optuna's RDB storage) so that a search stopped by Ctrl-C or a crash goes on with
`--resume` where it stopped.

A small space is searched whole (Optuna's grid sampler); a larger one by TPE, or NSGA-II when
there are several objectives. The sampler is made anew before each trial with a seed of the
search's sampler seed and the trial's place in the search, so a trial's variant depends on the
trials before it and those seeds alone: the same on 1 or 2 workers (each trial's games are the
same on any number of them), and the same after a resume as without the stop (the trial a stop
broke off is played again first, on the same variant)."""
from __future__ import annotations

import hashlib
import itertools
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import optuna
from optuna.trial import FrozenTrial, TrialState

from koloda.tune.measures import Estimate
from koloda.tune.space import PLAYERS, Dimension, Space, option_values
from koloda.tune.targets import Target
from koloda.tune.trial import Outcome, Setup, play_trial

# the most points a space may have to be searched whole when no sampler is asked for
GRID_MAX = 256
# the most points --sampler grid lists
GRID_LARGEST = 100_000
# trials of a search given no --trials, --budget nor --time (and too large a space for a grid)
DEFAULT_TRIALS = 40
# variants already played that the sampler may propose in a row before the search ends (it has
# nothing new to try: TPE and NSGA-II do propose a point again, a grid never does)
REPEATS_MAX = 20
STUDY = "koloda-tune"
INTERRUPTED = "interrupted"
_OPTUNA_QUIET = optuna.logging.WARNING
_OWN_CONSTRAINTS = hasattr(optuna.Trial, "set_constraint")      # Optuna 5 on


class SearchError(ValueError):
    """A search that cannot start or go on (a storage file of another search, nothing to resume)."""


@dataclass
class Plan:
    setup: Setup
    space: Space
    targets: list[Target]
    default_players: int
    storage: Path
    trials: int | None = None
    budget: int | None = None            # games the trials may play, all told
    seconds: float | None = None         # `--time`: seconds this run may take (a resumed run counts from its own start)
    sampler_seed: int = 0
    sampler: str = "auto"                # auto, grid, tpe, nsga2
    resume: bool = False

    @property
    def constraints(self) -> list[Target]:
        return [t for t in self.targets if not t.objective]

    @property
    def objectives(self) -> list[Target]:
        return [t for t in self.targets if t.objective]

    def kind(self) -> str:
        if self.sampler != "auto":
            return self.sampler
        if self.space.size <= GRID_MAX:
            return "grid"
        return "nsga2" if len(self.objectives) > 1 else "tpe"

    def definition(self) -> dict[str, Any]:
        """What makes two searches the same one: a resume must find this in the storage."""
        s = self.setup
        return {"game": s.game_ref, "seed": s.seed, "games": s.games, "chunk": s.chunk, "seats": list(s.seats),
                "max_moves": s.max_moves, "rotate": s.rotate, "space": [d.text() for d in self.space.dimensions],
                "fixed": option_values(self.space.fixed), "players": self.space.players,
                "targets": [t.text for t in self.targets], "sampler": self.kind(), "sampler_seed": self.sampler_seed}


@dataclass
class Progress:
    """What a search tells while it runs (the command line draws it)."""
    game: Callable[[int], object] = lambda k: None                       # k more games played
    trial_started: Callable[[int, dict[str, Any]], object] = lambda k, p: None
    trial_ended: Callable[[FrozenTrial, list[FrozenTrial]], object] = lambda t, done: None


@dataclass
class SearchResult:
    trials: list[FrozenTrial] = field(default_factory=list)   # complete and pruned, in the order played
    stopped: bool = False
    games: int = 0                       # games the trials played, in this run and the runs before it
    seconds: float = 0.0                 # this run's
    exhausted: bool = False              # the sampler proposed only variants already played (REPEATS_MAX)


def point_of(plan: Plan, params: dict[str, Any]) -> tuple[dict[str, str], int]:
    """A trial's parameters as the options (as -o texts, the held ones with them) and the players."""
    point = dict(plan.space.fixed)
    point.update({k: v for k, v in params.items() if k != PLAYERS})
    players = int(params.get(PLAYERS, plan.space.players or plan.default_players))
    return option_values(point), players


def done(trials: Sequence[FrozenTrial]) -> list[FrozenTrial]:
    return [t for t in trials if t.state in (TrialState.COMPLETE, TrialState.PRUNED)]


def _seed(plan: Plan, k: int) -> int:
    digest = hashlib.sha256(f"{plan.sampler_seed}:{k}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _violations(trial: FrozenTrial) -> Sequence[float]:
    return trial.user_attrs.get("violations", [1.0])


def grid_order(plan: Plan) -> list[dict[str, Any]]:
    """Every point of the space, in an order the sampler seed shuffles (a search cut short by
    --budget or --time has tried points all over the space, not one corner of it)."""
    names = [d.name for d in plan.space.dimensions]
    points = [dict(zip(names, values)) for values in itertools.product(*(d.listed() for d in plan.space.dimensions))]
    random.Random(_seed(plan, 0)).shuffle(points)
    return points


def _key(params: dict[str, Any]) -> str:
    return json.dumps(params, sort_keys=True)


def _next_point(plan: Plan, trials: Sequence[FrozenTrial]) -> dict[str, Any] | None:
    """The grid's next point not yet played (None: the grid is done)."""
    seen = {_key(t.params) for t in done(trials)}
    return next((p for p in grid_order(plan) if _key(p) not in seen), None)


def _sampler(plan: Plan, k: int) -> optuna.samplers.BaseSampler:
    seed = _seed(plan, k)
    kind = plan.kind()
    # Optuna 5 reads a trial's constraints as the trial sets them (record()); before it, from this
    constraints = _violations if plan.constraints and plan.objectives and not _OWN_CONSTRAINTS else None
    if kind == "grid":            # the points are given (_next_point): the sampler picks none
        return optuna.samplers.RandomSampler(seed=seed)
    if kind == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, constraints_func=constraints, population_size=16)
    return optuna.samplers.TPESampler(seed=seed, constraints_func=constraints, n_startup_trials=8)


def _directions(plan: Plan) -> list[optuna.study.StudyDirection]:
    if not plan.objectives:          # the targets' total violation
        return [optuna.study.StudyDirection.MINIMIZE]
    return [optuna.study.StudyDirection.MAXIMIZE if t.op == "max" else optuna.study.StudyDirection.MINIMIZE
            for t in plan.objectives]


def open_storage(path: Path) -> optuna.storages.RDBStorage:
    optuna.logging.set_verbosity(_OPTUNA_QUIET)
    try:
        return optuna.storages.RDBStorage(f"sqlite:///{path.resolve()}")
    except Exception as exc:          # noqa: BLE001 — SQLAlchemy's errors: the file is not a storage
        raise SearchError(f"cannot open {path} as a search's storage: {exc}") from None


def open_study(plan: Plan, storage: optuna.storages.RDBStorage) -> optuna.Study:
    names = [s.study_name for s in optuna.get_all_study_summaries(storage)]
    definition = json.loads(json.dumps(plan.definition()))
    if STUDY in names:
        study = optuna.load_study(study_name=STUDY, storage=storage, sampler=_sampler(plan, 0))
        if not plan.resume:
            raise SearchError(f"{plan.storage} holds a search already: give --resume to go on with it, "
                              "or --storage another file")
        before = study.user_attrs.get("definition", {})
        if before != definition:
            changed = sorted(k for k in set(before) | set(definition) if before.get(k) != definition.get(k))
            raise SearchError(f"{plan.storage} holds another search (it differs in: {', '.join(changed)}): "
                              "resume it with the arguments it was started with")
        return study
    if plan.resume:
        raise SearchError(f"nothing to resume: {plan.storage} holds no search")
    study = optuna.create_study(storage=storage, study_name=STUDY, directions=_directions(plan),
                                sampler=_sampler(plan, 0))
    study.set_user_attr("definition", definition)
    return study


def record(trial: optuna.Trial, plan: Plan, out: Outcome) -> tuple[list[float] | float | None, TrialState]:
    """Keep what the trial found in the storage; the values and state to tell Optuna."""
    violations = [t.violation(out.estimates[t.measure].value) if t.measure in out.estimates else 1.0
                  for t in plan.constraints]
    trial.set_user_attr("options", out.options)
    trial.set_user_attr("players", out.players)
    trial.set_user_attr("games", out.games)
    trial.set_user_attr("verdict", out.verdict)
    trial.set_user_attr("estimates", {k: e.as_dict() for k, e in out.estimates.items()})
    trial.set_user_attr("violations", violations)
    if out.error:
        trial.set_user_attr("error", out.error)
    if _OWN_CONSTRAINTS and plan.objectives:
        for k, (target, v) in enumerate(zip(plan.constraints, violations)):
            trial.set_constraint(f"{k}: {target.text}", v)
    if out.verdict == "missed":
        return None, TrialState.PRUNED
    if plan.objectives:
        return [out.estimates[t.measure].value for t in plan.objectives], TrialState.COMPLETE
    return sum(violations), TrialState.COMPLETE


def _requeue(study: optuna.Study) -> None:
    """The trials a stop broke off are played again first, on the same variants."""
    redone = set(study.user_attrs.get("requeued", []))
    broken = [t for t in study.get_trials(deepcopy=False)
              if t.state == TrialState.FAIL and t.user_attrs.get(INTERRUPTED) and t.number not in redone]
    for t in broken:
        study.enqueue_trial(t.params)
    if broken:
        study.set_user_attr("requeued", sorted(redone | {t.number for t in broken}))


def _replayed(earlier: FrozenTrial) -> Outcome:
    """An earlier trial's outcome told again: its estimates and verdict, and no games played."""
    attrs = earlier.user_attrs
    return Outcome(dict(attrs.get("options", {})), int(attrs.get("players", 0)),
                   estimates={k: Estimate(e["value"], e["low"], e["high"], int(e["n"]))
                              for k, e in attrs.get("estimates", {}).items()},
                   verdict=attrs.get("verdict", "missed"), error=attrs.get("error", ""))


def _games_of(trials: Sequence[FrozenTrial]) -> int:
    return sum(int(t.user_attrs.get("games", 0)) for t in trials)


def run_search(plan: Plan, progress: Progress = Progress(), clock: Callable[[], float] = time.monotonic
               ) -> SearchResult:
    """Trials one after another until --trials, --budget or --time says stop (or a grid is done);
    Ctrl-C ends the trial being played (it is played again on --resume) and returns the rest."""
    grid = plan.kind() == "grid"
    if grid and plan.space.size > GRID_LARGEST:
        raise SearchError(f"a grid of {plan.space.size:,} points is too large to list: narrow the space "
                          "(--space, --fix) or let TPE search it (--sampler tpe)")
    storage = open_storage(plan.storage)
    study = open_study(plan, storage)
    if not grid:
        _requeue(study)
    began = clock()
    result = SearchResult()
    repeats = 0
    limit = plan.trials
    if limit is None and plan.budget is None and plan.seconds is None:
        limit = plan.space.size if plan.kind() == "grid" else DEFAULT_TRIALS
    while True:
        trials = study.get_trials(deepcopy=False)
        finished = done(trials)
        used = _games_of(finished)
        point = _next_point(plan, trials) if grid else None
        if (limit is not None and len(finished) >= limit
                or grid and point is None
                or plan.budget is not None and used >= plan.budget
                or plan.seconds is not None and clock() - began >= plan.seconds):
            break
        setup = plan.setup
        if plan.budget is not None:
            setup = replace(setup, games=min(setup.games, plan.budget - used))
        study = optuna.load_study(study_name=STUDY, storage=storage, sampler=_sampler(plan, len(finished)))
        if point is not None:
            study.enqueue_trial(point)
        trial = study.ask({d.name: _distribution(d) for d in plan.space.dimensions})
        earlier = next((t for t in finished if t.params == trial.params and "same_as" not in t.user_attrs), None)
        if earlier is not None:
            # the same variant on the same deals plays the same games: its answer stands, for no games
            values, state = record(trial, plan, _replayed(earlier))
            trial.set_user_attr("same_as", earlier.number)
            frozen = study.tell(trial, values, state=state)
            progress.trial_ended(frozen, done(study.get_trials(deepcopy=False)))
            repeats += 1
            if repeats >= REPEATS_MAX:
                result.exhausted = True
                break
            continue
        repeats = 0
        options, players = point_of(plan, trial.params)
        progress.trial_started(len(finished), trial.params)
        try:
            out = play_trial(setup, options, players, plan.targets, progress.game)
        except BaseException:
            trial.set_user_attr(INTERRUPTED, True)
            study.tell(trial, state=TrialState.FAIL)
            raise
        if out.stopped:
            trial.set_user_attr(INTERRUPTED, True)
            study.tell(trial, state=TrialState.FAIL)
            result.stopped = True
            break
        values, state = record(trial, plan, out)
        frozen = study.tell(trial, values, state=state)
        progress.trial_ended(frozen, done(study.get_trials(deepcopy=False)))
    result.trials = done(study.get_trials(deepcopy=False))
    result.games = _games_of(result.trials)
    result.seconds = clock() - began
    return result


def _distribution(d: Dimension) -> optuna.distributions.BaseDistribution:
    if d.kind == "int":
        return optuna.distributions.IntDistribution(d.low, d.high)
    # an option's values are words, numbers and true or false, as Optuna's choices are
    return optuna.distributions.CategoricalDistribution(cast(list[bool | int | str], list(d.values)))
