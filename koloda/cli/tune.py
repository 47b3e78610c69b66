"""`koloda tune`: the design search (docs/tune.md). Optuna is an extra (`koloda[tune]`): it and the
search are imported inside the command, so that `koloda --help` and every other command start
without them, and a missing extra is told as such."""
from __future__ import annotations

import sys

import click

from koloda.cli.output import Failure


@click.command(name="tune")
@click.argument("game")
@click.option("--target", "targets", multiple=True, metavar="TARGET",
              help="A bound on a measure: \"advantage.max <= 0.03\", \"turns.median in 20..40\", \"counter.NAME >= 5%\".")
@click.option("--maximize", multiple=True, metavar="MEASURE", help="A measure to make as large as can be.")
@click.option("--minimize", multiple=True, metavar="MEASURE", help="A measure to make as small as can be.")
@click.option("--space", multiple=True, metavar="KEY=LO..HI|KEY=a,b", help="Narrow a dimension, or add one.")
@click.option("--fix", multiple=True, metavar="KEY=VALUE", help="Hold an option at one value.")
@click.option("--players", "-p", default=None, metavar="N|LO..HI", help="The number of players, or a range to search.")
@click.option("-n", "--games", type=click.IntRange(min=1), default=2000, show_default=True,
              help="The most games a trial plays (on the base's deals).")
@click.option("--chunk", type=click.IntRange(min=1), default=200, show_default=True,
              help="A trial's first chunk of games; the targets are asked after each (the chunks then double).")
@click.option("--budget", type=click.IntRange(min=1), default=None, metavar="GAMES", help="Games the trials may play.")
@click.option("--trials", type=click.IntRange(min=1), default=None, help="Trials to play (all told, with --resume).")
@click.option("--time", "seconds", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Stop starting trials after this long.")
@click.option("--sampler", type=click.Choice(["auto", "grid", "tpe", "nsga2"]), default="auto", show_default=True,
              help="auto: the whole grid when the space is small, else TPE (NSGA-II for several objectives).")
@click.option("--seed", type=click.IntRange(-2**63, 2**63 - 1), default=0, help="The deals' master seed.")
@click.option("--sampler-seed", type=int, default=0, help="The sampler's seed.")
@click.option("--storage", default=None, metavar="FILE", help="The search's SQLite file (default: GAME.tune.db here).")
@click.option("--resume", is_flag=True, help="Go on with the search kept in --storage.")
@click.option("--show", type=click.IntRange(min=1), default=3, show_default=True, help="Variants to answer with.")
@click.option("--out", "out_dir", default=None, metavar="DIR",
              help="Where the variants' rule files go (default: here, or a rule file's own folder).")
@click.option("--seat", "seats", multiple=True, metavar="KIND", help="The bot at each seat (default random).")
@click.option("--rotate", is_flag=True, help="Turn the seats one place a game.")
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True)
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, help="Processes to play on (0: one per core).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--address", default=None, metavar="ADDR", help="With --backend ray: the cluster to join.")
@click.option("--json", "json_file", default=None, metavar="FILE", help="Write the answer as JSON (- for stdout).")
@click.option("--plots", "plots_dir", default=None, metavar="DIR", help="Write PNG charts to DIR (koloda[plots]).")
@click.option("--measures", "list_measures", is_flag=True, help="List the measures a target may name, and stop.")
def tune(game: str, targets: tuple[str, ...], maximize: tuple[str, ...], minimize: tuple[str, ...],
         space: tuple[str, ...], fix: tuple[str, ...], players: str | None, games: int, chunk: int,
         budget: int | None, trials: int | None, seconds: float | None, sampler: str, seed: int, sampler_seed: int,
         storage: str | None, resume: bool, show: int, out_dir: str | None, seats: tuple[str, ...], rotate: bool,
         max_moves: int, jobs: int, backend: str, address: str | None, json_file: str | None,
         plots_dir: str | None, list_measures: bool) -> None:
    """Search the variants of GAME (its options) for those that meet the targets, each played on
    the same deals as the base, and write the best as rule files (docs/tune.md).

    Exit status 0: a variant is shown to meet every target (every 95% interval within it); 3: the
    variants meet them by their estimates only (more games would tell); 1: none meets them."""
    try:
        import optuna  # noqa: F401 — the extra, asked for before anything is played
    except ImportError:
        raise Failure("koloda tune needs Optuna: pip install 'koloda[tune]'") from None
    from koloda.cli.tune_run import Request, run_tune
    code = run_tune(Request(game, targets, maximize, minimize, space, fix, players, games, chunk, budget, trials,
                            seconds, sampler, seed, sampler_seed, storage, resume, show, out_dir, seats, rotate,
                            max_moves, jobs, backend, address, json_file, plots_dir, list_measures))
    if code:
        sys.exit(code)

