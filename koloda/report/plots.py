"""PNG charts of a report or a comparison (the extra `koloda[plots]`: matplotlib).

Every chart says what it is of — the game, the variant (the options given) and the bots — and
every axis what it counts, so that a chart read away from the command that made it still reads.
The figures are made first (`report_figures`, `compare_figures`) and saved after, so that a test
can read what is drawn."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")        # files only: no window, no display needed

import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from koloda.report.render import seating  # noqa: E402

PENALTY = " (lower is better)"


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _bars(values: Sequence[float], lows: Sequence[float], highs: Sequence[float]) -> list[list[float]]:
    """Error bars from intervals: never negative (an interval contains its estimate; this keeps a
    rounding at the last digit from reaching matplotlib, which refuses a negative bar)."""
    return [[max(0.0, v - low) for v, low in zip(values, lows)],
            [max(0.0, high - v) for v, high in zip(values, highs)]]


def variant_text(report: dict[str, Any]) -> str:
    """`pony, hand=7` or `pony, its default options`: the rule file and the options given."""
    given = report["run"].get("options") or {}
    options = ", ".join(f"{k}={v}" for k, v in given.items()) if given else "its default options"
    return f"{report['game']['name']}, {options}"


def heading(reports: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    """What every chart is of: the game, the variant(s), the bots and the games played."""
    first = reports[0]
    games = " and ".join(str(r["games"]["ended"]) for r in reports)
    if len(reports) == 1:
        what = f"{first['game']['title']} ({variant_text(first)})"
    else:
        what = f"{first['game']['title']}: " + " vs ".join(f"{label} = {name}" for label, name in zip("AB", names))
    return f"{what}\n{seating(first)}; {games} games ended"


def _title(fig: Figure, reports: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
    fig.suptitle(heading(reports, names), fontsize=10)
    fig.tight_layout()


def _penalty(report: dict[str, Any]) -> str:
    return PENALTY if report["game"].get("winner") == "lowest" else ""


def _win_shares(ax: Axes, report: dict[str, Any], offset: float = 0.0, width: float = 0.8,
                label: str | None = None) -> None:
    seats = report["seats"]
    xs = [k + offset for k in range(len(seats))]
    values = [s["win_share"]["value"] for s in seats]
    errors = _bars(values, [s["win_share"]["low"] for s in seats], [s["win_share"]["high"] for s in seats])
    ax.bar(xs, values, width=width, yerr=errors, capsize=4, label=label)
    ax.set_xticks(range(len(seats)), [s["seat"] for s in seats])


def _fair_share(ax: Axes, players: int) -> None:
    ax.axhline(1 / max(players, 1), color="grey", linestyle="--", linewidth=1,
               label=f"fair share (1/{players})")


def _agent_shares(ax: Axes, report: dict[str, Any], offset: float, width: float, label: str | None) -> None:
    agents = report["agents"]
    values = [a["win_share"]["value"] for a in agents]
    errors = _bars(values, [a["win_share"]["low"] for a in agents], [a["win_share"]["high"] for a in agents])
    ax.bar([k + offset for k in range(len(agents))], values, width=width, yerr=errors, capsize=4, label=label)
    ax.set_xticks(range(len(agents)), [a["agent"] for a in agents])


def _histogram(ax: Axes, histogram: dict[str, Any], label: str | None = None) -> None:
    edges, counts = histogram["edges"], histogram["counts"]
    if counts:
        ax.stairs(counts, edges, fill=label is None, alpha=0.6 if label is None else 1.0, label=label)


def report_figures(report: dict[str, Any]) -> dict[str, Figure]:
    """The charts of a report, by file name: win_share.png, scores.png, length.png, quality.png
    (and counters.png when the game counts)."""
    return _figures([report], [report["game"]["title"]])


def report_plots(report: dict[str, Any], folder: Path) -> list[Path]:
    """The charts of a report, written to `folder`."""
    return [_save(fig, folder / name) for name, fig in report_figures(report).items()]


def compare_figures(comparison: dict[str, Any]) -> dict[str, Figure]:
    """The same charts with both variants side by side, and differences.png of the paired differences."""
    reports, names = comparison["reports"], comparison["variants"]
    figures = _figures(reports, names) if reports else {}
    penalty = _penalty(reports[0]) if reports else ""
    rows = [r for r in comparison["measures"] if r["n"]]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 2.2))
    ys = list(range(len(rows)))[::-1]
    for y, row in zip(ys, rows):
        spread = max(abs(row["a"]), abs(row["b"]), 1e-12)     # differences as a share of the measure's size
        errors = _bars([row["diff"] / spread], [row["low"] / spread], [row["high"] / spread])
        ax.errorbar([row["diff"] / spread], [y], xerr=errors, fmt="o",
                    color="tab:red" if row["significant"] else "tab:blue", capsize=3)
    ax.axvline(0, color="grey", linewidth=1, label="no difference")
    ax.set_yticks(ys, [r["measure"] + (penalty if r["measure"].startswith("mean score") else "") for r in rows])
    ax.set_ylabel("measure")
    ax.set_xlabel("B − A, relative to the larger mean (95% interval; red: significant)")
    ax.legend(loc="lower right", fontsize="small")
    if reports:
        _title(fig, reports, names)
    else:
        fig.suptitle(" vs ".join(f"{label} = {name}" for label, name in zip("AB", names)), fontsize=10)
        fig.tight_layout()
    figures["differences.png"] = fig
    return figures


def compare_plots(comparison: dict[str, Any], folder: Path) -> list[Path]:
    """The charts of a comparison, written to `folder`."""
    return [_save(fig, folder / name) for name, fig in compare_figures(comparison).items()]


def _histograms(axes: Any, reports: list[dict[str, Any]], labels: list[str | None],
                panels: list[tuple[str, str, tuple[str | int, ...]]]) -> None:
    """One histogram panel per (title, x label, where the measure lies in a report), each report's
    bars on it; every panel counts games."""
    for ax, (title, xlabel, path) in zip(axes, panels):
        for report, label in zip(reports, labels):
            measure: Any = report
            for key in path:
                measure = measure[key]
            _histogram(ax, measure["histogram"], label)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))     # games are counted whole


def _figures(reports: list[dict[str, Any]], names: list[str]) -> dict[str, Figure]:
    many = len(reports) > 1
    labels: list[str | None] = [f"{label}: {name}" for label, name in zip("AB", names)] if many else [None]
    figures: dict[str, Figure] = {}
    players = reports[0]["game"]["players"]
    offsets = [(k - (len(reports) - 1) / 2) * 0.8 / len(reports) for k in range(len(reports))]
    width = 0.8 / len(reports)

    by_agent = any(len(r["agents"]) > 1 for r in reports)
    fig, axes = plt.subplots(1, 2 if by_agent else 1, figsize=(11 if by_agent else 7, 4.6), squeeze=False)
    for report, label, offset in zip(reports, labels, offsets):
        _win_shares(axes[0][0], report, offset=offset, width=width, label=label)
        if by_agent:
            _agent_shares(axes[0][1], report, offset=offset, width=width, label=label)
    panels = [(axes[0][0], "Win share by seat", "seat", "win share of the games (95% Wilson interval)")]
    if by_agent:
        panels.append((axes[0][1], "Win share by agent (over the seats it sat at)", "agent",
                       "win share of its seat-games (95% Wilson interval)"))
    for ax, title, xlabel, ylabel in panels:
        _fair_share(ax, players)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(fontsize="small")
    _title(fig, reports, names)
    figures["win_share.png"] = fig

    penalty = _penalty(reports[0])
    fig, axes = plt.subplots(1, players, figsize=(max(3.2 * players, 7), 3.6), squeeze=False)
    _histograms(axes[0], reports, labels, [(f"P{p + 1} score", "score at the end" + penalty, ("seats", p, "score"))
                                           for p in range(players)])
    if many:
        axes[0][0].legend(fontsize="small")
    _title(fig, reports, names)
    figures["scores.png"] = fig

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.6), squeeze=False)
    _histograms(axes[0], reports, labels, [(f"{what.capitalize()} per game", f"{what} in a game", ("length", what))
                                           for what in ("deals", "turns", "decisions")])
    if many:
        axes[0][0].legend(fontsize="small")
    _title(fig, reports, names)
    figures["length.png"] = fig

    fig, axes = plt.subplots(1, 4, figsize=(14, 3.8), squeeze=False)
    _histograms(axes[0], reports, labels, [
        ("Lead changes", "lead changes in a game", ("quality", "lead_changes")),
        ("Drama", "drama (0: the winner never trailed)", ("quality", "drama")),
        ("Decisiveness", "decisiveness (0: open to the end)", ("quality", "decisiveness"))])
    ax = axes[0][3]
    for report, label in zip(reports, labels):
        points = [p for p in report["quality"]["uncertainty"] if p["n"]]
        if points:
            values = [p["value"] for p in points]
            ax.errorbar([p["at"] for p in points], values,
                        yerr=_bars(values, [p["low"] for p in points], [p["high"] for p in points]),
                        marker="o", capsize=3, label=label)
    ax.set_title("Uncertainty over the game")
    ax.set_xlabel("share of the game played")
    ax.set_ylabel("chance the leader then loses")
    ax.set_ylim(0, 1)
    if many:
        axes[0][0].legend(fontsize="small")
    _title(fig, reports, names)
    figures["quality.png"] = fig

    counters = [c["name"] for c in reports[0]["counters"]]
    if counters:
        fig, ax = plt.subplots(figsize=(7, 3.8))
        for report, label, offset in zip(reports, labels, offsets):
            shares = {c["name"]: c["deal_share"] for c in report["counters"]}
            xs = [i + offset for i in range(len(counters))]
            values = [shares[n]["value"] if n in shares else 0.0 for n in counters]
            errors = _bars(values, [shares[n]["low"] if n in shares else 0.0 for n in counters],
                           [shares[n]["high"] if n in shares else 0.0 for n in counters])
            ax.bar(xs, values, width=width, yerr=errors, capsize=4, label=label)
        ax.set_xticks(range(len(counters)), counters)
        ax.set_xlabel("counter (the rule file's `count:`)")
        ax.set_ylabel("share of deals it held at (95% interval)")
        ax.set_title("Counters")
        if many:
            ax.legend(fontsize="small")
        _title(fig, reports, names)
        figures["counters.png"] = fig
    return figures
