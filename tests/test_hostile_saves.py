"""Tampered saves and transcripts: each is refused with its reason, never with a traceback (and
never a hang: a guard of a minute, which only a hang can reach — no test times a refusal).

Each case starts from a real save (Pony, 20 moves in) or a real transcript (a whole game of Pony),
changes one thing, and expects `not a valid save: …` / `not a valid transcript: …` with the reason,
both from the library and from `koloda resume` / `koloda replay` (exit status 1). The files are made
in a temporary folder.
"""
from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from koloda.cli.main import main
from helpers import no_hang
from koloda.session import SaveError, Session, read_transcript
from test_sessions import bot_session, write_transcript


class Whole:
    """A change that replaces the whole document."""

    def __init__(self, data: object):
        self.data = data


class Raw:
    """A value written into the file as it is (`1e400`, `NaN`), which json.dumps would not write."""

    def __init__(self, text: str):
        self.text = text


def dumps(data: object) -> str:
    raws: list[str] = []

    def mark(value: object) -> str:
        assert isinstance(value, Raw)
        raws.append(value.text)
        return f"\x00raw{len(raws) - 1}\x00"
    text = json.dumps(data, default=mark)
    for i, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\x00raw{i}\x00"), raw)
    return text


@pytest.fixture(scope="module")
def save_text(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("base") / "base.save.json"
    bot_session("pony", seed=8, moves=20).save(path)
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def game_over() -> Session:
    return bot_session("pony", seed=6)


@pytest.fixture(scope="module")
def transcript_lines(tmp_path_factory, game_over) -> list[str]:
    path = tmp_path_factory.mktemp("base") / "base.jsonl"
    write_transcript(game_over, path)
    return path.read_text(encoding="utf-8").splitlines()


def refused(path: Path, kind: str, message: str) -> None:
    """The library and the command line both refuse `path`, with `message`."""
    with no_hang(what=f"refusing the {kind}"), pytest.raises(SaveError) as info:
        (Session.load if kind == "save" else read_transcript)(path)
    assert message in str(info.value), str(info.value)
    assert str(info.value).isprintable()                # nothing from the file reaches the terminal raw
    if not str(info.value).endswith("different version of the rules of `pony`; it cannot be continued or "
                                    "replayed under these rules"):
        assert f"is not a valid {kind}: " in str(info.value)
    result = CliRunner().invoke(main, ["resume", str(path)] if kind == "save" else ["replay", "-q", str(path)])
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.output.split()), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------- the setup: in a save and in a transcript
def _seat(i: int, seat: str) -> Callable[[dict], None]:
    return lambda h: h["seats"].__setitem__(i, seat)


