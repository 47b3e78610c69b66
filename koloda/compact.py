"""koloda's games as research tools want them: a small, fixed action space and observation tensors.

The engine's own action ids are plan codes (up to ~10^47 where melds are declared). This is a
view on top of the engine that leaves it, its ids, the table, saves, transcripts and bots as they are:
a move is spelled as a short sequence of tokens from a vocabulary built from the rule file and
the layout alone (koloda/interpreter/words/spelling.py), and a seat's view of the state is a flat list
of floats (koloda/interpreter/words/tensors.py). See docs/compact.md.

The API (stable; the OpenSpiel and PettingZoo adapters are built on it):

    from koloda.compact import CompactGame
    cg = CompactGame(koloda.load("kunkin", players=2))     # or CompactGame.load("kunkin", players=2)
    cg.num_distinct_actions()          # the vocabulary's size, at most 2**31 - 1
    cg.max_move_length()               # the most tokens one move takes
    cg.observation_tensor_shape()      # [length]
    cg.information_state_tensor_shape()
    cg.observation_tensor_layout()     # [(label, offset, width)] of its blocks: ("P1 hand", 27, 55), ...
    cg.spell(native_id) -> tuple[int, ...];  cg.native(tokens) -> native id or None
    cg.token_to_string(token)
    cs = cg.new_initial_state(seed=0)  # a CompactState
    cs.current_player(); cs.legal_actions(); cs.legal_actions_mask(); cs.apply_action(token)
    cs.is_terminal(); cs.returns()
    cs.clone(); cs.prefix (the tokens of the move being spelled); cs.native (the engine's State)
    cs.observation_tensor(player); cs.information_state_tensor(player); cs.action_to_string(token)
    cs.observation_string(player); cs.information_state_string(player)
    cs.resample(player, rng)           # a state the player cannot tell from this one (for ISMCTS)
    cs.seen                            # each seat's record of the moves (koloda/seen.py)
    cg.wrap(native, prefix=())         # a compact view of an engine state
    cs.apply_native(native_id)         # a whole engine move at once (replaying a transcript)

One player spells all the tokens of a move: the state keeps the tokens typed so far (its
`prefix`), and each legal token is the next token of some legal engine move that begins with it.
The last token of a move plays that move on the engine's state. Nothing is random here: the
engine's seed decides every shuffle, so there are no chance nodes.
"""
from __future__ import annotations

import operator
import random
from typing import Any

from koloda.agents.sampling import determinize
from koloda.dsl.types import FRAC, INT, is_list
from koloda.api import load
from koloda.interpreter.base.errors import IllegalAction
from koloda.interpreter.game import Game
from koloda.interpreter.words.spelling import Spelling
from koloda.interpreter.core.state import TERMINAL, State
from koloda.interpreter.words.tensors import Observer
from koloda.seen import Seen, now

__all__ = ["CompactGame", "CompactState", "TERMINAL"]

INT32_MAX = 2 ** 31 - 1


