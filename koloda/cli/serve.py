"""`koloda serve`: the table in a browser (docs/web.md). The web extra (Starlette, uvicorn) is
imported only when the command runs, so the core install and `koloda --help` need none of it."""
from __future__ import annotations

from pathlib import Path

import click

from koloda.cli.output import Failure, console
from koloda.ui.safe import shown

LOCAL = ("127.0.0.1", "localhost", "::1")


@click.command(name="serve")
@click.argument("game", required=False)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; 0.0.0.0 lets other machines of the network in.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the lobby in this machine's browser.")
@click.option("--saves", "saves", default=None, metavar="DIR",
              help="Where rooms are saved after every move (default: the save folder of `koloda saves`).")
@click.option("--no-save", is_flag=True, help="Keep rooms in memory only: a restart loses them.")
@click.option("--max-rooms", type=click.IntRange(1, 10_000), default=100, show_default=True,
              help="The most rooms this server holds at once.")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=0.7, show_default=True,
              help="Seconds before each bot's move, so that people see it.")
@click.option("--turn-seconds", type=click.FloatRange(1, 86400), default=None, metavar="SECONDS",
              help="A person's time for a move; then a bot chooses it for them (default: no clock).")
@click.option("--resume", "resume", default=None, metavar="ID",
              help="Open a game saved at the terminal (an id of `koloda saves`, or a save file) at a table here.")
@click.option("--replay", "replays", multiple=True, metavar="FILE",
              help="A transcript (`koloda play --log`) to step through in the browser; its link is printed.")
@click.option("--allow-upload", is_flag=True,
              help="Let the lobby take rule files pasted or uploaded (checked; each may extend only shipped games).")
@click.option("--allow-origin", "origins", multiple=True, metavar="URL",
              help="Another origin whose pages may open a table (a reverse proxy's https://… address).")
def serve(game: str | None, host: str, port: int, open_browser: bool, saves: str | None, no_save: bool,
          max_rooms: int, bot_delay: float, turn_seconds: float | None, resume: str | None,
          replays: tuple[str, ...], allow_upload: bool, origins: tuple[str, ...]) -> None:
    """Serve tables in a browser: a lobby to pick GAME (a shipped game or a rule file) and seats, a
    secret link for each person, bots that play the other seats. Needs: pip install 'koloda[web]'."""
    try:
        import uvicorn
        from koloda.web.app import make_app
    except ImportError as exc:
        raise Failure(f"`koloda serve` needs {exc.name or 'the web extra'}: pip install 'koloda[web]'") from None
    from koloda.api import load_spec, shipped_games
    from koloda.dsl.errors import RuleError, RuleErrors
    from koloda.session import SaveError, default_save_dir, find_save
    from koloda.web.replays import Replayed
    from koloda.web.rooms import RoomError, Rooms
    games = {name: name for name in shipped_games()}
    first = None
    if game is not None:
        try:
            spec, _ = load_spec(game)
        except RuleErrors as exc:
            raise Failure("\n".join(e.format() for e in exc.errors)) from None
        except RuleError as exc:
            raise Failure(exc.format()) from None
        if spec.library:
            raise Failure(f"`{game}` is a library for `import:`, not a game to play")
        first = game if game in games else spec.name
        if game not in games:
            games = {spec.name: str(Path(game).resolve()), **{k: v for k, v in games.items() if k != spec.name}}
    folder = None if no_save else (Path(saves) if saves else default_save_dir())
    rooms = Rooms(games, folder, max_rooms)
    for problem in rooms.resume():
        console.print(f"[yellow]not resumed[/yellow] {shown(problem)}", soft_wrap=True)
    shown_replays = []
    for path in replays:
        try:
            shown_replays.append(Replayed(Path(path)))
        except SaveError as exc:
            raise Failure(str(exc)) from None
    app = make_app(rooms, bot_delay, origins, turn_seconds, tuple(shown_replays), allow_upload)
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    url = f"{base}/" + (f"?game={first}" if first else "")
    if resume is not None:
        if no_save:
            raise Failure("--resume goes on saving the game to its save: it cannot be used with --no-save")
        try:
            room = rooms.adopt(find_save(resume))
        except (SaveError, RoomError) as exc:
            raise Failure(str(exc)) from None
        for p, token in enumerate(room.tokens):
            if token is not None:
                console.print(f"P{p + 1}: {shown(f'{base}/table/{room.id}#{token}')}", soft_wrap=True)
        console.print(f"host: {shown(f'{base}/table/{room.id}#{room.host}')}", soft_wrap=True)
    console.print(f"Serving koloda tables at {shown(url)}", soft_wrap=True)
    if host in LOCAL:
        console.print("[dim]Only this machine can reach it; `--host 0.0.0.0` lets the network in.[/dim]")
    else:
        console.print(f"[bold]Listening on {shown(host)}:[/bold] anyone who can reach this machine can open the "
                      "lobby; a seat still needs its secret link.")
    if rooms.rooms:
        console.print(f"{len(rooms.rooms)} room(s) resumed from {shown(folder)}")
    for replay in shown_replays:
        console.print(f"replay of {shown(replay.name)}: {shown(f'{base}/replay/{replay.id}#all')}", soft_wrap=True)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024)
