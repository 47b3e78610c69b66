"""The games of a run, as records, with the totals older callers read."""
from __future__ import annotations

from dataclasses import dataclass, field

from koloda.report.records import RULE_ERROR, STEP_CAP, GameRecord


@dataclass
class SimulationResult:
    records: list[GameRecord] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    players: int = 0
    stopped: bool = False        # interrupted (Ctrl-C) before every game was played
    # games given up because every worker that played them died: (game number, its seed)
    lost: list[tuple[int, int]] = field(default_factory=list)
    deaths: int = 0              # worker processes that died during the run (their games were played again)

    def merge(self, other: "SimulationResult") -> "SimulationResult":
        return SimulationResult(sorted(self.records + other.records, key=lambda r: r.number), self.seats,
                                self.players or other.players, self.stopped or other.stopped,
                                sorted(self.lost + other.lost), self.deaths + other.deaths)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def finished(self) -> int:
        return sum(r.ended for r in self.records)

    @property
    def unfinished(self) -> int:
        return sum(r.status == STEP_CAP for r in self.records)

    @property
    def moves(self) -> list[int]:
        return [r.decisions for r in self.records if r.status != RULE_ERROR]

    @property
    def wins(self) -> list[float]:
        return [sum(r.returns[p] for r in self.records if r.ended) for p in range(self.players)]

    @property
    def score_sum(self) -> list[float]:
        return [sum(r.scores[p] for r in self.records if r.ended) for p in range(self.players)]

    @property
    def failures(self) -> list[tuple[int, int, str]]:
        """Games stopped by a rule error: (game number, its seed, the error as file:line:col: message)."""
        return [(r.number, r.seed, r.error) for r in self.records if r.status == RULE_ERROR]
