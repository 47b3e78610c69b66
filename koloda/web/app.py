"""The ASGI app: the lobby and table pages, the lobby's API, and a websocket per open page.

Every engine call runs in one worker thread, one at a time (rooms.py is not asynchronous), so a
bot thinking never stalls the event loop and two rooms never run the engine at once. Each change to
a room is pushed to every page open on it, each page sent what its own seat may see."""
from __future__ import annotations

import asyncio
import contextlib
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable, TypeVar
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from koloda.api import load_spec
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.jsontext import Bounds, JsonRefused, read_json
from koloda.ui.names import is_language
from koloda.dsl.limits import MAX_FILE_BYTES
from koloda.web.replays import Replayed
from koloda.web.uploads import Uploads
from koloda.web.rooms import Room, RoomError, Rooms

STATIC = Path(__file__).parent / "static"
MAX_FRAME = 16 * 1024          # characters of one message from a page; a longer one is refused
MAX_BODY = 16 * 1024           # bytes of a request to the lobby's API
MOST_A_SECOND = 50             # messages a page may send in a second; one sending faster is made to wait
MAX_UPLOAD_BODY = MAX_FILE_BYTES * 2 + 4096      # a rule file as JSON text (escapes may double it)
HEADERS = {
    # the page's own script and style only: a text that got past the escaping still runs nothing
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
}
T = TypeVar("T")


@dataclass(eq=False)
class Page:
    """An open table page: its socket, its seat, its language."""
    socket: WebSocket
    seat: int
    lang: str
    host: bool = False


