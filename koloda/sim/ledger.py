"""The games of a run still to be played, handed out as ranges, and what becomes of the games of a
worker that died (killed, out of memory, crashed).

A game depends on the run's seed and its number alone, so a game played again elsewhere is the
same game: a dead worker's unfinished games go back to be played by another. The game it was
playing when it died may be what killed it (a game that fills the memory kills every worker that
plays it): that game is tried `RETRIES` more times, then given up as lost, and the run goes on."""
from __future__ import annotations

from collections import Counter, deque

# times a game whose worker died while playing it is played again before it is given up as lost
RETRIES = 2
# workers dead one after another with no game finished between: something other than a game kills
# them (they cannot start, or the machine is out of memory), and the run stops rather than spin
DEATHS_IN_A_ROW = 10


class WorkersFailed(Exception):
    """The workers keep dying whatever they play: the message says so, for the person running it."""


class Ledger:
    def __init__(self, jobs: list[tuple[int, int]]):
        self._todo = deque(jobs)
        self._tries: Counter[int] = Counter()
        self._in_a_row = 0
        self.lost: list[int] = []          # numbers of the games given up, in the order they were
        self.deaths = 0                    # workers that died during the run

    def take(self) -> tuple[int, int] | None:
        """The next range of games to play (first, count), or None when none is waiting."""
        return self._todo.popleft() if self._todo else None

    @property
    def waiting(self) -> bool:
        """Some games wait to be handed out."""
        return bool(self._todo)

    def finished(self) -> None:
        """A game came back: the workers are not all failing."""
        self._in_a_row = 0

    def died(self, job: tuple[int, int] | None, known: bool = True) -> None:
        """A worker died with games first..first+count-1 of `job` not back (None: it had none).
        `known`: it was playing the first of them (a worker that sends each game as it ends);
        otherwise any of them may have killed it, so each goes back alone, and only a game
        played alone counts a try."""
        self.deaths += 1
        self._in_a_row += 1
        if self._in_a_row > DEATHS_IN_A_ROW:
            raise WorkersFailed(f"the worker processes keep dying ({DEATHS_IN_A_ROW} in a row without a game "
                                "played): is the machine short of memory?")
        if job is None:
            return
        first, count = job
        if count > 1 and not known:
            self._todo.extendleft((number, 1) for number in reversed(range(first, first + count)))
            return
        self._tries[first] += 1
        if self._tries[first] > RETRIES:
            self.lost.append(first)
            first, count = first + 1, count - 1
        if count:
            self._todo.appendleft((first, count))       # soon, while the run still has workers busy
