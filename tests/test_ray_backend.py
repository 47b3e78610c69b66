"""`--backend ray`: a local Ray instance plays the same games as local processes (the extra `koloda[ray]`)."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

import koloda
from koloda.sim import Table, simulate


@pytest.fixture
def local_ray(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    # Ray keeps its sockets and logs under a temporary folder whose path must stay short (socket
    # paths are limited to about 100 bytes), and a token under HOME: both go to folders of this test
    short = tempfile.mkdtemp(prefix="kr")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=short)
    yield ray
    ray.shutdown()
    shutil.rmtree(short, ignore_errors=True)


def test_ray_plays_the_same_games_as_one_process(local_ray):
    from koloda.sim.ray_backend import connect, simulate_ray
    assert connect(None, 2) == 2                        # joins the instance already started
    table = Table("pony", {"limit": "20"}, 2, 7, 100_000, ("greedy",), rotate=True)
    on_ray = simulate_ray(table, 12, 2)
    here = simulate(koloda.load("pony", {"limit": "20"}), 12, seed=7, seats=["greedy"], rotate=True)
    assert not on_ray.stopped and on_ray.records == here.records
    assert os.environ["HOME"] != os.path.expanduser("~root")