HEADER_CASES: list[tuple[str, Callable[[dict], object], str]] = [
    ("seed 1e400", lambda h: h.update(seed=Raw("1e400")), "the number 1e400 is too large"),
    ("seed a decimal", lambda h: h.update(seed=8.5), "`seed` must be a whole number, not a number (8.5)"),
    ("seed beyond 64 bits", lambda h: h.update(seed=2 ** 70), "`seed` must be at most 9223372036854775807"),
    ("seed true", lambda h: h.update(seed=True), "`seed` must be a whole number, not true"),
    ("seed with 5,000 digits", lambda h: h.update(seed=Raw("9" * 5000)), "a number has more than 4,300 digits"),
    ("seed NaN", lambda h: h.update(seed=Raw("NaN")), "`NaN` is not a number"),
    ("seed -Infinity", lambda h: h.update(seed=Raw("-Infinity")), "`-Infinity` is not a number"),
    ("unknown seat kind", _seat(0, "wizard"), "seat 1: unknown seat `wizard`: choose from human, random"),
    ("seat setting not a number", _seat(1, "ismcts:iterations=many"),
     "seat 2: seat `ismcts:iterations=many`: `iterations` takes a number"),
    ("seat setting unknown", _seat(1, "greedy:cheat=1"), "seat 2: seat `greedy:cheat=1`: `cheat=1` is not a setting"),
    ("seat with control characters", _seat(0, "random\x1b[2J"), "`seats[0]` must be printable ASCII"),
    ("seats as a string", lambda h: h.update(seats="random random"), "`seats` must be a list, not a string"),
    ("seats empty", lambda h: h.update(seats=[]), "`seats` is empty"),
    ("a seat added", lambda h: h["seats"].append("random"), "it has 3 seats, but the game it names is for 2 players"),
    ("a seat removed", lambda h: h["seats"].pop(), "it has 1 seat, but the game it names is for 2 players"),
    ("a seat a number", _seat(0, 7), "`seats[0]` must be a string, not a number (7)"),   # type: ignore[arg-type]
    ("options not a mapping", lambda h: h.update(options=["hand=7"]), "`options` must be a mapping, not a list"),
    ("options a string", lambda h: h.update(options="hand=7"), "`options` must be a mapping, not a string"),
    ("an option a list", lambda h: h["options"].update(hand=[7]),
     "`options.hand` must be true or false or a whole number or a string, not a list"),
    ("an unknown option", lambda h: h["options"].update(colour="red"),
     'its game "pony" does not load: unknown option `colour` for pony'),
    ("an option out of range", lambda h: h["options"].update(hand=6), 'its game "pony" does not load: option `hand`'),
    ("an option's name with control characters", lambda h: h["options"].update({"ha\x1bnd": 5}),
     "a key of `options` must be printable ASCII"),
    ("an option's value with control characters", lambda h: h["options"].update(hand="5\n"),
     "`options.hand` must be free of control characters"),
    ("players 0", lambda h: h.update(players=0), "`players` must be at least 1, not 0"),
    ("players unlike the seats", lambda h: h.update(players=3), "it has 2 seats, but the game it names is for 3"),
    ("players unlike the options", lambda h: h["options"].update(players=4),
     "does not load: --players 2 and option players=4 disagree"),
    ("fingerprint of other rules", lambda h: h.update(fingerprint="0123456789abcdef"),
     "was written under a different version of the rules of `pony`"),
    ("fingerprint not hexadecimal", lambda h: h.update(fingerprint="not-a-fingerprint"),
     "`fingerprint` must be 16 hexadecimal digits"),
    ("deck card out of range", lambda h: h.update(deck=[list(range(31)) + [999]]),
     "`deck[0][31]` is card 999, but this deck's cards are 0..31"),
    ("deck card negative", lambda h: h.update(deck=[[-1]]), "`deck[0][0]` must be at least 0, not -1"),
    ("deck card beyond any deck", lambda h: h.update(deck=[[10 ** 6]]), "`deck[0][0]` must be at most 9999"),
    ("deck entries as strings", lambda h: h.update(deck=["AS KS QS"]), "`deck[0]` must be a list, not a string"),
    ("deck a string", lambda h: h.update(deck="AS KS"), "`deck` must be a list or null, not a string"),
    ("deck a card twice", lambda h: h.update(deck=[[0, 0]]), "`deck[0]` gives the same card twice"),
    ("deck order that leaves cards out", lambda h: h.update(deck=[[0, 1, 2]]),
     "its game cannot start: the deck order for the shuffle of `stock` in deal 1 does not fit it"),
    ("dealer not at the table", lambda h: h.update(dealer=5), "`dealer` is player 5, but the players are 0..1"),
    ("dealer a string", lambda h: h.update(dealer="P1"), "`dealer` must be a whole number or null, not a string"),
    ("game missing", lambda h: h.pop("game"), "`game` is missing"),
    ("game unknown", lambda h: h.update(game="no-such-game"), 'its game "no-such-game" does not load'),
    ("game with control characters", lambda h: h.update(game="pony\n"), "`game` must be free of control characters"),
    ("an unknown key", lambda h: h.update(cheat=True), 'it has a key "cheat" it should not'),
]


# a save written under other rules goes on when its moves play the same under these (tests/test_sessions.py)
SAVE_CASES_OF_HEADER = [c for c in HEADER_CASES if c[0] != "fingerprint of other rules"]


