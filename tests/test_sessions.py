"""Saved games, resume, transcripts and replays: a game in progress is never lost."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
from koloda.agents.random_agent import RandomAgent
from koloda.cli.main import main
from koloda.session import SaveError, Session, read_transcript

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, env=None):
    result = CliRunner(env=env).invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def bot_session(name: str, seed: int, moves: int | None = None, **options) -> Session:
    game = koloda.load(name, options or None)
    session = Session.start(name, game, ["random"] * game.num_players, seed)
    bots = [RandomAgent(seed * 10 + p) for p in range(game.num_players)]
    while not session.state.is_terminal() and (moves is None or len(session.moves) < moves):
        session.play(bots[session.state.current_player()].choose(session.state))
    return session


def write_transcript(session: Session, path: Path) -> None:
    """The transcript `play --log` writes, rebuilt from a finished session's moves."""
    fresh = Session.start(session.game_ref, session.game, session.seats, session.seed, session.deck)
    lines = [fresh.transcript_header()]
    for action in session.moves:
        player = fresh.state.current_player()
        fresh.play(action)
        lines.append(fresh.transcript_move(player, action))
    if fresh.state.is_terminal():
        lines.append(fresh.transcript_end())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- saves
def test_save_and_load_continue_the_same_game(tmp_path):
    session = bot_session("pony", seed=4, moves=37)
    path = tmp_path / "g.save.json"
    session.save(path)
    again = Session.load(path)
    assert again.moves == session.moves
    assert again.state.to_json() == session.state.to_json()
    # both go on identically
    a, b = RandomAgent(1), RandomAgent(1)
    for _ in range(30):
        if session.state.is_terminal():
            break
        x, y = a.choose(session.state), b.choose(again.state)
        assert x == y
        session.play(x)
        again.play(y)
    assert again.state.to_json() == session.state.to_json()


def test_save_is_atomic_no_temporary_file_left(tmp_path):
    session = bot_session("peklo", seed=2, moves=10, deal_size=3)
    path = tmp_path / "a.save.json"
    for _ in range(3):
        session.save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["a.save.json"]


@pytest.mark.parametrize("content, message", [
    ("", "not a koloda save"),
    ("{not json", "not a koloda save"),
    ('{"format": "something-else"}', "is not a koloda save"),
    ('[1, 2, 3]', "is not a koloda save"),
])
def test_foreign_or_corrupt_saves_are_refused(tmp_path, content, message):
    path = tmp_path / "bad.save.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SaveError, match=message):
        Session.load(path)
    result = cli("resume", str(path))
    assert result.exit_code == 1
    assert message in result.output


def _saved(tmp_path, **change):
    session = bot_session("pony", seed=8, moves=20)
    path = tmp_path / "s.save.json"
    session.save(path)
    data = json.loads(path.read_text())
    for key, value in change.items():
        data[key] = value(data[key]) if callable(value) else value
    path.write_text(json.dumps(data))
    return path


def test_a_save_cut_short_is_reported(tmp_path):
    path = _saved(tmp_path)
    path.write_text(path.read_text()[:200])
    result = cli("resume", str(path))
    assert result.exit_code == 1 and "cut short" in result.output


def test_a_tampered_state_is_reported(tmp_path):
    def tamper(state):
        state["vars"][-1] = 99
        return state
    path = _saved(tmp_path, state=tamper)
    with pytest.raises(SaveError, match="does not follow from its moves"):
        Session.load(path)


def test_an_illegal_move_in_a_save_is_reported(tmp_path):
    path = _saved(tmp_path, moves=lambda moves: moves[:5] + [10_000_000] + moves[5:])
    with pytest.raises(SaveError, match="move 6 is not legal"):
        Session.load(path)


def test_a_save_from_other_rules_is_refused(tmp_path):
    path = _saved(tmp_path, fingerprint="0123456789abcdef")
    result = cli("resume", str(path))
    assert result.exit_code == 1
    assert "different version of the rules of `pony`" in result.output


def test_a_save_missing_its_moves_is_damaged(tmp_path):
    path = _saved(tmp_path)
    data = json.loads(path.read_text())
    del data["moves"]
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="damaged"):
        Session.load(path)


def test_resume_a_finished_game_says_so(tmp_path):
    session = bot_session("peklo", seed=1, deal_size=2)
    path = tmp_path / "done.save.json"
    session.save(path)
    result = cli("resume", str(path))
    assert result.exit_code == 1 and "is over" in result.output


def test_resume_without_saves(tmp_path):
    result = cli("resume", env={"KOLODA_HOME": str(tmp_path / "empty")})
    assert result.exit_code == 1 and "no saved game" in result.output


