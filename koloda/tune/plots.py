"""PNG charts of a search (the extra `koloda[plots]`: matplotlib): the trials on the first two
targets, the chosen variants marked (the front, with several objectives), and each target
against each dimension, every trial a point with its interval."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")        # files only: no window, no display needed

import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)

from koloda.tune.search import Plan  # noqa: E402


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _drawn(e: dict[str, Any] | None) -> bool:
    """An estimate with an interval to draw (the JSON makes an end that is not finite null)."""
    return e is not None and all(e.get(k) is not None for k in ("value", "low", "high"))


def _points(data: dict[str, Any], measure: str) -> list[tuple[dict[str, Any], dict[str, float], str]]:
    return [(t["params"], t["estimates"][measure], t["verdict"]) for t in data["trials"]
            if _drawn(t["estimates"].get(measure))]


def _measures(plan: Plan) -> list[str]:
    return list(dict.fromkeys(t.measure for t in plan.targets))


def search_plots(plan: Plan, data: dict[str, Any], folder: Path) -> list[Path]:
    """Write front.png (two targets or more) and one targets-by-DIMENSION.png per dimension."""
    front = front_plot(plan, data, folder / "front.png")
    written = [front] if front else []
    game = data["search"]["game"]
    measures = _measures(plan)
    for dim in plan.space.dimensions:
        fig, axes = plt.subplots(1, len(measures), figsize=(4.2 * len(measures), 3.6), squeeze=False)
        for ax, measure in zip(axes[0], measures):
            labels = [str(v).lower() if isinstance(v, bool) else str(v) for v in dim.listed()] \
                if dim.kind != "int" else None
            for params, e, verdict in _points(data, measure):
                if dim.name not in params:
                    continue
                value = params[dim.name]
                at = labels.index(str(value).lower() if isinstance(value, bool) else str(value)) if labels else value
                ax.errorbar(at, e["value"], yerr=[[e["value"] - e["low"]], [e["high"] - e["value"]]], fmt="o",
                            color="tab:grey" if verdict == "missed" else "tab:blue", alpha=0.7, capsize=2)
            if labels:
                ax.set_xticks(range(len(labels)), labels)
            ax.set_xlabel(dim.name)
            ax.set_ylabel(measure)
        fig.suptitle(f"{game}: each target against {dim.name} (a point a trial, 95% intervals)", fontsize=9)
        written.append(_save(fig, folder / f"targets-by-{dim.name}.png"))
    return written


def front_plot(plan: Plan, data: dict[str, Any], path: Path) -> Path | None:
    """The trials on the first two targets' measures, each with its intervals, the chosen variants
    in red and the targets' bounds; None with fewer than two measures to draw."""
    measures = _measures(plan)
    if len(measures) < 2:
        return None
    x, y = measures[:2]
    game = data["search"]["game"]
    chosen = {v["trial"] for v in data["variants"]}
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    for t in data["trials"]:
        ex, ey = t["estimates"].get(x), t["estimates"].get(y)
        if not (_drawn(ex) and _drawn(ey)):
            continue
        assert ex is not None and ey is not None
        colour = "tab:red" if t["trial"] in chosen else "tab:grey" if t["verdict"] == "missed" else "tab:blue"
        ax.errorbar(ex["value"], ey["value"], xerr=[[ex["value"] - ex["low"]], [ex["high"] - ex["value"]]],
                    yerr=[[ey["value"] - ey["low"]], [ey["high"] - ey["value"]]], fmt="o", color=colour,
                    alpha=0.8, capsize=2)
    for t in plan.targets:
        for bound in (t.low, t.high):
            if abs(bound) != float("inf"):
                (ax.axvline if t.measure == x else ax.axhline if t.measure == y else (lambda *a, **k: None))(
                    bound, color="tab:green", linestyle="--", linewidth=1)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{game}: the trials (red: the chosen variants, grey: pruned; green: the targets)", fontsize=9)
    return _save(fig, path)
