"""A Python agent at the table (`--seat py:module:Class`): what it is given, where it plays, and that
a save never starts it."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import koloda
from koloda.agents.policy import PolicyAgent, PolicyFailure
from koloda.agents.registry import UnknownAgent, make_agent, parse_seat
from koloda.cli.main import main
from koloda.compact import CompactGame

ROOT = Path(__file__).resolve().parent.parent

FIRST = textwrap.dedent('''
    import numpy as np

    SEEN = []

    class First:
        """The first legal token, or the last with last=1; it keeps what it was shown."""
        def __init__(self, last=0):
            self.last = last
        def act(self, view):
            SEEN.append(view)
            legal = np.flatnonzero(view.action_mask)
            assert list(legal) == view.legal_actions
            return np.int64(legal[-1] if self.last else legal[0])

    class Cheat:
        def act(self, view):
            return int(np.flatnonzero(view.action_mask == 0)[0])
''')


@pytest.fixture
def agents_dir(tmp_path, monkeypatch):
    (tmp_path / "my_agents.py").write_text(FIRST)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_python_seat_is_read_with_its_options():
    assert parse_seat("py:my_agents:First:last=1,name=x,rate=0.5") == \
        ("py", {"module": "my_agents", "cls": "First", "options": {"last": 1, "name": "x", "rate": 0.5}})
    assert parse_seat("py:a.b.c:Agent")[1]["module"] == "a.b.c"
    for bad in ("py:", "py:my_agents", "py:my agents:First", "py:my_agents:First:last"):
        with pytest.raises(UnknownAgent, match="py:|setting"):
            parse_seat(bad)
    with pytest.raises(UnknownAgent, match="does not start programs"):
        parse_seat("py:my_agents:First", commands=False)


def test_the_agent_sees_the_compact_view_it_was_trained_on(agents_dir):
    import my_agents
    game = koloda.load("kunkin", players=2)
    cg = CompactGame(game)
    state = game.new_initial_state(seed=4)
    agent = make_agent("py:my_agents:First", 0)
    my_agents.SEEN.clear()
    for _ in range(40):           # long enough for moves of several tokens
        if state.is_terminal():
            break
        before = state.clone()
        native = agent.choose(state)
        assert native in state.legal_actions()
        compact = cg.wrap(before)
        for view in my_agents.SEEN:
            compact.prefix = view.prefix
            assert np.array_equal(view.observation, np.asarray(compact.observation_tensor(view.player), np.float32))
            assert np.array_equal(view.information_state,
                                  np.asarray(compact.information_state_tensor(view.player), np.float32))
            assert view.legal_actions == compact.legal_actions()
        assert cg.spell(native) == tuple(v.prefix + (v.legal_actions[0],) for v in my_agents.SEEN)[-1]
        my_agents.SEEN.clear()
        state.apply_action(native)


def test_a_python_agent_that_cheats_or_cannot_load_stops_with_one_line(agents_dir):
    state = koloda.load("pony").new_initial_state(seed=1)
    with pytest.raises(PolicyFailure, match="not legal now"):
        make_agent("py:my_agents:Cheat", 0).choose(state)
    with pytest.raises(PolicyFailure, match="no class `Nope`"):
        PolicyAgent("my_agents", "Nope", {}).choose(state)
    with pytest.raises(PolicyFailure, match="could not be made"):
        make_agent("py:my_agents:First:colour=red", 0).choose(state)
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "2", "--seat", "py:missing_module:X"])
    assert result.exit_code != 0 and "Traceback" not in result.output and "cannot import" in result.output


def test_simulate_and_compare_seat_a_python_agent(agents_dir):
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "3", "-p", "3",
                                       "--seat", "py:my_agents:First:last=1", "--seat", "random", "--rotate"])
    assert result.exit_code == 0, result.output
    assert "py:my_agents:First:last=1" in result.output
    result = CliRunner().invoke(main, ["compare", "pony", "-o", "hand=7", "-n", "4", "--seat", "py:my_agents:First"])
    assert result.exit_code == 0, result.output
    # worker processes are sent the seat's string and make the agent themselves
    one = CliRunner().invoke(main, ["simulate", "pony", "-n", "6", "--seat", "py:my_agents:First", "--json", "one.json"])
    two = CliRunner().invoke(main, ["simulate", "pony", "-n", "6", "-j", "2", "--seat", "py:my_agents:First",
                                    "--json", "two.json"])
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    records = [json.loads((agents_dir / name).read_text())["games"] for name in ("one.json", "two.json")]
    assert records[0] == records[1]          # the same games, whichever process played them


def test_a_save_does_not_start_a_python_agent(agents_dir):
    save = agents_dir / "game.save.json"
    result = CliRunner().invoke(main, ["play", "pony", "--fast", "--seed", "1", "--max-moves", "4", "--save", str(save),
                                       "--seat", "py:my_agents:First", "--seat", "random"])
    assert result.exit_code != 0 and save.exists(), result.output      # stopped by --max-moves, saved
    result = CliRunner().invoke(main, ["resume", str(save), "--fast"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "seat 1" in result.output and "does not start programs" in result.output


def test_the_example_trains_a_policy_that_plays_pony(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    from examples import my_agent
    weights = tmp_path / "w.npz"
    model = my_agent.fit(*my_agent.examples("pony", 2), steps=50)
    np.savez(weights, w=model["w"], b=model["b"], scale=model["scale"])
    assert model["accuracy"] > 0.6        # it learnt something of greedy's choices
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "4", "--seat",
                                       f"py:examples.my_agent:Trained:weights={weights}", "--seat", "greedy"])
    assert result.exit_code == 0, result.output
    # the shipped weights too, as docs/ai.md plays them
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "4", "--seat", "py:examples.my_agent:Trained"])
    assert result.exit_code == 0, result.output


def test_a_program_is_sent_the_tensors_and_tokens_when_it_asks(tmp_path):
    import shlex
    import sys
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "bot.py"
    script.write_text(f"""import json, sys
out = open({str(log)!r}, "w", encoding="utf-8")
for line in sys.stdin:
    out.write(line)
    out.flush()
    message = json.loads(line)
    if message["type"] == "move":
        print(json.dumps({{"move": message["legal"][-1]["id"]}}), flush=True)
""")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    assert parse_seat(f"cmd:time=5:tensors:{command}")[1] == {"command": command, "seconds": 5.0, "tensors": True}
    game = koloda.load("kunkin", players=2)
    cg = CompactGame(game)
    state = game.new_initial_state(seed=2)
    agent = make_agent(f"cmd:tensors:{command}", 0)
    try:
        native = agent.choose(state)
    finally:
        agent.close()
    start, move = (json.loads(line) for line in log.read_text().splitlines()[:2])
    assert start["tensors"] == {"observation": cg.observation_tensor_shape()[0],
                                "information_state": cg.information_state_tensor_shape()[0],
                                "vocabulary": cg.num_distinct_actions()}
    compact = cg.wrap(state)
    assert move["tensors"]["observation"] == compact.observation_tensor(0)
    assert move["tensors"]["information_state"] == compact.information_state_tensor(0)
    assert move["tensors"]["tokens"] == [list(cg.spell(m["id"])) for m in move["legal"]]
    assert native == move["legal"][-1]["id"]
