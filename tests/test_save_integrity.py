"""Saves and transcripts carry an integrity check (koloda/session/integrity.py): a file changed since
koloda wrote it — seats swapped, a seat's spelling or a bot's settings edited, moves and scores
edited to agree — is told from one koloda wrote; old files without a check still resume and
replay, saying so once."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.session import SaveError, Session, read_transcript
from koloda.session import integrity
from koloda.session.integrity import CHANGED, FOREIGN, SOUND, UNCHECKED

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """The state folder (the key's and the saves'), shared with the commands the test starts."""
    folder = tmp_path / "state"
    monkeypatch.setenv("KOLODA_HOME", str(folder))
    return folder


def saved(path: Path, seats: list[str], moves: int = 4, seed: int = 5) -> Path:
    session = Session.start("pony", koloda.load("pony"), seats, seed)
    for _ in range(moves):
        session.play(session.state.legal_actions()[0])
    session.save(path)
    return path


def edited(path: Path, change) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def resume(path: Path, *more: str):
    return CliRunner().invoke(main, ["resume", str(path), "--fast", *more], input="quit\n")


def test_a_save_koloda_wrote_is_sound_and_keyed(home, tmp_path):
    path = saved(tmp_path / "g.save.json", ["human", "random"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "koloda-save/2" and data["check"]["method"] == "hmac-sha256"
    assert Session.load(path).integrity.status == SOUND
    key = integrity.key_path()
    assert key.parent == home and oct(key.stat().st_mode & 0o777) == "0o600"
    result = resume(path)
    assert result.exit_code == 0 and "changed after" not in result.output and "integrity" not in result.output


@pytest.mark.parametrize("seats, change, told", [
    (["human", "random"], lambda d: d.update(seats=["random", "human"]),
     ['P1 is "random", which sat at P2 when it was written', 'P2 is "human", which sat at P1 when it was written']),
    (["human", "random"], lambda d: d["seats"].__setitem__(0, "Human"),
     ['P1 is "Human", which is not the seat it was written with']),
    (["human", "ismcts:iterations=30"], lambda d: d["seats"].__setitem__(1, "ismcts:iterations=31"),
     ['P2 is "ismcts:iterations=31", which is not the seat it was written with']),
], ids=["swapped", "case", "settings"])
def test_edited_seats_are_told_and_not_resumed_unasked(home, tmp_path, seats, change, told):
    path = edited(saved(tmp_path / "g.save.json", seats), change)
    verdict = Session.load(path).integrity
    assert verdict.status == CHANGED and verdict.changes == told
    result = resume(path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "was changed after koloda saved it" in result.output and told[0] in result.output
    assert "--accept-edited" in result.output
    accepted = resume(path, "--accept-edited")
    assert accepted.exit_code == 0 and "Resuming Pony" in accepted.output, accepted.output
    assert Session.load(path).integrity.status == SOUND          # saved again as it is now, with its check


def test_moves_and_state_edited_to_agree_are_told(home, tmp_path):
    path = saved(tmp_path / "g.save.json", ["human", "random"])
    other = Session.start("pony", koloda.load("pony"), ["human", "random"], 5)
    for _ in range(4):
        other.play(other.state.legal_actions()[-1])
    forged = json.loads(path.read_text(encoding="utf-8"))
    forged.update(moves=other.moves, state=other.state.to_json())      # a game the rules allow, not this one
    path.write_text(json.dumps(forged), encoding="utf-8")
    verdict = Session.load(path).integrity
    assert verdict.status == CHANGED and verdict.changes == ["its game (its setup, moves or state) is not as koloda "
                                                             "wrote it"]
    assert resume(path).exit_code == 1


def test_an_old_save_without_a_check_resumes_and_says_so_once(home, tmp_path):
    def old(d: dict) -> None:
        d["format"] = "koloda-save/1"
        del d["check"]
    path = edited(saved(tmp_path / "g.save.json", ["human", "random"]), old)
    assert Session.load(path).integrity.status == UNCHECKED
    first = resume(path)
    assert first.exit_code == 0 and "carries no integrity check" in first.output
    again = resume(path)               # saved with a check when it was resumed
    assert again.exit_code == 0 and "integrity check" not in again.output
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "koloda-save/2"


def test_a_new_save_without_its_check_is_refused(home, tmp_path):
    path = edited(saved(tmp_path / "g.save.json", ["human", "random"]), lambda d: d.pop("check"))
    result = resume(path)
    assert result.exit_code == 1 and "`check` is missing" in result.output


def test_a_save_checked_with_another_key_resumes_saying_it_cannot_be_checked(home, tmp_path, monkeypatch):
    path = saved(tmp_path / "g.save.json", ["human", "random"])
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "elsewhere"))        # another machine's state folder
    assert Session.load(path).integrity.status == FOREIGN
    assert not integrity.key_path().exists()          # reading a save makes no key
    result = resume(path)
    assert result.exit_code == 0 and "made with another key" in result.output


def test_where_no_key_can_be_kept_the_check_is_a_plain_digest(home, tmp_path):
    integrity.key_path().mkdir(parents=True)          # the key's place is taken: no key can be read or made
    path = saved(tmp_path / "g.save.json", ["human", "random"])
    assert json.loads(path.read_text(encoding="utf-8"))["check"]["method"] == "sha256"
    assert Session.load(path).integrity.status == SOUND
    edited(path, lambda d: d["seats"].reverse())
    assert Session.load(path).integrity.status == CHANGED


def test_at_a_terminal_an_edited_save_asks_first(home, tmp_path, pexpect):
    path = edited(saved(tmp_path / "g.save.json", ["human", "random"]), lambda d: d["seats"].reverse())
    env = dict(os.environ, TERM="dumb", PYTHONPATH=str(ROOT), KOLODA_HOME=str(home))
    for answer, status in (("n", 1), ("y", 0)):
        child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "resume", str(path), "--fast"],
                              encoding="utf-8", timeout=60, env=env, cwd=str(ROOT))
        child.expect("which sat at P2")
        child.expect(r"Go on with the game as the file has it now\?")
        child.sendline(answer)
        if answer == "y":
            child.expect("Resuming Pony")
            child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == status


# ------------------------------------------------------------ transcripts
def logged(path: Path, *seats: str, seed: int = 3) -> list[str]:
    args = ["play", "pony", "--fast", "--seed", str(seed), "--log", str(path)]
    for seat in seats:
        args += ["--seat", seat]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return path.read_text(encoding="utf-8").splitlines()


def replay(path: Path, lines: list[str]):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return CliRunner().invoke(main, ["replay", "-q", str(path)])


def test_a_transcript_koloda_wrote_replays_checked(home, tmp_path):
    lines = logged(tmp_path / "a.jsonl", "random", "random")
    assert json.loads(lines[0])["check"]["method"] == "hmac-sha256" and "check" in json.loads(lines[-1])
    result = CliRunner().invoke(main, ["replay", "-q", str(tmp_path / "a.jsonl")])
    assert result.exit_code == 0 and "same moves, same scores" in result.output
    assert "integrity" not in result.output and "another key" not in result.output


def test_a_forged_transcript_with_moves_and_scores_that_agree_is_refused(home, tmp_path):
    genuine = logged(tmp_path / "a.jsonl", "random", "random")
    other = logged(tmp_path / "b.jsonl", "greedy", "random")       # the same seed, other moves, other scores
    assert genuine[1:] != other[1:]
    forged = [genuine[0], *other[1:]]          # moves, count, scores and plain digest all agree with the setup
    result = replay(tmp_path / "forged.jsonl", forged)
    assert result.exit_code == 1 and "same moves" not in result.output
    assert "the record of its moves and result is not as koloda wrote it" in result.output
    end = json.loads(forged[-1])
    del end["check"]
    result = replay(tmp_path / "forged.jsonl", forged[:-1] + [json.dumps(end)])
    assert result.exit_code == 1 and "`check` is missing" in result.output


def test_a_transcript_with_its_seats_swapped_is_refused(home, tmp_path):
    lines = logged(tmp_path / "a.jsonl", "greedy", "random")
    header = json.loads(lines[0])
    header["seats"].reverse()
    result = replay(tmp_path / "t.jsonl", [json.dumps(header), *lines[1:]])
    assert result.exit_code == 1 and 'P1 is "random", which sat at P2' in result.output
    cut = replay(tmp_path / "t.jsonl", [json.dumps(header), *lines[1:-1]])       # cut short: the first line's check
    assert cut.exit_code == 1 and "which sat at P2" in cut.output


def test_an_old_transcript_without_checks_replays_and_says_so(home, tmp_path):
    lines = logged(tmp_path / "a.jsonl", "random", "random")
    header, end = json.loads(lines[0]), json.loads(lines[-1])
    header["format"] = "koloda-transcript/2"
    del header["check"], end["check"]
    result = replay(tmp_path / "old.jsonl", [json.dumps(header), *lines[1:-1], json.dumps(end)])
    assert result.exit_code == 0 and "same moves, same scores" in result.output
    assert "carries no integrity check" in result.output


def test_a_transcript_from_another_key_replays_saying_it_cannot_be_checked(home, tmp_path, monkeypatch):
    lines = logged(tmp_path / "a.jsonl", "random", "random")
    monkeypatch.setenv("KOLODA_HOME", str(tmp_path / "elsewhere"))
    result = replay(tmp_path / "a.jsonl", lines)
    assert result.exit_code == 0 and "made with another key" in result.output


def test_an_old_transcript_finished_by_this_koloda_reads_whole(home, tmp_path):
    """`koloda resume --log` goes on writing a transcript an earlier koloda began: its end record's
    check covers the setup whatever the first line's format."""
    session = Session.start("pony", koloda.load("pony"), ["random", "random"], 4)
    header = json.loads(session.transcript_header())
    header["format"] = "koloda-transcript/2"
    del header["check"]
    lines = [json.dumps(header)]
    while not session.state.is_terminal():
        player = session.state.current_player()
        session.play(session.state.legal_actions()[0])
        lines.append(session.transcript_move(player, session.moves[-1]))
    lines.append(session.transcript_end())
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_transcript(path).integrity.status == UNCHECKED          # its first line has no check
    first = dict(header, seats=["greedy", "random"])                    # not the seats it was played with
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(SaveError, match="the record of its moves and result is not as koloda wrote it"):
        read_transcript(path)


