"""What each seat has seen of a match: its record of the moves, and the strings of its information state.

The one account of "the moves as a seat saw them", used by the compact view (koloda/compact.py)
and through it by every research tool's adapter (koloda/episode.py):

* each move is recorded with a copy of who knew each card just *after* it (one tuple of ints;
  as the deal was scored, if the move ended a deal), and told as a seat saw it then only when
  asked (`action_to_string(hide=)`): a card the seat could not place is "a card". The record so
  survives the next deal's shuffle, and knowing a card later does not name it in an old move;
* a resampled world (cards dealt anew, as the bots guess them) has no true history: its moves
  before the resampling are the resampling seat's account, for every seat of that world, so that
  no other seat's view of it names a real hidden card (`world`);
* the text of each seat's history is kept and extended by the new moves: asking again costs
  about one move's text, not the whole match's.
"""
from __future__ import annotations

import json
from typing import Any

from koloda.interpreter.core.state import State

# A move as recorded: (player, native action id, who knew each card just after it, as bits per card).
Record = tuple[int, int, tuple[int, ...]]


class Seen:
    """The moves of a match as recorded, and the account of those before a resampling.

    Cloning copies a list of references to immutable records and a small dict."""
    __slots__ = ("records", "told", "last", "_cache")

    def __init__(self, records: list[Record] | None = None, told: str | None = None, last: str = ""):
        self.records: list[Record] = records if records is not None else []
        # the moves before a resampling as the resampling seat told them (None: never resampled),
        # and the last of them, for the observation
        self.told = told
        self.last = last
        self._cache: dict[int, tuple[int, str]] = {}     # seat -> (records told, their text)

    def clone(self) -> "Seen":
        other = Seen(self.records[:], self.told, self.last)
        other._cache = dict(self._cache)
        return other

    def record(self, player: int, action: int, known: tuple[int, ...]) -> None:
        self.records.append((player, action, known))

    def catch_up(self, s: State) -> None:
        """Record the moves played on the engine's state directly (or before it was wrapped) as
        the table knows their cards now: their knowledge then is not kept by the engine."""
        if len(s.history) > len(self.records):
            known = tuple(s.known)
            self.records.extend((p, a, known) for p, a in list(s.history)[len(self.records):])

    # ------------------------------------------------------------ telling
    def history(self, s: State, seat: int) -> str:
        """Every move so far as `seat` saw it, a line each."""
        self.catch_up(s)
        done, text = self._cache.get(seat, (0, self.told or ""))
        if done < len(self.records):
            # the messages for the seat, under the move that said them (moves are counted from the
            # match's start; a resampled world's record starts at its resampling)
            first = s.moves - len(s.history) + 1
            heard: dict[int, list[str]] = {}
            for k, mask, said in s.said:
                if mask >> seat & 1:
                    heard.setdefault(k, []).append(said)
            text += "".join(tell(s, r, seat) + "\n" + "".join(f"  told: {m}\n" for m in heard.get(first + i, ()))
                            for i, r in enumerate(self.records[done:], done))
            self._cache[seat] = (len(self.records), text)
        return text

    def last_move(self, s: State, seat: int) -> str:
        self.catch_up(s)
        return tell(s, self.records[-1], seat) if self.records else self.last

    def world(self, s: State, seat: int) -> "Seen":
        """The record of a world resampled for `seat`: its account of the moves so far, for everyone."""
        return Seen([], self.history(s, seat), self.last_move(s, seat))

    # ------------------------------------------------------------ plain data
    def to_json(self) -> dict[str, Any]:
        return {"records": [[p, a, list(k)] for p, a, k in self.records], "told": self.told, "last": self.last}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Seen":
        return cls([(p, a, tuple(k)) for p, a, k in data["records"]], data["told"], data.get("last", ""))


def tell(s: State, record: Record, viewer: int) -> str:
    """A recorded move as `viewer` saw it then."""
    player, action, known = record
    bit = 1 << viewer
    text = s.game.action_to_string(action, hide=lambda c: not known[c] & bit)
    return f"P{player + 1} {text}"


def now(s: State, seat: int, spelling: str = "") -> str:
    """What `seat` sees now (State.observation without its short history: the record covers the
    whole match), the cards it knows the place of, zone by zone, and the move it is spelling."""
    seen = s.observation(seat)
    seen.pop("history", None)
    bit = 1 << seat
    names = s.game.cards.names
    seen["known"] = [[names[c] for c in zone if s.known[c] & bit] for zone in s.zones]
    text = json.dumps(seen, separators=(",", ":"), sort_keys=True)
    if spelling:
        text += "\nspelling: " + spelling
    return f"P{seat + 1}: {text}"
