"""Rooms: one game each, its seats (a person with a secret link, or a bot), what each seat has been
told, and its save, written after every move with the command line's saves (koloda/session/), so a
server started again goes on with its rooms and `koloda resume web-ROOM` goes on at the terminal.

Nothing here is asynchronous: the app (app.py) calls these methods from one worker thread at a
time, so the engine is never run by two threads at once."""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from koloda.agents.base import Agent
from koloda.agents.registry import UnknownAgent, make_agent, parse_seat
from koloda.api import load
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.interpreter.base.errors import IllegalAction
from koloda.interpreter.words.refusal import why_refused
from koloda.interpreter.core.state import State
from koloda.session import SaveError, Session, game_reference, write_atomically
from koloda.session.files import make_folder
from koloda.session.jsonfile import parse, read_text
from koloda.session.errors import Source
from koloda.dsl.types import CARD
from koloda.web import choices as C
from koloda.web.messages import WATCHER, deal_end, move_lines, result, table_view
from koloda.web.saving import Writer, save_text

ROOM_FORMAT = "koloda-web-room/1"
LOG_KEPT = 300            # the lines of the move log each seat is sent (the latest)
BOT_KINDS = ("random", "greedy", "ismcts")
TIMEOUT_BOT = "greedy"    # chooses for a person whose time ran out


class RoomError(ValueError):
    """A request that cannot be met, with the reason to show."""


