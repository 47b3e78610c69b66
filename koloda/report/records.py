"""One simulated game, as a report sees it: small, plain and picklable, so that workers send
records, not states."""
from __future__ import annotations

from dataclasses import dataclass, field

ENDED = "ended"
STEP_CAP = "step cap"          # stopped by --max-moves before the match ended
RULE_ERROR = "rule error"      # stopped by an error in the rules (division by zero, ...)
STATUSES = (ENDED, STEP_CAP, RULE_ERROR)

# the points of a game (as shares of its decisions) at which the leader is compared with the winner
CHECKPOINTS = tuple(k / 10 for k in range(1, 11))


@dataclass(frozen=True)
class Quality:
    """What the standings over one ended game say about it (see koloda/report/quality.py)."""
    lead_changes: int
    drama: float | None              # None: no single winning side (a draw)
    decisiveness: float | None
    # at each of CHECKPOINTS, the share of the sides then leading that went on to win
    leader_wins: tuple[float, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    number: int                      # counted from 0 in the run
    seed: int                        # `koloda play GAME --seed SEED` deals this game again
    agents: tuple[str, ...]          # the agent at each seat
    status: str = ENDED
    error: str = ""                  # for a rule error: file:line:col: message
    returns: tuple[float, ...] = ()  # each seat's share of the win (ended games only)
    scores: tuple[float, ...] = ()
    deals: int = 0
    turns: int = 0
    decisions: int = 0
    legal_moves: int = 0             # the legal moves, summed over the decisions
    forced: int = 0                  # decisions with one legal move
    quality: Quality | None = None
    counts: dict[str, int] = field(default_factory=dict)   # counter -> the deals it held at
    capped: bool = False             # ended drawn by the rule file's `turn cap:`

    @property
    def ended(self) -> bool:
        return self.status == ENDED

    @property
    def draw(self) -> bool:
        """Every seat has the same share of the win."""
        return self.ended and bool(self.returns) and max(self.returns) == min(self.returns)

    def drawn(self, house: bool) -> bool:
        """A draw: every seat has the same share of the win, or against the house every seat ended level
        with it (a share of 0.5; the same share for all is every seat won, or every seat lost)."""
        return self.draw and (not house or self.returns[0] == 0.5)
