"""Transcripts read back: one `game` line, a `move` line per move, and an `end` line once the game is over.

Between two moves there may be a `seats` line: a resumed game went on with other seats than the
transcript records (its save was edited, and accepted as it was: `koloda resume --accept-edited`).
It names the seats it changes from and to and carries a check of its own, and the end record's
check covers the seats in force at the end, so a change is neither hidden nor made up afterwards.
A `rules` line is the same for the rules: a game resumed under a later version of its rule file
(every move so far playing the same under it, which `koloda resume` checks) went on writing the
transcript. The whole transcript is then played under the rules in force at its end.

A transcript is checked whole before it is shown, line by line: each against its schema
(schemas/transcript.schema.json), the moves numbered 1, 2, 3 … and played as they are read under
the current rules, each by the player the game gives the move to, legal and reading as recorded,
and nothing after the end record. An end record must prove the transcript complete: its count of
moves (koloda-transcript/2), the game over after them, the final scores and the digest agree.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koloda.dsl.errors import RuleError
from koloda.interpreter.base import exact
from koloda.interpreter.base.errors import IllegalAction
from koloda.session.errors import SaveError, Source, shown
from koloda.session.jsonfile import parse, read_text
from koloda.session.schema import check
from koloda.session.integrity import FOREIGN, SOUND, UNCHECKED, Verdict, make, verify
from koloda.session.session import TRANSCRIPT_FORMAT, TRANSCRIPT_FORMATS, Session, foreign, transcript_whole


@dataclass
class Replay:
    """A transcript read back and checked: its session at the first move, and the moves it records."""
    session: Session
    moves: list[dict]
    end: dict | None
    integrity: Verdict          # SOUND, UNCHECKED or FOREIGN (a transcript whose check fails is refused)


def read_transcript(path: Path) -> Replay:
    source = Source(str(path), "transcript")
    lines = [(n, line) for n, line in enumerate(read_text(Path(path), source).split("\n"), 1) if line.strip()]
    if not lines:
        raise source.invalid("it is empty")
    first, text = lines[0]
    header = parse(text, source, f"line {first}")
    if not isinstance(header, dict) or header.get("type") != "game" or header.get("format") not in TRANSCRIPT_FORMATS:
        raise source.invalid(foreign(header, "transcript", TRANSCRIPT_FORMATS))
    check(header, source, "transcript", "record-game", f"line {first}: ")
    end_record = {TRANSCRIPT_FORMAT: "record-end-3", "koloda-transcript/2": "record-end"}.get(header["format"],
                                                                                           "record-end-1")
    # the rules the transcript ends under: the moves before a `rules` line play the same under them
    ends_under = _rules_in_force(lines[1:], header["fingerprint"], source)
    session = Session.from_header({**header, "fingerprint": ends_under}, source)
    fingerprint = header["fingerprint"]     # as the `rules` lines change it
    played = session.restarted()        # the moves are checked by playing them here, as they are read
    moves: list[dict] = []
    end: dict | None = None
    end_line = 0
    seats = list(header["seats"])      # as the `seats` lines change them
    checks: list[Verdict] = []          # of the `seats` lines
    for n, text in lines[1:]:            # line by line, so that a long bad file stops at its first bad line
        if end is not None:
            raise source.invalid(f"line {n} comes after the end record on line {end_line}, which must be the last")
        record = parse(text, source, f"line {n}")
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "move":
            check(record, source, "transcript", "record-move", f"line {n}: ")
            if record["n"] != len(moves) + 1:
                raise source.invalid(f"line {n} is numbered move {record['n']}, but it is move {len(moves) + 1}")
            moves.append(record)
            _play(played, len(moves), record, source)
        elif kind == "seats":
            check(record, source, "transcript", "record-seats", f"line {n}: ")
            _change_seats(record, n, seats, len(moves), header["players"], source)
            checks.append(verify(record["check"], {k: v for k, v in record.items() if k not in ("seats", "check")},
                                 record["seats"], f"its seats' change on line {n}"))
            seats = list(record["seats"])
        elif kind == "rules":
            check(record, source, "transcript", "record-rules", f"line {n}: ")
            _change_rules(record, n, fingerprint, len(moves), source)
            checks.append(verify(record["check"], {k: v for k, v in record.items() if k != "check"},
                                 what=f"its rules' change on line {n}"))
            fingerprint = record["fingerprint"]
        elif kind == "end":
            check(record, source, "transcript", end_record, f"line {n}: ")
            end, end_line = record, n
        elif kind == "game":
            raise source.invalid(f"line {n} starts another game; a transcript holds one")
        else:
            raise source.invalid(f"line {n} is not a `move` or `end` record")
    if end is not None:
        _check_end(played, end, source)
    return Replay(session, moves, end, _integrity({**header, "fingerprint": fingerprint}, header, moves, end, seats,
                                                  checks, source))


def _rules_in_force(lines: list[tuple[int, str]], fingerprint: str, source: Source) -> str:
    """The fingerprint of the rules a transcript ends under: its first line's, or its last `rules` line's."""
    for n, text in lines:
        if '"rules"' in text:
            record = parse(text, source, f"line {n}")
            if isinstance(record, dict) and record.get("type") == "rules" and isinstance(record.get("fingerprint"), str):
                fingerprint = record["fingerprint"]
    return fingerprint


def rules_record(was: str, fingerprint: str, after: int) -> str:
    """The line that records a change of rules after `after` moves (a game resumed under later rules)."""
    record: dict = {"type": "rules", "after": after, "was": was, "fingerprint": fingerprint}
    record["check"] = make(record)
    return json.dumps(record)


def recorded_fingerprint(path: Path) -> str | None:
    """The fingerprint of the rules a transcript records last (its first line's, as its `rules` lines
    change it); None if it is no transcript."""
    value = _recorded(path, "rules", "fingerprint", str)
    return value if isinstance(value, str) else None


def _change_rules(record: dict, n: int, fingerprint: str, played: int, source: Source) -> None:
    if record["after"] != played:
        raise source.invalid(f"line {n} changes the rules after move {record['after']}, but it comes after "
                             f"move {played}")
    if record["was"] != fingerprint:
        raise source.invalid(f"line {n} changes the rules from {record['was']}, but they were {fingerprint}")


def seats_record(was: list[str], seats: list[str], after: int) -> str:
    """The line that records a change of seats after `after` moves (a save accepted as edited)."""
    record: dict = {"type": "seats", "after": after, "was": was, "seats": seats}
    record["check"] = make({k: v for k, v in record.items() if k != "seats"}, seats)
    return json.dumps(record)


def recorded_seats(path: Path) -> list[str] | None:
    """The seats a transcript records last (its first line's, as its `seats` lines change them), to
    tell whether a game that goes on writing it has other seats; None if it is no transcript."""
    value = _recorded(path, "seats", "seats", list)
    return [str(seat) for seat in value] if isinstance(value, list) else None


def _recorded(path: Path, kind: str, key: str, of: type) -> Any:
    """What a transcript records last under `key` (a value of type `of`): its first line's, as its
    lines of type `kind` change it; None if it is no transcript."""
    source = Source(str(path), "transcript")
    value: Any = None
    try:
        for n, line in enumerate(read_text(Path(path), source).split("\n"), 1):
            if value is None and line.strip() or f'"{kind}"' in line:
                record = parse(line, source, f"line {n}")
                if isinstance(record, dict) and record.get("type") in ("game", kind) \
                        and isinstance(record.get(key), of):
                    value = record[key]
                elif value is None:
                    return None
    except SaveError:
        return None
    return value


def _change_seats(record: dict, n: int, seats: list[str], played: int, players: int, source: Source) -> None:
    if record["after"] != played:
        raise source.invalid(f"line {n} changes the seats after move {record['after']}, but it comes after "
                             f"move {played}")
    if record["was"] != seats:
        raise source.invalid(f"line {n} changes the seats from {shown(record['was'])}, but they were {shown(seats)}")
    if len(record["seats"]) != players:
        raise source.invalid(f"line {n} names {len(record['seats'])} seats for a table of {players}")


def _integrity(last_header: dict, header: dict, moves: list[dict], end: dict | None, seats: list[str],
               checks: list[Verdict], source: Source) -> Verdict:
    """The transcript's checks, after every other: one that does not match refuses it. What is left
    is SOUND, UNCHECKED (written before checks, or cut short before its end) or FOREIGN (made with
    another key, on another machine or account). The end's check covers the seats and the rules at
    the end (`last_header`)."""
    first = verify(header.get("check"), {k: v for k, v in header.items() if k not in ("seats", "check")},
                   header["seats"], "its first line")
    last = verify(end.get("check"), transcript_whole({**last_header, "seats": seats}, [m["action"] for m in moves],
                                                     end),
                  what="the record of its moves and result") if end is not None else Verdict(UNCHECKED)
    verdicts = [first, *checks, last]
    changes = [change for verdict in verdicts for change in verdict.changes]
    if changes:
        raise source.invalid("; ".join(changes) + ": it was changed after koloda wrote it")
    if any(verdict.status == FOREIGN for verdict in verdicts):
        return Verdict(FOREIGN)
    return Verdict(SOUND if all(verdict.status == SOUND for verdict in verdicts) else UNCHECKED)


def _play(session: Session, k: int, move: dict, source: Source) -> None:
    """Move `k` as recorded: the game's to make by that player, legal, and reading as recorded."""
    state = session.state
    player, action = move["player"], move["action"]
    if state.is_terminal():
        raise source.invalid(f"move {k} comes after the game is over")
    if state.current_player() != player:
        raise source.invalid(f"move {k} is by P{player + 1}, but the game gives the move to "
                             f"P{state.current_player() + 1}")
    if action >= session.game.num_distinct_actions or action not in state.legal_actions() \
            or state.action_to_string(action) != move["text"]:
        raise source.invalid(f"move {k} ({shown(move['text'])}) is not what these rules allow here")
    try:
        session.play(action)
    except (IllegalAction, RuleError) as exc:
        raise source.invalid(f"move {k} cannot be played: {_reason(exc)}") from None


def _check_end(session: Session, end: dict, source: Source) -> None:
    """The end record must prove the transcript whole: it counts the moves, the game is over after
    them, the digest and the results agree."""
    state, count = session.state, len(session.moves)
    if "moves" in end and end["moves"] != count:
        raise source.invalid(f"its end record counts {end['moves']} moves, but {count} are recorded: "
                             "moves are missing or were added")
    if not state.is_terminal():
        raise source.invalid(f"its end record says the game is over, but after its {count} moves it is not: "
                             "moves are missing")
    if end["scores"] != exact.saved(state.scores()):      # a fraction as a save writes it
        raise source.invalid(f"the replay ends with scores {exact.scores_text(state.scores())}, but the transcript says "
                             f"{shown(end['scores'])}")
    if end["returns"] != state.returns():
        raise source.invalid(f"the replay ends with returns {state.returns()}, but the transcript says "
                             f"{shown(end['returns'])}")
    if "digest" in end and end["digest"] != session.digest():
        raise source.invalid("the digest in its end record does not match its setup and moves")


def _reason(exc: Any) -> str:
    return exc.message if isinstance(exc, RuleError) else str(exc)
