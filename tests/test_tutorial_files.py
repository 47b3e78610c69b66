"""The tutorial's rule files (docs/tutorial/*.yaml), which readers copy: each checks clean and plays
a seeded random match to the end, with every card kept."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import koloda
from helpers import conservation

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial"
FILES = sorted(TUTORIAL.glob("*.yaml"))


def test_the_tutorial_has_its_stage_files():
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_tutorial_file_checks_and_plays_to_the_end(path):
    game = koloda.load(str(path))
    state = game.new_initial_state(seed=1)
    rng = random.Random(1)
    moves = 0
    while not state.is_terminal() and moves < 20_000:
        legal = state.legal_actions()
        assert legal, "a state that is not over has a legal move"
        state.apply_action(rng.choice(legal))
        conservation(state)
        moves += 1
    assert state.is_terminal(), f"{path.name} did not end in 20,000 moves"


def test_the_tutorial_counter_is_reported_by_the_game():
    game = koloda.load(str(TUTORIAL / "step5.yaml"))
    assert set(game.counters) == {"jack_finish"}
