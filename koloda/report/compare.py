"""Two variants played on the same seeds: paired differences, B less A, with intervals.

Game k of each variant has the same seed, so where the variants deal the same cards the luck of
the deal cancels out of each difference, and a difference is found with far fewer games than two
separate runs would need. Each measure's per-game difference gets a 95% interval and a two-sided
p-value of the same test, so that `significant` (p < 0.05) is the interval leaving out 0: the
normal approximation, or for a measure bounded on both sides (a share, drama) Wilson's score
interval and test with effective trials, which keep a difference of two shares within -1..1.
`holm` says whether a difference stays significant after Holm's correction for testing every
measure of the table at once."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from koloda.report.records import GameRecord
from koloda.report.stats import ANY, SHARE, Z95, Range, bounded_interval, mean_sd

FORMAT = "koloda-compare/1"
ALPHA = 0.05

Measure = Callable[[GameRecord], float | None]


def paired(name: str, a: Sequence[float], b: Sequence[float], within: Range = ANY) -> dict[str, Any]:
    """One measure over the games where both variants have it; `within`: the measure's range."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    mean, sd = mean_sd(diffs)
    se = sd / math.sqrt(n) if n else 0.0
    low, high = mean - Z95 * se, mean + Z95 * se
    if se > 0 and math.isfinite(within[0]) and math.isfinite(within[1]):
        # a difference lies in ±(the measure's width): Wilson on that range, whose test at a
        # difference of 0 has the interval's answer
        width = 2 * (within[1] - within[0])
        m = min(max(mean / width + 0.5, 0.0), 1.0)
        trials = m * (1 - m) / (se / width) ** 2
        low, high = bounded_interval(mean, se, n, (-width / 2, width / 2))
        p = math.erfc(abs(m - 0.5) / math.sqrt(0.25 / trials) / math.sqrt(2)) if trials > 0 else 0.0
    elif se > 0:
        p = math.erfc(abs(mean) / se / math.sqrt(2))
    else:
        p = 1.0 if mean == 0 or n < 2 else 0.0       # every game differs by the same amount
    return {"measure": name, "n": n, "a": mean_sd(a)[0], "b": mean_sd(b)[0], "diff": mean,
            "low": low, "high": high, "p": p, "significant": p < ALPHA, "holm": False}


def _holm(rows: list[dict[str, Any]]) -> None:
    """Holm-Bonferroni over the table: the k-th smallest p-value (from 0) is held to ALPHA / (m - k)."""
    ordered = sorted((r for r in rows if r["n"] >= 2), key=lambda r: r["p"])
    m = len(ordered)
    for k, row in enumerate(ordered):
        if row["p"] >= ALPHA / (m - k):
            break
        row["holm"] = True


def measures(players: int, counters: Sequence[str], house: bool = False) -> list[tuple[str, Measure, Range]]:
    """Each measure of the table: its name, its value in a game (None: it has none), its range."""
    def seat_result(p: int) -> Measure:
        return lambda r: r.returns[p]

    def seat_score(p: int) -> Measure:
        return lambda r: r.scores[p]

    def counter(name: str) -> Measure:
        return lambda r: r.counts.get(name, 0) / r.deals if r.deals else None

    out: list[tuple[str, Measure, Range]] = [(f"win share P{p + 1}", seat_result(p), SHARE) for p in range(players)]
    out += [(f"mean score P{p + 1}", seat_score(p), ANY) for p in range(players)]
    out += [("draws", lambda r: float(r.drawn(house)), SHARE), ("deals", lambda r: r.deals, ANY),
            ("turns", lambda r: r.turns, ANY), ("decisions", lambda r: r.decisions, ANY),
            ("legal moves per decision", lambda r: r.legal_moves / r.decisions if r.decisions else None, ANY),
            ("forced decisions", lambda r: r.forced / r.decisions if r.decisions else None, SHARE),
            ("lead changes", lambda r: r.quality.lead_changes if r.quality else None, ANY),
            ("drama", lambda r: r.quality.drama if r.quality else None, SHARE),
            ("decisiveness", lambda r: r.quality.decisiveness if r.quality else None, SHARE)]
    out += [(f"deals counted: {name}", counter(name), SHARE) for name in counters]
    return out


def compare(a: Sequence[GameRecord], b: Sequence[GameRecord], *, names: Sequence[str], players: int,
            counters: Sequence[str] = (), reports: Sequence[dict[str, Any]] = (), house: bool = False) -> dict[str, Any]:
    """The comparison of variant B with A (records of the same game numbers and seeds).
    Only games that ended in both variants are paired; `reports`: each variant's own report."""
    by_number = {r.number: r for r in b}
    pairs = [(x, by_number[x.number]) for x in a if x.ended and x.number in by_number and by_number[x.number].ended]
    rows = []
    for name, value, within in measures(players, counters, house):
        both = [(va, vb) for x, y in pairs if (va := value(x)) is not None and (vb := value(y)) is not None]
        rows.append(paired(name, [float(v) for v, _ in both], [float(v) for _, v in both], within))
    _holm(rows)
    return {"format": FORMAT, "variants": list(names), "players": players, "games": max(len(a), len(b)),
            "paired": len(pairs), "alpha": ALPHA, "measures": rows, "reports": list(reports)}
