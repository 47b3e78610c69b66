"""One match as the research tools see it: what the OpenSpiel, PettingZoo and Gymnasium adapters share.

An `Episode` wraps a state of the compact view (koloda/compact.py: every move spelled as a few
tokens below a finite `num_distinct_actions`) and adds what those tools ask of a state and
koloda's own State does not keep:

* a cap on the number of steps: the tools want a bounded game (`max_game_length`), and a
  match cut there is scored as a draw (every side the same share), so the sum of the returns
  stays the same as in a finished match;
* each seat's record of the moves it saw, for information-state keys. A move is recorded
  with a copy of who knew each card *after* it (cheap: one list of ints), and told as that
  seat saw it only when asked (`describe` hides the cards it could not place);
* resampling: a state drawn from what one seat has seen (koloda's `determinize`) whose
  information-state string for that seat is exactly the one it came from. The moves before the
  resampling are kept as that seat told them, for every seat of the drawn world: the drawn world
  has no true history, and the other seats' own records would carry the real hidden cards.
"""
from __future__ import annotations

import io
import json
import random

from rich.console import Console

from koloda.agents.sampling import determinize
from koloda.compact import CompactGame, CompactState
from koloda.interpreter.game import Game
from koloda.interpreter.state import TERMINAL, State
from koloda.ui.table import render

# A move as recorded: (player, native action id, who knew each card just after it, as bits per card).
Record = tuple[int, int, tuple[int, ...]]

DEFAULT_MAX_STEPS = 10_000


class Table:
    """A loaded game and its compact view, shared by every episode played on it."""

    def __init__(self, game: Game):
        self.game = game
        self.spelling = CompactGame(game)
        # who knew each card when the last deal was scored, and in which state: a move that ends a
        # deal is told as the table was then, not after the next deal's shuffle (as at the table)
        self.scored: tuple[State, tuple[int, ...]] | None = None
        self.game.on_deal_scored(self._deal_scored)

    def _deal_scored(self, state: State) -> None:
        self.scored = (state, tuple(state.known))


