"""`--backend ray`: a local Ray instance plays the same games as local processes (the extra `koloda[ray]`)."""
from __future__ import annotations

import os

import pytest

import koloda
from koloda.sim import Table, simulate


def test_ray_plays_the_same_games_as_one_process(local_ray):
    from koloda.sim.ray_backend import connect, simulate_ray
    assert connect(None, 2) == 2                        # joins the instance already started
    table = Table("pony", {"limit": "20"}, 2, 7, 100_000, ("greedy",), rotate=True)
    on_ray = simulate_ray(table, 12, 2)
    here = simulate(koloda.load("pony", {"limit": "20"}), 12, seed=7, seats=["greedy"], rotate=True)
    assert not on_ray.stopped and on_ray.records == here.records
    assert os.environ["HOME"] != os.path.expanduser("~root")
