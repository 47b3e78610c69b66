"""How long a simulation will take: worked out from its first game, said only when it is long."""
from __future__ import annotations

import pytest

import koloda
from koloda.sim import ESTIMATE_FROM, Table, duration_text, expected_seconds, simulate, simulate_timed
from koloda.sim.timing import seconds_text


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


@pytest.mark.parametrize("seconds, text", [
    (0.0001, "less than 1 ms"), (0.004, "4 ms"), (0.0449, "45 ms"), (0.4, "400 ms"), (0.9999, "1.0 s"),
    (2.44, "2.4 s"), (12.3, "12 s"),
])
def test_seconds_text(seconds, text):
    assert seconds_text(seconds) == text


def test_the_estimate_never_says_the_first_game_took_no_time():
    from koloda.cli.reports import estimate_line
    line = estimate_line("Pony", 2000, expected_seconds(0.004, 2000, 2), 0.004, 2)
    assert line == "Pony: 2000 games, about 5 seconds on 2 workers (the first took 4 ms)"
    for first in (0.0, 1e-7, 0.01, 0.049):
        assert "0.0 s" not in estimate_line("Pony", 10**6, 60.0, first, 2)