class CompactGame:
    """A loaded game with the compact action space and the tensors. Shares the game: cheap to make."""

    def __init__(self, game: Game):
        self.game = game
        self.spelling = Spelling(game.codec, game.layout, game.cards, game.melds, [k.name for k in game.spec.meld_kinds],
                                 game.view.render, game.action_to_string)
        if self.spelling.size > INT32_MAX:
            raise ValueError(f"{game.name}: {self.spelling.size} tokens do not fit a 32-bit action id")
        self.observer = Observer(game, self.spelling)
        # who knew each card when the last deal was scored, and in which state: a move that ends a
        # deal is recorded as the table was then, not after the next deal's shuffle (as at the table)
        self.scored: tuple[State, tuple[int, ...]] | None = None
        game.on_deal_scored(self._deal_scored)

    def _deal_scored(self, state: State) -> None:
        self.scored = (state, tuple(state.known))

    @classmethod
    def load(cls, name_or_path: str, players: int | None = None, **options: Any) -> "CompactGame":
        return cls(load(name_or_path, options or None, players))

    @property
    def num_players(self) -> "Count":
        """`cg.num_players()` as in OpenSpiel; `cg.num_players` (an int) still works as before."""
        return Count(self.game.num_players)

    def num_distinct_actions(self) -> int:
        return self.spelling.size

    def max_move_length(self) -> int:
        return self.spelling.longest()

    def spell(self, native: int) -> tuple[int, ...]:
        """The tokens of an engine move."""
        return self.spelling.spell(native)

    def native(self, tokens: tuple[int, ...] | list[int]) -> int | None:
        """The engine move a whole spelling stands for (None: not a whole move)."""
        return self.spelling.native(tokens)

    def token_to_string(self, token: int) -> str:
        return self.spelling.token_to_string(as_token(token, self.spelling.size))

    def observation_tensor_shape(self) -> list[int]:
        return [self.observer.observation_size]

    def information_state_tensor_shape(self) -> list[int]:
        return [self.observer.information_size]

    def observation_tensor_layout(self) -> list[tuple[str, int, int]]:
        """(label, offset, width) of each block of the observation tensor, in order:
        `("P1 hand", 27, 55)`, `("unknown", 3003, 53)`; docs/compact.md says what each holds."""
        return list(self.observer.blocks)

    def information_state_tensor_layout(self) -> list[tuple[str, int, int]]:
        """The same for the information state: the observation's blocks, then `move -4` .. `move -1`."""
        return list(self.observer.information_blocks)

    def observation_tensor_bounds(self) -> tuple[list[float], list[float]]:
        """(low, high) of each entry of the observation tensor: what the layout bounds (one-hots,
        counts of cards, sizes of zones) has finite bounds; a number the rules keep (a score, the
        deal's number) is unbounded (-inf or +inf), and is not scaled: divide it by what the game's
        scores reach (docs/ai.md), or use Gymnasium's NormalizeObservation."""
        return tensor_bounds(self.observer, information=False)

    def information_state_tensor_bounds(self) -> tuple[list[float], list[float]]:
        """The same for the information-state tensor (a move's numeric parameters are unbounded)."""
        return tensor_bounds(self.observer, information=True)

    def new_initial_state(self, seed: int = 0, **position: Any) -> "CompactState":
        """A new match (the keywords are those of Game.new_initial_state: dealer, hands, deck)."""
        return CompactState(self, self.game.new_initial_state(seed=seed, **position))

    def wrap(self, native: State, prefix: tuple[int, ...] = (), seen: Seen | None = None) -> "CompactState":
        """A compact view of an engine state, `prefix` the tokens of the move being spelled. `seen`:
        the record of the moves so far (koloda/seen.py); without it, the moves already played are
        recorded as the table knows their cards now."""
        return CompactState(self, native, prefix, seen)


class Count(int):
    """A number that may also be called: `num_players` is a method in OpenSpiel and PettingZoo's
    users' hands, an attribute in this module's first spelling; both give the same int."""

    def __call__(self) -> int:
        return int(self)


def as_token(token: Any, size: int) -> int:
    """A token as an int: Python's, NumPy's (np.int64 from a policy's argmax) or any integer type;
    never a float or a bool, which would be a mistake in the caller."""
    if isinstance(token, bool):
        raise IllegalAction(f"token {token!r} is not in the vocabulary (0..{size - 1})")
    try:
        value = operator.index(token)
    except TypeError:
        raise IllegalAction(f"token {token!r} is not in the vocabulary (0..{size - 1})") from None
    if not 0 <= value < size:
        raise IllegalAction(f"token {token!r} is not in the vocabulary (0..{size - 1})")
    return value


