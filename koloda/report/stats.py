"""Intervals and distributions: the statistics a report is made of.

Every interval is a 95% one. Shares (win share, draws, forced decisions) use the Wilson score
interval, which stays inside 0..1 and behaves at shares near 0 or 1 and at small counts, where the
normal approximation does not. Means (scores, lengths, quality measures) use the normal
approximation mean ± 1.96·sd/√n, which is sound at the numbers of games a simulation plays."""
from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054      # the 97.5% point of the standard normal


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share `successes / n`. A fractional count (a shared win counts
    its share) is used as it is: the interval is then approximate, as any for such data."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(successes / n, 0.0), 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, 0.0)
    return (mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean with its normal-approximation interval."""
    mean, sd = mean_sd(values)
    half = z * sd / math.sqrt(len(values)) if values else 0.0
    return (mean, mean - half, mean + half)


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float],
                   z: float = Z95) -> tuple[float, float, float]:
    """The share sum(numerators) / sum(denominators) over games, each game a cluster of trials (the
    deals of a game are not independent of each other): the ratio estimator with its
    linearised (delta-method) standard error, clipped to 0..1 as the share cannot leave it.
    Where every game has the same share (a counter never or always seen) that error is nil, and the
    interval is Wilson's with each game counted as one trial: as sure as the games make it, no
    surer."""
    n = len(numerators)
    total = math.fsum(denominators)
    if n == 0 or total <= 0:
        return (0.0, 0.0, 1.0)
    r = math.fsum(numerators) / total
    if n < 2:
        return (r, 0.0, 1.0)
    mean_d = total / n
    residual = math.fsum((a - r * d) ** 2 for a, d in zip(numerators, denominators)) / (n - 1)
    if residual == 0:
        low, high = wilson(r * n, n, z)
        return (r, low, high)
    half = z * math.sqrt(residual / n) / mean_d
    return (r, max(0.0, r - half), min(1.0, r + half))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile by linear interpolation between the closest ranks."""
    if not sorted_values:
        return 0.0
    at = q * (len(sorted_values) - 1)
    low = math.floor(at)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (at - low)


def histogram(values: Sequence[float], bins: int = 20) -> tuple[list[float], list[int]]:
    """Edges and counts. Whole numbers over a small range get one bin each, so a histogram of
    lengths or scores never splits or merges values unevenly."""
    if not values:
        return ([], [])
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low < bins * 2:
        edges = [low - 0.5 + k for k in range(int(high - low) + 2)]
    else:
        if high == low:
            high = low + 1
        step = (high - low) / bins
        edges = [low + k * step for k in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    last = len(counts) - 1
    for v in values:
        k = min(int((v - edges[0]) / (edges[1] - edges[0])), last)
        counts[k] += 1
    return ([float(e) for e in edges], counts)


def distribution(values: Sequence[float], bins: int = 20) -> dict:
    """Mean with interval, spread, quantiles and histogram: how a report gives any per-game number."""
    ordered = sorted(values)
    mean, low, high = mean_interval(ordered)
    edges, counts = histogram(ordered, bins)
    return {"n": len(ordered), "mean": mean, "low": low, "high": high, "sd": mean_sd(ordered)[1],
            "min": ordered[0] if ordered else 0.0, "median": quantile(ordered, 0.5),
            "p90": quantile(ordered, 0.9), "max": ordered[-1] if ordered else 0.0,
            "histogram": {"edges": edges, "counts": counts}}


def share(successes: float, n: int) -> dict:
    """A share with its Wilson interval."""
    low, high = wilson(successes, n)
    return {"value": successes / n if n else 0.0, "low": low, "high": high, "n": n}
