"""Programs playing a seat that misbehave at the edges of the protocol (docs/ai.md): each is stopped
in one clear line, within its time, and nothing it started is left running."""
from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import koloda
from koloda.agents import outside
from koloda.agents.outside import AgentFailure, OutsideAgent
from koloda.interpreter.core.state import State

PYTHON = shlex.quote(sys.executable)
HANG = 60.0           # seconds: only a hang takes this long
ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table in /proc")


@pytest.fixture(autouse=True)
def _no_startup_time(monkeypatch):
    """The first answer's extra time (to load a model) would make each failing bot wait 30 seconds."""
    monkeypatch.setattr(outside, "STARTUP_SECONDS", 0.0)


def bot(tmp_path: Path, body: str, name: str = "bot.py") -> Path:
    path = tmp_path / name
    path.write_text("import json, os, subprocess, sys, time\n" + body, encoding="utf-8")
    return path


def agent_for(script: Path, seconds: float = 5.0) -> OutsideAgent:
    return OutsideAgent(f"{PYTHON} {shlex.quote(str(script))}", seconds)


def within(call: Callable[[], Any], seconds: float = HANG) -> Any:
    """`call()` in a thread, its result or its exception; a call that hangs fails the test instead."""
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(("value", call()))
        except BaseException as exc:      # handed to the test
            result.append(("error", exc))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"still running after {seconds:g} seconds: it hangs"
    kind, value = result[0]
    if kind == "error":
        raise value
    return value


def failure(agent: OutsideAgent, state: State) -> str:
    with pytest.raises(AgentFailure) as caught:
        within(lambda: agent.choose(state))
    message = str(caught.value)
    assert "\n" not in message and message.startswith("P1's program")
    return message


def gone(pid: int) -> bool:
    """No process `pid`, or only its exit status waiting to be collected (a zombie runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            text = f.read()
    except OSError:
        return True
    return text[text.rfind(")") + 2:].split()[0] in ("Z", "X")


def wait_until(condition: Callable[[], bool], seconds: float = HANG) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def group_gone(agent: OutsideAgent) -> bool:
    assert agent.process is not None
    pid = agent.process.pid
    return gone(pid) and all(gone(int(p)) for p in os.listdir("/proc") if p.isdigit() and _session(p) == pid)


def _session(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    return int(text[text.rfind(")") + 2:].split()[3])


def pony() -> State:
    return koloda.load("pony").new_initial_state(seed=1)


# ------------------------------------------------------------ writing: a program that never reads
def test_a_program_that_never_reads_a_large_observation_fails_in_its_time(tmp_path, monkeypatch):
    state = pony()
    seen = state.observation(0)
    # an observation larger than any pipe's buffer (64 KB on Linux), as a big game's may be
    # the game tells the state what a seat sees (State itself may be compiled, and not patched)
    monkeypatch.setattr(state.game, "observe", lambda s, seat: {**seen, "padding": "x" * 100_000})
    agent = agent_for(bot(tmp_path, "time.sleep(600)\n"), seconds=0.5)
    message = failure(agent, state)
    assert "did not read its input within 0.5 seconds" in message
    assert wait_until(lambda: group_gone(agent))


def test_a_program_that_reads_slowly_still_gets_the_whole_request(tmp_path, monkeypatch):
    state = pony()
    seen = state.observation(0)
    # the game tells the state what a seat sees (State itself may be compiled, and not patched)
    monkeypatch.setattr(state.game, "observe", lambda s, seat: {**seen, "padding": "x" * 300_000})
    script = bot(tmp_path, """
time.sleep(0.3)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "move":
        assert len(message["observation"]["padding"]) == 300_000
        print(json.dumps({"move": message["legal"][0]["id"]}), flush=True)
""")
    agent = agent_for(script)
    assert within(lambda: agent.choose(state)) == state.legal_actions()[0]
    agent.close()
    assert group_gone(agent)


# ------------------------------------------------------------ reading: lines without end, nesting
def test_an_endless_line_is_cut_off_without_growing(tmp_path):
    agent = agent_for(bot(tmp_path, "while True:\n    sys.stdout.write('x' * 65536)\n    sys.stdout.flush()\n"))
    message = failure(agent, pony())
    assert f"wrote a line longer than {outside.LONGEST_ANSWER:,} bytes" in message
    assert wait_until(lambda: group_gone(agent))


@pytest.mark.parametrize("depth, told", [(100_000, "a line longer than"), (1_000, "more than 64 lists and mappings"),
                                         (20, "nested more than 8 deep")])
def test_a_deeply_nested_answer_is_refused_without_recursion(tmp_path, depth, told):
    script = bot(tmp_path, f"""
for line in sys.stdin:
    if json.loads(line)["type"] == "move":
        print('{{"move": ' + '[' * {depth} + ']' * {depth} + '}}', flush=True)
