"""What `koloda tune` does once its arguments are read: the search with a progress line showing the
best so far, the answer printed, the variants' rule files, the JSON and the plots written.
Imported by that command only (it imports Optuna, an extra)."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.progress import Progress

from koloda.api import load, load_spec
from koloda.cli.output import Failure, console, err_console
from koloda.cli.reports import backend_for, bot_seats, make_dir, plots_module, stop_code, write_text
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.sim.ledger import WorkersFailed
from koloda.sim.stop import sigterm_stops
from koloda.tune import answer as answers
from koloda.tune.measures import about, measure_names
from koloda.tune.render import render_answer, trial_line
from koloda.tune.search import Plan, Progress as Told, SearchError, SearchResult, done, open_storage, open_study, \
    run_search
from koloda.tune.space import PLAYERS, SpaceError, option_values, read_space
from koloda.tune.targets import TargetError, read_targets
from koloda.tune.trial import Setup
from koloda.tune.variant import VariantError, base_reference, write_variant
from koloda.ui.safe import plain


@dataclass(frozen=True)
class Request:
    game: str
    targets: tuple[str, ...]
    maximize: tuple[str, ...]
    minimize: tuple[str, ...]
    space: tuple[str, ...]
    fix: tuple[str, ...]
    players: str | None
    games: int
    chunk: int
    budget: int | None
    trials: int | None
    seconds: float | None
    sampler: str
    seed: int
    sampler_seed: int
    storage: str | None
    resume: bool
    show: int
    out_dir: str | None
    seats: tuple[str, ...]
    rotate: bool
    max_moves: int
    jobs: int
    backend: str
    address: str | None
    json_file: str | None
    plots_dir: str | None
    list_measures: bool


def _plan(r: Request) -> Plan:
    try:
        spec, _ = load_spec(r.game)
    except (RuleErrors, RuleError) as exc:
        raise Failure("\n".join(e.format() for e in exc.errors) if isinstance(exc, RuleErrors) else exc.format()) \
            from None
    if spec.library:
        raise Failure(f"`{spec.name}` is a library for `import:`, not a game to tune")
    try:
        space = read_space(spec, r.space, r.fix, r.players)
    except SpaceError as exc:
        raise Failure(str(exc)) from None
    counts = [d.low for d in space.dimensions if d.name == PLAYERS] or [space.players or spec.default_players]
    bot_seats(r.seats, "tune")
    if len(r.seats) > min(counts):
        raise Failure(f"{len(r.seats)} seats given, but the search plays tables of {min(counts)} players")
    # a seat's measure must be there at every number of players searched: the least of them
    known = measure_names(min(counts), game_counters(r.game))
    if r.list_measures:
        return Plan(Setup(r.game), space, [], spec.default_players, Path("."), sampler=r.sampler)
    try:
        targets = read_targets(r.targets, r.maximize, r.minimize, known)
    except TargetError as exc:
        raise Failure(exc.format()) from None
    if not targets:
        raise Failure("give at least one --target, --maximize or --minimize (koloda tune --measures GAME lists "
                      "the measures)")
    if not space.dimensions:
        raise Failure(f"nothing to search: {spec.name} has no option with `choices:`, `min:` and `max:`, or a "
                      "true-or-false default, left free; give one with --space KEY=LO..HI or KEY=a,b")
    run_on, jobs = backend_for(r.backend, r.address, r.jobs)
    setup = Setup(r.game, r.seed, r.games, r.chunk, r.seats, r.max_moves, r.rotate, jobs, run_on)
    storage = Path(r.storage) if r.storage else Path(f"{Path(r.game).stem}.tune.db")
    return Plan(setup, space, targets, spec.default_players, storage, r.trials, r.budget, r.seconds,
                r.sampler_seed, r.sampler, r.resume)


def game_counters(game: str) -> list[str]:
    """The rule file's counters (`count:`), as a loaded game lists them."""
    try:
        return list(load(game).counters)
    except (RuleErrors, RuleError):
        return []


def _list(plan: Plan, r: Request) -> int:
    names = measure_names(plan.default_players, game_counters(r.game))
    for name in names:
        console.print(f"{name:24} {about(name)}", markup=False, soft_wrap=True)
    dims = ", ".join(d.text() for d in plan.space.dimensions) or "none"
    console.print(f"\nthe space: {dims}" + (f"; not searched without --space: {', '.join(plan.space.skipped)}"
                                            if plan.space.skipped else ""), markup=False, soft_wrap=True)
    return 0


