"""A game in progress: what it is (rules, options, seats, seed), its moves, and its save.

A save records how the game was set up and every move; loading it replays the moves from the seed,
so a save can be checked and can never describe a state the rules could not reach. Before any of
that, the file is read within bounds (jsonfile.py) and checked against its schema
(schemas/save.schema.json), and its setup against the game it names (`check_setup`): the rules'
fingerprint, one known kind of seat per player, card ids of this deck, a dealer at the table.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from koloda.agents.registry import UnknownAgent, parse_seat
from koloda.api import load
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.interpreter.base import exact
from koloda.dsl.loader import resolve, shipped_path
from koloda.interpreter.base.errors import IllegalAction
from koloda.interpreter.core import state_fields
from koloda.interpreter.game import Game
from koloda.interpreter.core.state import State
from koloda.session.errors import SaveError, Source, shown
from koloda.session.files import write_atomically
from koloda.session.integrity import Verdict, make, verify
from koloda.session.jsonfile import parse, read_text
from koloda.session.schema import check

SAVE_FORMAT = "koloda-save/2"                  # /2: it carries an integrity check (integrity.py)
SAVE_FORMATS = (SAVE_FORMAT, "koloda-save/1")
TRANSCRIPT_FORMAT = "koloda-transcript/3"       # /3: the first and last records carry integrity checks
TRANSCRIPT_FORMATS = (TRANSCRIPT_FORMAT, "koloda-transcript/2", "koloda-transcript/1")   # /2: the end's digest
# what the end record's check covers of the header, whichever format the header has (a resumed game
# goes on writing the transcript an older koloda began)
HEADER_KEYS = ("game", "fingerprint", "options", "players", "seats", "seed", "deck", "dealer")


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
    rules_changed: bool = False               # loaded from a save written under an earlier version of the rules
    integrity: Verdict | None = None          # what a loaded save's check says (integrity.py)

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state(self.seed, self.deck, self.dealer)

    @classmethod
    def start(cls, game_ref: str, game: Game, seats: list[str], seed: int,
              deck: list[list[int]] | None = None, dealer: int | None = None) -> "Session":
        return cls(game_ref, game, seats, seed, deck, dealer)

    def restarted(self) -> "Session":
        """The same game from its first move."""
        return Session.start(self.game_ref, self.game, self.seats, self.seed, self.deck, self.dealer)

    def play(self, action: int) -> None:
        self.state.apply_action(action)
        self.moves.append(action)

    def digest(self) -> str:
        """SHA-256 of what decides the game: the rules' fingerprint, the setup and every move so far.
        A transcript's end record carries it, so that one which lost, gained or changed a move, or
        whose end was copied from another game, is told from a whole one."""
        record = {"fingerprint": self.game.fingerprint, "options": self.game.options,
                  "players": self.game.num_players, "seed": self.seed, "deck": self.deck, "dealer": self.dealer,
                  "moves": self.moves}
        return hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    # ------------------------------------------------------------ saves
    def header(self) -> dict:
        return {"game": self.game_ref, "fingerprint": self.game.fingerprint, "options": self.game.options,
                "players": self.game.num_players, "seats": self.seats, "seed": self.seed, "deck": self.deck,
                "dealer": self.dealer}

    def save(self, path: Path) -> None:
        write_atomically(path, self.save_text())

    def save_text(self) -> str:
        """The save's text, integrity check included (what `save` writes; the web table writes it
        from a thread of its own)."""
        data = {"format": SAVE_FORMAT, **self.header(), "moves": self.moves, "state": self.state.to_json()}
        data["check"] = make(_without(data, "seats"), self.seats)
        return json.dumps(data)

    @classmethod
    def from_header(cls, header: dict, source: Source, same_rules: bool = True) -> "Session":
        """The game a save or transcript sets up, at its first move. `header` has passed its schema.
        `same_rules`: refuse a file written under other rules (a different fingerprint)."""
        game = _load_game(header, source, same_rules)
        check_setup(header, game, source)
        try:
            return cls.start(header["game"], game, list(header["seats"]), header["seed"], header.get("deck"),
                             header.get("dealer"))
        except RuleError as exc:            # deck orders that do not fit the cards they are to order
            raise source.invalid(f"its game cannot start: {exc.message}") from None

    @classmethod
    def load(cls, path: Path) -> "Session":
        source = Source(str(path), "save")
        data = parse(read_text(Path(path), source), source)
        if not isinstance(data, dict) or data.get("format") not in SAVE_FORMATS:
            raise source.invalid(foreign(data, "save", SAVE_FORMATS))
        check(data, source, "save")
        for i, seat in enumerate(data["seats"], 1):
            try:
                parse_seat(seat, commands=False)     # anyone could have written a command into the file
            except UnknownAgent as exc:
                raise source.invalid(f"seat {i}: {exc}") from None
        session = cls.from_header(data, source, same_rules=False)
        # told after every other check: a refusal for what is wrong comes first
        session.integrity = verify(data.get("check"), _without(data, "seats", "check"), data["seats"],
                                   "its game (its setup, moves or state)")
        if session.game.fingerprint == data["fingerprint"]:
            session.replay(data["moves"], source)
            if data["state"] != _as_saved(session.state.to_json(), data["state"]):
                raise source.invalid("its state does not follow from its moves")
            return session
        # the rules were changed since (a help text, a guard reworded): the game goes on if every
        # move it holds is still legal and leads to the state it saved
        try:
            session.replay(data["moves"], source)
            now = _as_saved(session.state.to_json(), data["state"])
            # what the rules say to players is their words, as labels are: a message added or reworded
            # leaves the game the same
            same = isinstance(data["state"], dict) and (
                {**data["state"], "fingerprint": now.get("fingerprint"), "said": None} == {**now, "said": None})
        except SaveError:
            same = False
        if not same:
            raise SaveError(f"{source.where} was written under a different version of the rules of "
                            f"`{session.game.name}`, and its moves do not play the same under these rules; "
                            "it cannot be continued or replayed under them")
        session.rules_changed = True
        return session

    def replay(self, moves: list[int], source: Source) -> None:
        """Play moves read from a file, each checked; a refusal names the first that is not legal."""
        for k, action in enumerate(moves, 1):
            try:
                self.play(action)
            except IllegalAction:
                raise source.invalid(f"move {k} is not legal in the game it describes") from None
            except RuleError as exc:        # the rules cannot go on (a deck order that does not fit a shuffle)
                raise source.invalid(f"move {k} cannot be played: {exc.message}") from None

    # ------------------------------------------------------------ transcripts
    def transcript_header(self) -> str:
        record = {"type": "game", "format": TRANSCRIPT_FORMAT, **self.header()}
        record["check"] = make(_without(record, "seats"), self.seats)
        return json.dumps(record)

    def transcript_move(self, player: int, action: int) -> str:
        record: dict = {"type": "move", "n": len(self.moves), "player": player, "action": action,
                        "text": self.game.action_to_string(action)}
        s = self.state
        said = [{"to": [p for p in range(s.n) if mask >> p & 1], "text": text} for k, mask, text in s.said
                if k == s.moves]
        if said:          # what the rules told the players in this move (the whole truth: a transcript is)
            record["said"] = said
        return json.dumps(record)

    def transcript_end(self) -> str:
        record: dict = {"type": "end", "scores": exact.saved(self.state.scores()), "returns": self.state.returns(),
                        "moves": len(self.moves), "digest": self.digest()}
        record["check"] = make(transcript_whole(self.header(), self.moves, record))
        return json.dumps(record)


def _without(record: dict, *keys: str) -> dict:
    return {k: v for k, v in record.items() if k not in keys}


def transcript_whole(header: dict, moves: list[int], end: dict) -> dict:
    """What a transcript's end record's check covers: the setup (seats too), every move, the end."""
    return {"header": {k: header.get(k) for k in HEADER_KEYS}, "moves": moves, "end": _without(end, "check")}


def _load_game(header: dict, source: Source, same_rules: bool = True) -> Game:
    try:
        game = load(header["game"], dict(header["options"]), header["players"])
    except (RuleErrors, RuleError) as exc:
        raise source.invalid(f"its game {shown(header['game'])} does not load: "
                             f"{exc.errors[0].message if isinstance(exc, RuleErrors) else exc.message}") from None
    if same_rules and game.fingerprint != header["fingerprint"]:
        raise SaveError(f"{source.where} was written under a different version of the rules of `{game.name}`; "
                        "it cannot be continued or replayed under these rules")
    if game.num_players != header["players"]:
        raise source.invalid(f"its options make a table of {game.num_players} players, "
                             f"but `players` is {header['players']}")
    return game


# state fields newer than the save format: a save written before one was added still loads
LATER_STATE_FIELDS = state_fields.later()


def _as_saved(state: dict, saved: object) -> dict:
    """The state as a save of its time would hold it: without the fields added since, if it lacks them,
    and with who put each card where as the save has it. The engine once changed whom it credits a
    card to (the player whose hand it left, not the one who moved it), so a save made before says
    otherwise of the same moves; a save's state is only compared, never used, so this hides nothing."""
    if isinstance(saved, dict):
        for key in LATER_STATE_FIELDS:
            if key not in saved:
                state.pop(key, None)
        by = saved.get("by")
        if isinstance(by, list) and len(by) == len(state.get("by", ())):
            state["by"] = by
    return state


