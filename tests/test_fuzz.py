"""A quick seeded fuzz run: mutants of every shipped rule file give a rule error or play, never a
traceback or a hang. (bench/fuzz.py runs the same harness for as long as you like.)"""
from __future__ import annotations

from fuzzing import run

QUICK = 200


def test_mutants_of_the_shipped_files_give_no_traceback_and_no_hang(tmp_path):
    outcomes = run(QUICK, seed=2026, folder=tmp_path, moves=60, seconds=10)
    bad = [f"{o.name}: {o.kind}: {o.detail}" for o in outcomes if o.kind in ("traceback", "hang")]
    assert not bad, "\n".join(bad)
    kinds = {o.kind for o in outcomes}
    assert kinds == {"ok", "rule error"}, "the mutants cover both files that still play and broken ones"
