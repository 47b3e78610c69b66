"""A game in progress: what it is (rules, options, seats, seed), its moves, saves and transcripts.

A save records how the game was set up and every move; loading it replays
the moves from the seed, so a save can be checked and can never describe a
state the rules could not reach. Saves are written atomically: a crash or a
kill at any moment leaves the last good save on disk.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from koloda.api import load
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.loader import resolve, shipped_path
from koloda.interpreter.errors import IllegalAction
from koloda.interpreter.game import Game
from koloda.interpreter.state import State

SAVE_FORMAT = "koloda-save/1"
TRANSCRIPT_FORMAT = "koloda-transcript/1"


class SaveError(Exception):
    """A save or transcript that cannot be used, with a message for the user."""


def game_reference(name_or_path: str) -> str:
    """What a save calls the game: a shipped name as it is, a rule file by its absolute path."""
    path = resolve(name_or_path)
    if shipped_path(name_or_path) is not None and Path(name_or_path).suffix == "":
        return name_or_path
    return str(path.resolve())


@dataclass
class Session:
    game_ref: str
    game: Game
    seats: list[str]
    seed: int
    deck: list[list[int]] | None = None       # deck orders (hands given are kept as the orders that deal them)
    dealer: int | None = None                 # the first dealer, if it was given
    moves: list[int] = field(default_factory=list)
    state: State = field(init=False)

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state(self.seed, self.deck, self.dealer)

    @classmethod
    def start(cls, game_ref: str, game: Game, seats: list[str], seed: int,
              deck: list[list[int]] | None = None, dealer: int | None = None) -> "Session":
        return cls(game_ref, game, seats, seed, deck, dealer)

    def play(self, action: int) -> None:
        self.state.apply_action(action)
        self.moves.append(action)

    # ------------------------------------------------------------ saves
    def header(self) -> dict:
        return {"game": self.game_ref, "fingerprint": self.game.fingerprint, "options": self.game.options,
                "players": self.game.num_players, "seats": self.seats, "seed": self.seed, "deck": self.deck,
                "dealer": self.dealer}

    def save(self, path: Path) -> None:
        data = {"format": SAVE_FORMAT, **self.header(), "moves": self.moves, "state": self.state.to_json()}
        write_atomically(path, json.dumps(data))

    @classmethod
    def from_header(cls, header: dict, where: str) -> "Session":
        try:
            game = load(header["game"], {k: str(v) for k, v in header["options"].items()}, int(header["players"]))
        except (RuleErrors, RuleError) as exc:
            raise SaveError(f"{where}: its game `{header.get('game')}` does not load: "
                            f"{exc.errors[0].message if isinstance(exc, RuleErrors) else exc.message}") from None
        if game.fingerprint != header["fingerprint"]:
            raise SaveError(f"{where} was written under a different version of the rules of `{game.name}`; "
                            "it cannot be continued or replayed under these rules")
        seats = [str(s) for s in header["seats"]]
        deck = header.get("deck")
        dealer = header.get("dealer")
        return cls.start(header["game"], game, seats, int(header["seed"]), deck,
                         None if dealer is None else int(dealer))

    @classmethod
    def load(cls, path: Path) -> "Session":
        where = str(path)
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise SaveError(f"cannot read {where}: {exc.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise SaveError(f"{where} is not a koloda save (it is not JSON, or it was cut short)") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"{where} is not a koloda save")
        try:
            session = cls.from_header(data, where)
            for k, action in enumerate(data["moves"]):
                try:
                    session.play(int(action))
                except IllegalAction:
                    raise SaveError(f"{where}: move {k + 1} is not legal in the game it describes") from None
            saved = data["state"]
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"{where} is damaged ({type(exc).__name__}: {exc})") from None
        if saved != session.state.to_json():
            raise SaveError(f"{where} is damaged: its state does not follow from its moves")
        return session

    # ------------------------------------------------------------ transcripts
    def transcript_header(self) -> str:
        return json.dumps({"type": "game", "format": TRANSCRIPT_FORMAT, **self.header()})

    def transcript_move(self, player: int, action: int) -> str:
        return json.dumps({"type": "move", "n": len(self.moves), "player": player, "action": action,
                           "text": self.game.action_to_string(action)})

    def transcript_end(self) -> str:
        return json.dumps({"type": "end", "scores": self.state.scores(), "returns": self.state.returns()})


def write_atomically(path: Path, text: str) -> None:
    """Write the whole file or nothing: a temporary file, flushed to disk, then renamed over."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def default_save_dir() -> Path:
    base = os.environ.get("KOLODA_HOME")
    if base:
        return Path(base)
    state_home = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state_home) / "koloda"


def latest_save() -> Path | None:
    """The most recently saved game that is not over (or, if all are over, the most recent)."""
    saves = sorted(default_save_dir().glob("*.save.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in saves:
        try:
            if not json.loads(path.read_text(encoding="utf-8"))["state"]["terminal"]:
                return path
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return saves[0] if saves else None


@dataclass
class Replay:
    """A transcript read back: its session set up, and the moves it records."""
    session: Session
    moves: list[dict]
    end: dict | None


def read_transcript(path: Path) -> Replay:
    where = str(path)
    try:
        lines = [line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as exc:
        raise SaveError(f"cannot read {where}: {exc.strerror}") from None
    try:
        records = [json.loads(line) for line in lines]
    except json.JSONDecodeError as exc:
        raise SaveError(f"{where}:{exc.lineno}: not a JSON line") from None
    if not records or not isinstance(records[0], dict) or records[0].get("format") != TRANSCRIPT_FORMAT:
        raise SaveError(f"{where} is not a koloda transcript")
    try:
        session = Session.from_header(records[0], where)
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(f"{where}: the first line is damaged ({exc})") from None
    moves = [r for r in records[1:] if isinstance(r, dict) and r.get("type") == "move"]
    ends = [r for r in records[1:] if isinstance(r, dict) and r.get("type") == "end"]
    return Replay(session, moves, ends[-1] if ends else None)
