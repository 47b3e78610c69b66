"""The statistics of a report, against values worked out by hand or from published tables."""
from __future__ import annotations

import pytest

from koloda.report.stats import distribution, histogram, mean_interval, quantile, ratio_interval, share, wilson


@pytest.mark.parametrize("k, n, low, high", [
    (0, 10, 0.0, 0.2775),        # Wilson's interval never goes below 0, and is not empty at 0 of n
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),   # Newcombe (1998), example 2 of method 3
])
def test_wilson_interval(k, n, low, high):
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_wilson_narrows_with_more_trials():
    small, large = wilson(30, 100), wilson(300, 1000)
    assert large[0] > small[0] and large[1] < small[1]


def test_a_share_of_nothing_says_nothing_is_known():
    assert share(0, 0) == {"value": 0.0, "low": 0.0, "high": 1.0, "n": 0}


def test_mean_interval():
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 1.959964 * 1.2909944 / 2          # sd of 1..4 is sqrt(5/3)
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))


def test_ratio_interval_of_games_that_all_agree_is_as_wide_as_the_games_make_it():
    # no spread between games is no proof of none: each game counts as one trial
    assert ratio_interval([1, 2, 3], [2, 4, 6]) == pytest.approx((0.5, *wilson(1.5, 3)))


def test_a_counter_never_seen_still_has_an_upper_bound():
    value, low, high = ratio_interval([0] * 300, [8] * 300)
    assert value == 0.0 and low == pytest.approx(0.0, abs=1e-12)
    assert high == pytest.approx(wilson(0, 300)[1]) and 0.01 < high < 0.015


def test_ratio_interval_counts_deals_not_games():
    # 1 of 1 deals in one game, 0 of 9 in another: 10% of deals, not 50% of games
    value, low, high = ratio_interval([1, 0, 1, 0], [1, 9, 1, 9])
    assert value == pytest.approx(0.1)
    assert 0.0 <= low < 0.1 < high <= 1.0


def test_histogram_of_whole_numbers_has_a_bin_each():
    edges, counts = histogram([1, 2, 2, 3])
    assert edges == [0.5, 1.5, 2.5, 3.5] and counts == [1, 2, 1]


def test_histogram_of_values_too_close_for_its_bins_puts_them_in_one():
    # found by the property test of report intervals: the smallest float above 0 and 0
    edges, counts = histogram([0.0, 5e-324, 5e-324], bins=20)
    assert edges == [0.0, 5e-324] and counts == [3]


def test_histogram_of_fractions_keeps_every_value():
    edges, counts = histogram([0.0, 0.25, 0.5, 1.0], bins=4)
    assert len(edges) == 5 and sum(counts) == 4 and counts[-1] == 1


def test_quantiles_and_distribution():
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    d = distribution([4, 1, 3, 2, 10])
    assert (d["min"], d["median"], d["max"], d["n"]) == (1, 3, 10, 5)
    assert d["low"] < d["mean"] == 4.0 < d["high"]
    assert sum(d["histogram"]["counts"]) == 5
