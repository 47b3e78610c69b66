"""Simulation to report: seeds, seats turned, counters, files, workers, and Ctrl-C."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

import koloda
import koloda.sim.sequential
from koloda.cli.main import main
from koloda.report.export import schema
from koloda.rules import __file__ as rules_init
from koloda.sim import Table, seating, simulate, simulate_parallel

SHORT = {"limit": "20"}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_rotation_seats_every_agent_at_every_seat_equally():
    tables = [seating(["greedy", "ismcts"], 3, k, rotate=True) for k in range(6)]
    for seat in range(3):
        assert sorted(t[seat] for t in tables) == sorted(["greedy", "ismcts", "random"] * 2)
    assert seating(["greedy"], 2, 1, rotate=False) == ("greedy", "random")


def test_results_depend_on_the_master_seed_only_not_on_workers():
    game = koloda.load("pony", SHORT)
    alone = simulate(game, 6, seed=11, seats=["greedy"], rotate=True)
    table = Table("pony", SHORT, 2, 11, 100_000, ("greedy",), rotate=True)
    shared = simulate_parallel(table, 6, jobs=2)
    assert shared.records == alone.records
    assert [r.seed for r in alone.records] == [11 + k for k in range(6)]
    assert [r.agents for r in alone.records][:2] == [("greedy", "random"), ("random", "greedy")]
    later = simulate(game, 3, seed=11, seats=["greedy"], rotate=True, first=3)
    assert later.records == alone.records[3:]         # a game is the same wherever in the run it is played


def test_counters_count_deals_and_do_not_change_play(tmp_path):
    """`count:` watches only: Pony without its counters plays the same moves and has the same fingerprint."""
    text = (Path(rules_init).parent / "pony.yaml").read_text(encoding="utf-8")
    plain = tmp_path / "pony.yaml"
    plain.write_text(text[:text.index("\ncount:")] + "\n", encoding="utf-8")
    counted = tmp_path / "counted.yaml"
    counted.write_text(text[:text.index("\ncount:")] + "\ncount: {every_deal: 'true', never: 'false'}\n",
                       encoding="utf-8")
    games = [koloda.load(str(p), SHORT) for p in (plain, counted)]
    shipped = koloda.load("pony", SHORT)
    assert games[0].fingerprint == games[1].fingerprint == shipped.fingerprint
    without, with_counts = (simulate(g, 4, seed=3) for g in games)
    for a, b in zip(without.records, with_counts.records):
        assert (a.returns, a.scores, a.decisions, a.deals) == (b.returns, b.scores, b.decisions, b.deals)
        assert a.counts == {} and b.counts == {"every_deal": b.deals, "never": 0}
    blocked = simulate(shipped, 4, seed=3).records
    assert all(0 <= r.counts["blocked"] <= r.deals and 0 <= r.counts["jack_finish"] <= r.deals for r in blocked)


def test_simulate_writes_json_and_csv(tmp_path):
    out = run("simulate", "pony", "-n", "6", "--seed", "2", "-o", "limit=20", "--seat", "greedy", "--rotate",
              "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "g.csv"))
    assert out.exit_code == 0, out.output
    assert "Pony: 6 games played, 6 ended" in out.output and "jack_finish" in out.output
    assert "Quality" in out.output and "uncertainty" in out.output
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    jsonschema.validate(report, schema("report"))
    assert report["run"]["rotate"] and report["game"]["options"]["limit"] == 20
    # the variant as asked for, and which way scores go (Pony's lowest score wins: a penalty)
    assert report["run"]["options"] == {"limit": "20"} and report["game"]["winner"] == "lowest"
    assert "mean score (lower is better)" in out.output
    assert {a["agent"]: a["seat_games"] for a in report["agents"]} == {"greedy": 6, "random": 6}
    rows = list(csv.DictReader((tmp_path / "g.csv").open(encoding="utf-8")))
    assert [r["seed"] for r in rows] == [str(2 + k) for k in range(6)]
    assert sum(int(r["count_jack_finish"]) for r in rows) == round(report["counters"][1]["per_game"]["mean"] * 6)


def test_ctrl_c_stops_with_the_partial_report(monkeypatch):
    real = koloda.sim.sequential.play_game

    def interrupted(game, number, *args):
        if number == 3:
            raise KeyboardInterrupt
        return real(game, number, *args)
    monkeypatch.setattr(koloda.sim.sequential, "play_game", interrupted)
    out = run("simulate", "pony", "-n", "10", "-o", "limit=20")
    assert out.exit_code == 130
    assert "Pony: 3 games played, 3 ended (interrupted: 3 of the 10 asked)" in out.output
    assert "Traceback" not in out.output


def test_ctrl_c_stops_the_workers_and_keeps_what_they_played():
    table = Table("pony", SHORT, 2, 0, 100_000, ())

    def stop(k: int) -> None:
        raise KeyboardInterrupt
    result = simulate_parallel(table, 40, jobs=2, progress=stop)
    assert result.stopped and 0 < result.games < 40
    assert [r.number for r in result.records] == sorted(r.number for r in result.records)


def test_compare_marks_what_differs(tmp_path):
    out = run("compare", "pony", "-o", "deck=standard52", "-a", "limit=20", "-o", "limit=20", "-n", "12",
              "--json", str(tmp_path / "c.json"))
    assert out.exit_code == 0, out.output
    assert "A: pony limit=20" in out.output and "B: pony deck=standard52 limit=20" in out.output
    comparison = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    jsonschema.validate(comparison, schema("compare"))
    for report in comparison["reports"]:
        jsonschema.validate(report, schema("report"))
    assert comparison["paired"] == 12
    assert {r["measure"] for r in comparison["measures"]} >= {"win share P1", "decisions", "drama"}


@pytest.mark.parametrize("args, message", [
    (("compare", "pony", "-n", "2"), "A and B are the same"),
    (("compare", "pony", "-o", "colour=red"), "unknown option `colour`"),
    (("compare", "pony", "peklo", "-n", "2"), "A has 2 players and B 4"),
    (("simulate", "pony", "--address", "1.2.3.4:6379"), "--address is for --backend ray"),
    (("simulate", "pony", "-n", "2", "--json", "/nonexistent/dir/r.json"), "cannot write the report"),
    (("simulate", "pony", "-n", "2", "--plots", __file__), "cannot make the folder"),     # before any game
])
def test_mistakes_are_messages(args, message):
    out = run(*args)
    assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output


def test_json_to_standard_output_is_json_alone():
    out = CliRunner().invoke(main, ["simulate", "pony", "-n", "2", "-o", "limit=20", "--json", "-"])     # click 8.2 keeps stderr apart
    assert out.exit_code == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["games"]["played"] == 2 and "games played" in out.stderr


def test_ray_backend_without_ray_is_a_message(monkeypatch):
    import sys
    import koloda.sim
    monkeypatch.setitem(sys.modules, "ray", None)           # as if it were not installed
    monkeypatch.delitem(sys.modules, "koloda.sim.ray_backend", raising=False)
    monkeypatch.delattr(koloda.sim, "ray_backend", raising=False)
    out = run("simulate", "pony", "-n", "2", "--backend", "ray")
    assert out.exit_code == 1 and "pip install 'koloda[ray]'" in out.output


def test_a_rotated_run_seats_each_agent_at_each_seat(tmp_path):
    """The records say who sat where, and the agents did sit there: a program in a seat writes down
    the seat it is told it plays, game after game, and it must follow the records' rotation."""
    import shlex
    import sys
    log = tmp_path / "seats.txt"
    script = tmp_path / "bot.py"
    script.write_text(f"""import json, sys
out = open({str(log)!r}, "a", encoding="utf-8")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        out.write("start %d\\n" % message["seat"])
    elif message["type"] == "move":
        out.write("move %d\\n" % message["seat"])
        print(json.dumps({{"move": message["legal"][0]["id"]}}), flush=True)
    out.flush()
""", encoding="utf-8")
    program = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    out = run("simulate", "pony", "-n", "4", "--seed", "5", "-o", "limit=20", "--seat", program, "--seat", "greedy",
              "--rotate", "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "g.csv"))
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader((tmp_path / "g.csv").open(encoding="utf-8")))
    recorded = [0 if r["agent_P1"] == program else 1 for r in rows]
    assert recorded == [0, 1, 0, 1] and all({r["agent_P1"], r["agent_P2"]} == {program, "greedy"} for r in rows)
    # what the program was told, game by game: the seat it starts at, and the seat of every move it made
    games: list[list[str]] = []
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.startswith("start"):
            games.append([])
        games[-1].append(line)
    assert [int(g[0].split()[1]) for g in games] == recorded
    assert all(g[1:] and {line.split()[1] for line in g[1:]} == {g[0].split()[1]} for g in games)
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [sorted(s["agents"]) for s in report["seats"]] == [sorted([program, "greedy"])] * 2
    assert {a["agent"]: a["seat_games"] for a in report["agents"]} == {program: 4, "greedy": 4}
