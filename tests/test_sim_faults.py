"""A simulation survives its faults: a worker that dies has its games played again (the same games:
they depend on the seed alone) or, if it dies every time, listed as lost; Ctrl-C and SIGTERM end the
run with the report of the games played; nothing is left running when the parent is stopped or killed.

The process table is read with `ps` (a zombie is a process that has ended)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.interpreter.game import Game
from koloda.report.records import GameRecord
from koloda.sim import Table, simulate, simulate_parallel
from koloda.sim.ledger import DEATHS_IN_A_ROW, RETRIES, Ledger, WorkersFailed

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table with ps")

SHORT = {"limit": "20"}


@dataclass(frozen=True)
class Deadly(Table):
    """A table whose worker kills itself (SIGKILL, as the OOM killer does) as it starts a game:
    game `once_at` the first time only (`marker` is the file that says it happened), game
    `always_at` every time."""
    once_at: int = -1
    always_at: int = -1
    marker: str = ""

    def play_one(self, game: Game, number: int) -> GameRecord:
        if number == self.always_at or (number == self.once_at and not os.path.exists(self.marker)):
            if number == self.once_at:
                open(self.marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().play_one(game, number)


def clean(count: int, seed: int = 0) -> list[GameRecord]:
    return simulate(koloda.load("pony", SHORT), count, seed=seed).records


# -- the bookkeeping of a run's games ----------------------------------------------------------

def test_the_game_a_worker_died_on_is_played_again_then_given_up():
    ledger = Ledger([(0, 5), (5, 5)])
    assert ledger.take() == (0, 5)
    ledger.died((2, 3))                   # games 0 and 1 came back; it died playing game 2
    for _ in range(RETRIES):
        assert ledger.take() == (2, 3)    # first, so that it is played while other workers are busy
        ledger.died((2, 3))
    assert ledger.take() == (3, 2) and ledger.lost == [2]
    assert ledger.take() == (5, 5) and ledger.take() is None


def test_a_range_whose_deadly_game_is_unknown_goes_back_one_game_at_a_time():
    ledger = Ledger([(0, 3)])
    ledger.take()
    ledger.died((0, 3), known=False)      # no game counts a try: any of them may be innocent
    assert [ledger.take() for _ in range(3)] == [(0, 1), (1, 1), (2, 1)] and not ledger.lost


def test_workers_that_die_whatever_they_play_stop_the_run():
    ledger = Ledger([(k, 1) for k in range(100)])
    with pytest.raises(WorkersFailed, match="keep dying"):
        for _ in range(DEATHS_IN_A_ROW + 1):
            ledger.died(None)
    ledger = Ledger([])
    for _ in range(DEATHS_IN_A_ROW * 3):        # a game back between deaths: the run goes on
        ledger.died(None)
        ledger.finished()


# -- local processes ---------------------------------------------------------------------------

def test_a_worker_killed_mid_game_has_its_games_played_again(tmp_path):
    table = Deadly("pony", SHORT, 2, 0, 100_000, (), once_at=9, marker=str(tmp_path / "died"))
    result = simulate_parallel(table, 24, 2)
    assert (tmp_path / "died").exists()               # a worker did die, at game 9
    assert not result.stopped and not result.lost and result.deaths == 1
    assert result.records == clean(24)


@dataclass(frozen=True)
class Failing(Table):
    """A table whose worker fails as something other than the rules fails (a program at a seat, say)."""
    def play_one(self, game: Game, number: int) -> GameRecord:
        if number == 5:
            raise ValueError("the program at seat 2 stopped answering")
        return super().play_one(game, number)


def test_a_worker_that_fails_ends_the_run_with_its_error_and_no_worker_left():
    def workers() -> set[int]:
        return {pid for pid, args in descendants(os.getpid()).items() if "spawn_main" in args}
    before = workers()
    with pytest.raises(ValueError, match="stopped answering"):
        simulate_parallel(Failing("pony", SHORT, 2, 0, 100_000, ()), 12, 2)
    assert poll(lambda: workers() <= before, 30), workers() - before


def test_compare_stopped_while_it_plays_a_does_not_go_on_to_b(monkeypatch):
    real = koloda.sim.sequential.play_game
    played = []

    def interrupted(game, number, *args):
        played.append(number)
        if number == 3:
            raise KeyboardInterrupt
        return real(game, number, *args)
    monkeypatch.setattr(koloda.sim.sequential, "play_game", interrupted)
    out = CliRunner().invoke(main, ["compare", "pony", "-a", "limit=20", "-o", "limit=30", "-n", "10", "--jobs", "1"])
    assert out.exit_code == 130, out.output
    assert played == [0, 1, 2, 3] and "Traceback" not in out.output


def test_a_game_that_kills_every_worker_is_lost_listed_with_its_seed_and_the_others_played(tmp_path, monkeypatch):
    args = ["simulate", "pony", "-o", "limit=20", "-n", "12"]
    here = CliRunner().invoke(main, [*args, "--jobs", "1", "--csv", str(tmp_path / "clean.csv")])
    assert here.exit_code == 0, here.output

    # the command's table is made in main.py: the deadly one takes its place there
    def deadly(*args: object) -> Deadly:
        return Deadly(*args, always_at=4)  # type: ignore[arg-type]
    monkeypatch.setattr("koloda.sim.Table", deadly)
    out = CliRunner().invoke(main, [*args, "--jobs", "2", "--json", str(tmp_path / "r.json"),
                                    "--csv", str(tmp_path / "r.csv")])
    assert out.exit_code == 1, out.output
    assert "Lost: 1 game whose worker died each of the 3 times it was played" in out.output
    assert "game 5 (seed 4)" in out.output and "Traceback" not in out.output
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["run"]["lost"] == [{"game": 5, "seed": 4}] and report["games"]["played"] == 11
    assert report["run"]["worker_deaths"] == RETRIES + 1 and "3 worker processes died during the run" in out.output
    rows = (tmp_path / "clean.csv").read_text(encoding="utf-8").splitlines()
    # the header, then games 1-4 and 6-12 as a clean run plays them
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").splitlines() == rows[:5] + rows[6:]


def test_compare_with_a_worker_killed_gives_the_clean_comparison(tmp_path, monkeypatch):
    args = ["compare", "pony", "-a", "limit=20", "-o", "limit=30", "-n", "10", "--seed", "5"]
    here = CliRunner().invoke(main, [*args, "--jobs", "1", "--json", str(tmp_path / "clean.json")])
    assert here.exit_code == 0, here.output

    def deadly(*args: object, **kwargs: object) -> Deadly:
        return Deadly(*args, **kwargs, once_at=4, marker=str(tmp_path / "died"))  # type: ignore[arg-type]
    monkeypatch.setattr("koloda.sim.Table", deadly)
    out = CliRunner().invoke(main, [*args, "--jobs", "2", "--json", str(tmp_path / "killed.json")])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "died").exists() and "1 worker process died during the run" in out.output
    killed, clean_run = (json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
                         for name in ("killed", "clean"))
    assert killed["reports"][0]["run"]["worker_deaths"] == 1
    killed["reports"][0]["run"]["worker_deaths"] = 0
    assert killed == clean_run


# -- the command, as a process of its own, and the process table -------------------------------

def processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, command line) of every process that has not ended."""
    out = subprocess.run(["ps", "-ww", "-eo", "pid=,ppid=,stat=,args="], capture_output=True, text=True,
                         check=True).stdout
    table = {}
    for line in out.splitlines():
        pid, ppid, state, *args = line.split(None, 3)
        if not state.startswith("Z"):
            table[int(pid)] = (int(ppid), state, args[0] if args else "")
    return table


