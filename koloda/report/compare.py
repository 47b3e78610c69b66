"""Two variants played on the same seeds: paired differences, B less A, with intervals.

Game k of each variant has the same seed, so where the variants deal the same cards the luck of
the deal cancels out of each difference, and a difference is found with far fewer games than two
separate runs would need. Each measure's per-game difference gets a normal-approximation 95%
interval and a two-sided p-value; `significant` is p < 0.05, and `holm` says whether it stays
so after Holm's correction for testing every measure of the table at once."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from koloda.report.records import GameRecord
from koloda.report.stats import Z95, mean_sd

FORMAT = "koloda-compare/1"
ALPHA = 0.05

Measure = Callable[[GameRecord], float | None]


def paired(name: str, a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """One measure over the games where both variants have it."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    mean, sd = mean_sd(diffs)
    se = sd / math.sqrt(n) if n else 0.0
    if se > 0:
        p = math.erfc(abs(mean) / se / math.sqrt(2))
    else:
        p = 1.0 if mean == 0 or n < 2 else 0.0       # every game differs by the same amount
    return {"measure": name, "n": n, "a": mean_sd(a)[0], "b": mean_sd(b)[0], "diff": mean,
            "low": mean - Z95 * se, "high": mean + Z95 * se, "p": p, "significant": p < ALPHA, "holm": False}


def _holm(rows: list[dict[str, Any]]) -> None:
    """Holm-Bonferroni over the table: the k-th smallest p-value (from 0) is held to ALPHA / (m - k)."""
    ordered = sorted((r for r in rows if r["n"] >= 2), key=lambda r: r["p"])
    m = len(ordered)
    for k, row in enumerate(ordered):
        if row["p"] >= ALPHA / (m - k):
            break
        row["holm"] = True


def measures(players: int, counters: Sequence[str]) -> list[tuple[str, Measure]]:
    def seat_result(p: int) -> Measure:
        return lambda r: r.returns[p]

    def seat_score(p: int) -> Measure:
        return lambda r: r.scores[p]

    def counter(name: str) -> Measure:
        return lambda r: r.counts.get(name, 0) / r.deals if r.deals else None

    out: list[tuple[str, Measure]] = [(f"win share P{p + 1}", seat_result(p)) for p in range(players)]
    out += [(f"mean score P{p + 1}", seat_score(p)) for p in range(players)]
    out += [("draws", lambda r: float(r.draw)), ("deals", lambda r: r.deals), ("turns", lambda r: r.turns),
            ("decisions", lambda r: r.decisions),
            ("legal moves per decision", lambda r: r.legal_moves / r.decisions if r.decisions else None),
            ("forced decisions", lambda r: r.forced / r.decisions if r.decisions else None),
            ("lead changes", lambda r: r.quality.lead_changes if r.quality else None),
            ("drama", lambda r: r.quality.drama if r.quality else None),
            ("decisiveness", lambda r: r.quality.decisiveness if r.quality else None)]
    out += [(f"deals counted: {name}", counter(name)) for name in counters]
    return out


def compare(a: Sequence[GameRecord], b: Sequence[GameRecord], *, names: Sequence[str], players: int,
            counters: Sequence[str] = (), reports: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The comparison of variant B with A (records of the same game numbers and seeds).
    Only games that ended in both variants are paired; `reports`: each variant's own report."""
    by_number = {r.number: r for r in b}
    pairs = [(x, by_number[x.number]) for x in a if x.ended and x.number in by_number and by_number[x.number].ended]
    rows = []
    for name, value in measures(players, counters):
        both = [(va, vb) for x, y in pairs if (va := value(x)) is not None and (vb := value(y)) is not None]
        rows.append(paired(name, [float(v) for v, _ in both], [float(v) for _, v in both]))
    _holm(rows)
    return {"format": FORMAT, "variants": list(names), "players": players, "games": max(len(a), len(b)),
            "paired": len(pairs), "alpha": ALPHA, "measures": rows, "reports": list(reports)}
