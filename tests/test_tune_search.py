"""koloda tune's search on a game whose answer is known by construction: `edge` gives seat 1 a head
start (1 and 2: seat 1 always wins; 0: a fair coin), `rounds` only makes the match longer."""
from __future__ import annotations

import json
from dataclasses import replace
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("optuna")

from koloda.api import load, load_spec  # noqa: E402
from koloda.cli.main import main  # noqa: E402
from koloda.sim import simulate  # noqa: E402
from koloda.tune.answer import chosen  # noqa: E402
from koloda.tune.measures import measure_names  # noqa: E402
from koloda.tune.search import Plan, Progress, SearchError, run_search  # noqa: E402
from koloda.tune.space import read_space  # noqa: E402
from koloda.tune.targets import read_targets  # noqa: E402
from koloda.tune import trial as trial_module  # noqa: E402
from koloda.tune.trial import MISSED, Setup, play_trial  # noqa: E402
from koloda.tune.variant import write_variant  # noqa: E402

DUEL = """\
game: duel
players: 2
deck: piquet32
values: {A: 11, K: 4, Q: 3, J: 2, "10": 10, "9": 9, "8": 8, "7": 7}
options:
  edge: {default: 1, choices: [0, 1, 2], help: "points seat 1 starts with, in hundreds"}
  rounds: {default: 1, min: 1, max: 2, help: "deals in a match"}
  spare: {default: 3, min: 0, max: 9, help: "changes nothing: a dimension that does not matter"}
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
  table: {visible: all}
vars:
  points: {each: player, start: 0}
deal:
  - gather into stock
  - shuffle stock
  - deal 1 to each hand
phases:
  play:
    actions:
      show:
        with: c in my hand
        do: [move c to table, me.points += value(c)]
    steps:
      main: [show]
deal ends: table.size == player_count
match:
  ends: deal_number >= option.rounds
  score: "p.points + (option.edge * 100 if p.seat == 1 else 0)"
"""


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def _plan(duel: Path, storage: Path, *, space=("spare=3",), targets=("advantage.max <= 0.1",), jobs=1,
          games=400, chunk=100, **kw) -> Plan:
    spec, _ = load_spec(str(duel))
    plan_space = read_space(spec, list(space))
    return Plan(Setup(str(duel), games=games, chunk=chunk, jobs=jobs), plan_space,
                read_targets(list(targets), [], [], measure_names(2, [])), 2, storage, **kw)


def _trials(result) -> list[tuple]:
    return [(t.params, t.state.name, t.user_attrs["games"], t.user_attrs["estimates"]) for t in result.trials]


def test_a_small_grid_finds_the_fair_variant(duel, tmp_path):
    plan = _plan(duel, tmp_path / "s.db")
    assert plan.kind() == "grid" and plan.space.size == 6
    result = run_search(plan)
    assert len(result.trials) == 6
    by_edge = {}
    for t in result.trials:
        by_edge.setdefault(t.params["edge"], set()).add(t.state.name)
    assert by_edge == {0: {"COMPLETE"}, 1: {"PRUNED"}, 2: {"PRUNED"}}
    best = chosen(plan, result.trials, 3)
    assert len(best) == 2 and {t.params["edge"] for t in best} == {0}


def test_pruning_stops_a_hopeless_trial_after_its_first_chunk(duel):
    targets = read_targets(["advantage.max <= 0.1"], [], [], measure_names(2, []))
    setup = Setup(str(duel), games=1600, chunk=50)
    hopeless = play_trial(setup, {"edge": "2"}, 2, targets)
    assert hopeless.verdict == MISSED and hopeless.games == 50
    # a fair variant whose target the first chunk cannot settle plays on (50, 100, 200, ...)
    close = read_targets(["advantage.max <= 0.04"], [], [], measure_names(2, []))
    fair = play_trial(setup, {"edge": "0"}, 2, close)
    assert fair.games > 50 and [r.number for r in fair.records] == list(range(fair.games))
    # without stopping early, every game is played
    assert play_trial(setup, {"edge": "2"}, 2, targets, early=False).games == 1600


