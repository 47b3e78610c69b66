"""PNG charts of a report or a comparison (the extra `koloda[plots]`: matplotlib)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")        # files only: no window, no display needed

import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)
from matplotlib.axes import Axes  # noqa: E402


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _win_shares(ax: Axes, report: dict[str, Any], offset: float = 0.0, width: float = 0.8,
                label: str | None = None) -> None:
    seats = report["seats"]
    xs = [k + offset for k in range(len(seats))]
    values = [s["win_share"]["value"] for s in seats]
    errors = [[v - s["win_share"]["low"] for v, s in zip(values, seats)],
              [s["win_share"]["high"] - v for v, s in zip(values, seats)]]
    ax.bar(xs, values, width=width, yerr=errors, capsize=4, label=label)
    ax.axhline(1 / max(len(seats), 1), color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(seats)), [s["seat"] for s in seats])
    ax.set_ylabel("win share (95% Wilson interval)")


def _agent_shares(ax: Axes, report: dict[str, Any], offset: float, width: float, label: str | None) -> None:
    agents = report["agents"]
    values = [a["win_share"]["value"] for a in agents]
    errors = [[v - a["win_share"]["low"] for v, a in zip(values, agents)],
              [a["win_share"]["high"] - v for v, a in zip(values, agents)]]
    ax.bar([k + offset for k in range(len(agents))], values, width=width, yerr=errors, capsize=4, label=label)
    ax.set_xticks(range(len(agents)), [a["agent"] for a in agents])


def _histogram(ax: Axes, histogram: dict[str, Any], label: str | None = None) -> None:
    edges, counts = histogram["edges"], histogram["counts"]
    if counts:
        ax.stairs(counts, edges, fill=label is None, alpha=0.6 if label is None else 1.0, label=label)


def report_plots(report: dict[str, Any], folder: Path) -> list[Path]:
    """win_share.png, scores.png, length.png, quality.png (and counters.png when the game counts)."""
    return _plots([report], [report["game"]["title"]], folder)


def compare_plots(comparison: dict[str, Any], folder: Path) -> list[Path]:
    """The same charts with both variants side by side, and differences.png of the paired differences."""
    written = _plots(comparison["reports"], comparison["variants"], folder)
    rows = [r for r in comparison["measures"] if r["n"]]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.5))
    ys = list(range(len(rows)))[::-1]
    for y, row in zip(ys, rows):
        spread = max(abs(row["a"]), abs(row["b"]), 1e-12)     # differences as a share of the measure's size
        ax.errorbar([row["diff"] / spread], [y], xerr=[[(row["diff"] - row["low"]) / spread],
                                                       [(row["high"] - row["diff"]) / spread]],
                    fmt="o", color="tab:red" if row["significant"] else "tab:blue", capsize=3)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(ys, [r["measure"] for r in rows])
    ax.set_xlabel("B − A, relative to the larger mean (95% interval; red: significant)")
    written.append(_save(fig, folder / "differences.png"))
    return written


def _histograms(axes: Any, reports: list[dict[str, Any]], labels: list[str | None],
                panels: list[tuple[str, tuple[str | int, ...]]]) -> None:
    """One histogram panel per (title, where the measure lies in a report), each report's bars on it."""
    for ax, (title, path) in zip(axes, panels):
        for report, label in zip(reports, labels):
            measure: Any = report
            for key in path:
                measure = measure[key]
            _histogram(ax, measure["histogram"], label)
        ax.set_title(title)


def _plots(reports: list[dict[str, Any]], names: list[str], folder: Path) -> list[Path]:
    many = len(reports) > 1
    labels: list[str | None] = list(names) if many else [None]
    written = []

    by_agent = any(len(r["agents"]) > 1 for r in reports)
    fig, axes = plt.subplots(1, 2 if by_agent else 1, figsize=(11 if by_agent else 6, 4), squeeze=False)
    width = 0.8 / len(reports)
    for k, (report, label) in enumerate(zip(reports, labels)):
        _win_shares(axes[0][0], report, offset=(k - (len(reports) - 1) / 2) * width, width=width, label=label)
        if by_agent:
            _agent_shares(axes[0][1], report, offset=(k - (len(reports) - 1) / 2) * width, width=width, label=label)
    axes[0][0].set_title("Win share by seat")
    if by_agent:
        axes[0][1].set_title("Win share by agent (over the seats it sat at)")
    if many:
        axes[0][0].legend()
    written.append(_save(fig, folder / "win_share.png"))

    players = reports[0]["game"]["players"]
    fig, axes = plt.subplots(1, players, figsize=(3 * players, 3), squeeze=False)
    _histograms(axes[0], reports, labels, [(f"P{p + 1} score", ("seats", p, "score"))
                                           for p in range(players)])
    if many:
        axes[0][0].legend()
    written.append(_save(fig, folder / "scores.png"))

    fig, axes = plt.subplots(1, 3, figsize=(10, 3), squeeze=False)
    _histograms(axes[0], reports, labels, [(f"{what} per game", ("length", what))
                                           for what in ("deals", "turns", "decisions")])
    if many:
        axes[0][0].legend()
    written.append(_save(fig, folder / "length.png"))

    fig, axes = plt.subplots(1, 4, figsize=(13, 3), squeeze=False)
    _histograms(axes[0], reports, labels, [(what.replace("_", " "), ("quality", what))
                                           for what in ("lead_changes", "drama", "decisiveness")])
    ax = axes[0][3]
    for report, label in zip(reports, labels):
        points = [p for p in report["quality"]["uncertainty"] if p["n"]]
        if points:
            ax.errorbar([p["at"] for p in points], [p["value"] for p in points],
                        yerr=[[p["value"] - p["low"] for p in points], [p["high"] - p["value"] for p in points]],
                        marker="o", capsize=3, label=label)
    ax.set_title("uncertainty over the game")
    ax.set_xlabel("share of the game")
    ax.set_ylim(0, 1)
    if many:
        axes[0][0].legend()
    written.append(_save(fig, folder / "quality.png"))

    counters = [c["name"] for c in reports[0]["counters"]]
    if counters:
        fig, ax = plt.subplots(figsize=(6, 3))
        width = 0.8 / len(reports)
        for k, (report, label) in enumerate(zip(reports, labels)):
            shares = {c["name"]: c["deal_share"] for c in report["counters"]}
            xs = [i + (k - (len(reports) - 1) / 2) * width for i in range(len(counters))]
            values = [shares[n]["value"] if n in shares else 0.0 for n in counters]
            errors = [[v - shares[n]["low"] if n in shares else 0.0 for v, n in zip(values, counters)],
                      [shares[n]["high"] - v if n in shares else 0.0 for v, n in zip(values, counters)]]
            ax.bar(xs, values, width=width, yerr=errors, capsize=4, label=label)
        ax.set_xticks(range(len(counters)), counters)
        ax.set_ylabel("share of deals")
        ax.set_title("Counters")
        if many:
            ax.legend()
        written.append(_save(fig, folder / "counters.png"))
    return written
