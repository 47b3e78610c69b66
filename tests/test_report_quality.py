"""Quality measures on small constructed games whose values are known (docs/simulate.md)."""
from __future__ import annotations

import pytest

from koloda.report.quality import decisiveness, drama, lead_changes, leader_wins, measure, side_standings


def test_lead_changes_count_a_new_sole_leader_only():
    # leaders: P1, P2, P2, tie, P2, P1: taken twice; the tie neither takes nor loses the lead
    points = [[1, 0], [0, 1], [0, 1], [1, 1], [0, 1], [2, 0]]
    assert lead_changes(points) == 2
    assert lead_changes([[1, 1], [0, 1], [1, 1], [0, 1]]) == 0


def test_drama_is_how_far_behind_the_winner_was():
    # the winner (side 0) trails once, by the whole range of the game: the most drama there is
    assert drama([[0, 0], [0, 4], [4, 0]], winner=0) == pytest.approx(1.0)
    # trailing by 1 and by 4 of a range of 5
    assert drama([[0, 1], [0, 4], [5, 0]], winner=0) == pytest.approx((0.2 + 0.8) / 2)
    assert drama([[1, 0], [2, 0], [3, 1]], winner=0) == 0.0       # never behind


def test_decisiveness_is_the_share_of_the_game_left_once_the_lead_was_safe():
    # the loser's best is 2; the winner is above it from point 2 of 0..4 to the end: half the game left
    assert decisiveness([[0, 0], [1, 2], [3, 0], [4, 0], [5, 0]], winner=0) == pytest.approx(0.5)
    # above the loser's best only at the very end: nothing left
    assert decisiveness([[0, 0], [1, 2], [3, 0]], winner=0) == 0.0
    # never above it: open to the end
    assert decisiveness([[0, 3], [1, 2], [2, 0]], winner=0) == 0.0


def test_leader_wins_at_each_tenth_of_the_game():
    points = [[1, 0]] * 5 + [[0, 1]] * 6           # P1 leads the first half, P2 (who wins) the second
    assert leader_wins(points, frozenset({1})) == (0, 0, 0, 0, 1, 1, 1, 1, 1, 1)
    assert leader_wins([[1, 1]] * 11, frozenset({1}))[0] == 0.5      # a shared lead: half of it won


def test_partners_are_one_side_and_standings_become_margins():
    assert side_standings([[4, 0, 2, 0]], [0, 1, 0, 1]) == [[3.0, -3.0]]
    assert side_standings([[3, 0, 0]], [0, 1, 2]) == [[3.0, -1.5, -1.5]]


def test_a_penalty_game_is_decided_by_margins_not_by_falling_standings():
    # every standing falls (penalties), but P1 pulls ahead from the middle on
    q = measure([[0, 0], [-1, -3], [-2, -6]], sides=[0, 1], returns=[1.0, 0.0])
    assert q.decisiveness == pytest.approx(0.5)
    assert q.lead_changes == 0 and q.drama == 0.0


def test_a_draw_has_no_winner_to_measure():
    q = measure([[0, 0], [1, 0], [0, 1]], sides=[0, 1], returns=[0.5, 0.5])
    assert q.drama is None and q.decisiveness is None and q.leader_wins == ()
    assert q.lead_changes == 1
