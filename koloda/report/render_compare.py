"""A comparison at the terminal."""
from __future__ import annotations

import math
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from koloda.report.render import number


def _value(x: float, measure: str) -> str:
    shares = measure.startswith(("win share", "draws", "forced", "deals counted"))
    return f"{100 * x:.1f}%" if shares else number(x)


def _diff(row: dict[str, Any]) -> str:
    if row["measure"].startswith(("win share", "draws", "forced", "deals counted")):
        return f"{100 * row['diff']:+.1f} pts ({100 * row['low']:+.1f}…{100 * row['high']:+.1f})"
    half = (row["high"] - row["low"]) / 2
    # as many decimals as the interval can tell apart: two significant digits of its half-width
    places = min(4, max(0, 1 - math.floor(math.log10(half)))) if half > 0 else 2
    return f"{row['diff']:+.{places}f} ({row['low']:+.{places}f}…{row['high']:+.{places}f})"


def render_comparison(comparison: dict[str, Any]) -> RenderableType:
    a, b = comparison["variants"]
    table = Table(title=f"B less A, paired on the same seeds ({comparison['paired']} of {comparison['games']} "
                        "games ended in both)", title_justify="left", title_style="bold", box=None, pad_edge=False)
    for k, name in enumerate(["measure", "A", "B", "B − A (95% interval)", "p", ""]):
        table.add_column(name, justify="left" if k in (0, 5) else "right", overflow="fold")
    for row in comparison["measures"]:
        if not row["n"]:
            continue
        mark = "**" if row["holm"] else "*" if row["significant"] else ""
        style = "bold" if mark else None
        table.add_row(row["measure"], _value(row["a"], row["measure"]), _value(row["b"], row["measure"]), _diff(row),
                      f"{row['p']:.3f}" if row["p"] >= 0.001 else "<0.001", mark, style=style)
    return Group(Text(f"A: {a}"), Text(f"B: {b}"), Text(""), table,
                 Text("*: the interval leaves out 0 (p < 0.05); **: still so after Holm's correction for "
                      "every measure in the table", style="dim"))