def test_an_interrupted_search_resumes_with_the_same_trials(duel, tmp_path):
    kw = dict(space=(), sampler="tpe", trials=6, games=200, chunk=50, sampler_seed=7)
    whole = run_search(_plan(duel, tmp_path / "whole.db", **kw))
    played = [0]

    def game(k: int) -> None:
        played[0] += k
        if played[0] == 420:            # in the middle of a trial: Ctrl-C
            raise KeyboardInterrupt

    broken = run_search(_plan(duel, tmp_path / "broken.db", **kw), Progress(game=game))
    assert broken.stopped and 0 < len(broken.trials) < 6
    with pytest.raises(SearchError, match="--resume"):
        run_search(_plan(duel, tmp_path / "broken.db", **kw))
    with pytest.raises(SearchError, match="differs in: games"):
        run_search(_plan(duel, tmp_path / "broken.db", **{**kw, "games": 300}, resume=True))
    resumed = run_search(_plan(duel, tmp_path / "broken.db", **kw, resume=True))
    assert not resumed.stopped and _trials(resumed) == _trials(whole)


def test_the_same_seed_gives_the_same_search_on_one_and_two_workers(duel, tmp_path, monkeypatch):
    shared = []
    real = trial_module.simulate_parallel

    def spy(table, count, jobs, progress=None, start=0):
        shared.append(jobs)
        return real(table, count, jobs, progress, start)
    monkeypatch.setattr(trial_module, "simulate_parallel", spy)
    # chunks of 500 games: shared out over the two workers (a small chunk is played in the process)
    kw = dict(space=("spare=3..4",), games=1000, chunk=500, trials=4)
    one = run_search(_plan(duel, tmp_path / "one.db", jobs=1, **kw))
    assert shared == []
    two = run_search(_plan(duel, tmp_path / "two.db", jobs=2, **kw))
    assert _trials(one) == _trials(two) and len(one.trials) == 4 and shared and set(shared) == {2}


def test_the_written_variant_checks_and_plays(duel, tmp_path):
    path = write_variant(duel.parent, str(duel), "duel", {"edge": "0", "rounds": "2"}, None, 1, ["a target"])
    text = path.read_text(encoding="utf-8")
    assert 'extends: "duel.yaml"' in text and "edge: {default: 0}" in text
    assert CliRunner().invoke(main, ["check", str(path)]).exit_code == 0
    game = load(str(path))
    assert game.options["edge"] == 0 and game.options["rounds"] == 2
    result = simulate(game, 20)
    assert result.finished == 20 and all(r.deals == 2 for r in result.records)
    shipped = write_variant(tmp_path / "out", "pony", "pony", {"hand": "7", "deck": "standard52"}, 3, 2, [])
    assert CliRunner().invoke(main, ["check", str(shipped)]).exit_code == 0
    assert load(str(shipped)).num_players == 3


def test_the_command_answers_and_writes_its_files(duel, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "advantage.max <= 0.1", "--fix", "spare=0",
                                    "-n", "200", "--chunk", "100", "--show", "1", "--json", "answer.json",
                                    *(["--plots", "plots"] if _has("matplotlib") else [])])
    assert out.exit_code == 0, out.output
    assert "Variant 1: spare=0 edge=0" in out.output and (tmp_path / "duel.tune.db").exists()
    data = json.loads((tmp_path / "answer.json").read_text(encoding="utf-8"))
    assert data["variants"][0]["options"]["edge"] == "0" and data["variants"][0]["games"] == 200
    assert Path(data["variants"][0]["file"]).exists()
    if _has("matplotlib"):
        assert {p.name for p in (tmp_path / "plots").iterdir()} == {"targets-by-edge.png", "targets-by-rounds.png"}


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_several_objectives_give_a_front_within_the_constraints(duel, tmp_path):
    spec, _ = load_spec(str(duel))
    known = measure_names(2, [])
    plan = Plan(Setup(str(duel), games=100, chunk=100), read_space(spec, ["spare=0..9"]),
                read_targets(["advantage.max <= 0.2"], ["drama"], ["turns"], known), 2, tmp_path / "f.db",
                trials=8, sampler="nsga2")
    result = run_search(plan)
    assert len(result.trials) == 8
    front = chosen(plan, result.trials, 10)
    assert front and all(t.params["edge"] == 0 for t in front)      # the unfair ones miss the bound
    values = [tuple(t.values) for t in front]
    for drama, turns in values:          # none on the front is beaten on both objectives by another
        assert not any(d >= drama and u <= turns and (d, u) != (drama, turns) for d, u in values)


