"""Replays in the browser: a transcript (`koloda play --log`) stepped through as one seat saw it,
as an onlooker, or with every card shown, each deal's start marked. The transcript is read and
checked whole first (koloda/session/transcript.py); each view is worked out again from the
first move, so a page may jump anywhere."""
from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from koloda.interpreter.core.state import State
from koloda.session import Session, read_transcript
from koloda.web.messages import WATCHER, deal_end, move_lines, result, table_view

ALL = "all"          # the viewer that sees every card


class Replayed:
    def __init__(self, path: Path, replay_id: str | None = None):
        replay = read_transcript(path)
        self.id = replay_id or secrets.token_urlsafe(8)
        self.name = Path(path).name
        self.start: Session = replay.session
        self.moves = [m["action"] for m in replay.moves]
        self._scored: list[State] = []
        self._playing: State | None = None
        self.start.game.on_deal_scored(self._deal_scored)
        self.deals = self._deal_starts()

    def _deal_scored(self, state: State) -> None:
        if state is self._playing:
            self._scored.append(state.clone())

    def _deal_starts(self) -> list[dict[str, int]]:
        s = self.start.restarted().state
        starts = [{"deal": s.deal_number, "at": 0}]
        for k, action in enumerate(self.moves, 1):
            s.apply_action(action)
            if s.deal_number != starts[-1]["deal"]:
                starts.append({"deal": s.deal_number, "at": k})
        return starts

    def viewers(self) -> list[str]:
        return [ALL, "watch", *(f"P{p + 1}" for p in range(self.start.game.num_players))]

    def message(self, viewer: object, at: object, lang: str) -> dict[str, Any]:
        """The table after move `at`, as `viewer` (`all`, `watch`, `P2`) saw it, with the log so far."""
        if viewer not in self.viewers():
            viewer = ALL
        assert isinstance(viewer, str)
        at = at if isinstance(at, int) and not isinstance(at, bool) and 0 <= at <= len(self.moves) else 0
        seat = int(viewer[1:]) - 1 if viewer.startswith("P") else WATCHER
        game = self.start.game
        s = self.start.restarted().state
        log: list[str] = []
        ended: list[State] = []
        for action in self.moves[:at]:
            player = s.current_player()
            self._playing, self._scored = s, []
            s.apply_action(action)
            told = self._scored[0] if self._scored else s
            if viewer == ALL:
                log.append(f"P{player + 1} {game.action_to_string(action)}")
            else:
                log += move_lines(game, told, s, player, action, seat)
            ended = self._scored
        self._playing = None
        out: dict[str, Any] = {
            "type": "table", "at": at, "seat": seat,
            "seats": [{"seat": p, "label": f"P{p + 1}", "kind": kind, "you": p == seat}
                      for p, kind in enumerate(self.start.seats)],
            "table": table_view(game, s, seat, lang, reveal=viewer == ALL), "log": log[-300:],
            "replay": {"name": self.name, "at": at, "total": len(self.moves), "deals": self.deals,
                       "viewer": viewer, "viewers": self.viewers()}}
        if ended:
            out["ended"] = [deal_end(game, e, lang) for e in ended]
        if s.is_terminal():
            out["result"] = result(game, s)
        return out
