"""The report as files: JSON in the versioned shape of schemas/report.schema.json, CSV of one row
a game."""
from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from koloda.report.records import GameRecord

SCHEMAS = Path(__file__).parent / "schemas"


def schema(kind: str = "report") -> dict[str, Any]:
    """The JSON Schema of a report (`report`), a comparison (`compare`) or a design search's answer (`tune`)."""
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def csv_header(players: int, counters: Sequence[str]) -> list[str]:
    seats = [f"P{p + 1}" for p in range(players)]
    return (["game", "seed", "status"] + [f"agent_{s}" for s in seats] + [f"result_{s}" for s in seats]
            + [f"score_{s}" for s in seats]
            + ["deals", "turns", "decisions", "legal_moves", "forced", "lead_changes", "drama", "decisiveness"]
            + [f"count_{c}" for c in counters] + ["error"])


def csv_row(r: GameRecord, players: int, counters: Sequence[str]) -> list[object]:
    """One game; what a game that did not end cannot have is left empty."""
    def blank(values: Sequence[object]) -> list[object]:
        return list(values) if values else [""] * players

    q = r.quality
    return ([r.number + 1, r.seed, r.status] + list(r.agents) + blank(r.returns) + blank(r.scores)
            + [r.deals, r.turns, r.decisions, r.legal_moves, r.forced,
               "" if q is None else q.lead_changes,
               "" if q is None or q.drama is None else round(q.drama, 6),
               "" if q is None or q.decisiveness is None else round(q.decisiveness, 6)]
            + [r.counts.get(c, "") for c in counters] + [r.error])


def write_csv(out: IO[str], records: Sequence[GameRecord], players: int, counters: Sequence[str]) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_header(players, counters))
    for r in sorted(records, key=lambda r: r.number):
        writer.writerow(csv_row(r, players, counters))