class Server:
    def __init__(self, rooms: Rooms, bot_delay: float = 0.7, origins: tuple[str, ...] = (),
                 turn_seconds: float | None = None):
        self.rooms = rooms
        self.bot_delay = bot_delay
        self.turn_seconds = turn_seconds        # a person's time for a move; then a bot chooses it
        self.timers: dict[str, tuple[int, int, asyncio.Task]] = {}      # room -> (seat, move number, its clock)
        self.origins = origins                  # other origins allowed to open a socket (a proxy's)
        self.pages: dict[str, set[Page]] = {}
        self.bots: dict[str, asyncio.Task] = {}
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="koloda-engine")
        self.about: dict[str, dict] = {}
        self.replays: dict[str, Replayed] = {}
        self.most_a_second = MOST_A_SECOND
        self.slowed = 0                           # messages held back for coming too fast
        self.uploads: Uploads | None = None      # rule files from the lobby, if the server takes them

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.engine, fn, *args)

    # ------------------------------------------------------------ pushing
    async def push(self, room: Room) -> None:
        for page in list(self.pages.get(room.id, ())):
            await self.send_table(room, page)
        self.wake_bots(room)
        await self.arm_timer(room)

    async def send_table(self, room: Room, page: Page) -> None:
        present = frozenset(p.seat for p in self.pages.get(room.id, ()) if p.seat >= 0)
        message = await self.run(room.message, page.seat, page.lang, present, page.host)
        try:
            await page.socket.send_json(message)
        except (RuntimeError, WebSocketDisconnect):     # the page has gone meanwhile
            self.pages.get(room.id, set()).discard(page)

    def wake_bots(self, room: Room) -> None:
        task = self.bots.get(room.id)
        if task is None or task.done():
            self.bots[room.id] = asyncio.get_running_loop().create_task(self._bots(room))

    async def _bots(self, room: Room) -> None:
        while await self.run(room.bot_to_move):
            await asyncio.sleep(self.bot_delay)        # a person sees each bot's move happen
            try:
                await self.run(room.bot_move)
            except (RoomError, RuleError):
                return
            for page in list(self.pages.get(room.id, ())):
                await self.send_table(room, page)
        await self.arm_timer(room)

    async def arm_timer(self, room: Room) -> None:
        """With a turn timer: the person to move has `turn_seconds`, then a bot chooses for them."""
        if self.turn_seconds is None:
            return
        seat = await self.run(room.person_to_move)
        at = len(room.session.moves)
        old = self.timers.get(room.id)
        if old is not None and old[:2] == (seat, at) and not old[2].done():
            return          # the clock already runs for this move: opening the page again does not reset it
        if old is not None:
            old[2].cancel()
            del self.timers[room.id]
        if seat is not None:
            self.timers[room.id] = (seat, at, asyncio.get_running_loop().create_task(self._timer(room, seat, at)))

    async def _timer(self, room: Room, seat: int, at: int) -> None:
        assert self.turn_seconds is not None
        await asyncio.sleep(self.turn_seconds)
        try:
            moved = await self.run(room.timed_out, seat, at)
        except (RoomError, RuleError):
            return
        if moved:
            self.timers.pop(room.id, None)
            await self.push(room)

    # ------------------------------------------------------------ the lobby's API
    async def games(self, request: Request) -> Response:
        lang = request.query_params.get("lang", "en")
        out = []
        for name, ref in self.rooms.games.items():
            about = self.about.get(name)
            if about is None:
                about = self.about[name] = await self.run(_about, name, ref)
            out.append({**about, "title": about["titles"].get(lang) or about["titles"]["en"]})
        return JSONResponse({"games": out, "upload": self.uploads is not None}, headers=HEADERS)

    async def upload(self, request: Request) -> Response:
        """A rule file pasted in the lobby: checked, then offered with the others (--allow-upload)."""
        if self.uploads is None:
            return JSONResponse({"errors": ["this server takes no rule files (koloda serve --allow-upload)"]}, 403)
        if not self._same_origin(request.headers):
            return JSONResponse({"errors": ["a rule file is sent from this server's own page"]}, 403)
        data = await _json_body(request, MAX_UPLOAD_BODY)
        if data is _TOO_LARGE:
            return JSONResponse({"errors": [f"a rule file is at most {MAX_FILE_BYTES:,} bytes"]}, 413)
        if not isinstance(data, dict):
            return JSONResponse({"errors": ["the request is not a rule file"]}, 400)
        name, errors = await self.run(self.uploads.add, data.get("text"), data.get("name"), self.rooms.games)
        if name is None:
            return JSONResponse({"errors": errors}, 400)
        return JSONResponse({"game": name})

    async def create(self, request: Request) -> Response:
        if not self._same_origin(request.headers):
            return JSONResponse({"error": "a room is made from this server's own page"}, 403, headers=HEADERS)
        data = await _json_body(request, MAX_BODY)
        if data is _TOO_LARGE:
            return JSONResponse({"error": "that request is too large"}, 413, headers=HEADERS)
        if not isinstance(data, dict):
            return JSONResponse({"error": "the request is not a room"}, 400, headers=HEADERS)
        try:
            room = await self.run(self.rooms.create, data.get("game"), data.get("options", {}), data.get("seats"))
        except RoomError as exc:
            return JSONResponse({"error": str(exc)}, 400, headers=HEADERS)
        self.wake_bots(room)
        links = [{"seat": f"P{p + 1}", "link": f"/table/{room.id}#{t}"} for p, t in enumerate(room.tokens)
                 if t is not None]
        return JSONResponse({"room": room.id, "seats": links, "watch": f"/table/{room.id}#watch",
                             "host": f"/table/{room.id}#{room.host}"}, headers=HEADERS)

    def _same_origin(self, headers: Any) -> bool:
        """A browser names the page a socket or request comes from; another site's page is refused
        (a client that names none is no browser, and needs a seat's secret all the same)."""
        origin = headers.get("origin")
        if origin is None:
            return True
        if origin in self.origins:
            return True
        return urlsplit(origin).netloc == headers.get("host")

    # ------------------------------------------------------------ a page's socket
    async def socket(self, ws: WebSocket) -> None:
        if not self._same_origin(ws.headers):
            await ws.close(code=4403)
            return
        await ws.accept()
        room = self.rooms.get(ws.path_params.get("room"))
        if room is None:
            await _error(ws, "there is no such room (the link may be from a server since restarted without it)")
            await ws.close(code=4404)
            return
        page: Page | None = None
        recent: list[float] = []
        try:
            while True:
                data = await _receive(ws)
                if data is None:
                    continue
                now = time.monotonic()
                recent[:] = [t for t in recent if now - t < 1.0] + [now]
                if len(recent) > self.most_a_second:      # a page gone wild must not starve the other rooms
                    self.slowed += 1
                    await asyncio.sleep(1.0 - (now - recent[0]))
                if page is None:
                    page = await self._hello(ws, room, data)
                    if page is None:
                        return
                    continue
                await self._handle(room, page, data)
        except WebSocketDisconnect:
            pass
        finally:
            if page is not None:
                self.pages.get(room.id, set()).discard(page)
                try:
                    await self.tell_hosts(room, page)      # the host sees it has left
                except RuntimeError:      # the server is stopping: its worker takes no more calls
                    pass

    async def replay_socket(self, ws: WebSocket) -> None:
        """A replay's page asks for the table after a move, as a viewer; each answer stands alone."""
        if not self._same_origin(ws.headers):
            await ws.close(code=4403)
            return
        await ws.accept()
        replay = self.replays.get(ws.path_params.get("replay", ""))
        if replay is None:
            await _error(ws, "there is no such replay")
            await ws.close(code=4404)
            return
        try:
            while True:
                data = await _receive(ws)
                if data is None:
                    continue
                if data.get("type") not in ("hello", "show"):
                    await _error(ws, "a replay is stepped through with `show`")
                    continue
                message = await self.run(replay.message, data.get("viewer") or data.get("token"), data.get("at", 0),
                                         _language(data.get("lang")))
                await ws.send_json(message)
        except WebSocketDisconnect:
            pass

    async def _hello(self, ws: WebSocket, room: Room, data: dict) -> Page | None:
        token = data.get("token")
        seat = room.seat_of(token) if data.get("type") == "hello" and isinstance(token, str) else None
        if seat is None:
            await _error(ws, "this link is for no seat of this room")
            await ws.close(code=4403)
            return None
        page = Page(ws, seat, _language(data.get("lang")), isinstance(token, str) and room.is_host(token))
        self.pages.setdefault(room.id, set()).add(page)
        await self.send_table(room, page)
        await self.tell_hosts(room, page)       # the host sees this seat come back
        self.wake_bots(room)            # a room resumed after a restart goes on when someone comes back
        await self.arm_timer(room)
        return page

    async def tell_hosts(self, room: Room, but: Page) -> None:
        for other in list(self.pages.get(room.id, ())):
            if other.host and other is not but:
                await self.send_table(room, other)

    async def _handle(self, room: Room, page: Page, data: dict) -> None:
        kind = data.get("type")
        try:
            if kind == "lang":
                page.lang = _language(data.get("lang"))
                await self.send_table(room, page)
                return
            if kind == "move":
                await self.run(room.move, page.seat, data.get("id"), data.get("at"))
            elif kind == "token":
                await self.run(room.token, page.seat, data.get("token"), data.get("at"), data.get("prefix"))
            elif kind == "back":
                await self.run(room.back, page.seat)
                await self.send_table(room, page)
                return
            elif kind == "typed" or kind == "try":
                fn = room.typed if kind == "typed" else room.tried
                reason = await self.run(fn, page.seat, data.get("text") if kind == "typed" else data.get("card"))
                if reason is not None:
                    await page.socket.send_json({"type": "refused", "text": reason})
                    return
            elif kind == "standin":
                if not page.host:
                    raise RoomError("only the host's page chooses stand-ins")
                await self.run(room.stand_in, data.get("seat"), data.get("bot"))
            elif kind == "next":
                if page.seat < 0:
                    raise RoomError("an onlooker does not deal")
                await self.run(room.go_on)
            else:
                raise RoomError("unknown message")
        except RoomError as exc:
            await _error(page.socket, str(exc))
            return
        except RuleError as exc:        # the rules cannot go on from here: said, and the room kept as it was
            await _error(page.socket, exc.format())
            return
        await self.push(room)