""")
    agent = agent_for(script)
    message = failure(agent, pony())
    assert told in message and "RecursionError" not in message
    assert wait_until(lambda: group_gone(agent))


# ------------------------------------------------------------ stale and ambiguous answers
ANSWER = "print(json.dumps({'move': message['legal'][0]['id']}), flush=True)\n"
LOOP = "for line in sys.stdin:\n    message = json.loads(line)\n    if message['type'] != 'move':\n        continue\n"


@pytest.mark.parametrize("answer, told", [
    ("{'move': message['legal'][0]['id'], 'seat': 1}", "for another seat: it was asked for P1's move"),
    ("{'move': message['legal'][0]['id'], 'n': 7}", "to another request: this is request 1"),
    ("{'move': message['legal'][0]['id'], 'text': message['legal'][1]['text']}", "with both a move and a text"),
])
def test_an_answer_for_another_seat_or_request_is_refused(tmp_path, answer, told):
    agent = agent_for(bot(tmp_path, LOOP + f"    print(json.dumps({answer}), flush=True)\n"))
    assert told in failure(agent, pony())
    assert wait_until(lambda: group_gone(agent))


def test_an_answer_that_gives_its_key_twice_is_refused(tmp_path):
    agent = agent_for(bot(tmp_path, LOOP + "    print('{\"move\": %d, \"move\": 99}' % message['legal'][0]['id'], flush=True)\n"))
    assert 'the key "move" is given twice' in failure(agent, pony())


def test_answers_echoing_the_seat_and_request_are_taken(tmp_path):
    agent = agent_for(bot(tmp_path, LOOP + "    print(json.dumps({'move': message['legal'][-1]['id'], 'seat': 0, "
                                           "'n': message['n']}), flush=True)\n"))
    state = pony()
    assert within(lambda: agent.choose(state)) == state.legal_actions()[-1]
    agent.close()


def test_two_answers_written_at_once_are_refused(tmp_path):
    agent = agent_for(bot(tmp_path, LOOP + "    sys.stdout.write(2 * (json.dumps({'move': message['legal'][0]['id']}) + '\\n'))\n"
                                           "    sys.stdout.flush()\n"))
    assert "wrote 2 lines where one answer was due" in failure(agent, pony())


def test_an_answer_to_no_request_is_refused_at_the_next_one(tmp_path):
    agent = agent_for(bot(tmp_path, LOOP + "    " + ANSWER + "    time.sleep(0.2)\n    " + ANSWER))
    state = pony()
    assert within(lambda: agent.choose(state)) == state.legal_actions()[0]
    assert agent.child is not None and wait_until(lambda: not agent.child.lines.empty())    # the second line came
    assert "after its answer to request 1" in failure(agent, state)
    assert wait_until(lambda: group_gone(agent))


def test_a_program_that_answers_the_start_message_is_told_so(tmp_path):
    agent = agent_for(bot(tmp_path, "for line in sys.stdin:\n    message = json.loads(line)\n"
                                    "    print(json.dumps({'move': 0}), flush=True)\n"))
    state = pony()
    agent.seat = 0
    child = agent._start(state)              # started as its first move would, and its answer to `start` waited for
    assert wait_until(lambda: not child.lines.empty())
    message = failure(agent, state)
    assert "before it was asked for a move" in message and "not the `start` message" in message


# ------------------------------------------------------------ nothing left running
ESCAPER = """
pids = open(sys.argv[1], "w")
# a child in a session of its own (setsid), and one in the program's own group; neither ends by itself
for flag in (True, False):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=flag)
    pids.write(f"{child.pid}\\n")
pids.write(f"{os.getpid()}\\n")
pids.close()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "move":
        print(json.dumps({"move": message["legal"][0]["id"]}), flush=True)
