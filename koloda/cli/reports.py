"""What `koloda simulate` and `koloda compare` do once their arguments are read: run the games with
a progress bar, make the report, print it and write the files asked for.

Imported by those commands only, so that `koloda --help` starts without the engine. Plots and Ray
are optional extras: their modules are imported only when asked for."""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.progress import Progress

from koloda.agents.registry import UnknownAgent, parse_seat
from koloda.cli.output import Failure, console, err_console
from koloda.interpreter.game import Game
from koloda.report.compare import compare
from koloda.report.export import to_json, write_csv
from koloda.report.render import render
from koloda.report.render_compare import render_comparison
from koloda.report.summary import summarise
from koloda.sim import SimulationResult, Table, duration_text, simulate, simulate_timed
from koloda.sim.ledger import RETRIES, WorkersFailed
from koloda.sim.stop import Signals, sigterm_stops
from koloda.sim.timing import Backend, seconds_text
from koloda.ui.safe import plain


@dataclass(frozen=True)
class Outputs:
    """The files a run writes besides the report at the terminal (None: not asked for)."""
    json_file: str | None = None
    csv_file: str | None = None
    plots_dir: str | None = None


def backend_for(name: str, address: str | None, jobs: int) -> tuple[Backend | None, int]:
    """The backend's function (None: local processes) and the number of workers."""
    if name == "local":
        if address:
            raise Failure("--address is for --backend ray")
        return None, jobs or os.cpu_count() or 1
    try:
        from koloda.sim import ray_backend
    except ImportError:
        raise Failure("--backend ray needs Ray: pip install 'koloda[ray]'") from None
    try:
        workers = ray_backend.connect(address, jobs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise Failure(f"cannot reach the Ray cluster{' at ' + address if address else ''}: {exc}") from None
    return ray_backend.simulate_ray, workers


def estimate_line(title: str, count: int, seconds: float, first: float, workers: int) -> str:
    """`Pony: 2000 games, about 45 seconds on 2 workers (the first took 12 ms)`."""
    when = f"{duration_text(seconds)} on {workers} worker{'s' if workers > 1 else ''}"
    return f"{title}: {count} games, {when} (the first took {seconds_text(first)})"


def play(g: Game, table: Table, count: int, jobs: int, backend: Backend | None, what: str = "",
         only: int | None = None) -> SimulationResult:
    """The run's games with a progress bar on stderr (at a terminal); `only`: game `only` of the
    run alone (counted from 1)."""
    if only is not None:
        return simulate(g, 1, table.seed, table.max_moves, list(table.seats), first=only - 1,
                        position=table.position, rotate=table.rotate)
    title = plain(g.title) + (f" ({what})" if what else "")
    with Progress(console=err_console, transient=True, disable=not err_console.is_terminal) as bar:
        task = bar.add_task(f"{title}: the first game", total=count)

        def estimate(seconds: float, first: float) -> None:
            workers = max(1, min(jobs, count - 1))
            when = f"{duration_text(seconds)} on {workers} worker{'s' if workers > 1 else ''}"
            bar.update(task, description=f"{title}: {when}")
            err_console.print(estimate_line(title, count, seconds, first, workers), markup=False)
        try:
            result = simulate_timed(g, table, count, jobs, lambda k: bar.advance(task, k), estimate, backend=backend)
        except WorkersFailed as exc:
            raise Failure(str(exc)) from None
    if result.stopped:
        err_console.print(f"Interrupted: the report is of the {result.games} games played.", markup=False)
    if result.deaths:
        err_console.print(f"{result.deaths} worker process{'es' if result.deaths > 1 else ''} died during the run: "
                          "the games not finished were played again by another.", markup=False)
    if result.lost:
        games = ", ".join(f"game {number + 1} (seed {seed})" for number, seed in result.lost)
        err_console.print(f"Lost: {len(result.lost)} game{'s' if len(result.lost) > 1 else ''} whose worker died "
                          f"each of the {RETRIES + 1} times it was played, left out of the report: {games}",
                          markup=False)
    return result


def stop_code(signals: Signals) -> int:
    """The exit code of an interrupted run: that of the signal that stopped it, as a shell gives."""
    return 143 if signals.terminated else 130


def _json_safe(options: dict[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, (bool, int, float, str)) or v is None else str(v) for k, v in options.items()}


def report_of(g: Game, table: Table, count: int, result: SimulationResult) -> dict[str, Any]:
    return summarise(result.records,
                     game={"name": g.name, "title": plain(g.title), "options": _json_safe(dict(g.options)),
                           "players": g.num_players, "winner": "lowest" if g.flow.lowest_wins else "highest",
                           "house": g.spec.house is not None, "goal": g.flow.won is not None},
                     run={"games": count, "seed": table.seed, "seats": list(table.seats), "rotate": table.rotate,
                          "max_moves": table.max_moves, "stopped": result.stopped, "options": dict(table.options),
                          "worker_deaths": result.deaths,
                          "lost": [{"game": number + 1, "seed": seed} for number, seed in result.lost]},
                     counters=list(g.counters))


def replay_command(game_ref: str, options: dict[str, str], players: int) -> str:
    words = ["koloda simulate", game_ref, *(f"-o {k}={v}" for k, v in options.items()), f"-p {players}"]
    return plain(" ".join(words))


def write_text(path: str, text: str, what: str) -> None:
    if path == "-":
        console.file.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot write the {what} to {path}: {exc.strerror}") from None


def bot_seats(seats: Sequence[str], command: str = "simulate") -> None:
    """Every --seat a bot's (a typo told with the kinds there are), before anything is played."""
    for seat in seats:
        try:
            kind, _ = parse_seat(seat)
        except UnknownAgent as exc:
            raise Failure(str(exc)) from None
        if kind == "human":
            raise Failure(f"{command} plays bots only: use `koloda play` to sit at the table")


def plots_module() -> Any:
    try:
        from koloda.report import plots
    except ImportError:
        raise Failure("--plots needs matplotlib: pip install 'koloda[plots]'") from None
    return plots


def make_dir(path: str) -> Path:
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Failure(f"cannot make the folder {path}: {exc.strerror}") from None
    return Path(path)


def simulate_report(g: Game, table: Table, count: int, jobs: int, backend: Backend | None, outputs: Outputs,
                    only: int | None = None) -> int:
    """Run, print and write; the exit code: 0, 1 when a game did not end or was lost, 130 when
    interrupted (143 when SIGTERM stopped it)."""
    plots = plots_module() if outputs.plots_dir else None      # before the games: a missing extra fails fast
    folder = make_dir(outputs.plots_dir) if outputs.plots_dir else None
    with sigterm_stops() as signals:
        result = play(g, table, count, jobs, backend, only=only)
    report = report_of(g, table, count, result)
    # a file written to standard output keeps it to itself: the table goes to standard error
    screen = err_console if "-" in (outputs.json_file, outputs.csv_file) else console
    screen.print(render(report, replay_command(table.game_ref, table.options, g.num_players)), soft_wrap=True)
    if outputs.json_file:
        write_text(outputs.json_file, to_json(report), "report")
    if outputs.csv_file:
        try:
            with (open(outputs.csv_file, "w", encoding="utf-8", newline="") if outputs.csv_file != "-"
                  else nullcontext(console.file)) as out:      # standard output is not closed
                write_csv(out, result.records, g.num_players, list(g.counters))
        except OSError as exc:
            raise Failure(f"cannot write the games to {outputs.csv_file}: {exc.strerror}") from None
    if plots is not None and folder is not None and outputs.plots_dir:
        written = plots.report_plots(report, folder)
        screen.print(f"{len(written)} plots written to {plain(outputs.plots_dir)}", markup=False)
    if result.stopped:
        return stop_code(signals)
    return 1 if report["findings"] or result.lost else 0


def compare_report(games: Sequence[Game], names: Sequence[str], tables: Sequence[Table], count: int, jobs: int,
                   backend: Backend | None, outputs: Outputs) -> int:
    """Both variants on the same seeds; the exit code as for simulate_report."""
    plots = plots_module() if outputs.plots_dir else None
    folder = make_dir(outputs.plots_dir) if outputs.plots_dir else None
    results: list[SimulationResult] = []
    with sigterm_stops() as signals:
        for g, t, name in zip(games, tables, names):
            # a stop ends the comparison: B is not played after A was interrupted
            stopped = bool(results) and results[0].stopped
            results.append(SimulationResult(seats=list(t.seats), players=g.num_players, stopped=True) if stopped
                           else play(g, t, count, jobs, backend, name))
    reports = [report_of(g, t, count, r) for g, t, r in zip(games, tables, results)]
    comparison = compare(results[0].records, results[1].records, names=list(names), players=games[0].num_players,
                         counters=[c for c in games[0].counters if c in games[1].counters],
                         reports=reports, house=games[0].spec.house is not None)
    screen = err_console if outputs.json_file == "-" else console
    screen.print(render_comparison(comparison))
    if outputs.json_file:
        write_text(outputs.json_file, json.dumps(comparison, indent=1, ensure_ascii=False) + "\n", "comparison")
    if plots is not None and folder is not None and outputs.plots_dir:
        written = plots.compare_plots(comparison, folder)
        screen.print(f"{len(written)} plots written to {plain(outputs.plots_dir)}", markup=False)
    if any(r.stopped for r in results):
        return stop_code(signals)
    return 1 if any(rep["findings"] or r.lost for rep, r in zip(reports, results)) else 0
