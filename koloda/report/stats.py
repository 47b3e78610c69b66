"""Intervals and distributions: the statistics a report is made of.

Every interval is a 95% one, contains its estimate and stays within the range its measure can
take. Shares (win share, draws, forced decisions) use the Wilson score interval, which stays inside
0..1 and behaves at shares near 0 or 1 and at small counts, where the normal approximation does
not. Means of measures bounded on both sides (drama, decisiveness, a counter's share of deals) use
Wilson's interval with an effective number of trials: as many yes-or-no trials as would make the
mean as uncertain as it is (Korn and Graubard 1998, for shares from clustered samples). Means of
measures that cannot be negative (lengths, lead changes) use the normal approximation on the log
scale, and unbounded means (scores) mean ± 1.96·sd/√n."""
from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054      # the 97.5% point of the standard normal

# the range of a measure: (lowest, highest), either end may be infinite
Range = tuple[float, float]
SHARE: Range = (0.0, 1.0)
COUNT: Range = (0.0, math.inf)
ANY: Range = (-math.inf, math.inf)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share `successes / n`. A fractional count (a shared win counts
    its share) is used as it is: the interval is then approximate, as any for such data. The bounds
    are exactly 0 at a share of 0 and exactly 1 at a share of 1 (the formula's rounding would leave
    them a hair inside or outside), and the share always lies between them."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(successes / n, 0.0), 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if p == 0.0 else min(p, max(0.0, centre - half))
    high = 1.0 if p == 1.0 else max(p, min(1.0, centre + half))
    return (low, high)


def bounded_interval(mean: float, se: float, n: int, within: Range = SHARE,
                     z: float = Z95) -> tuple[float, float]:
    """The interval of a mean `mean` with standard error `se` over `n` games of a measure that lies
    in `within` (both ends finite): Wilson's interval on the mean put on 0..1, with the number of
    trials that gives a yes-or-no share the same standard error. With no spread at all (every game
    the same) each game counts as one trial: no spread in the games is no proof of none."""
    lo, hi = within
    width = hi - lo
    m = min(max((mean - lo) / width, 0.0), 1.0)
    s = se / width
    trials = m * (1 - m) / (s * s) if s > 0 and 0.0 < m < 1.0 else float(n)
    a, b = wilson(m * trials, trials, z)
    return (min(mean, max(lo, lo + a * width)), max(mean, min(hi, lo + b * width)))


def interval(mean: float, se: float, n: int, within: Range = ANY, z: float = Z95) -> tuple[float, float]:
    """A mean's interval within the range its measure can take: Wilson's with effective trials for
    a bounded measure, the normal one on the log scale for one bounded below only (it cannot reach
    the bound unless every value is on it), else the normal approximation."""
    lo, hi = within
    if n == 0:
        return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else (mean, mean)
    if math.isfinite(lo) and math.isfinite(hi):
        return bounded_interval(mean, se, n, within, z)
    if math.isfinite(lo):
        above = mean - lo
        if above <= 0 or se <= 0:
            return (mean, mean)
        factor = math.exp(min(z * se / above, 700.0))      # 700: no overflow, whatever the values
        return (max(lo, min(mean, lo + above / factor)), max(mean, lo + above * factor))
    return (mean - z * se, mean + z * se)


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, 0.0)
    return (mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)))


def mean_interval(values: Sequence[float], within: Range = ANY, z: float = Z95) -> tuple[float, float, float]:
    """The mean with its interval (see `interval`) for a measure that lies in `within`."""
    mean, sd = mean_sd(values)
    n = len(values)
    low, high = interval(mean, sd / math.sqrt(n) if n else 0.0, n, within, z)
    return (mean, low, high)


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float],
                   z: float = Z95) -> tuple[float, float, float]:
    """The share sum(numerators) / sum(denominators) over games, each game a cluster of trials (the
    deals of a game are not independent of each other): the ratio estimator with its
    linearised (delta-method) standard error, given as a bounded mean's interval (the share cannot
    leave 0..1). Where every game has the same share (a counter never or always seen) that error is
    nil, and the interval is Wilson's with each game counted as one trial: as sure as the games make
    it, no surer."""
    n = len(numerators)
    total = math.fsum(denominators)
    if n == 0 or total <= 0:
        return (0.0, 0.0, 1.0)
    r = math.fsum(numerators) / total
    if n < 2:
        return (r, 0.0, 1.0)
    mean_d = total / n
    residual = math.fsum((a - r * d) ** 2 for a, d in zip(numerators, denominators)) / (n - 1)
    low, high = bounded_interval(r, math.sqrt(residual / n) / mean_d, n, SHARE, z)
    return (r, low, high)


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
        if edges[1] == edges[0]:        # values too close for `bins` bins (5e-324 / 20 is 0): one bin holds them
            edges = [low, high]
    counts = [0] * (len(edges) - 1)
    last = len(counts) - 1
    for v in values:
        k = min(int((v - edges[0]) / (edges[1] - edges[0])), last)
        counts[k] += 1
    return ([float(e) for e in edges], counts)


def distribution(values: Sequence[float], bins: int = 20, within: Range = ANY) -> dict:
    """Mean with interval, spread, quantiles and histogram: how a report gives any per-game number
    (`within`: the range the number can take, which its mean's interval keeps to)."""
    ordered = sorted(values)
    mean, low, high = mean_interval(ordered, within)
    edges, counts = histogram(ordered, bins)
    return {"n": len(ordered), "mean": mean, "low": low, "high": high, "sd": mean_sd(ordered)[1],
            "min": ordered[0] if ordered else 0.0, "median": quantile(ordered, 0.5),
            "p90": quantile(ordered, 0.9), "max": ordered[-1] if ordered else 0.0,
            "histogram": {"edges": edges, "counts": counts}}


def share(successes: float, n: int) -> dict:
    """A share with its Wilson interval."""
    low, high = wilson(successes, n)
    return {"value": successes / n if n else 0.0, "low": low, "high": high, "n": n}