@pytest.mark.parametrize("change, message", [c[1:] for c in SAVE_CASES_OF_HEADER],
                         ids=[c[0] for c in SAVE_CASES_OF_HEADER])
def test_a_tampered_setup_in_a_save(tmp_path, save_text, change, message):
    data = json.loads(save_text)
    change(data)
    path = tmp_path / "s.save.json"
    path.write_text(dumps(data), encoding="utf-8")
    refused(path, "save", message)


@pytest.mark.parametrize("change, message", [c[1:] for c in HEADER_CASES], ids=[c[0] for c in HEADER_CASES])
def test_a_tampered_setup_in_a_transcript(tmp_path, transcript_lines, change, message):
    header = json.loads(transcript_lines[0])
    change(header)
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join([dumps(header)] + transcript_lines[1:]) + "\n", encoding="utf-8")
    refused(path, "transcript", message)


# ---------------------------------------------------------------- the rest of a save
SAVE_CASES: list[tuple[str, Callable[[dict], object], str]] = [
    ("a move 1e400", lambda d: d["moves"].__setitem__(3, Raw("1e400")), "the number 1e400 is too large"),
    ("a move negative", lambda d: d["moves"].__setitem__(3, -1), "`moves[3]` must be at least 0, not -1"),
    ("a move a decimal", lambda d: d["moves"].__setitem__(3, 2.0), "`moves[3]` must be a whole number, not the "
                                                                   "decimal 2.0"),
    ("a move beyond every action", lambda d: d["moves"].__setitem__(3, 10 ** 60), "move 4 is not legal"),
    ("a move after the end", lambda d: d["moves"].extend([0] * 500), "is not legal in the game it describes"),
    ("moves a mapping", lambda d: d.update(moves={}), "`moves` must be a list, not a mapping"),
    ("moves missing", lambda d: d.pop("moves"), "`moves` is missing"),
    ("state edited", lambda d: d["state"]["vars"].__setitem__(-1, 99), "its state does not follow from its moves"),
    ("state a list", lambda d: d.update(state=[]), "`state` must be a mapping, not a list"),
    ("format from the future", lambda d: d.update(format="koloda-save/9"),
     'its format "koloda-save/9" is not one this version of koloda reads'),
    ("format of something else", lambda d: d.update(format="something-else"), "it is not a koloda save"),
    ("a list, not a mapping", lambda d: Whole([d]), "it is not a koloda save"),
]


@pytest.mark.parametrize("change, message", [c[1:] for c in SAVE_CASES], ids=[c[0] for c in SAVE_CASES])
def test_a_tampered_save(tmp_path, save_text, change, message):
    data = json.loads(save_text)
    replaced = change(data)
    path = tmp_path / "s.save.json"
    path.write_text(dumps(replaced.data if isinstance(replaced, Whole) else data), encoding="utf-8")
    refused(path, "save", message)


# ---------------------------------------------------------------- the rest of a transcript
def _set(line: int, **fields: object) -> Callable[[list[str]], object]:
    def change(lines: list[str]) -> None:
        record = json.loads(lines[line - 1])
        record.update(fields)
        lines[line - 1] = dumps(record)
    return change


def _flip_player(lines: list[str]) -> None:
    record = json.loads(lines[1])
    record["player"] = 1 - record["player"]
    lines[1] = json.dumps(record)


