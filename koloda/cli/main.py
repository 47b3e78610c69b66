"""The `koloda` command: check, list, play and simulate games. No game logic here.

The engine, the bots, sessions and the table are imported inside the commands that use them, not
at the top: `koloda --help` and `koloda list` then start in a fraction of the time (see
tests/test_architecture.py, which allows imports inside functions here and in koloda/__init__.py only).
"""
from __future__ import annotations

import os
import random
import sys
import traceback
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from koloda.cli.explain import explain
from koloda.cli import authoring, serve
from koloda.cli.output import Failure, console, err_console
from koloda.cli.tune import tune
from koloda.cli.table_run import default_save, holds_something, run, scores_text
from koloda.dsl.errors import NOWHERE, RuleError, RuleErrors
from koloda.ui.safe import plain, shown

if TYPE_CHECKING:
    from koloda.interpreter.game import Game
    from koloda.sim import Position

MAX_MOVES = 100_000


def _a_number(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if value != value:                      # not a number: it compares false with every bound
        raise click.BadParameter("is not a number")
    return value


def _parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"`{pair}`: write options as key=value", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


def _errors_text(errors: RuleErrors | RuleError) -> str:
    if isinstance(errors, RuleErrors):
        return "\n".join(e.format() for e in errors.errors)
    return errors.format()


def load_game(game: str, options: tuple[str, ...], players: int | None) -> Game:
    """Load a game for the command line; every user error becomes a Failure."""
    from koloda.api import load
    try:
        return load(game, _parse_options(options), players)
    except (RuleErrors, RuleError) as exc:
        raise Failure(_errors_text(exc)) from None


_DEBUG = "koloda.debug"       # in the context's meta, which every command's context shares


def _debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_DEBUG] = True


def _debug_option() -> click.Option:
    return click.Option(["--debug"], is_flag=True, expose_value=False, callback=_debug,
                        help="On an internal error, show Python's traceback.")


class _Koloda(click.Group):
    """Every error a user can cause has its own message; anything else that escapes is reported as an
    internal error, with the command to repeat it, and Python's traceback only with --debug (given
    before the command or after it: every command takes it, as the error's hint says)."""

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not any(param.name == "debug" for param in cmd.params):
            cmd.params.append(_debug_option())
        super().add_command(cmd, name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit,
                KeyboardInterrupt):
            raise
        except (RuleErrors, RuleError) as exc:       # a rule error not caught on the way is still the user's
            raise Failure(_errors_text(exc)) from None
        except Exception as exc:          # noqa: BLE001 — the last line of defence
            debug = bool(ctx.params.get("debug") or ctx.meta.get(_DEBUG))
            if debug or os.environ.get("KOLODA_DEBUG"):
                err_console.print(plain(traceback.format_exc()), markup=False)
            command = " ".join(["koloda", *sys.argv[1:]])
            raise Failure(f"internal error ({type(exc).__name__}); please report it with the command that "
                          f"caused it: {command}" + ("" if debug else
                                                       " (run it with --debug to see where it happened)")) from None


@click.group(cls=_Koloda, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="koloda")
@click.option("--debug", is_flag=True, help="On an internal error, show Python's traceback.")
def main(debug: bool) -> None:
    """koloda: card games written as rule files, checked, played and simulated."""


@main.command()
@click.argument("files", nargs=-1, required=True)
def check(files: tuple[str, ...]) -> None:
    """Check rule files and report every error as file:line:col."""
    from koloda.api import load_spec
    failed = 0
    for name in files:
        try:
            spec, rules = load_spec(name)
        except (RuleErrors, RuleError) as exc:
            errors = exc.errors if isinstance(exc, RuleErrors) else [exc]
            failed += len(errors)
            for e in errors:
                console.print(plain(e.format()), markup=False, soft_wrap=True)
            continue
        for warning in rules.warnings:
            console.print(plain(warning.format()), markup=False, soft_wrap=True)
        what = "a library" if spec.library else _players_text(spec)
        console.print(plain(f"{name}: ok ({spec.title}, {what})"), markup=False, soft_wrap=True)
    if failed:
        console.print(f"{failed} error{'s' * (failed != 1)}", markup=False)
        sys.exit(1)