@dataclass
class Room:
    id: str
    session: Session
    tokens: list[str | None]              # each person's secret; None for a bot's seat
    folder: Path | None = None
    logs: dict[int, list[str]] = field(default_factory=dict)      # seat (-1 onlookers) -> lines told
    prefix: tuple[int, ...] = ()          # the tokens the seat to move has clicked so far
    ended: list[State] = field(default_factory=list)     # deals ended, shown until a person goes on
    agents: dict[tuple[int, str], Agent] = field(default_factory=dict)
    host: str = ""                        # the secret of the host's page: it may have bots stand in
    standins: dict[int, str] = field(default_factory=dict)     # a person's seat -> the bot playing it
    save_path: Path | None = None         # a game begun at the terminal keeps its own save
    writer: Writer | None = None          # writes the saves out of the engine's thread (None: at once)

    def __post_init__(self) -> None:
        game = self.session.game
        self.spelling = C.make_spelling(game)
        self.logs = {s: [] for s in range(WATCHER, game.num_players)}
        self._scored: list[State] = []
        game.on_deal_scored(self._deal_scored)

    def _deal_scored(self, state: State) -> None:
        if state is self.session.state:        # not a state a bot imagines
            self._scored.append(state.clone())

    # ------------------------------------------------------------ who sits where
    @property
    def game(self):
        return self.session.game

    @property
    def state(self) -> State:
        return self.session.state

    def seat_of(self, token: str) -> int | None:
        """The seat a secret stands for (WATCHER for the room's id alone); None for no seat here."""
        if token == "watch" or self.is_host(token):
            return WATCHER
        for seat, mine in enumerate(self.tokens):
            if mine is not None and secrets.compare_digest(mine, token):
                return seat
        return None

    def is_host(self, token: str) -> bool:
        return bool(self.host) and secrets.compare_digest(self.host, token)

    def is_bot(self, seat: int) -> bool:
        """A bot's seat, or a person's that a bot plays for now."""
        return self.tokens[seat] is None or seat in self.standins

    def stand_in(self, seat: object, bot: object) -> None:
        """The host's choice: a bot plays a person's seat (one who has left), or (bot None) no more."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.tokens) or \
                self.tokens[seat] is None:
            raise RoomError("a bot can stand in for a person's seat only")
        if bot is None:
            self.standins.pop(seat, None)
        else:
            spec = _seat_spec(bot)
            if spec.partition(":")[0].lower() == "human":
                raise RoomError("a stand-in is a bot")
            self.standins[seat] = spec
        self.write_room()

    def person_to_move(self) -> int | None:
        """The seat of a person whose move it is (for the turn timer)."""
        s = self.state
        if s.is_terminal() or self.waiting() or self.is_bot(s.current_player()):
            return None
        return s.current_player()

    def bot_to_move(self) -> bool:
        s = self.state
        return not s.is_terminal() and self.is_bot(s.current_player()) and not self.waiting()

    def waiting(self) -> bool:
        """A deal has ended and the people have not yet gone on to the next."""
        return bool(self.ended) and any(t is not None for t in self.tokens)

    # ------------------------------------------------------------ moves
    def play(self, seat: int, native: int) -> None:
        s = self.state
        self._on_turn(seat)
        if native not in s.legal_actions():
            raise RoomError("that move is not legal now")
        self._scored = []
        self.session.play(native)
        told = self._scored[0] if self._scored else s
        for viewer, lines in self.logs.items():
            lines += move_lines(self.game, told, s, seat, native, viewer)
            del lines[:-LOG_KEPT]
        if any(t is not None for t in self.tokens):
            self.ended += self._scored
        self.prefix = ()
        self.save()

    def move(self, seat: int, move_id: object, at: object) -> None:
        """A move from the list, by its id (text: ids may pass 2^53) at move number `at`."""
        self._fresh(seat, at)
        if not isinstance(move_id, str) or not move_id.isdigit() or len(move_id) > 80:
            raise RoomError("a move is given by its id")
        self.play(seat, int(move_id))

    def token(self, seat: int, token: object, at: object, prefix: object) -> None:
        """One click of the compact spelling: the move is played when its last token is clicked."""
        self._fresh(seat, at)
        if prefix != list(self.prefix):
            raise RoomError("that click was for an earlier choice; the table has been redrawn")
        if isinstance(token, bool) or not isinstance(token, int) or \
                token not in C.next_tokens(self.spelling, self.state, self.prefix):
            raise RoomError("that is not one of your choices now")
        typed = self.prefix + (token,)
        native = C.completes(self.spelling, self.state, typed)
        if native is None:
            self.prefix = typed
        else:
            self.play(seat, native)

    def back(self, seat: int) -> None:
        """Undo the last click of a move being spelled."""
        self._fresh(seat, len(self.session.moves))
        self.prefix = self.prefix[:-1]

    def _on_turn(self, seat: int) -> None:
        if self.state.is_terminal():
            raise RoomError("the game is over")
        if seat != self.state.current_player():
            raise RoomError("it is not your turn")

    def _fresh(self, seat: int, at: object) -> None:
        self._on_turn(seat)
        if self.waiting():
            raise RoomError("the deal is over: go on to the next first")
        if at != len(self.session.moves):
            raise RoomError("that was for an earlier move; the table has been redrawn")

    def typed(self, seat: int, text: object) -> str | None:
        """A move typed as at the terminal (`play QS`): played if legal, else the reason it is not."""
        if not isinstance(text, str) or not text.strip():
            raise RoomError("type a move")
        self._fresh(seat, len(self.session.moves))
        try:
            native = self.state.string_to_action(text)
        except IllegalAction:
            return why_refused(self.state, text, seat) or f"no legal move reads `{text.strip()}`"
        self.play(seat, native)
        return None

    def tried(self, seat: int, card: object) -> str:
        """Why a card that is not among the choices cannot be played: the rule file's reason for each
        action of the game that takes a card."""
        if not isinstance(card, str) or len(card) > 8:
            raise RoomError("no such card")
        self._fresh(seat, len(self.session.moves))
        for action in self.game.codec.actions:
            if action.params and action.params[0].type == CARD:
                reason = why_refused(self.state, f"{action.name} {card}", seat)
                if reason:
                    return reason
        return f"{card} cannot be played now"

    def go_on(self) -> None:
        self.ended.clear()

    def bot_move(self, spec: str | None = None) -> None:
        """The move of the bot at the seat to move (or of `spec`, for a person out of time)."""
        s = self.state
        seat = s.current_player()
        spec = spec or self.standins.get(seat) or self.session.seats[seat]
        agent = self.agents.get((seat, spec))
        if agent is None:
            agent = self.agents[(seat, spec)] = make_agent(spec, self.session.seed * 31 + seat + len(self.session.moves),
                                                           interactive=True)
        self.play(seat, agent.choose(s))

    def timed_out(self, seat: int, at: int) -> bool:
        """The person at `seat` has let the clock run out at move `at`: a bot chooses for them."""
        if self.person_to_move() != seat or len(self.session.moves) != at:
            return False
        for lines in self.logs.values():
            lines.append(f"P{seat + 1}'s time ran out: a bot chose the move")
        self.prefix = ()
        self.bot_move(TIMEOUT_BOT)
        return True

    # ------------------------------------------------------------ what a seat is sent
    def message(self, seat: int, lang: str, present: frozenset[int] = frozenset(), host: bool = False) -> dict[str, Any]:
        """What the page of `seat` is sent now; `present`: the seats whose page is open; `host`: the
        host's page, sent the stand-ins too."""
        s, game = self.state, self.game
        seats = []
        for p, t in enumerate(self.tokens):
            entry: dict[str, Any] = {"seat": p, "label": f"P{p + 1}",
                                     "kind": "person" if t is not None else self.session.seats[p], "you": p == seat}
            if t is not None:
                entry["present"] = p in present
                if p in self.standins:
                    entry["standin"] = self.standins[p]
            seats.append(entry)
        out: dict[str, Any] = {
            "type": "table", "room": self.id, "at": len(self.session.moves), "seat": seat, "seats": seats,
            "table": table_view(game, s, seat, lang), "log": self.logs[seat][-LOG_KEPT:]}
        if host:
            out["host"] = True
        if self.ended:
            out["ended"] = [deal_end(game, e, lang) for e in self.ended]
        if s.is_terminal():
            out["result"] = result(game, s)
        elif seat == s.current_player() and not self.is_bot(seat) and not self.waiting():
            out["moves"] = C.choices(game, self.spelling, s, seat, self.prefix)
        return out

    # ------------------------------------------------------------ saves
    def save(self) -> None:
        if self.folder is None:
            return
        if self.writer is None:
            self.session.save(self.saved_in())
        else:
            self.writer.put(self.saved_in(), save_text(self.session))

    def saved_in(self) -> Path:
        assert self.folder is not None
        return self.save_path or self.folder / f"web-{self.id}.save.json"

    def write_room(self) -> None:
        if self.folder is None:
            return
        rooms = self.folder / "web"
        make_folder(self.folder)        # first: the save folder is its owner's alone, as the saves are
        make_folder(rooms)
        write_atomically(rooms / f"{self.id}.json", json.dumps({"format": ROOM_FORMAT, "id": self.id,
                                                                "tokens": self.tokens, "host": self.host,
                                                                "save": None if self.save_path is None
                                                                else str(self.save_path),
                                                                "standins": {str(k): v for k, v in self.standins.items()}}))


