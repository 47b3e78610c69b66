"""How long a simulation will take: worked out from its first game, said only when it is long."""
from __future__ import annotations

import pytest

import koloda
from koloda.sim import ESTIMATE_FROM, Table, duration_text, expected_seconds, simulate, simulate_timed


@pytest.mark.parametrize("first, count, jobs, seconds", [
    (2.0, 1, 4, 2.0),                  # nothing left to share out
    (2.0, 10, 1, 20.0),                # one after another
    (2.0, 11, 2, 2.0 + 10.0 + 1.5),    # the other ten on two processes, which take a moment to start
    (2.0, 3, 8, 2.0 + 2.0 + 1.5),      # more processes than games: each plays one
])
def test_expected_seconds(first, count, jobs, seconds):
    assert expected_seconds(first, count, jobs) == pytest.approx(seconds)


@pytest.mark.parametrize("seconds, text", [
    (0.4, "about 5 seconds"), (12, "about 10 seconds"), (43, "about 45 seconds"),
    (60, "about 1 minute"), (725, "about 12 minutes"), (89 * 60, "about 89 minutes"),
    (2 * 3600, "about 2.0 hours"), (5400, "about 1.5 hours"), (40 * 3600, "about 40 hours"),
])
def test_duration_text(seconds, text):
    assert duration_text(seconds) == text


class Clock:
    """A clock that moves on `step` seconds each time it is read."""
    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_long_run_is_estimated_before_the_rest_is_played():
    game = koloda.load("pony", {"limit": "20"})
    said: list[tuple[float, float, int]] = []
    played: list[int] = []
    result = simulate_timed(game, Table("pony", {"limit": "20"}, 2, 1, 100_000, ()), 6, 1,
                            progress=played.append, estimate=lambda s, first: said.append((s, first, len(played))),
                            clock=Clock(ESTIMATE_FROM))       # the first game "takes" the threshold
    assert said == [(ESTIMATE_FROM * 6, ESTIMATE_FROM, 1)]     # said once, after one game of six
    assert len(played) == 6
    plain = simulate(game, 6, 1)
    assert (result.wins, result.moves, result.score_sum) == (plain.wins, plain.moves, plain.score_sum)


def test_a_short_run_says_nothing():
    game = koloda.load("pony", {"limit": "20"})
    said: list[tuple[float, float]] = []
    simulate_timed(game, Table("pony", {"limit": "20"}, 2, 1, 100_000, ()), 3, 1, estimate=lambda s, f: said.append((s, f)),
                   clock=Clock(ESTIMATE_FROM / 10))
    assert said == []