class Episode:
    """A match under way, with the records and cap above. Cloning shares the compiled game and
    copies only lists of ints and references to immutable records."""
    __slots__ = ("table", "spelling", "state", "steps", "max_steps", "records", "told", "_cache")

    def __init__(self, table: Table, seed: int, max_steps: int = DEFAULT_MAX_STEPS):
        self.table = table
        self.spelling = spelling = table.spelling
        self.state: CompactState = spelling.new_initial_state(seed=seed)
        self.steps = 0
        self.max_steps = max_steps
        self.records: list[Record] = []
        # the moves before a resampling, as the resampling seat told them (None: never resampled)
        self.told: str | None = None
        self._cache: dict[int, tuple[int, str]] = {}     # seat -> (records told, their text)

    # ------------------------------------------------------------ play
    @property
    def game(self) -> Game:
        return self.spelling.game

    @property
    def native(self) -> State:
        return self.state.native

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def is_terminal(self) -> bool:
        return self.steps >= self.max_steps or self.state.is_terminal()

    def truncated(self) -> bool:
        """Cut by the cap, not ended by the rules."""
        return self.steps >= self.max_steps and not self.state.is_terminal()

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.state.current_player()

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else sorted(self.state.legal_actions())

    def apply_action(self, token: int) -> None:
        moves = self.state.native.moves
        self.table.scored = None
        self.state.apply_action(token)
        self.steps += 1
        if self.state.native.moves != moves:
            self._record()

    def apply_native(self, action: int) -> None:
        """A whole engine move at once (a koloda bot's), between moves: one step."""
        self.table.scored = None
        self.state.apply_native(action)
        self.steps += 1
        self._record()

    def _record(self) -> None:
        native = self.state.native
        player, action = native.history[-1]
        scored = self.table.scored
        known = scored[1] if scored is not None and scored[0] is native else tuple(native.known)
        self.records.append((player, action, known))

    def returns(self) -> list[float]:
        if self.truncated():
            layout = self.game.layout
            return [1.0 / layout.num_sides] * self.num_players
        return self.state.returns()

    def action_to_string(self, token: int) -> str:
        return self.state.action_to_string(token)

    def clone(self) -> "Episode":
        other = Episode.__new__(Episode)
        other.table, other.spelling = self.table, self.spelling
        other.max_steps, other.steps = self.max_steps, self.steps
        other.state = self.state.clone()
        other.records = self.records[:]
        other.told = self.told
        other._cache = dict(self._cache)
        return other

    def snapshot(self) -> dict:
        """The match as plain data (for pickling): `Episode.restore` makes it again."""
        return {"native": self.native.to_json(), "prefix": list(self.state.prefix), "steps": self.steps,
                "max_steps": self.max_steps, "records": [[p, a, list(k)] for p, a, k in self.records],
                "told": self.told}

    @classmethod
    def restore(cls, table: Table, data: dict) -> "Episode":
        episode = cls.__new__(cls)
        episode.table, episode.spelling = table, table.spelling
        native = table.game.state_from_json(data["native"])
        episode.state = CompactState(table.spelling, native, tuple(data["prefix"]))
        episode.steps, episode.max_steps, episode.told = data["steps"], data["max_steps"], data["told"]
        episode.records = [(p, a, tuple(k)) for p, a, k in data["records"]]
        episode._cache = {}
        return episode

    def __deepcopy__(self, memo: dict) -> "Episode":
        # OpenSpiel clones a state by deep-copying its attributes: share the game, copy the match
        return self.clone()

    # ------------------------------------------------------------ what a seat knows
    def observation_string(self, player: int) -> str:
        """What `player` sees now, and the last move as they saw it."""
        last = self._tell(self.records[-1], player) if self.records else ""
        return f"{self._now(player)}\nlast: {last}"

    def information_state_string(self, player: int) -> str:
        """What `player` sees now, the cards they know the place of, and every move as they saw it."""
        return f"{self._now(player)}\nmoves:\n{self._history(player)}"

    def _now(self, player: int) -> str:
        native = self.native
        seen = native.observation(player)
        # the observation's own history is told from the state's; ours covers the whole match
        seen.pop("history", None)
        bit = 1 << player
        known = [[native.game.cards.names[c] for c in zone if native.known[c] & bit] for zone in native.zones]
        seen["known"] = known
        text = json.dumps(seen, separators=(",", ":"), sort_keys=True)
        prefix = self.state.prefix
        if prefix and player == native.current_player():
            # the move being spelled is its speller's own until it is played
            text += "\nspelling: " + " ".join(self.spelling.token_to_string(t) for t in prefix)
        return f"P{player + 1}: {text}"

    def _history(self, player: int) -> str:
        done, text = self._cache.get(player, (0, self.told or ""))
        if done < len(self.records):
            text += "".join(self._tell(r, player) + "\n" for r in self.records[done:])
            self._cache[player] = (len(self.records), text)
        return text

    def _tell(self, record: Record, viewer: int) -> str:
        player, action, known = record
        bit = 1 << viewer
        text = self.game.action_to_string(action, hide=lambda c: not known[c] & bit)
        return f"P{player + 1} {text}"

    def observation_tensor(self, player: int) -> list[float]:
        return self.state.observation_tensor(player)

    def information_state_tensor(self, player: int) -> list[float]:
        return self.state.information_state_tensor(player)

    def ansi(self, viewer: int | None, reveal: bool = False) -> str:
        """The table as `viewer` sees it (None: the match is over; reveal: every card), as at the
        terminal, in ANSI colours; and the move they are spelling, if any."""
        out = io.StringIO()
        Console(file=out, force_terminal=True, color_system="standard", width=100).print(
            render(self.game, self.native, viewer, reveal=reveal), end="")
        if self.state.prefix and (reveal or viewer == self.native.current_player()):
            out.write("\n  spelling: " + " ".join(self.spelling.token_to_string(t) for t in self.state.prefix))
        return out.getvalue()

    # ------------------------------------------------------------ resampling
    def resample(self, player: int, rng: random.Random) -> "Episode":
        """A state `player` cannot tell from this one, with the cards they cannot place dealt anew.

        Meant for the player to move, as search does: for them the legal moves stay the same. For
        another player, the one to move may be dealt cards that leave them no legal move where the
        rules tie their move to their cards (a card taken from the pile that must be melded), and
        the move they were spelling is theirs, not the other's to know: it is started afresh."""
        told = self._history(player)
        world = self.clone()
        native = self.native
        prefix = self.state.prefix if player == native.current_player() else ()
        world.state = CompactState(self.spelling, determinize(native, player, rng), prefix)
        world.records = []
        world.told = told
        world._cache = {}
        return world