_TOO_LARGE = object()
# what a page sends: a click, a move, a lobby's form (a pasted rule file rides in a form as text)
_MESSAGE_BOUNDS = Bounds(chars=MAX_FRAME, depth=8, containers=1_000, digits=40)
_BODY_BOUNDS = Bounds(depth=16, containers=10_000, digits=40)


async def _json_body(request: Request, most: int) -> object:
    """The request's JSON, read no further than `most` bytes (_TOO_LARGE past them; None if not JSON)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            return _TOO_LARGE
    try:
        return read_json(body.decode("utf-8"), _BODY_BOUNDS)
    except (JsonRefused, UnicodeDecodeError):
        return None


def _language(lang: object) -> str:
    return lang if isinstance(lang, str) and len(lang) < 12 and is_language(lang) else "en"


async def _error(ws: WebSocket, text: str) -> None:
    await ws.send_json({"type": "error", "text": text})


async def _receive(ws: WebSocket) -> dict | None:
    """The next message as a JSON object; anything else is answered with an error and dropped."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        await _error(ws, "messages are JSON text")
        return None
    if len(text) > MAX_FRAME:
        await _error(ws, "that message is too large")
        return None
    try:
        data = read_json(text, _MESSAGE_BOUNDS)
    except JsonRefused as exc:
        await _error(ws, f"that message is not taken: {exc.reason}")
        return None
    if not isinstance(data, dict):
        await _error(ws, "that message is not an object")
        return None
    return data


