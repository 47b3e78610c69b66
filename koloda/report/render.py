"""The report at the terminal: rich tables built from the report's dict (summary.py)."""
from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def share_text(s: dict[str, Any]) -> str:
    """`51.2% (49.8–52.6)`: a share with its interval."""
    return f"{percent(s['value'])} ({100 * s['low']:.1f}–{100 * s['high']:.1f})"


def signed_share(s: dict[str, Any]) -> str:
    """`+1.2 (-0.8…+3.1)`: a difference of shares, in percentage points."""
    return f"{100 * s['value']:+.1f} ({100 * s['low']:+.1f}…{100 * s['high']:+.1f})"


def number(x: float) -> str:
    if float(x).is_integer() and abs(x) < 1e9:
        return str(int(x))
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.3g}" if abs(x) < 10 else f"{x:.1f}"


def mean_text(d: dict[str, Any]) -> str:
    """`12.4 (12.1–12.7)`: a mean with its interval."""
    return f"{number(d['mean'])} ({number(d['low'])}–{number(d['high'])})"


def seating(report: dict[str, Any]) -> str:
    """`seats: P1 greedy, P2 random`, or the agents that turned round the seats."""
    run, players = report["run"], report["game"]["players"]
    agents = list(run["seats"]) + ["random"] * (players - len(run["seats"]))
    if run["rotate"]:
        return f"seats: {', '.join(agents)}, turning one seat a game"
    return "seats: " + ", ".join(f"P{p + 1} {a}" for p, a in enumerate(agents))


def headline(report: dict[str, Any]) -> str:
    g, run = report["games"], report["run"]
    text = f"{report['game']['title']}: {g['played']} game{'' if g['played'] == 1 else 's'} played, {g['ended']} ended"
    if g.get("turn_cap"):
        text += f" ({g['turn_cap']} drawn at the rules' turn cap)"
    if g["step_cap"]:
        text += f", {g['step_cap']} stopped at the move limit"
    if g["rule_errors"]:
        text += f", {g['rule_errors']} stopped by a rule error"
    if run.get("stopped"):
        text += f" (interrupted: {g['played']} of the {run['games']} asked)"
    return text


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
    for k, name in enumerate(columns):
        table.add_column(name, justify="left" if k == 0 else "right", overflow="fold")
    return table


def solo(report: dict[str, Any]) -> bool:
    """A one-player game: its one seat is always the best, so its win share and draws say nothing."""
    return int(report["game"]["players"]) == 1 and not report["game"].get("house")


def goal(report: dict[str, Any]) -> bool:
    """The rule file's `won:` decides who wins: a win share is the games won, a solitaire's too."""
    return bool(report["game"].get("goal"))


def seats_table(report: dict[str, Any]) -> Table:
    lower = " (lower is better)" if report["game"].get("winner") == "lowest" else ""
    if solo(report) and goal(report):
        table = _table("Seat (one player: the games won, as the rules' `won:` says, and the score)",
                       "seat", "games won", "mean score" + lower, "sd")
        for seat in report["seats"]:
            table.add_row(seat["seat"], share_text(seat["win_share"]), mean_text(seat["score"]),
                          number(seat["score"]["sd"]))
        return table
    if solo(report):
        goals = "; how often each goal was met: the counts below" if report["counters"] else ""
        table = _table("Seat (one player: nobody to win against or draw with, so the score is the result, "
                       f"spread over the games{goals})",
                       "seat", "mean score" + lower, "sd", "min", "median", "90%", "max")
        for seat in report["seats"]:
            d = seat["score"]
            table.add_row(seat["seat"], mean_text(d), number(d["sd"]), number(d["min"]), number(d["median"]),
                          number(d["p90"]), number(d["max"]))
        return table
    if report["game"].get("house"):     # each seat against the house, where an even game is 50%
        title = f"Seats (win share against the house; advantage: points of it over an even share of {percent(0.5)})"
    else:
        title = f"Seats (advantage: points of win share over a fair share of {percent(1 / max(report['game']['players'], 1))})"
    table = _table(title,
                   "seat", "win share", "advantage",
                   "mean score" + lower, "sd")
    for seat in report["seats"]:
        table.add_row(seat["seat"], share_text(seat["win_share"]),
                      signed_share(seat["advantage"]), mean_text(seat["score"]), number(seat["score"]["sd"]))
    return table


