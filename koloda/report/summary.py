"""Records -> the report: a plain dict in the shape of schemas/report.schema.json (FORMAT)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from koloda.report.records import CHECKPOINTS, RULE_ERROR, STEP_CAP, GameRecord
from koloda.report.stats import COUNT, SHARE, distribution, mean_interval, ratio_interval, share, wilson

FORMAT = "koloda-report/1"
INTERVALS = ("95% intervals, each within its measure's range: Wilson score for shares; for means of "
             "measures in 0..1 (drama, decisiveness, uncertainty) Wilson's with effective trials; normal "
             "approximation (mean ± 1.96 sd/√n) for scores, on the log scale for lengths and counts; "
             "counters: ratio estimator over games")


def summarise(records: Sequence[GameRecord], *, game: dict[str, Any], run: dict[str, Any],
              counters: Sequence[str] = ()) -> dict[str, Any]:
    """The report of a run. `game`: name, title, options, players; `run`: games asked, seed, seats,
    rotate, max_moves, stopped (true: interrupted before all were played)."""
    records = sorted(records, key=lambda r: r.number)
    ended = [r for r in records if r.ended]
    players = int(game["players"])
    house = bool(game.get("house"))       # each seat is judged against the house, not against the others
    return {
        "format": FORMAT, "intervals": INTERVALS, "game": game, "run": run,
        "games": {"played": len(records), "ended": len(ended),
                  "step_cap": sum(r.status == STEP_CAP for r in records),
                  "rule_errors": sum(r.status == RULE_ERROR for r in records),
                  "turn_cap": sum(r.capped for r in ended)},
        "draws": share(sum(r.drawn(house) for r in ended), len(ended)),
        "seats": [_seat(ended, p, 2 if house else players) for p in range(players)],
        "agents": _agents(ended),
        "length": {"deals": distribution([r.deals for r in ended], within=COUNT),
                   "turns": distribution([r.turns for r in ended], within=COUNT),
                   "decisions": distribution([r.decisions for r in ended], within=COUNT)},
        "decisions": _decisions(records),
        "quality": _quality(ended),
        "counters": [_counter(ended, name) for name in counters],
        "findings": [{"kind": r.status, "game": r.number + 1, "seed": r.seed, "agents": list(r.agents),
                      "message": r.error or f"no end after {r.decisions} moves"}
                     for r in records if not r.ended],
    }


def _seat(ended: Sequence[GameRecord], p: int, parties: int) -> dict[str, Any]:
    """`parties`: how many the win is shared among (the players; against the house, a player and it)."""
    wins = sum(r.returns[p] for r in ended)
    n = len(ended)
    low, high = wilson(wins, n)
    fair = 1 / parties
    agents = sorted({r.agents[p] for r in ended})
    return {"seat": f"P{p + 1}", "agents": agents, "win_share": share(wins, n),
            # how far this seat's share stands from a fair one, with the share's own interval
            "advantage": {"value": (wins / n if n else 0.0) - fair, "low": low - fair, "high": high - fair, "n": n},
            "score": distribution([r.scores[p] for r in ended])}


def _agents(ended: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Each agent over every seat it sat at: the share of its seat-games won (two seats of the same
    agent in one game count as two seat-games, which are not independent: the interval is a guide)."""
    totals: dict[str, list[float]] = {}
    for r in ended:
        for agent, result in zip(r.agents, r.returns):
            won = totals.setdefault(agent, [0.0, 0])
            won[0] += result
            won[1] += 1
    return [{"agent": agent, "seat_games": int(n), "win_share": share(wins, int(n))}
            for agent, (wins, n) in sorted(totals.items())]


def _decisions(records: Sequence[GameRecord]) -> dict[str, Any]:
    decisions = sum(r.decisions for r in records)
    legal = sum(r.legal_moves for r in records)
    forced = sum(r.forced for r in records)
    return {"total": decisions, "legal_moves_mean": legal / decisions if decisions else 0.0,
            "forced": share(forced, decisions)}


def _quality(ended: Sequence[GameRecord]) -> dict[str, Any]:
    measured = [r.quality for r in ended if r.quality is not None]
    decided = [q for q in measured if q.drama is not None]
    curves = [q.leader_wins for q in measured if q.leader_wins]
    return {
        "games": len(measured),
        "lead_changes": distribution([q.lead_changes for q in measured], within=COUNT),
        "drama": distribution([q.drama for q in decided if q.drama is not None], within=SHARE),
        "decisiveness": distribution([q.decisiveness for q in decided if q.decisiveness is not None],
                                     within=SHARE),
        "uncertainty": [_point(at, [c[k] for c in curves]) for k, at in enumerate(CHECKPOINTS)],
    }


def _point(at: float, leader_won: list[float]) -> dict[str, Any]:
    """Uncertainty at a point of the game: the chance that the side leading then does not win."""
    mean, low, high = mean_interval(leader_won, SHARE)
    return {"at": at, "value": 1 - mean, "low": max(0.0, 1 - high), "high": min(1.0, 1 - low), "n": len(leader_won)}


def _counter(ended: Sequence[GameRecord], name: str) -> dict[str, Any]:
    held = [r.counts.get(name, 0) for r in ended]
    deals = [r.deals for r in ended]
    value, low, high = ratio_interval(held, deals)
    return {"name": name, "per_game": distribution(held, within=COUNT),
            "deal_share": {"value": value, "low": low, "high": high, "n": sum(deals)}}