@main.command(name="list")
def list_games() -> None:
    """List the shipped games with their player counts."""
    from koloda.dsl.about import about
    from koloda.dsl.paths import shipped_names
    names = shipped_names()
    width = max(map(len, names), default=0) + 2
    for name in names:
        try:
            game = about(name)       # the title and players only: `koloda check` checks the whole file
        except (RuleErrors, RuleError):
            console.print(f"{name:<{width}} (does not load: run `koloda check {name}`)", markup=False)
            continue
        players = f"{_player_range(game, '-'):>5} {_players_word(game):<7}"
        console.print(plain(f"{name:<{width}} {players}  {game.title}"), markup=False, soft_wrap=True)


def _players_word(spec) -> str:
    return "player" if spec.max_players == 1 else "players"


def _players_text(spec) -> str:
    """`2..4 players`, `3 players`, `1 player`; `1 player against the house`."""
    house = " against the house" if getattr(spec, "house", None) is not None else ""
    return f"{_player_range(spec)} {_players_word(spec)}{house}"


def _player_range(spec, dash: str = "..") -> str:
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}{dash}{spec.max_players}"


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot read {what} file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise Failure(f"cannot read {what} file {path}: it is not UTF-8 text") from None


def _dealer(game: Game, text: str | None) -> int | None:
    """`--dealer 2` or `--dealer P2`: seats as players see them, counted from 1."""
    if text is None:
        return None
    digits = text.strip().upper().removeprefix("P")
    n = game.num_players
    if not digits.isdigit():
        raise Failure(f"--dealer `{text}`: name a seat as 2 or P2")
    if not 1 <= int(digits) <= n:
        raise Failure(f"--dealer {text}: this table has {n} players, P1..P{n}")
    return int(digits) - 1


def _position(game: Game, seed: int, dealer_text: str | None, hands_file: str | None,
              deck_file: str | None) -> Position:
    """The dealer, hands and deck orders asked for, each checked by dealing them once."""
    from koloda.sim import Position
    dealer = _dealer(game, dealer_text)
    try:
        deck = game.parse_deck(_read(deck_file, "deck"), deck_file) if deck_file else None
        hands = game.parse_hands(_read(hands_file, "hands"), hands_file) if hands_file else None
        game.new_initial_state(seed, deck, dealer, hands)
    except RuleError as exc:
        if exc.span is NOWHERE and deck_file:       # an order that does not fit the cards it is to order
            raise Failure(f"{deck_file}: {exc.message}") from None
        raise Failure(exc.format()) from None
    return Position(deck, dealer, hands)


_common = [
    click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="A table option."),
    click.option("--players", "-p", type=int, default=None, help="Number of players."),
    click.option("--seed", type=click.IntRange(-2**63, 2**63 - 1), default=None,      # what a save can hold
                 help="Decides every shuffle (default: random)."),
]


_setup = [
    click.option("--dealer", "dealer", default=None, metavar="N",
                 help="The first dealer: 1 or P1 is the first seat (default: as the rules say)."),
    click.option("--hands", "hands_file", default=None, metavar="FILE",
                 help="Cards for zones after the first deal, one zone a line: `P1 hand: AS KS QS`."),
    click.option("--deck", "deck_file", default=None, metavar="FILE",
                 help="Card orders for the shuffles, top first (with --hands: the shuffles after the first deal)."),
]


