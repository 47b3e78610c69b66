"""Quality measures of one game from the standing of each side before every decision and at the end.

A standing is the rule file's `heuristic:` or, without one, the match score (higher is better);
partners are one side, standing at the mean of theirs. The measures follow Browne (2008,
"Automatic generation and evaluation of recombination games", the ones Ludii's metrics and
CardStock's "drama"/"lead change"/"decisiveness" carry on); docs/simulate.md defines each.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from koloda.report.records import CHECKPOINTS, Quality


def side_standings(standings: Sequence[Sequence[float]], sides: Sequence[int]) -> list[list[float]]:
    """Player standings -> each side's margin: its standing (the mean of its players') less the mean
    of the other sides'. Margins have the order of the standings, and they do not drift as a
    whole: in a game of penalties every standing falls, yet a lead is a lead."""
    count = max(sides) + 1 if sides else 0
    members = [[p for p, s in enumerate(sides) if s == side] for side in range(count)]
    rows = []
    for row in standings:
        values = [math.fsum(row[p] for p in ps) / len(ps) for ps in members]
        total = math.fsum(values)
        rows.append([v - (total - v) / (count - 1) for v in values] if count > 1 else values)
    return rows


def leaders(row: Sequence[float]) -> frozenset[int]:
    best = max(row)
    return frozenset(s for s, v in enumerate(row) if v == best)


def lead_changes(points: Sequence[Sequence[float]]) -> int:
    """How often a side takes the sole lead from another: ties on the way neither take nor lose it."""
    changes, last = 0, None
    for row in points:
        lead = leaders(row)
        if len(lead) != 1:
            continue
        (now,) = lead
        if last is not None and now != last:
            changes += 1
        last = now
    return changes


def drama(points: Sequence[Sequence[float]], winner: int) -> float:
    """How far the winner trails the leader, as a share of the game's whole range of margins, on
    average over the points where it trails (0: the winner never trailed)."""
    low = min(min(row) for row in points)
    span = max(max(row) for row in points) - low
    gaps = [max(row) - row[winner] for row in points if row[winner] < max(row)]
    if not gaps or span <= 0:
        return 0.0
    return math.fsum(g / span for g in gaps) / len(gaps)


def decisiveness(points: Sequence[Sequence[float]], winner: int) -> float:
    """The share of the game left once the winner's lead was safe, seen from its end: from the first
    point after which the winner's margin stays above the best margin any losing side ever had
    (Ludii's decisiveness threshold, on margins). 0: the result was open to the last point."""
    others = [v for row in points for s, v in enumerate(row) if s != winner]
    threshold = max(others) if others else -math.inf
    safe_from = len(points)
    for t in range(len(points) - 1, -1, -1):
        if points[t][winner] > threshold:
            safe_from = t
        else:
            break
    last = len(points) - 1
    return (last - safe_from) / last if last > 0 and safe_from <= last else 0.0


def leader_wins(points: Sequence[Sequence[float]], winners: frozenset[int]) -> tuple[float, ...]:
    """At each checkpoint (a share of the game), the share of the leading sides that won."""
    last = len(points) - 1
    out = []
    for at in CHECKPOINTS:
        lead = leaders(points[round(at * last)])
        out.append(len(lead & winners) / len(lead))
    return tuple(out)


def measure(standings: Sequence[Sequence[float]], sides: Sequence[int], returns: Sequence[float]) -> Quality:
    """The measures of an ended game: `standings` of each player at each point, `returns` their result."""
    points = side_standings(standings, sides)
    count = len(points[0]) if points else 0
    result = [max(r for p, r in enumerate(returns) if sides[p] == side) for side in range(count)]
    best = max(result) if result else 0.0
    winners = frozenset(s for s, r in enumerate(result) if r == best)
    sole = len(winners) == 1 and min(result) != best
    if not points:
        return Quality(0, None, None, ())
    (winner,) = winners if sole else (None,)
    return Quality(lead_changes(points),
                   drama(points, winner) if winner is not None else None,
                   decisiveness(points, winner) if winner is not None else None,
                   leader_wins(points, winners) if min(result) != best else ())