TRANSCRIPT_CASES: list[tuple[str, Callable[[list[str]], object], str]] = [
    ("a move number 1e400", _set(2, n=Raw("1e400")), "line 2: the number 1e400 is too large"),
    ("an action 1e400", _set(3, action=Raw("1e400")), "line 3: the number 1e400 is too large"),
    ("a move numbered out of turn", _set(3, n=5), "line 3 is numbered move 5, but it is move 2"),
    ("an action negative", _set(2, action=-3), "line 2: `action` must be at least 0, not -3"),
    ("a move's text changed", _set(6, text="play A♠"), 'move 5 ("play A♠") is not what these rules allow here'),
    ("a move by the other player", _flip_player, "move 1 is by P"),
    ("a move with a key too many", _set(2, cheat=1), 'line 2: it has a key "cheat" it should not'),
    ("a move line a list", lambda lines: lines.__setitem__(1, "[1, 2]"), "line 2 is not a `move` or `end` record"),
    ("an unknown record", lambda lines: lines.insert(2, '{"type": "chat"}'), "line 3 is not a `move` or `end` record"),
    ("a second game", lambda lines: lines.insert(3, lines[0]), "line 4 starts another game"),
    ("the last move removed", lambda lines: lines.pop(-2), "moves are missing or were added"),
    ("a move added before the end", lambda lines: lines.insert(-1, json.dumps(
        {**json.loads(lines[-2]), "n": len(lines) - 1})), "move 230 comes after the game is over"),
    ("an end record in the middle", lambda lines: lines.insert(10, lines[-1]),
     "line 12 comes after the end record on line 11, which must be the last"),
    ("two end records", lambda lines: lines.append(lines[-1]), "comes after the end record"),
    ("scores changed", lambda lines: _set(len(lines), scores=[0, 0])(lines), "but the transcript says [0, 0]"),
    ("returns changed", lambda lines: _set(len(lines), returns=[0.5, 0.5])(lines), "but the transcript says [0.5, "),
    ("digest changed", lambda lines: _set(len(lines), digest="0" * 64)(lines),
     "the digest in its end record does not match its setup and moves"),
    ("digest missing", lambda lines: lines.__setitem__(-1, json.dumps(
        {k: v for k, v in json.loads(lines[-1]).items() if k != "digest"})), "`digest` is missing"),
    ("first line a move", lambda lines: lines.pop(0), "it is not a koloda transcript"),
    ("format from the future", _set(1, format="koloda-transcript/9"),
     'its format "koloda-transcript/9" is not one this version of koloda reads'),
]


@pytest.mark.parametrize("change, message", [c[1:] for c in TRANSCRIPT_CASES], ids=[c[0] for c in TRANSCRIPT_CASES])
def test_a_tampered_transcript(tmp_path, transcript_lines, change, message):
    lines = list(transcript_lines)
    change(lines)
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused(path, "transcript", message)


def test_a_transcript_cut_before_its_last_move_with_its_end_mended(tmp_path, transcript_lines, game_over):
    """The count and digest rewritten to fit: the replay still finds the game is not over."""
    short = game_over.restarted()
    for action in game_over.moves[:-1]:
        short.play(action)
    end = json.loads(transcript_lines[-1])
    end.update(moves=len(short.moves), digest=short.digest())
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(transcript_lines[:-2] + [json.dumps(end)]) + "\n", encoding="utf-8")
    refused(path, "transcript", f"its end record says the game is over, but after its {len(short.moves)} moves "
                                "it is not: moves are missing")


def test_a_whole_transcript_replays(tmp_path, transcript_lines, game_over):
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(transcript_lines) + "\n", encoding="utf-8")
    replay = read_transcript(path)
    assert [m["action"] for m in replay.moves] == game_over.moves and replay.session.moves == []
    result = CliRunner().invoke(main, ["replay", "-q", str(path)])
    assert result.exit_code == 0 and "same moves, same scores" in result.output


def test_a_transcript_in_the_first_format_still_replays(tmp_path, transcript_lines):
    """koloda-transcript/1, written before end records carried a count and digest."""
    header = json.loads(transcript_lines[0])
    header["format"] = "koloda-transcript/1"
    end = {k: v for k, v in json.loads(transcript_lines[-1]).items() if k in ("type", "scores", "returns")}
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join([json.dumps(header)] + transcript_lines[1:-1] + [json.dumps(end)]) + "\n")
    result = CliRunner().invoke(main, ["replay", "-q", str(path)])
    assert result.exit_code == 0 and "same moves, same scores" in result.output
    # and its end record, without a count, still has to agree with the moves
    path.write_text("\n".join([json.dumps(header)] + transcript_lines[1:-2] + [json.dumps(end)]) + "\n")
    refused(path, "transcript", "its end record says the game is over, but after its")