def check_setup(header: dict, game: Game, source: Source) -> None:
    """What the schema cannot know: the setup must fit this game."""
    seats, n = header["seats"], game.num_players
    if len(seats) != n:
        raise source.invalid(f"it has {len(seats)} seat{'s' * (len(seats) != 1)}, but the game it names is for "
                             f"{n} players")
    for i, seat in enumerate(seats, 1):
        try:
            parse_seat(seat)
        except UnknownAgent as exc:
            raise source.invalid(f"seat {i}: {exc}") from None
    size = game.cards.size
    for k, order in enumerate(header.get("deck") or []):
        for i, card in enumerate(order):
            if card >= size:
                raise source.invalid(f"`deck[{k}][{i}]` is card {card}, but this deck's cards are 0..{size - 1}")
    dealer = header.get("dealer")
    if dealer is not None and dealer >= n:
        raise source.invalid(f"`dealer` is player {dealer}, but the players are 0..{n - 1}")


def foreign(data: object, kind: str, formats: tuple[str, ...]) -> str:
    """Why a file that parsed as JSON is not a save or transcript at all."""
    found = data.get("format") if isinstance(data, dict) else None
    if isinstance(found, str) and found.startswith(f"koloda-{kind}/"):
        return f"its format {shown(found)} is not one this version of koloda reads ({', '.join(formats)})"
    return f"it is not a koloda {kind} (it has no `format` {shown(formats[0])})"
