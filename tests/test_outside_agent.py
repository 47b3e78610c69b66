"""Agents from outside: programs that play a seat over JSON lines (docs/ai.md), and how each way
a program can fail is told."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
from koloda.agents.outside import AgentFailure, OutsideAgent
from koloda.agents.registry import UnknownAgent, make_agent, parse_seat
from koloda.cli.main import main
from koloda.sim import simulate

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "random_bot.py"
PYTHON = shlex.quote(sys.executable)


def seat(script: Path, time: float | None = None) -> str:
    timing = f"time={time}:" if time is not None else ""
    return f"cmd:{timing}{PYTHON} {shlex.quote(str(script))}"


def bot(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bot.py"
    path.write_text("import json, sys, time\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize("rules", ["kunkin", "canasta"])
def test_the_example_bot_plays_a_whole_match(rules):
    result = simulate(koloda.load(rules), 1, seed=3, seats=[seat(EXAMPLE)])
    assert result.finished == 1 and not result.failures
    assert sum(result.wins) == pytest.approx(koloda.load(rules).num_players / koloda.load(rules).num_sides)


def test_the_program_is_told_the_game_and_each_move(tmp_path):
    log = tmp_path / "seen.jsonl"
    script = bot(tmp_path, f"""
out = open({str(log)!r}, "w", encoding="utf-8")
for line in sys.stdin:
    message = json.loads(line)
    out.write(line)
    out.flush()
    if message["type"] == "move":
        print(json.dumps({{"text": message["legal"][-1]["text"]}}), flush=True)
""")
    game = koloda.load("pony")
    state = game.new_initial_state(seed=2)
    agent = make_agent(seat(script), 0)
    legal = state.legal_actions()
    assert agent.choose(state) == legal[-1]          # a move given by its text
    state.apply_action(legal[-1])
    while state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    agent.choose(state)
    agent.close()
    start, first, second = (json.loads(line) for line in log.read_text(encoding="utf-8").splitlines())
    assert start == {"type": "start", "protocol": "koloda-agent/1", "game": "pony", "title": "Pony", "players": 2,
                     "seat": 0, "options": game.options, "time": 10.0}
    assert first["seat"] == 0 and [m["id"] for m in first["legal"]] == legal
    assert first["legal"][0]["text"] == game.action_to_string(legal[0])
    assert first["legal"][0]["plain"] == game.action_to_string(legal[0], plain=True)
    hand = next(z for z in first["observation"]["zones"] if z["zone"] == "hand" and z["owner"] == 0)
    other = next(z for z in first["observation"]["zones"] if z["zone"] == "hand" and z["owner"] == 1)
    assert len(hand["cards"]) == 5 and "cards" not in other      # its own hand, not the other's
    assert second["type"] == "move" and second["observation"]["history"]


# a bot's loop that answers each move request (and not the start message) with what follows
ON_MOVE = "for line in sys.stdin:\n  if json.loads(line)['type'] == 'move':\n    "


@pytest.mark.parametrize("body, message", [
    ("sys.stderr.write('no model file found\\n'); sys.exit(3)", r"ended \(exit code 3\).*no model file found"),
    (ON_MOVE + "print(flush=True)\n    print('e4', flush=True)", r"answered `e4`, which is not a JSON line"),
    (ON_MOVE + "print(json.dumps({'move': 99999}), flush=True)", r"move 99999, which is not one of the legal ids"),
    (ON_MOVE + "print(json.dumps({'move': 'two'}), flush=True)", r"the answer is \{\"move\": ID\}"),
    (ON_MOVE + "print(json.dumps({'text': 'fly away'}), flush=True)", r"`\{\"text\": \"fly away\"\}`, which is not a legal move"),
])
def test_a_failing_program_is_told_plainly(tmp_path, body, message):
    agent = make_agent(seat(bot(tmp_path, body)), 0)
    state = koloda.load("pony").new_initial_state(seed=1)
    with pytest.raises(AgentFailure, match=message):
        agent.choose(state)
    assert isinstance(agent, OutsideAgent)
    agent.close()
    assert agent.process is not None and agent.process.poll() is not None     # nothing left running


def test_a_program_that_does_not_answer_in_time(tmp_path):
    # the first answer has 30 seconds more (to load a model, say); the others `time` seconds
    slow = bot(tmp_path, """
for n, line in enumerate(sys.stdin):
    message = json.loads(line)
    if message["type"] == "move":
        time.sleep(0.5 if n == 1 else 5)
        print(json.dumps({"move": message["legal"][0]["id"]}), flush=True)
""")
    agent = make_agent(seat(slow, time=0.3), 0)
    state = koloda.load("pony").new_initial_state(seed=1)
    assert agent.choose(state) == state.legal_actions()[0]
    with pytest.raises(AgentFailure, match="P1's program .* did not answer within 0.3 seconds"):
        agent.choose(state)
    agent.close()
    assert agent.process is not None and agent.process.poll() is not None


def test_a_program_that_cannot_start():
    with pytest.raises(AgentFailure, match="cannot start `no-such-program-here --fast`"):
        make_agent("cmd:no-such-program-here --fast", 0).choose(koloda.load("pony").new_initial_state())


def test_seat_descriptions_of_programs():
    assert parse_seat("cmd:python my_bot.py") == ("cmd", {"command": "python my_bot.py", "seconds": 10.0})
    assert parse_seat("cmd:time=2.5:python my_bot.py --fast") == (
        "cmd", {"command": "python my_bot.py --fast", "seconds": 2.5})
    for bad, why in [("cmd:", "needs the command"), ("cmd:time=soon:python b.py", "number of seconds"),
                     ("cmd:time=0:python b.py", "from 0.001 to 3,600")]:
        with pytest.raises(UnknownAgent, match=why):
            parse_seat(bad)
    with pytest.raises(UnknownAgent, match="does not start programs"):
        parse_seat("cmd:python b.py", commands=False)


def test_the_command_line_says_what_went_wrong(tmp_path):
    crash = seat(bot(tmp_path, "raise SystemExit('out of memory')"))
    for args in (["simulate", "pony", "-n", "2", "--seat", crash],
                 ["play", "pony", "--fast", "--seat", crash, "--seat", "random"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0
        assert "Traceback" not in result.output and "out of memory" in result.output
        assert "P1's program" in result.output
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "2", "--seat", "cmd:"])
    assert result.exit_code != 0 and "needs the command" in result.output


def test_a_save_does_not_start_programs(tmp_path):
    save = tmp_path / "game.save.json"
    result = CliRunner().invoke(main, ["play", "pony", "--fast", "--seed", "1", "--max-moves", "4", "--save", str(save),
                                       "--seat", seat(EXAMPLE), "--seat", "random"])
    assert result.exit_code != 0 and save.exists()       # stopped by --max-moves, saved
    result = CliRunner().invoke(main, ["resume", str(save), "--fast"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "seat 1" in result.output and "does not start programs" in result.output


def test_simulate_reports_a_program_s_seat_on_one_line():
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "1", "--seat", seat(EXAMPLE)])
    assert result.exit_code == 0, result.output
    # the report's heading names the program whole, however long its command
    row = next(line for line in result.output.splitlines() if line.startswith("seats: "))
    assert f"P1 {seat(EXAMPLE)}, P2 random" in row, row


def test_a_game_with_a_program_replays_from_its_transcript(tmp_path):
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", "pony", "--fast", "--seed", "3", "--log", str(log),
                                       "--seat", seat(EXAMPLE), "--seat", "random"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["replay", "-q", str(log)])
    assert result.exit_code == 0 and "same moves, same scores" in result.output