def descendants(root: int) -> dict[int, str]:
    """pid -> command line of every living process descended from `root`."""
    table = processes()
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, _, args) in table.items():
            if ppid == parent and pid not in found:
                found[pid] = args
                todo.append(pid)
    return found


def poll(condition: Callable[[], object], seconds: float = 60.0) -> object:
    """The condition's value once it is true, or its last value after `seconds` (a bounded wait)."""
    end = time.monotonic() + seconds
    while not (value := condition()) and time.monotonic() < end:
        time.sleep(0.2)
    return value


def still_running(pids: set[int]) -> set[int]:
    return pids & set(processes())


def start_run(tmp_path, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "koloda.cli.main", "simulate", "pony", "-o", "limit=20", *args,
               "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.csv")]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def workers_of(run: subprocess.Popen[str], how_many: int = 2) -> dict[int, str]:
    found = poll(lambda: (w := {p: a for p, a in descendants(run.pid).items() if "spawn_main" in a})
                 and len(w) >= how_many and w)
    assert found, f"the workers did not start: {descendants(run.pid)}"
    return found  # type: ignore[return-value]


def test_a_worker_killed_from_outside_changes_nothing_in_the_records(tmp_path):
    # enough games that the run lasts past the kill on an idle machine too (400 take under two seconds)
    run = start_run(tmp_path, "-n", "3000", "--seed", "3", "--jobs", "2")
    try:
        workers_of(run)
        time.sleep(1.0)           # into the games, most likely (loading the game is not much shorter)
        for _ in range(20):       # a worker seen may have ended since (the pool replaces them): take one alive
            victim = min(workers_of(run))
            try:
                os.kill(victim, signal.SIGKILL)
                break
            except ProcessLookupError:
                continue
        else:
            pytest.fail("no worker stayed alive long enough to be killed")
        assert run.poll() is None, "the run ended before a worker could be killed"
        output, _ = run.communicate(timeout=120)
    finally:
        run.kill()
    assert run.returncode == 0, output
    assert victim not in processes()
    here = CliRunner().invoke(main, ["simulate", "pony", "-o", "limit=20", "-n", "3000", "--seed", "3", "--jobs", "1",
                                     "--csv", str(tmp_path / "clean.csv")])
    assert here.exit_code == 0
    assert (tmp_path / "r.csv").read_text(encoding="utf-8") == (tmp_path / "clean.csv").read_text(encoding="utf-8")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_end_the_run_with_the_partial_report_and_no_worker_left(tmp_path, sig, code):
    run = start_run(tmp_path, "-n", "100000", "--jobs", "2")
    try:
        workers = set(workers_of(run))
        time.sleep(1.0)
        run.send_signal(sig)
        output, _ = run.communicate(timeout=120)
    finally:
        run.kill()
    assert run.returncode == code, output
    assert "interrupted:" in output and "Traceback" not in output
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["run"]["stopped"] and 0 < report["games"]["played"] < 100000
    rows = (tmp_path / "r.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == report["games"]["played"] + 1
    assert poll(lambda: not still_running(workers), 30), still_running(workers)


def test_workers_die_with_a_parent_killed_by_sigkill(tmp_path):
    run = start_run(tmp_path, "-n", "100000", "--jobs", "2")
    try:
        left = set(workers_of(run)) | set(descendants(run.pid))
        run.kill()
        run.wait(timeout=60)
    finally:
        run.kill()
    assert left
    assert poll(lambda: not still_running(left), 30), still_running(left)


# -- a Ray cluster on this machine (the extra `koloda[ray]`); slow to start: two tests -----------

@pytest.fixture
def ray_env(tmp_path, monkeypatch):
    """Ray's sockets under a short temporary path (socket paths are limited to about 100 bytes),
    its token under a HOME of this test."""
    ray = pytest.importorskip("ray")
    import tempfile
    short = tempfile.mkdtemp(prefix="kr")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RAY_TMPDIR", short)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    yield ray, short
    import shutil
    shutil.rmtree(short, ignore_errors=True)


def test_a_dead_ray_worker_has_its_games_played_again_or_listed(ray_env, tmp_path):
    ray, short = ray_env
    from koloda.sim.ray_backend import simulate_ray
    # the actors unpickle the table: they get this module's class by value, not by a name to import
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=short)
    try:
        table = Deadly("pony", SHORT, 2, 0, 100_000, (), once_at=2, always_at=7, marker=str(tmp_path / "died"))
        result = simulate_ray(table, 10, 2)
    finally:
        ray.shutdown()
    assert (tmp_path / "died").exists() and not result.stopped
    assert result.lost == [(7, 7)]
    assert result.records == [r for r in clean(10) if r.number != 7]


def test_nothing_of_a_local_ray_instance_outlives_a_parent_killed_by_sigkill(ray_env, tmp_path):
    run = start_run(tmp_path, "-n", "100000", "--jobs", "2", "--backend", "ray")
    try:
        actors = poll(lambda: [a for a in descendants(run.pid).values() if "_Player" in a], 120)
        assert actors, descendants(run.pid)
        left = set(descendants(run.pid))
        run.kill()
        run.wait(timeout=60)
    finally:
        run.kill()
    assert poll(lambda: not still_running(left), 60), {p: processes().get(p) for p in still_running(left)}