def tensor_bounds(observer: Observer, information: bool) -> tuple[list[float], list[float]]:
    """Each entry's range, read from the blocks the observer laid out (koloda/interpreter/words/tensors.py)."""
    inf = float("inf")
    cards = float(sum(observer.copies))       # no count of cards by name passes the whole pack
    size = observer.information_size if information else observer.observation_size
    low, high = [0.0] * size, [cards] * size
    n = observer.n
    for at in range(3 * n + 1 + len(observer.steps)):       # seat, to move, dealer, phase: one-hots
        high[at] = 1.0
    high[3 * n + 1 + len(observer.steps)] = inf       # the deal's number
    types = observer.game.rules.var_types
    for vi, at, _ in observer.vars:
        t = types[observer.layout.var_names[vi]]
        width = observer.blocks[[b[1] for b in observer.blocks].index(at)][2]
        high[at] = 1.0                       # the `none` flag
        for k in range(at + 1, at + width):
            if t in (INT, FRAC):
                low[k], high[k] = -inf, inf
            elif is_list(t):
                high[k] = inf
            else:                           # a flag, or a one-hot of a card, suit, player ...
                high[k] = 1.0
    if observer.spelled:
        longest = float(observer.spelling.longest())
        for k in range(observer.prefix_at, observer.prefix_at + observer.spelling.size + 1):
            high[k] = longest
    if information:
        at = observer.observation_size
        for _ in range(observer.remembered):
            for k in range(at, at + n + observer.actions):      # its player and action: one-hots
                high[k] = 1.0
            params = at + n + observer.actions + observer.names + 1
            for k in range(params, params + observer.params):
                low[k], high[k] = -inf, inf
            at += observer.move_size
    return low, high


# (tokens, native id) of each legal engine move of a decision
Spelled = tuple[tuple[tuple[int, ...], int], ...]


