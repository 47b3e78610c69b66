"""The measures a target is written on: the report's own (docs/simulate.md), each with its value and
95% interval, by a short name (`advantage.max`, `turns.median`, `counter.jack_finish`, `drama`).

Each is read from the report `summarise` makes, with its interval as the report gives it; a
median or 90th percentile, which the report gives without one, gets the distribution-free
interval of a quantile (the order statistics a binomial count puts around it)."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from koloda.report.records import GameRecord
from koloda.report.stats import Z95


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


Getter = Callable[[dict[str, Any], Sequence[GameRecord]], Estimate]

LENGTHS = ("deals", "turns", "decisions")
# what a measure is, for the list `koloda tune --measures` prints and the did-you-mean of a typo
ABOUT = {
    "advantage.max": "the largest seat advantage (win share less 1/players)",
    "advantage.P1": "seat 1's advantage (and so for every seat)",
    "win_share.P1": "seat 1's share of the wins (and so for every seat)",
    "score.P1": "seat 1's mean score (and so for every seat)",
    "draws": "the share of games drawn",
    "deals": "deals per game, the mean (also deals.mean, deals.median, deals.p90)",
    "turns": "turns per game, the mean (also .mean, .median, .p90)",
    "decisions": "bot decisions per game, the mean (also .mean, .median, .p90)",
    "forced": "the share of decisions with one legal move",
    "lead_changes": "lead changes per game, the mean",
    "drama": "how far behind the winner was, when behind (0..1)",
    "decisiveness": "how early the winner was clear (0..1)",
    "counter.NAME": "the share of deals at which the rule file's `count:` NAME held",
}


def _of(part: dict[str, Any], n_key: str = "n") -> Estimate:
    value = part["value"] if "value" in part else part["mean"]
    return Estimate(float(value), float(part["low"]), float(part["high"]), int(part.get(n_key, 0)))


def quantile_interval(values: Sequence[float], q: float) -> Estimate:
    """The q-quantile of `values` and its distribution-free 95% interval: the order statistics
    ranked n·q ∓ 1.96·√(n·q·(1-q)) (the normal approximation of the binomial count below it)."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return Estimate(0.0, 0.0, math.inf, 0)
    spread = Z95 * math.sqrt(n * q * (1 - q))
    low = ordered[max(0, math.floor(n * q - spread))]
    high = ordered[min(n - 1, math.ceil(n * q + spread))]
    k = (n - 1) * q
    value = ordered[math.floor(k)] + (ordered[math.ceil(k)] - ordered[math.floor(k)]) * (k - math.floor(k))
    return Estimate(float(value), float(min(low, value)), float(max(high, value)), n)


def _length(name: str, stat: str) -> Getter:
    def get(report: dict[str, Any], records: Sequence[GameRecord]) -> Estimate:
        if stat == "mean":
            return _of(report["length"][name])
        values = [float(getattr(r, name)) for r in records if r.ended]
        return quantile_interval(values, 0.5 if stat == "median" else 0.9)
    return get


def _seat(key: str, p: int) -> Getter:
    def get(report: dict[str, Any], records: Sequence[GameRecord]) -> Estimate:
        seat = report["seats"][p]
        return _of(seat["score"] if key == "score" else seat[key])
    return get


def _advantage_max(report: dict[str, Any], records: Sequence[GameRecord]) -> Estimate:
    """The largest advantage of any seat, between the largest of the seats' low ends and the
    largest of their high ends (each seat's interval holds its own advantage 95% of the time)."""
    seats = [s["advantage"] for s in report["seats"]]
    return Estimate(max(s["value"] for s in seats), max(s["low"] for s in seats), max(s["high"] for s in seats),
                    int(seats[0]["n"]) if seats else 0)


def _counter(name: str) -> Getter:
    def get(report: dict[str, Any], records: Sequence[GameRecord]) -> Estimate:
        found = next(c for c in report["counters"] if c["name"] == name)
        return _of(found["deal_share"])
    return get


def _quality(name: str) -> Getter:
    return lambda report, records: _of(report["quality"][name])


def catalogue(players: int, counters: Sequence[str]) -> dict[str, Getter]:
    """Every measure a target may name for a game of this many players and these counters."""
    out: dict[str, Getter] = {"advantage.max": _advantage_max}
    for p in range(players):
        out[f"advantage.P{p + 1}"] = _seat("advantage", p)
        out[f"win_share.P{p + 1}"] = _seat("win_share", p)
        out[f"score.P{p + 1}"] = _seat("score", p)
    out["draws"] = lambda report, records: _of(report["draws"])
    for name in LENGTHS:
        out[name] = _length(name, "mean")
        for stat in ("mean", "median", "p90"):
            out[f"{name}.{stat}"] = _length(name, stat)
    out["forced"] = lambda report, records: _of(report["decisions"]["forced"])
    for name in ("lead_changes", "drama", "decisiveness"):
        out[name] = _quality(name)
    for name in counters:
        out[f"counter.{name}"] = _counter(name)
    return out


_STATS = {"mean": "the mean", "median": "the median", "p90": "the 90th percentile"}


def about(name: str) -> str:
    """What a measure of the catalogue is, in words (`koloda tune --measures`)."""
    head, _, tail = name.partition(".")
    if head == "counter":
        return ABOUT["counter.NAME"].replace("NAME", tail)
    if tail.startswith("P") and tail[1:].isdigit() and f"{head}.P1" in ABOUT:
        return ABOUT[f"{head}.P1"].split(" (and so")[0].replace("seat 1", f"seat {tail[1:]}")
    if head in LENGTHS:
        what = {"deals": "deals", "turns": "turns", "decisions": "bot decisions"}[head]
        return f"{what} per game, {_STATS.get(tail, 'the mean')}" + ("" if tail else f" (also .{', .'.join(_STATS)})")
    return ABOUT.get(name, "")


def measure_names(players: int, counters: Sequence[str]) -> list[str]:
    return list(catalogue(players, counters))