def test_kill_during_autosave_loses_at_most_the_last_move(tmp_path):
    """SIGKILL at random moments while bots play and save after every move: the file left
    behind is always a whole save, and it holds every move the transcript (written just after
    each save) had recorded, and at most one more."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KOLODA_HOME=str(tmp_path))
    rng = random.Random(5)
    for k in range(4):
        path = tmp_path / f"kill{k}.save.json"
        log = tmp_path / f"kill{k}.jsonl"
        proc = subprocess.Popen([sys.executable, "-m", "koloda.cli.main", "play", "peklo", "--seat", "random",
                                 "--seat", "random", "--seat", "random", "--seed", str(k), "--save", str(path),
                                 "--log", str(log), "--fast"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.time() + 20
        while not path.exists() and time.time() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        session = Session.load(path)          # whole and consistent, or this raises
        logged = sum(1 for line in log.read_text().splitlines() if '"type": "move"' in line)
        assert logged <= len(session.moves) <= logged + 1
        leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        for p in leftovers:                   # a torn temporary file is never the save itself
            p.unlink()


# ---------------------------------------------------------------- transcripts
def test_replay_of_100_seeded_games_equals_their_transcripts(tmp_path):
    for seed in range(100):
        name, options = ("pony", {}) if seed % 2 else ("peklo", {"deal_size": 1 + seed % 5})
        session = bot_session(name, seed, **options)
        path = tmp_path / f"t{seed}.jsonl"
        write_transcript(session, path)
        rec = read_transcript(path)
        for move in rec.moves:
            rec.session.play(int(move["action"]))
        assert rec.session.state.to_json() == session.state.to_json()
        assert rec.end["scores"] == session.state.scores()
    result = cli("replay", "-q", str(tmp_path / "t7.jsonl"))
    assert result.exit_code == 0 and "same moves, same scores" in result.output


def test_play_log_replays_exactly(tmp_path):
    log = tmp_path / "game.jsonl"
    result = cli("play", "pony", "--seat", "random", "--seat", "greedy", "--seed", "11", "--log", str(log),
                 "--save", str(tmp_path / "g.save.json"), "--fast")
    assert result.exit_code == 0, result.output
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "game" and json.loads(lines[-1])["type"] == "end"
    replayed = cli("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert "same moves, same scores" in replayed.output


def test_a_transcript_from_other_rules_is_detected(tmp_path):
    session = bot_session("pony", seed=3)
    path = tmp_path / "t.jsonl"
    write_transcript(session, path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["fingerprint"] = "ffffffffffffffff"
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    result = cli("replay", str(path))
    assert result.exit_code == 1
    assert "different version of the rules" in result.output


def test_a_transcript_with_a_changed_move_is_detected(tmp_path):
    session = bot_session("pony", seed=6)
    path = tmp_path / "t.jsonl"
    write_transcript(session, path)
    lines = path.read_text().splitlines()
    move = json.loads(lines[5])
    move["text"] = "play A♠ (never played)"
    lines[5] = json.dumps(move)
    path.write_text("\n".join(lines) + "\n")
    result = cli("replay", "-q", str(path))
    assert result.exit_code == 1 and "move 5" in result.output


def test_a_transcript_with_other_scores_is_detected(tmp_path):
    session = bot_session("peklo", seed=6, deal_size=2)
    path = tmp_path / "t.jsonl"
    write_transcript(session, path)
    lines = path.read_text().splitlines()
    end = json.loads(lines[-1])
    end["scores"] = [s + 1 for s in end["scores"]]
    lines[-1] = json.dumps(end)
    path.write_text("\n".join(lines) + "\n")
    result = cli("replay", "-q", str(path))
    assert result.exit_code == 1 and "but the transcript says" in result.output


def test_not_a_transcript(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("hello\n")
    result = cli("replay", str(path))
    assert result.exit_code == 1 and "not a JSON line" in result.output


# ---------------------------------------------------------------- at a real terminal
pexpect = pytest.importorskip("pexpect")


def spawn(*args: str, home: Path):
    env = dict(os.environ, TERM="dumb", PYTHONPATH=str(ROOT), KOLODA_HOME=str(home))
    return pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", *args], encoding="utf-8", timeout=30, env=env,
                         cwd=str(ROOT))


def test_ctrl_c_saves_and_resume_finishes_the_game(tmp_path):
    save = tmp_path / "mine.save.json"
    child = spawn("play", "pony", "--seat", "human", "--seat", "random", "--seed", "21", "--fast", "-o", "limit=25",
                  "--save", str(save), home=tmp_path)
    child.expect("your move")
    child.sendline("play ZZ")                       # an invalid entry explains itself and asks again
    child.expect("is not a legal move")
    child.expect("your move")
    child.sendline("help")                          # the rule text of this step and the legal moves
    child.expect("Play one card that matches")
    child.expect("Legal moves")
    child.sendline("1")
    for _ in range(2):
        child.expect("your move")
        child.sendline("1")
    child.expect("your move")
    child.sendintr()
    child.expect("Game saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus is None
    made = len(Session.load(save).moves)
    assert made >= 3
    child = spawn("resume", str(save), "--fast", home=tmp_path)
    child.expect(f"after {made} moves")
    while child.expect(["your move", "Game over"]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert Session.load(save).state.is_terminal()


def test_quit_saves_and_resume_without_a_file_takes_the_last_save(tmp_path):
    child = spawn("play", "peklo", "--seat", "human", "--seat", "random", "--seat", "random", "--seed", "2",
                  "-o", "deal_size=2", "--fast", home=tmp_path)
    child.expect("your move")
    child.sendline("help")
    child.expect("Legal moves")
    child.expect("your move")
    child.sendline("bid 7")
    child.expect("is not a legal move")
    child.expect("your move")
    child.sendline("quit")
    child.expect("Game saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    child = spawn("resume", "--fast", home=tmp_path)
    child.expect("Resuming Oh Hell")
    while child.expect(["your move", "Game over"]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