def _about(name: str, ref: str) -> dict:
    """What the lobby shows of a game: its titles, players and options."""
    try:
        spec, _ = load_spec(ref)
    except (RuleErrors, RuleError) as exc:
        errors = exc.errors if isinstance(exc, RuleErrors) else [exc]
        return {"name": name, "titles": {"en": name}, "errors": [e.format() for e in errors]}
    label = spec.title_label
    titles = {"en": spec.title}
    for lang in ("en", "ru"):
        text = label.text(lang) if label is not None else None
        if text:
            titles[lang] = text
    options = [{"name": o.name, "type": o.type, "default": o.default, "choices": o.choices, "help": o.help,
                "low": o.low, "high": o.high} for o in spec.options.values()]
    return {"name": name, "titles": titles, "players": [spec.min_players, spec.max_players, spec.default_players],
            "options": options}


def _page(name: str) -> Callable[[Request], Any]:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, headers=HEADERS)
    return page


class _Headers:
    """Every HTTP answer, the static files' too, with the headers above."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                                        if k.lower().encode() not in have)]
            await send(message)
        await self.app(scope, receive, with_headers)


def make_app(rooms: Rooms, bot_delay: float = 0.7, origins: tuple[str, ...] = (),
             turn_seconds: float | None = None, replays: tuple[Replayed, ...] = (),
             allow_upload: bool = False) -> Starlette:
    server = Server(rooms, bot_delay, origins, turn_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        for task in [*server.bots.values(), *(t for _, _, t in server.timers.values())]:
            task.cancel()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, lambda: server.engine.shutdown(wait=True))    # a bot's move ends first
        await loop.run_in_executor(None, rooms.writer.flush)        # then the last saves are written
    server.replays = {r.id: r for r in replays}
    if allow_upload:
        server.uploads = Uploads(rooms.folder)
    app = Starlette(lifespan=lifespan, middleware=[Middleware(_Headers)], routes=[
        Route("/", _page("lobby.html")),
        Route("/table/{room}", _page("table.html")),
        Route("/replay/{replay}", _page("table.html")),
        WebSocketRoute("/ws-replay/{replay}", server.replay_socket),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/games", server.games),
        Route("/api/rooms", server.create, methods=["POST"]),
        Route("/api/rules", server.upload, methods=["POST"]),
        WebSocketRoute("/ws/{room}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.server = server
    return app