def test_a_transcript_goes_on_with_the_seats_of_a_save_accepted_as_edited(home, tmp_path):
    """`koloda resume --accept-edited --log` goes on writing a transcript begun with other seats: the
    change is a line of its own, so the transcript replays checked, and without that line it does not."""
    session = Session.start("pony", koloda.load("pony"), ["random", "random"], 6)
    lines = [session.transcript_header()]
    for _ in range(4):
        player = session.state.current_player()
        session.play(session.state.legal_actions()[0])
        lines.append(session.transcript_move(player, session.moves[-1]))
    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = edited(saved(tmp_path / "g.save.json", ["random", "random"], seed=6),
                  lambda d: d.update(seats=["greedy", "random"]))
    result = resume(path, "--accept-edited", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "records other seats (random, random)" in result.output
    written = log.read_text(encoding="utf-8").splitlines()
    change = json.loads(written[5])
    assert written[:5] == lines and change["type"] == "seats" and change["after"] == 4
    assert change["was"] == ["random", "random"] and change["seats"] == ["greedy", "random"]
    assert json.loads(written[-1])["type"] == "end"
    replayed = CliRunner().invoke(main, ["replay", "-q", str(log)])
    assert replayed.exit_code == 0 and "same moves, same scores" in replayed.output, replayed.output
    assert read_transcript(log).integrity.status == SOUND
    hidden = replay(tmp_path / "hidden.jsonl", written[:5] + written[6:])
    assert hidden.exit_code == 1 and "the record of its moves and result is not as koloda wrote it" in hidden.output
    forged = replay(tmp_path / "forged.jsonl", [*written[:5], json.dumps({**change, "seats": ["random", "greedy"]}),
                                                *written[6:]])
    assert forged.exit_code == 1 and "changed after koloda wrote it" in forged.output
    moved = replay(tmp_path / "moved.jsonl", [*written[:4], written[5], written[4], *written[6:]])
    assert moved.exit_code == 1 and "changes the seats after move 4, but it comes after move 3" in moved.output