# ---------------------------------------------------------------- files that are not JSON, or not within bounds
def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


FILE_CASES: list[tuple[str, str, Callable[[str], bytes], str]] = [
    ("save", "nested 100,000 deep", lambda text: _deep(100_000).encode(), "it is nested more than 32 deep"),
    ("save", "nested 100,000 deep inside", lambda text: text.replace('"state": {', '"deep": ' + _deep(100_000)
                                                                     + ', "state": {').encode(),
     "it is nested more than 32 deep"),
    ("transcript", "a line nested 100,000 deep", lambda text: text.replace('"text": "', '"deep": ' + _deep(100_000)
                                                                           + ', "text": "', 1).encode(),
     "line 2 is nested more than 32 deep"),
    ("save", "not UTF-8", lambda text: text.encode().replace(b'"seats"', b'"se\xffats"'),
     "it is not UTF-8 text (byte 0xff on line 1)"),
    ("transcript", "not UTF-8", lambda text: text.encode().replace(b'"n": 3', b'"n": 3\xc3'),
     "it is not UTF-8 text (byte 0xc3 on line 4)"),
    ("save", "a key twice", lambda text: text.replace('"seed": ', '"seed": 1, "seed": ').encode(),
     'is not a valid save: the key "seed" is given twice'),
    ("save", "empty", lambda text: b"", "it is empty"),
    ("save", "only spaces", lambda text: b" \n\t ", "it is empty"),
    ("transcript", "empty", lambda text: b"\n\n", "it is empty"),
    ("save", "cut short", lambda text: text[:200].encode(), "it is not JSON, or it was cut short"),
    ("transcript", "cut short", lambda text: text[:-20].encode(), "is not JSON, or it was cut short"),
    ("save", "larger than 8 MB", lambda text: text.encode() + b" " * (8 * 1024 * 1024), "it is larger than 8 MB"),
    ("save", "200,001 lists", lambda text: text.replace('"state": {', '"many": [' + "[]," * 200_001 + '[]], '
                                                        '"state": {').encode(),
     "it holds more than 200,000 lists and mappings"),
    ("save", "binary", lambda text: bytes(range(256)), "it is not UTF-8 text"),
]


@pytest.mark.parametrize("kind, make, message", [(c[0], *c[2:]) for c in FILE_CASES],
                         ids=[f"{c[0]}: {c[1]}" for c in FILE_CASES])
def test_a_file_that_is_not_json_within_bounds(tmp_path, save_text, transcript_lines, kind, make, message):
    path = tmp_path / ("s.save.json" if kind == "save" else "t.jsonl")
    path.write_bytes(make(save_text if kind == "save" else "\n".join(transcript_lines) + "\n"))
    refused(path, kind, message)


@pytest.mark.parametrize("kind", ["save", "transcript"])
def test_a_folder_or_a_pipe_is_refused(tmp_path, kind):
    folder = tmp_path / "folder"
    folder.mkdir()
    refused(folder, kind, "it is a folder")
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe"
        os.mkfifo(pipe)
        refused(pipe, kind, "it is not a regular file")      # refused, not waited on


# ---------------------------------------------------------------- any byte changed
@pytest.mark.parametrize("kind", ["save", "transcript"])
def test_any_single_byte_changed_is_loaded_or_refused(tmp_path, save_text, transcript_lines, kind):
    """A sample of files with one byte changed: each loads (a change that does not matter, such as a
    space) or is refused with a SaveError, never another exception."""
    original = (save_text if kind == "save" else "\n".join(transcript_lines) + "\n").encode()
    rng = random.Random(1)
    path = tmp_path / ("s.save.json" if kind == "save" else "t.jsonl")
    for _ in range(40):
        changed = bytearray(original)
        changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(changed))
        try:
            (Session.load if kind == "save" else read_transcript)(path)
        except SaveError:
            pass
