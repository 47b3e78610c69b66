"""bench/vector.py: its three loops and the engine's ceiling run on a koloda env (a few steps each)."""
from __future__ import annotations

import pytest

from tests.benchscripts import bench_script

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")


def test_each_loop_runs_its_steps_and_reports_cpu_seconds():
    module = bench_script("vector")
    import koloda.vector

    runs = [module.single("pony", 40, 0),
            module.batched(lambda: koloda.vector.SeatVectorEnv("pony", 4, seat=0, others="random"), 4, 40, 0),
            module.engine("pony", 4, 400, 0)]        # enough steps for matches to end and start again
    for run in runs:
        assert run() >= 0.0
