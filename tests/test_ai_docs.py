"""docs/ai.md: its examples run as written, and its protocol messages are the ones koloda sends."""
from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

import koloda
from koloda.agents.registry import make_agent

DOC = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(encoding="utf-8")


def blocks(section: str, language: str) -> list[str]:
    """The code blocks of one `## section` of the page."""
    part = DOC.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", part, re.S)


def run(section: str) -> dict:
    found = blocks(section, "python")
    assert found
    scope: dict = {}
    for block in found:
        exec(compile(block, f"docs/ai.md ({section})", "exec"), scope)
    return scope


def test_the_openspiel_examples():
    pytest.importorskip("pyspiel")
    scope = run("OpenSpiel")
    assert scope["state"].is_terminal() or scope["state"].current_player() >= 0
    assert sum(scope["policy"].action_probabilities(scope["game"].new_initial_state().child(0)).values()) \
        == pytest.approx(1.0)


def test_the_explicit_chance_example(monkeypatch):
    pytest.importorskip("pyspiel")
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)      # the example names examples/swap.yaml
    scope = run("Explicit chance")
    from open_spiel.python.algorithms import exploitability
    assert exploitability.exploitability(scope["game"], scope["solver"].average_policy()) < 0.01
    assert [q for _, q in scope["state"].chance_outcomes()] == pytest.approx([1 / 3] * 3)


def test_the_pettingzoo_and_gymnasium_examples():
    pytest.importorskip("pettingzoo")
    scope = run("PettingZoo")
    assert not scope["env"].agents                  # every agent has left: the match is over
    scope = run("Gymnasium")
    assert scope["done"] and 0.0 <= scope["reward"] <= 1.0


def test_the_protocol_messages_are_the_ones_sent(tmp_path):
    start, move, answer = (json.loads(b) for b in blocks("Agents from outside", "json"))
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "bot.py"
    script.write_text(f"""import json, sys
out = open({str(log)!r}, "w", encoding="utf-8")
for line in sys.stdin:
    out.write(line)
    out.flush()
    message = json.loads(line)
    if message["type"] == "move":
        print(json.dumps({{"move": message["legal"][0]["id"]}}), flush=True)
""", encoding="utf-8")
    agent = make_agent(f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}", 0)
    state = koloda.load("pony").new_initial_state(seed=1)
    state.apply_action(agent.choose(state))
    agent.close()
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert set(sent[0]) == set(start) and sent[0]["protocol"] == start["protocol"]
    assert set(sent[1]) == set(move) and set(sent[1]["legal"][0]) == set(move["legal"][0])
    assert set(move["observation"]) <= set(sent[1]["observation"])
    assert set(answer) == {"move"}
