"""koloda tune stopped by Ctrl-C (the partial answer, exit 130, then --resume) and on Ray (the same
trials as on local processes)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("optuna")

from koloda.tune.search import grid_order, run_search  # noqa: E402
from tests.test_tune_search import DUEL, _plan, _trials  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _command(tmp_path: Path, seed: int, *more: str) -> list[str]:
    return [sys.executable, "-m", "koloda.cli.main", "tune", str(tmp_path / "duel.yaml"),
            "--target", "advantage.max <= 0.001", "--fix", "spare=0", "--fix", "rounds=1", "--sampler-seed", str(seed),
            "-n", "1000000", "--chunk", "50", "--storage", str(tmp_path / "s.db"), *more]


def _unfair_first(duel: Path) -> int:
    """A sampler seed whose grid plays an unfair variant first (pruned at once: its line tells the
    search is under way) and the fair one second (it plays on until stopped)."""
    for seed in range(50):
        order = grid_order(_plan(duel, duel.parent / "unused.db", space=("spare=0", "rounds=1"), sampler_seed=seed))
        if order[0]["edge"] != 0 and order[1]["edge"] == 0:
            return seed
    raise AssertionError("no such seed")


def test_ctrl_c_ends_with_the_best_so_far_and_exit_130_and_the_search_resumes(tmp_path):
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    seed = _unfair_first(tmp_path / "duel.yaml")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the fair variant cannot clearly meet so tight a target: its trial plays on until stopped
    proc = subprocess.Popen(_command(tmp_path, seed), cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()           # a first trial ended: the search is under way
        assert line.startswith("trial 1 "), line
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Interrupted after" in out and "--resume" in out
    again = subprocess.run(_command(tmp_path, seed, "--resume", "--trials", "1"), cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    # the one trial asked for is already played: the search answers from the storage
    # (the unfair variant, pruned: no variant meets the target, and the nearest is told, not played out)
    assert again.returncode == 1 and "the nearest" in again.stdout and "edge=" in again.stdout, again.stderr
    refused = subprocess.run(_command(tmp_path, seed), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and "--resume" in refused.stderr


def test_ray_gives_the_same_search_as_local_processes(local_ray, tmp_path):
    from koloda.sim.ray_backend import connect, simulate_ray
    assert connect(None, 2) == 2
    duel = tmp_path / "duel.yaml"
    duel.write_text(DUEL, encoding="utf-8")
    kw = dict(space=("spare=3",), games=800, chunk=400, trials=3)       # chunks large enough to share out
    here = run_search(_plan(duel, tmp_path / "here.db", **kw))
    plan = _plan(duel, tmp_path / "ray.db", jobs=2, **kw)
    on_ray = run_search(replace(plan, setup=replace(plan.setup, backend=simulate_ray)))
    assert _trials(on_ray) == _trials(here) and len(here.trials) == 3