class CompactState:
    __slots__ = ("game", "native", "prefix", "seen", "_spelled", "_legal", "_at")

    def __init__(self, game: CompactGame, native: State, prefix: tuple[int, ...] = (), seen: Seen | None = None):
        self.game = game
        self.native = native
        self.prefix = prefix
        self.seen = seen if seen is not None else Seen()     # the moves as the seats saw them
        self.seen.catch_up(native)
        self._spelled: Spelled | None = None       # never changed in place: shared by clones
        self._legal: tuple[tuple[int, ...], list[int]] | None = None     # (prefix, its legal tokens)
        self._at = native.moves       # the engine move the two above were worked out at

    def _fresh(self) -> None:
        """Forget what was worked out at another engine move (the engine state was played on directly)."""
        if self._at != self.native.moves:
            self._spelled = self._legal = None
            self._at = self.native.moves

    def _moves(self) -> Spelled:
        self._fresh()
        if self._spelled is None:
            spell = self.game.spelling.spell
            self._spelled = tuple((spell(a), a) for a in self.native.legal_actions())
        return self._spelled

    # ------------------------------------------------------------ the State API
    def current_player(self) -> int:
        return self.native.current_player()

    def is_terminal(self) -> bool:
        return self.native.is_terminal()

    def returns(self) -> list[float]:
        return self.native.returns()

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.native.is_terminal() or (player is not None and player != self.native.current_player()):
            return []
        if self.game.spelling.identity:
            return self.native.legal_actions()
        prefix = self.prefix
        self._fresh()
        if self._legal is not None and self._legal[0] == prefix:
            return self._legal[1]
        at = len(prefix)
        legal = sorted({tokens[at] for tokens, _ in self._moves() if tokens[:at] == prefix})
        self._legal = (prefix, legal)
        return legal

    def legal_actions_mask(self) -> list[int]:
        """1 for each legal token, 0 for the others, over the whole vocabulary."""
        mask = [0] * self.game.spelling.size
        for token in self.legal_actions():
            mask[token] = 1
        return mask

    def legal_native_actions(self) -> list[int]:
        """The engine moves that begin with the tokens typed so far."""
        at, prefix = len(self.prefix), self.prefix
        return [a for tokens, a in self._moves() if tokens[:at] == prefix]

    def apply_action(self, token: int) -> None:
        spelling = self.game.spelling
        token = as_token(token, spelling.size)
        if spelling.identity:       # the token is the engine's id, checked by the engine
            self._play(token)
            return
        if token not in self.legal_actions():
            raise IllegalAction(f"token {token} ({self.game.token_to_string(token)}) is not legal now")
        typed = self.prefix + (token,)
        for tokens, native in self._moves():
            if tokens == typed:
                self.prefix = ()
                self._spelled = self._legal = None
                self._play(native)
                return
        self.prefix = typed

    def apply_native(self, native: int) -> None:
        """Play a whole engine move; only between moves (no token typed yet)."""
        native = operator.index(native)
        if self.prefix:
            raise IllegalAction(f"a move is being spelled ({self.prefix_text()}); finish it first")
        self._play(native)
        self._spelled = self._legal = None

    def _play(self, native: int) -> None:
        """Play an engine move and record who knew each card just after it (as the deal was
        scored, if it ended one: the next deal's shuffle must not hide what the table saw)."""
        s, game = self.native, self.game
        self.seen.catch_up(s)
        game.scored = None
        s.apply_action(native)
        scored = game.scored
        player, action = s.history[-1]
        self.seen.record(player, action, scored[1] if scored is not None and scored[0] is s else tuple(s.known))

    def clone(self) -> "CompactState":
        c = CompactState(self.game, self.native.clone(), self.prefix, self.seen.clone())
        c._spelled, c._legal, c._at = self._spelled, self._legal, self._at
        return c

    def __copy__(self) -> "CompactState":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "CompactState":
        """A clone: the rules are shared, never copied (tools such as OpenSpiel deep-copy states)."""
        return self.clone()

    # ------------------------------------------------------------ text
    def action_to_string(self, token: int) -> str:
        return self.game.token_to_string(token)

    def prefix_text(self) -> str:
        return " ".join(self.game.token_to_string(t) for t in self.prefix)

    def __str__(self) -> str:
        text = str(self.native)
        return text + (f"\n  spelling: {self.prefix_text()}" if self.prefix else "")

    # ------------------------------------------------------------ what a seat knows
    def resample(self, player: int, rng: random.Random) -> "CompactState":
        """A state `player` cannot tell from this one: the cards it does not know dealt anew, as the
        bots guess them (the seed of later shuffles too).

        Meant for the player to move, as search does: for them the legal moves stay the same. For
        another player, the one to move may be dealt cards that leave them no legal move where the
        rules tie their move to their cards (a card taken from the pile that must be melded), and
        the move being spelled is its speller's, not the other's to know: it is started afresh.

        Its observation, information-state string and observation tensor for `player` are this
        state's. The drawn world has no true history (as for the bots): its moves so far are
        `player`'s account of them, for every seat, so that no seat's view of it names a real
        hidden card; its information-state tensor therefore lacks the window of recent moves."""
        seat = self._seat(player)
        native = self.native
        world = self.seen.world(native, seat)
        prefix = self.prefix if seat == native.current_player() else ()
        return CompactState(self.game, determinize(native, seat, rng), prefix, world)

    def observation_string(self, player: int | None = None) -> str:
        """What the seat sees now, the cards it knows the place of, the move it is spelling, and the
        last move as it saw it."""
        seat = self._seat(player)
        return f"{self._now(seat)}\nlast: {self.seen.last_move(self.native, seat)}"

    def information_state_string(self, player: int | None = None) -> str:
        """What the seat sees now, the cards it knows the place of, and every move as it saw it
        (koloda/seen.py): a key for search and tabular methods."""
        seat = self._seat(player)
        return f"{self._now(seat)}\nmoves:\n{self.seen.history(self.native, seat)}"

    def _now(self, seat: int) -> str:
        # the move being spelled is its speller's own until it is played
        mine = self.prefix and seat == self.native.current_player()
        return now(self.native, seat, self.prefix_text() if mine else "")

    # ------------------------------------------------------------ tensors
    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.game.observer.observation(self.native, self._seat(player), self.prefix)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self.game.observer.information_state(self.native, self._seat(player), self.prefix)

    def _seat(self, player: int | None) -> int:
        if player is None:
            player = self.native.current_player()
        if not 0 <= player < self.game.num_players:
            raise ValueError(f"there is no player {player}: the players are 0..{self.game.num_players - 1}")
        return player