def agents_table(report: dict[str, Any]) -> Table:
    table = _table("Agents (over every seat they sat at)", "agent", "seat-games", "win share")
    for agent in report["agents"]:
        table.add_row(agent["agent"], str(agent["seat_games"]), share_text(agent["win_share"]))
    return table


def length_table(report: dict[str, Any]) -> Table:
    table = _table("Length of a game", "", "mean", "sd", "min", "median", "90%", "max")
    for name, d in report["length"].items():
        table.add_row(name, mean_text(d), number(d["sd"]), number(d["min"]), number(d["median"]), number(d["p90"]),
                      number(d["max"]))
    return table


def quality_table(report: dict[str, Any]) -> Table:
    q = report["quality"]
    table = _table("Quality (docs/simulate.md defines each)", "measure", "mean", "sd", "median")
    for name in ("lead_changes", "drama", "decisiveness"):
        d = q[name]
        if d["n"]:
            table.add_row(name.replace("_", " "), mean_text(d), number(d["sd"]), number(d["median"]))
    return table


def uncertainty_line(report: dict[str, Any]) -> str:
    points = [p for p in report["quality"]["uncertainty"] if p["n"]]
    if not points:
        return ""
    return ("uncertainty (the leader then does not win), at 10%…100% of the game: "
            + " ".join(f"{100 * p['value']:.0f}%" for p in points))


def counters_table(report: dict[str, Any]) -> Table:
    table = _table("Counters (asked at the end of every deal)", "counter", "share of deals", "per game")
    for c in report["counters"]:
        table.add_row(c["name"], share_text(c["deal_share"]), mean_text(c["per_game"]))
    return table


def findings_lines(report: dict[str, Any], replay: str) -> list[str]:
    """Games that did not end, each with the command that plays it again, move for move (`--only`
    plays one game of the run: the same deal, the same bots, the same seats)."""
    if not report["findings"]:
        return []
    run = report["run"]
    seats = "".join(f" --seat {a}" for a in run["seats"]) + (" --rotate" if run["rotate"] else "")
    lines = ["Findings: games that did not end (the command under each plays it again):"]
    for f in report["findings"]:
        lines.append(f"  game {f['game']}, seed {f['seed']}, {f['kind']}: {f['message']}")
        lines.append(f"    {replay} --seed {run['seed']} --only {f['game']}{seats} --max-moves {run['max_moves']}")
    return lines


def render(report: dict[str, Any], replay: str) -> RenderableType:
    """Everything a report says; `replay`: the start of the command that plays a game of the run
    again (`koloda simulate pony -o hand=7 -p 2`)."""
    d = report["decisions"]
    parts: list[RenderableType] = [Text(headline(report), style="bold"), Text(seating(report)), Text(""),
                                   seats_table(report)]
    if len(report["agents"]) > 1:
        parts += [Text(""), agents_table(report)]
    if not solo(report):
        parts.append(Text(f"draws: {share_text(report['draws'])}"))
    parts += [Text(""), length_table(report),
              Text(f"legal moves per decision: {d['legal_moves_mean']:.2f}; forced decisions (one legal move): "
                   f"{share_text(d['forced'])}"),
              Text("")]
    if report["quality"]["games"] and not solo(report):      # (one player leads from first to last)
        parts += [quality_table(report), Text(uncertainty_line(report))]
    if report["counters"]:
        parts += [Text(""), counters_table(report)]
    lines = findings_lines(report, replay)
    if lines:
        # whole lines, however narrow the terminal: each command is copied as it stands
        parts += [Text("")] + [Text(line, no_wrap=True, overflow="ignore") for line in lines]
    parts.append(Text(report["intervals"], style="dim"))
    return Group(*parts)