def run_tune(r: Request) -> int:
    plan = _plan(r)
    if r.list_measures:
        return _list(plan, r)
    plots = plots_module() if r.plots_dir else None
    folder = Path(r.out_dir) if r.out_dir else (Path(r.game).parent if Path(r.game).exists() else Path("."))
    try:
        base_reference(r.game, folder)          # a folder the variants cannot go in is told before the search
    except VariantError as exc:
        raise Failure(str(exc)) from None
    screen = err_console if r.json_file == "-" else console
    stopped = False
    result = SearchResult()
    variants: list[answers.Variant] = []
    bases: dict = {}
    with sigterm_stops() as signals:
        with Progress(console=err_console, transient=True, disable=not err_console.is_terminal) as bar:
            task = bar.add_task("the search", total=None)
            best: list[str] = []

            def started(k: int, params: dict[str, Any]) -> None:
                shown = " ".join(f"{n}={v}" for n, v in params.items())
                bar.update(task, description=f"trial {k + 1}: {shown}" + (f" — best: {best[0]}" if best else ""))

            def ended(trial: Any, finished: list) -> None:
                err_console.print(plain(trial_line(plan, trial)), markup=False, soft_wrap=True)
                top = answers.chosen(plan, finished, 1)
                best[:] = [" ".join(f"{n}={v}" for n, v in top[0].params.items())] if top else []

            told = Told(game=lambda k: bar.advance(task, k), trial_started=started, trial_ended=ended)
            try:
                result = run_search(plan, told)
                if not result.stopped:
                    bar.update(task, description="the chosen variants, played out with the base")
                    variants, bases, stopped = answers.answer(plan, result, None, r.show, lambda k: bar.advance(task, k))
            except KeyboardInterrupt:
                stopped = True
            except SearchError as exc:
                raise Failure(str(exc)) from None
            except WorkersFailed as exc:
                raise Failure(str(exc)) from None
    stopped = stopped or result.stopped
    if stopped:
        return _partial(plan, r, screen, signals)
    study = open_study(_resumed(plan), open_storage(plan.storage))
    weights = answers.importance(plan, study)
    wanted = [t.text for t in plan.targets]
    spec, _ = load_spec(r.game)
    # the file sets only what differs from the base's defaults: the rest it inherits
    defaults = option_values({name: opt.default for name, opt in spec.options.items()})
    try:
        for v in variants:
            players = v.players if any(d.name == PLAYERS for d in plan.space.dimensions) else None
            changed = {k: val for k, val in v.options.items() if defaults.get(k) != val}
            v.file = str(write_variant(folder, r.game, _name(r.game), changed, players, v.rank, wanted))
    except VariantError as exc:
        raise Failure(str(exc)) from None
    screen.print(render_answer(plan, result, variants, bases, weights), soft_wrap=True)
    screen.print(f"{result.games} games in the trials and {sum(v.outcome.games for v in variants)} "
                 f"+ {sum(b.games for b in bases.values())} to play the chosen variants and the base out; "
                 f"{result.seconds:.0f} s. The search is kept in {plan.storage}.", markup=False, soft_wrap=True)
    data = answers.to_dict(plan, result, variants, bases, weights, stopped)
    if r.json_file:
        write_text(r.json_file, json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n", "answer")
    if plots is not None and r.plots_dir:
        from koloda.tune import plots as tune_plots
        written = tune_plots.search_plots(plan, data, make_dir(r.plots_dir))
        screen.print(f"{len(written)} plots written to {plain(r.plots_dir)}", markup=False)
    elif variants:
        _front_chart(plan, data, Path(variants[0].file), screen)
    return exit_status([answers.standing(plan, v.outcome) for v in variants])


def _front_chart(plan: Plan, data: dict[str, Any], variant: Path, screen: Any) -> None:
    """Without --plots, the answer's chart of the trials goes beside its variant files (as
    pony-tuned-front.png), when matplotlib is there to draw it."""
    try:
        from koloda.tune import plots as tune_plots
    except ImportError:
        screen.print("(pip install 'koloda[plots]' for a chart of the trials)", markup=False)
        return
    path = variant.with_name(variant.stem.rsplit("-", 1)[0] + "-front.png")
    try:
        drawn = tune_plots.front_plot(plan, data, path)
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror}") from None
    if drawn is not None:
        screen.print(f"the trials on the first two targets: {plain(str(drawn))}", markup=False, soft_wrap=True)


def exit_status(stands: list[str]) -> int:
    """0: a variant is shown to meet every target; 3: some meet them by their estimates only (more
    games would tell); 1: none meets them."""
    return 0 if answers.SHOWN in stands else 3 if answers.ESTIMATED in stands else 1


def _resumed(plan: Plan) -> Plan:
    return replace(plan, resume=True)


def _name(game: str) -> str:
    return Path(game).stem


def _partial(plan: Plan, r: Request, screen: Any, signals: Any) -> int:
    """Ctrl-C: the best trials so far, as the trials measured them (not played out), and the way on."""
    try:
        study = open_study(_resumed(plan), open_storage(plan.storage))
    except SearchError:
        return stop_code(signals)
    trials = done(study.get_trials(deepcopy=False))
    screen.print(f"Interrupted after {len(trials)} trials: the best so far, as their trials measured them "
                 f"(go on with the same command and --resume):", markup=False, soft_wrap=True)
    for t in answers.chosen(plan, trials, r.show):
        screen.print(plain(trial_line(plan, t)), markup=False, soft_wrap=True)
    return stop_code(signals)