def test_the_command_line_starts_without_optuna():
    code = "import sys, koloda.cli.main; print('optuna' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    assert out.stdout.strip() == "False", out.stderr


def test_the_command_refuses_a_typo_before_playing(duel):
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "advantge.max <= 0.1"])
    assert out.exit_code == 1 and "column 1" in out.output and "did you mean `advantage.max`" in out.output
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "drama >= 0.1", "--space", "edg=0,1"])
    assert out.exit_code == 1 and "did you mean `edge`" in out.output


def test_without_the_extra_the_command_says_what_to_install(duel, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "drama >= 0.1"])
    assert out.exit_code == 1 and "pip install 'koloda[tune]'" in out.output


def test_the_number_of_players_as_a_dimension(tmp_path):
    from koloda.tune.search import point_of
    spec, _ = load_spec("pony")
    space = read_space(spec, ["limit=20..30"], ["deck=standard52"], "2..4")
    plan = Plan(Setup("pony"), space, read_targets(["deals <= 5"], [], [], measure_names(2, [])), 2, tmp_path / "p.db")
    assert plan.kind() == "tpe" and plan.space.size == 2 ** 5 * 11 * 3
    options, players = point_of(plan, {"players": 3, "limit": 25, "hand": 7})
    assert players == 3 and options == {"deck": "standard52", "limit": "25", "hand": "7"}
    held = Plan(Setup("pony"), read_space(spec, [], [], "4"), plan.targets, 2, tmp_path / "q.db")
    assert point_of(held, {})[1] == 4


def test_when_every_variant_is_pruned_the_nearest_are_told_and_no_file_written(duel, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["tune", str(duel), "--target", "advantage.max <= 0.1", "--fix", "edge=2",
                                    "--space", "spare=0,1", "-n", "1000", "--chunk", "100"])
    assert out.exit_code == 1, out.output
    assert "No variant could meet every target: the nearest" in out.output and "100 games, pruned" in out.output
    assert not list(tmp_path.glob("*-tuned-*.yaml"))


def test_the_budget_counts_the_games_of_the_trials(duel, tmp_path):
    # fair variants play on (a tight target), unfair ones stop after a chunk: the budget caps the total
    plan = _plan(duel, tmp_path / "b.db", targets=("advantage.max <= 0.01",), games=400, chunk=100, budget=700)
    result = run_search(plan)
    assert result.games == 700 and sum(t.user_attrs["games"] for t in result.trials) == 700
    # a resume with a larger budget goes on (the budget is not part of what makes the search)
    more = run_search(replace(plan, budget=900, resume=True))
    assert more.games == 900 and _trials(more)[:len(result.trials)] == _trials(result)


def test_a_variant_proposed_again_is_not_played_again(duel, tmp_path):
    # six variants and TPE asked for more trials than that: it proposes some again
    plan = _plan(duel, tmp_path / "r.db", space=("spare=0",), sampler="tpe", trials=12, games=100, chunk=100)
    result = run_search(plan)
    repeats = [t for t in result.trials if "same_as" in t.user_attrs]
    firsts = {t.number: t for t in result.trials if "same_as" not in t.user_attrs}
    assert len(result.trials) == 12 and repeats and len(firsts) <= 6
    for t in repeats:
        first = firsts[t.user_attrs["same_as"]]
        assert t.params == first.params and t.user_attrs["games"] == 0 and t.state == first.state
        assert t.user_attrs["estimates"] == first.user_attrs["estimates"]
    assert result.games == sum(t.user_attrs["games"] for t in firsts.values())
    best = chosen(plan, result.trials, 6)
    assert len({json.dumps(t.params, sort_keys=True) for t in best}) == len(best)
    # asked for far more trials than there are variants, the search ends once it has nothing new
    more = run_search(_plan(duel, tmp_path / "e.db", space=("spare=0",), sampler="tpe", trials=500, games=100,
                            chunk=100))
    assert more.exhausted and len(more.trials) < 500