"""


def koloda_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "koloda.cli.main", *args]


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def started(pid_file: Path) -> list[int]:
    assert wait_until(lambda: pid_file.exists() and len(pid_file.read_text().split()) == 3)
    return [int(p) for p in pid_file.read_text().split()]


def test_what_a_program_started_ends_with_the_game(tmp_path):
    pid_file = tmp_path / "pids"
    script = bot(tmp_path, ESCAPER)
    seat = f"cmd:{PYTHON} {shlex.quote(str(script))} {shlex.quote(str(pid_file))}"
    result = subprocess.run(koloda_command("simulate", "pony", "-n", "1", "--seat", seat), env=child_env(),
                            capture_output=True, text=True, timeout=HANG * 3)
    assert result.returncode == 0, result.stderr
    pids = started(pid_file)
    assert all(gone(pid) for pid in pids), [p for p in pids if not gone(p)]


def test_what_a_failing_program_started_ends_with_it(tmp_path):
    pid_file = tmp_path / "pids"
    script = bot(tmp_path, ESCAPER.replace('{"move": message["legal"][0]["id"]}', '{"move": 99999}'))
    agent = OutsideAgent(f"{PYTHON} {shlex.quote(str(script))} {shlex.quote(str(pid_file))}", 5.0)
    assert "not one of the legal ids" in failure(agent, pony())
    pids = started(pid_file)
    assert wait_until(lambda: all(gone(pid) for pid in pids)), [p for p in pids if not gone(p)]


def test_a_program_dies_with_koloda_killed(tmp_path):
    # koloda killed outright (SIGKILL) runs no code of its own: the kernel closes its end of the supervisor's
    # socket, and the supervisor ends the program
    pid_file = tmp_path / "pid"
    script = bot(tmp_path, f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)\n")
    seat = f"cmd:time=600:{PYTHON} {shlex.quote(str(script))}"
    run = subprocess.Popen(koloda_command("simulate", "pony", "-n", "1", "--seat", seat), env=child_env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
        pid = int(pid_file.read_text())
        assert not gone(pid)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=HANG)
        assert wait_until(lambda: gone(pid))
    finally:
        run.kill()
        run.wait()


# a grandchild that leaves for a session of its own once its parent has ended (a double fork): no
# longer a descendant of the program's, it is found only because the supervisor is a subreaper
DOUBLE_FORK = """
def double_fork():
    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:
        parent = os.getpid()
        if os.fork() == 0:
            os.close(r)
            for _ in range(6000):
                if os.getppid() != parent:
                    break
                time.sleep(0.01)
            os.setsid()
            os.write(w, str(os.getpid()).encode())
            os.close(w)
            time.sleep(600)
        os._exit(0)
    os.close(w)
    os.waitpid(middle, 0)
    pid = int(os.read(r, 32))
    os.close(r)
    return pid


def sleeper(**how):
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], **how).pid


def with_grandchild():
    # a child that starts one of its own
    code = ("import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
            "print(p.pid, flush=True); time.sleep(600)")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    return [child.pid, int(child.stdout.readline())]
"""


def written(pid_file: Path, count: int) -> list[int]:
    assert wait_until(lambda: pid_file.exists() and pid_file.read_text().endswith("\n")
                      and len(pid_file.read_text().split()) == count)
    return [int(p) for p in pid_file.read_text().split()]


def test_a_grandchild_that_leaves_after_its_parent_ended_ends_with_the_game(tmp_path):
    pid_file = tmp_path / "pids"
    script = bot(tmp_path, DOUBLE_FORK + f"""
pid = double_fork()
assert not os.path.exists("/proc/%d" % pid) or os.getsid(pid) == pid       # it left the session
with open({str(pid_file)!r}, "w") as f:
    f.write(f"{{pid}}\\n")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "move":
        print(json.dumps({{"move": message["legal"][0]["id"]}}), flush=True)
""")
    seat = f"cmd:{PYTHON} {shlex.quote(str(script))}"
    result = subprocess.run(koloda_command("simulate", "pony", "-n", "1", "--seat", seat), env=child_env(),
                            capture_output=True, text=True, timeout=HANG * 3)
    assert result.returncode == 0, result.stderr
    [pid] = written(pid_file, 1)
    try:
        assert gone(pid)
    finally:
        _end(pid)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_all_a_program_started_dies_with_koloda_killed(tmp_path, how):
    # koloda killed outright runs no code of its own: the kernel closes its end of the supervisor's
    # socket, and the supervisor kills the program's children and grandchildren, a double fork's too
    pid_file = tmp_path / "pids"
    script = bot(tmp_path, DOUBLE_FORK + f"""
pids = [os.getpid(), sleeper(), sleeper(start_new_session=True), *with_grandchild(), double_fork()]
with open({str(pid_file)!r}, "w") as f:
    f.write("".join(f"{{pid}}\\n" for pid in pids))
time.sleep(600)
""")
    seat = f"cmd:time=600:{PYTHON} {shlex.quote(str(script))}"
    run = subprocess.Popen(koloda_command("simulate", "pony", "-n", "1", "--seat", seat), env=child_env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids: list[int] = []
    try:
        pids = written(pid_file, 6)
        assert not any(gone(pid) for pid in pids)
        run.send_signal(how)
        run.wait(timeout=HANG)
        assert wait_until(lambda: all(gone(pid) for pid in pids), 30.0), [p for p in pids if not gone(p)]
    finally:
        run.kill()
        run.wait()
        for pid in pids:
            _end(pid)


def _end(pid: int) -> None:
    """A process a failing test left behind (by the number it wrote itself) is not left running."""
    if not gone(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def test_a_program_s_last_words_are_all_read_before_they_are_told(tmp_path):
    # the reader of standard error may be behind a program that wrote to it and ended at once
    from koloda.agents.child import Child

    script = tmp_path / "talker.py"
    script.write_text("import sys\nfor i in range(2000):\n    print('line', i, file=sys.stderr)\n"
                      "print('out of memory', file=sys.stderr)\nsys.exit(3)\n", encoding="utf-8")
    child = Child([sys.executable, str(script)], 1 << 16)
    assert child.lines.get(timeout=120) is None         # its output closed: it has ended
    assert child.exit_code(120) == 3
    assert child.last_words(120)[-1] == "out of memory"
    child.kill()