def _language(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`--lang` holds for this command only."""
    from koloda.ui import names
    if value is not None:
        code = value.strip().lower()
        if not names.is_language(code):
            raise click.BadParameter(f"`{value[:20]}` is not a language code (en, ru, ...)")
        names.set_language(code)
        ctx.call_on_close(lambda: names.set_language(None))
    return value


language_option = click.option(
    "--lang", "lang", default=None, metavar="CODE", callback=_language, expose_value=False, is_eager=True,
    help="The language of the rule file's labels at the table: en, ru, ... (default: $KOLODA_LANG, "
         "else en).")      # koloda.ui.names.LANGUAGE_VARIABLE, not imported here: --help starts without the engine


def common(f):
    for decorator in reversed(_common):
        f = decorator(f)
    return f


def position_options(f):
    for decorator in reversed(_setup):
        f = decorator(f)
    return f


@main.command()
@click.argument("game")
@click.option("--seat", "seats", multiple=True, metavar="KIND",
              help="human, random, greedy, ismcts[:iterations=N], \"cmd:COMMAND\" (a program) or "
                   "py:MODULE:CLASS (a Python agent; see docs/ai.md), "
                   "one per seat in order.")
@click.option("--save", "save_file", default=None, metavar="FILE",
              help="Autosave after every move to FILE (default: the koloda state folder).")
@click.option("--log", "log_file", default=None, metavar="FILE", help="Write a JSON Lines transcript of the game.")
@click.option("--force", is_flag=True, help="With --log: write over a transcript that is already there.")
@click.option("--delay", type=click.FloatRange(0, 60), default=0.4, show_default=True, callback=_a_number,
              help="Seconds to pause after a bot's move (0 to 60).")
@click.option("--fast", is_flag=True, help="Do not pause on the bots' moves.")
@click.option("--max-moves", type=click.IntRange(min=1), default=MAX_MOVES, show_default=True,
              help="Stop a game that has not ended after this many moves.")
@common
@position_options
@language_option
def play(game: str, seats: tuple[str, ...], save_file: str | None, log_file: str | None, force: bool, delay: float,
         fast: bool,
         max_moves: int, options: tuple[str, ...], players: int | None, seed: int | None, dealer: str | None,
         hands_file: str | None, deck_file: str | None) -> None:
    """Play GAME (a shipped name or a rule file) at the terminal."""
    from koloda.agents.registry import UnknownAgent, parse_seat
    from koloda.session import Session, game_reference
    if log_file is not None and holds_something(Path(log_file)):
        if not force:
            raise Failure(f"{log_file} is already there: a transcript holds one game (give another name, "
                          "or --force to write over it)")
        Path(log_file).unlink()

    for seat in seats:
        try:
            parse_seat(seat)
        except UnknownAgent as exc:
            raise Failure(str(exc)) from None
    if players is None and seats:
        players = _seat_count(game, len(seats))
    g = load_game(game, options, players)
    table = list(seats) or ["human"]
    if len(table) > g.num_players:
        raise Failure(f"{len(table)} seats given, but this table has {g.num_players} players")
    table += ["random"] * (g.num_players - len(table))
    if seed is None:
        seed = random.randrange(1_000_000)
    position = _position(g, seed, dealer, hands_file, deck_file)
    session = Session.start(game_reference(game), g, table, seed, position.orders(g, seed), position.dealer)
    kinds = [parse_seat(seat)[0] for seat in table]
    # a game between bots is saved only when asked: nobody is waiting to resume it; nor is one
    # with a program in a seat, which a save does not start again
    unresumable = "human" not in kinds or "cmd" in kinds or "py" in kinds
    save_path = Path(save_file) if save_file else None if unresumable else default_save(g.name)
    run(session, save_path, log_file, delay=0 if fast else delay, max_moves=max_moves)


@main.command()
@click.argument("file", required=False)
@click.option("--log", "log_file", default=None, metavar="FILE", help="Go on writing a transcript to FILE.")
@click.option("--delay", type=click.FloatRange(0, 60), default=0.4, show_default=True, callback=_a_number,
              help="Seconds to pause after a bot's move (0 to 60).")
@click.option("--fast", is_flag=True, help="Do not pause on the bots' moves.")
@click.option("--max-moves", type=click.IntRange(min=1), default=MAX_MOVES, show_default=True,
              help="Stop a game that has not ended after this many moves (all told).")
@click.option("--accept-edited", is_flag=True,
              help="Go on with a save changed since koloda wrote it (its seats, say) without asking.")
@language_option
def resume(file: str | None, log_file: str | None, delay: float, fast: bool, max_moves: int,
           accept_edited: bool) -> None:
    """Go on with a saved game (default: the last one saved)."""
    from koloda.ui import names
    from koloda.cli import trust
    from koloda.session import SaveError, Session, default_save_dir, find_save, latest_save
    path = find_save(file) if file else latest_save()
    if path is None:
        raise Failure("no saved game is waiting for a person to play (`koloda saves` lists the saves)")
    if not path.exists():
        raise Failure(f"there is no save `{shown(file or '')}`: neither a file nor the id of a save in "
                      f"{shown(default_save_dir())} (`koloda saves` lists the saves and their ids)")
    try:
        session = Session.load(path)
    except SaveError as exc:
        raise Failure(str(exc)) from None
    if session.state.is_terminal():
        raise Failure(f"the game saved in {path} is over (scores: {scores_text(session.state)})")
    trust.check_save(session.integrity, path, accept_edited)
    console.print(f"Resuming {shown(names.title(session.game))} from {shown(path)} after {len(session.moves)} moves.")
    if session.rules_changed:
        console.print("[yellow]The rules have changed since this game was saved; every move so far plays "
                      "the same under them, so the game goes on under the new rules.[/yellow]")
    run(session, path, log_file, delay=0 if fast else delay, max_moves=max_moves)


@main.command()
def saves() -> None:
    """List the saved games, newest first: go on with one by `koloda resume ID`."""
    from koloda.session import default_save_dir, list_saves
    entries = list_saves()
    if not entries:
        console.print(f"No saved games in {shown(default_save_dir())}.")
        return
    width = max(len(e.id) for e in entries)
    for e in entries:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.when))
        status = "over" if e.over else ("your move" if e.someone_waits else "bots only")
        console.print(plain(f"{e.id:<{width}}  {e.game:<12} {e.moves:>5} moves  {when}  {status:<9}  "
                            + ", ".join(e.seats)), markup=False, soft_wrap=True)


@main.command()
@click.argument("file")
@click.option("--step", is_flag=True, help="Pause after every move (Enter goes on, q stops).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
@click.option("--as", "seat", default=None, metavar="P", help="Show the table as this seat saw it (1 or P1).")
@click.option("--all", "show_all", is_flag=True, help="Show every card, hidden ones too.")
@language_option
def replay(file: str, step: bool, quiet: bool, seat: str | None, show_all: bool) -> None:
    """Replay a transcript written by `play --log`, checking every move."""
    from koloda.ui.table import taken_lines
    from koloda.interpreter.base.errors import IllegalAction
    from koloda.cli import trust
    from koloda.session import SaveError, read_transcript
    from koloda.ui.table import render
    try:
        rec = read_transcript(Path(file))
    except SaveError as exc:
        raise Failure(str(exc)) from None
    session, state = rec.session, rec.session.state
    viewer = _seat_number(seat, state.n) if seat is not None else None
    deal = 0
    for k, move in enumerate(rec.moves, 1):
        if not quiet and state.deal_number != deal:
            deal = state.deal_number
            console.print(f"[bold]── deal {deal} ──[/bold]")
        try:
            action, player = int(move["action"]), int(move["player"])
        except (KeyError, TypeError, ValueError):
            raise Failure(f"{file}: move {k} is damaged") from None
        if state.is_terminal() or state.current_player() != player:
            raise Failure(f"{file}: move {k} is by P{player + 1}, but the game does not give them the move")
        text = state.action_to_string(action) if action in state.legal_actions() else None
        if text is None or text != move.get("text"):
            raise Failure(f"{file}: move {k} (`{move.get('text')}`) is not what these rules allow here")
        try:
            session.play(action)
        except IllegalAction:
            raise Failure(f"{file}: move {k} is not legal") from None
        if not quiet:
            told = text if viewer is None or show_all else session.game.describe(state, action, viewer)
            console.print(f"{k:>4}. [dim]P{player + 1}[/dim] {shown(told)}")
            for line in taken_lines(session.game, state, viewer):
                console.print(Text("      ").append_text(line))
            if step:
                console.print(render(session.game, state, viewer, reveal=show_all))
                if click.prompt("", default="", show_default=False, prompt_suffix="").strip().lower() == "q":
                    return
    if not quiet:
        console.print(render(session.game, state, viewer, reveal=show_all))
    if rec.end is not None:
        from koloda.interpreter.base import exact       # here: `koloda --help` and `list` load no engine
        if rec.end.get("scores") != exact.saved(state.scores()):
            raise Failure(f"{file}: the replay ends with scores {exact.scores_text(state.scores())}, "
                          f"but the transcript says {rec.end.get('scores')}")
        console.print(f"Replayed {len(rec.moves)} moves: same moves, same scores ({scores_text(state)}).")
        if (note := trust.replay_note(rec.integrity, whole=True)) is not None:
            console.print(note, style="yellow", markup=False, soft_wrap=True)
    else:
        console.print(f"Replayed {len(rec.moves)} moves (the transcript stops before the end).")


def _seat_number(text: str, players: int) -> int:
    """`2` or `P2` (as the table names seats) -> 1."""
    digits = text.strip().upper().removeprefix("P")
    if not (digits.isascii() and digits.isdigit() and 1 <= int(digits[:3]) <= players):
        raise Failure(f"--as takes a seat from P1 to P{players}, not `{text[:20]}`")
    return int(digits) - 1


def _seat_count(game: str, seats: int) -> int:
    """Too few seats: bots fill the table up to the least number of players."""
    from koloda.api import load_spec
    try:
        spec, _ = load_spec(game)
    except (RuleErrors, RuleError) as exc:
        raise Failure(_errors_text(exc)) from None
    return min(max(seats, spec.min_players), spec.max_players)


_run_options = [
    click.option("-n", "--games", "count", type=click.IntRange(min=1), default=100, help="Games to play."),
    click.option("--seat", "seats", multiple=True, metavar="KIND",
                 help="random, greedy, ismcts[:iterations=N,depth=D], \"cmd:COMMAND\" (a program) or "
                      "py:MODULE:CLASS (a Python agent; see docs/ai.md), "
                      "one per seat in order (default random)."),
    click.option("--rotate", is_flag=True,
                 help="Turn the seats one place a game, so every agent plays every seat equally."),
    click.option("--max-moves", type=click.IntRange(min=1), default=MAX_MOVES, show_default=True,
                 help="Give up on a game after this many moves."),
    click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, help="Processes to play on (0: one per core)."),
    click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                 help="Play on local processes, or on a Ray cluster (pip install 'koloda[ray]')."),
    click.option("--address", default=None, metavar="ADDR",
                 help="With --backend ray: the cluster to join, as `ray start` printed it (default: a local one)."),
    click.option("--json", "json_file", default=None, metavar="FILE", help="Write the report as JSON (- for stdout)."),
    click.option("--plots", "plots_dir", default=None, metavar="DIR",
                 help="Write PNG charts to DIR (pip install 'koloda[plots]')."),
]


def run_options(f):
    for decorator in reversed(_run_options):
        f = decorator(f)
    return f


@main.command()
@click.argument("game")
@run_options
@click.option("--csv", "csv_file", default=None, metavar="FILE", help="Write one row a game as CSV (- for stdout).")
@click.option("--only", type=click.IntRange(min=1), default=None, metavar="K",
              help="Play game K of the run alone, as the run plays it (a finding's command says which).")
@common
@position_options
def simulate(game: str, count: int, seats: tuple[str, ...], rotate: bool, max_moves: int, jobs: int, backend: str,
             address: str | None, json_file: str | None, plots_dir: str | None, csv_file: str | None,
             only: int | None, options: tuple[str, ...], players: int | None, seed: int | None, dealer: str | None,
             hands_file: str | None, deck_file: str | None) -> None:
    """Play N games between bots and report what happened, with 95% intervals (docs/simulate.md)."""
    from koloda.agents.outside import AgentFailure
    from koloda.cli.reports import Outputs, backend_for, bot_seats, simulate_report
    from koloda.sim import Table
    bot_seats(seats)
    if players is None and seats:
        players = _seat_count(game, len(seats))
    g = load_game(game, options, players)
    if len(seats) > g.num_players:
        raise Failure(f"{len(seats)} seats given, but this table has {g.num_players} players")
    seed = seed if seed is not None else 0
    position = _position(g, seed, dealer, hands_file, deck_file)
    table = Table(game, _parse_options(options), g.num_players, seed, max_moves, seats, position, rotate)
    run_on, jobs = backend_for(backend, address, jobs)
    try:
        code = simulate_report(g, table, 1 if only else count, jobs, run_on, Outputs(json_file, csv_file, plots_dir),
                               only)
    except RuleError as exc:
        raise Failure(exc.format()) from None
    except AgentFailure as exc:       # a program playing a seat failed: no result can be trusted
        raise Failure(str(exc)) from None
    if code:
        sys.exit(code)


@main.command()
@click.argument("game_a", metavar="A")
@click.argument("game_b", metavar="[B]", required=False)
@run_options
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="A table option of B.")
@click.option("--a-option", "-a", "a_options", multiple=True, metavar="KEY=VALUE", help="A table option of A.")
@click.option("--players", "-p", type=int, default=None, help="Number of players (both).")
@click.option("--seed", type=click.IntRange(-2**63, 2**63 - 1), default=0, help="The master seed (both).")
def compare(game_a: str, game_b: str | None, count: int, seats: tuple[str, ...], rotate: bool, max_moves: int,
            jobs: int, backend: str, address: str | None, json_file: str | None, plots_dir: str | None,
            options: tuple[str, ...], a_options: tuple[str, ...], players: int | None, seed: int) -> None:
    """Play variant A and B on the same seeds and report their differences (B less A), marking
    the significant ones: two rule files, or one game with options for B (`compare pony -o seven_draws=true`)."""
    from koloda.agents.outside import AgentFailure
    from koloda.cli.reports import Outputs, backend_for, bot_seats, compare_report
    from koloda.sim import Table
    bot_seats(seats)
    refs = [game_a, game_b or game_a]
    given = [_parse_options(a_options), _parse_options(options)]
    if refs[0] == refs[1] and given[0] == given[1]:
        raise Failure("A and B are the same: give two rule files, or options for B (-o KEY=VALUE)")
    if players is None and seats:
        players = _seat_count(game_a, len(seats))
    games = [load_game(ref, tuple(f"{k}={v}" for k, v in opts.items()), players) for ref, opts in zip(refs, given)]
    if games[0].num_players != games[1].num_players:
        raise Failure(f"A has {games[0].num_players} players and B {games[1].num_players}: give --players")
    if len(seats) > games[0].num_players:
        raise Failure(f"{len(seats)} seats given, but this table has {games[0].num_players} players")
    tables = [Table(ref, opts, g.num_players, seed, max_moves, seats, rotate=rotate)
              for ref, opts, g in zip(refs, given, games)]
    names = [" ".join([ref, *(f"{k}={v}" for k, v in opts.items())]) for ref, opts in zip(refs, given)]
    run_on, jobs = backend_for(backend, address, jobs)
    try:
        code = compare_report(games, names, tables, count, jobs, run_on, Outputs(json_file, None, plots_dir))
    except RuleError as exc:
        raise Failure(exc.format()) from None
    except AgentFailure as exc:
        raise Failure(str(exc)) from None
    if code:
        sys.exit(code)


main.add_command(explain)


@main.command()
@click.option("--stdio", is_flag=True, help="Speak over standard input and output (the only way; editors pass it).")
def lsp(stdio: bool) -> None:
    """A language server for rule files: diagnostics as you type, completion, hover, go to definition
    and an outline. Editors start it (docs/editors.md); it needs the extra: pip install 'koloda[lsp]'."""
    try:
        from koloda.lsp.server import serve
    except ImportError as exc:
        raise Failure(f"`koloda lsp` needs pygls ({exc.name or exc}); install it with: pip install 'koloda[lsp]'") \
            from None
    serve()
main.add_command(authoring.fmt)
main.add_command(authoring.new)
main.add_command(tune)
main.add_command(serve.serve)


if __name__ == "__main__":
    main()
