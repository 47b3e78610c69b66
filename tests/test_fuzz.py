"""A quick seeded fuzz run: mutants of every shipped rule file give a rule error or play, never a
traceback or a hang. (bench/fuzz.py runs the same harness for as long as you like.)"""
from __future__ import annotations

import random

from fuzzing import mutant, plain, run

import koloda
from koloda.api import load_spec
from koloda.dsl.loader import shipped_names, shipped_path

QUICK = 200


def test_mutants_of_the_shipped_files_give_no_traceback_and_no_hang(tmp_path):
    outcomes = run(QUICK, seed=2026, folder=tmp_path, moves=60, seconds=60)      # a hang, not a slow machine
    bad = [f"{o.name}: {o.kind}: {o.detail}" for o in outcomes if o.kind in ("traceback", "hang")]
    assert not bad, "\n".join(bad)
    kinds = {o.kind for o in outcomes}
    assert kinds == {"ok", "rule error"}, "the mutants cover both files that still play and broken ones"


def test_mutants_are_refused_in_short_plain_words(tmp_path):
    """However a file is broken (a 5000-character name, a mapping where a list belongs), its messages
    stay a line or two, in the rule writer's words."""
    rng = random.Random(14)
    names = shipped_names()
    problems = []
    for k in range(40):
        name = rng.choice(names)
        path = tmp_path / f"{name}.yaml"
        path.write_text(mutant(shipped_path(name).read_text(encoding="utf-8"), rng), encoding="utf-8")
        try:
            load_spec(str(path))
        except koloda.RuleErrors as exc:
            problems += [f"mutant {k} of {name}: {p}" for e in exc.errors for p in plain(e)]
        except koloda.RuleError as exc:
            problems += [f"mutant {k} of {name}: {p}" for p in plain(exc)]
    assert not problems, "\n".join(problems)
