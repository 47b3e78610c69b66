"""Seeded random games of every shipped game play exactly as recorded: the same legal moves, move
texts, scores and returns (tests/golden/transcripts.json; bench/transcripts.py writes it)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import koloda
from tests.benchscripts import bench_script

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "tests" / "golden" / "transcripts.json").read_text())


def _bench():
    return bench_script("transcripts")


def test_every_shipped_game_is_recorded():
    assert sorted(GOLDEN["digests"]) == sorted(koloda.shipped_games())


@pytest.mark.parametrize("name", sorted(GOLDEN["digests"]))
def test_games_play_as_recorded(name):
    found, _ = _bench().digests(name, GOLDEN["games"], GOLDEN["seed"], GOLDEN["max_moves"])
    assert found == GOLDEN["digests"][name], \
        f"{name}: moves, move texts or scores changed (bench/transcripts.py --only {name} compares them)"
