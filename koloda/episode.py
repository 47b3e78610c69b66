"""One match as the research tools see it: what the OpenSpiel, PettingZoo and Gymnasium adapters share.

An `Episode` wraps a state of the compact view (koloda/compact.py: every move spelled as a few
tokens below a finite `num_distinct_actions`) and adds what those tools ask of a state and
koloda's own State does not keep:

* a cap on the number of steps: the tools want a bounded game (`max_game_length`), and a
  match cut there is scored as a draw (every side the same share), so the sum of the returns
  stays the same as in a finished match;
* the table drawn in ANSI colours, as at the terminal;
* plain data for pickling (`snapshot`, `restore`).

What a seat knows (its strings, tensors and resampling) is the compact state's, whose record of
the moves as each seat saw them is koloda/seen.py.
"""
from __future__ import annotations

import io
import random

from rich.console import Console

from koloda.compact import CompactGame, CompactState
from koloda.interpreter.game import Game
from koloda.interpreter.core.state import TERMINAL, State
from koloda.seen import Seen
from koloda.ui.table import render

DEFAULT_MAX_STEPS = 10_000


class Table:
    """A loaded game and its compact view, shared by every episode played on it."""

    def __init__(self, game: Game):
        self.game = game
        self.spelling = CompactGame(game)


class Round:
    """The choosers of a `turns: together` phase, in the engine's order, each with the tokens they may play."""
    __slots__ = ("order", "legal")

    def __init__(self, order: tuple[tuple[int, tuple[int, ...]], ...]):
        self.order = order
        self.legal = dict(order)


class Episode:
    """A match under way, with the cap above. Cloning shares the compiled game and copies only
    lists of ints and references to immutable records."""
    __slots__ = ("table", "spelling", "state", "steps", "max_steps")

    def __init__(self, table: Table, seed: int, max_steps: int = DEFAULT_MAX_STEPS):
        self.table = table
        self.spelling = spelling = table.spelling
        self.state: CompactState = spelling.new_initial_state(seed=seed)
        self.steps = 0
        self.max_steps = max_steps

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
        self.state.apply_action(token)
        self.steps += 1

    def apply_native(self, action: int) -> None:
        """A whole engine move at once (a koloda bot's), between moves: one step."""
        self.state.apply_native(action)
        self.steps += 1

    # ------------------------------------------------------------ choices made together
    def together_round(self) -> "Round | None":
        """At the first decision of a `turns: together` phase (docs/language.md §8.7): the players who
        choose in it, in the order the engine takes them, and the tokens each may play. None elsewhere.

        The engine plays such a phase in turn, and the checker has made sure nobody can learn of an
        earlier choice, so the later players' moves are listed on a copy where the earlier ones
        have made some choice (their first)."""
        native = self.native
        if self.is_terminal() or self.state.prefix or native.turns != 0 or native.asked is not None:
            return None
        phases = self.game.spec.phases
        if not phases[native.phase].together:
            return None
        where = (native.deal_number, native.phase)
        probe = self.clone()
        order: list[tuple[int, tuple[int, ...]]] = []
        while True:
            seat, legal = probe.current_player(), probe.legal_actions()
            if any(seat == chose for chose, _ in order):
                # a seat's second turn (a `skip` in `start:` made the round go on): a node of its own
                return Round(tuple(order))
            order.append((seat, tuple(legal)))
            probe.apply_action(legal[0])
            if probe.state.prefix:
                raise ValueError(f"a move of phase `{phases[native.phase].name}` (`turns: together`) takes more "
                                 "than one token: a choice made together is one token")
            after = probe.native
            if probe.is_terminal() or (after.deal_number, after.phase) != where or after.turns != len(order):
                return Round(tuple(order))

    def play_together(self, round: "Round", tokens: dict[int, int]) -> list[int]:
        """Each chooser's token of the round, in the engine's order. Returns the tokens as played."""
        played = []
        for seat, _ in round.order:
            token = tokens[seat]
            if self.current_player() != seat or token not in self.legal_actions():
                raise ValueError(f"P{seat + 1} cannot play token {token} here: in a `turns: together` phase a "
                                 "player's moves must not depend on another's choice of the same round")
            self.apply_action(token)
            played.append(token)
        return played

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
        return other

    def snapshot(self) -> dict:
        """The match as plain data (for pickling): `Episode.restore` makes it again."""
        return {"native": self.native.to_json(), "prefix": list(self.state.prefix), "steps": self.steps,
                "max_steps": self.max_steps, **self.state.seen.to_json()}

    @classmethod
    def restore(cls, table: Table, data: dict) -> "Episode":
        episode = cls.__new__(cls)
        episode.table, episode.spelling = table, table.spelling
        native = table.game.state_from_json(data["native"])
        episode.state = table.spelling.wrap(native, tuple(data["prefix"]), Seen.from_json(data))
        episode.steps, episode.max_steps = data["steps"], data["max_steps"]
        return episode

    def __deepcopy__(self, memo: dict) -> "Episode":
        # OpenSpiel clones a state by deep-copying its attributes: share the game, copy the match
        return self.clone()

    # ------------------------------------------------------------ what a seat knows
    def observation_string(self, player: int) -> str:
        """What `player` sees now, and the last move as they saw it."""
        return self.state.observation_string(player)

    def information_state_string(self, player: int) -> str:
        """What `player` sees now, the cards they know the place of, and every move as they saw it."""
        return self.state.information_state_string(player)

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
        """A state `player` cannot tell from this one, with the cards they cannot place dealt anew
        (CompactState.resample), at the same step."""
        world = self.clone()
        world.state = self.state.resample(player, rng)
        return world