def _seat_spec(seat: object) -> str:
    """`human`, `random`, `greedy:samples=4`, `ismcts:iterations=200`: checked as the command line
    checks `--seat`; a program (`cmd:`) is never started from a page."""
    if not isinstance(seat, str) or len(seat) > 200:
        raise RoomError("a seat is `human` or a bot")
    kind = seat.partition(":")[0].strip().lower()
    if kind != "human" and kind not in BOT_KINDS:
        raise RoomError(f"a seat is human, {', '.join(BOT_KINDS)}, not `{seat}`")
    try:
        parse_seat(seat, commands=False)
    except UnknownAgent as exc:
        raise RoomError(str(exc)) from None
    return seat.strip()


class Rooms:
    """The rooms of one server: at most `most` at once, each saved in `folder` (None: kept in memory)."""

    def __init__(self, games: dict[str, str], folder: Path | None, most: int = 100):
        self.games = games                # what the lobby offers: name -> what load() is given
        self.folder = folder
        self.most = most
        self.rooms: dict[str, Room] = {}
        self.writer = Writer()

    def create(self, game: object, options: object, seats: object, seed: int | None = None) -> Room:
        if len(self.rooms) >= self.most:
            self._forget_one_over()
        if len(self.rooms) >= self.most:
            raise RoomError(f"this server holds at most {self.most} rooms")
        if not isinstance(game, str) or game not in self.games:
            raise RoomError("choose one of the games offered")
        if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, (str, int, bool))
                                                    for k, v in options.items()):
            raise RoomError("options are names and values")
        if not isinstance(seats, list) or not 1 <= len(seats) <= 16:
            raise RoomError("give each seat a person or a bot")
        specs = [_seat_spec(s) for s in seats]
        try:
            loaded = load(self.games[game], {k: str(v) for k, v in options.items()}, len(specs))
        except RuleErrors as exc:
            raise RoomError("\n".join(e.format() for e in exc.errors)) from None
        except RuleError as exc:
            raise RoomError(exc.format()) from None
        session = Session.start(game_reference(self.games[game]), loaded, specs,
                                secrets.randbelow(2 ** 31) if seed is None else seed)
        tokens = [secrets.token_urlsafe(16) if s.partition(":")[0].lower() == "human" else None for s in specs]
        room = Room(secrets.token_urlsafe(8), session, tokens, self.folder, host=secrets.token_urlsafe(16),
                    writer=self.writer)
        self.rooms[room.id] = room
        room.write_room()
        room.save()
        return room

    def _forget_one_over(self) -> None:
        """Make room for a new room: the first game that is over goes (its save stays on disk)."""
        for room_id, room in self.rooms.items():
            if room.state.is_terminal():
                del self.rooms[room_id]
                return

    def get(self, room_id: object) -> Room | None:
        return self.rooms.get(room_id) if isinstance(room_id, str) else None

    def resume(self) -> list[str]:
        """Load the rooms saved in the folder; returns a line for each that could not be."""
        problems: list[str] = []
        if self.folder is None or not (self.folder / "web").is_dir():
            return problems
        for path in sorted((self.folder / "web").glob("*.json")):
            try:
                self._resume(path)
            except (SaveError, RoomError, RuleError, OSError) as exc:
                problems.append(f"{path.name}: {exc}")
        return problems

    def _resume(self, path: Path) -> None:
        assert self.folder is not None
        source = Source(str(path), "room")
        data = parse(read_text(path, source), source)
        if not isinstance(data, dict) or data.get("format") != ROOM_FORMAT or not isinstance(data.get("id"), str):
            raise RoomError("not a room of this server")
        save = data.get("save")
        save_path = Path(save) if isinstance(save, str) else self.folder / f"web-{data['id']}.save.json"
        saved = Session.load(save_path)
        tokens = data.get("tokens")
        if not isinstance(tokens, list) or len(tokens) != len(saved.seats) or \
                not all(t is None or isinstance(t, str) for t in tokens):
            raise RoomError("its seats do not match its save")
        host = data.get("host")
        standins = data.get("standins") or {}
        room = _replayed(data["id"], saved, tokens, host if isinstance(host, str) else "")
        room.save_path = save_path if isinstance(save, str) else None
        if isinstance(standins, dict):
            for seat, bot in standins.items():
                if isinstance(seat, str) and seat.isdigit():
                    room.stand_in(int(seat), bot)
        room.folder, room.writer = self.folder, self.writer
        self.rooms[room.id] = room

    def adopt(self, path: Path) -> Room:
        """A game saved at the terminal (`koloda play`), now at a table in the browser: each person's
        seat gets a link, and the game goes on saving to the same file."""
        if len(self.rooms) >= self.most:
            raise RoomError(f"this server holds at most {self.most} rooms")
        saved = Session.load(path)
        tokens = [secrets.token_urlsafe(16) if s.partition(":")[0].lower() == "human" else None for s in saved.seats]
        room = _replayed(secrets.token_urlsafe(8), saved, tokens, secrets.token_urlsafe(16))
        room.folder, room.save_path, room.writer = self.folder, Path(path).resolve(), self.writer
        self.rooms[room.id] = room
        room.write_room()
        return room


def _replayed(room_id: str, saved: Session, tokens: list[str | None], host: str) -> Room:
    """A room for a saved game, its moves told again one by one, as each seat saw them."""
    room = Room(room_id, saved.restarted(), tokens, None, host=host)
    for action in saved.moves:
        room.play(room.state.current_player(), action)
    room.ended.clear()
    return room
