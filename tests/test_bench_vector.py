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


def test_another_trees_single_env_runs_in_a_process_of_its_own(tmp_path):
    import os
    module = bench_script("vector")
    tree = os.path.dirname(os.path.dirname(os.path.abspath(module.__file__)))
    run = module.elsewhere(tree, "pony", 40, 0)
    assert run() >= 0.0 and run() >= 0.0       # one round each time it is asked

    broken = tmp_path / "broken"
    (broken / "koloda").mkdir(parents=True)
    (broken / "koloda" / "__init__.py").write_text("raise ImportError('not a koloda')\n")
    with pytest.raises(SystemExit, match="stopped"):
        module.elsewhere(str(broken), "pony", 40, 0)()
