"""koloda's games as research tools want them: a small, fixed action space and observation tensors.

The engine's own action ids are plan codes (up to ~10^47 where melds are declared). This is a
view on top of the engine that leaves it, its ids, the table, saves, transcripts and bots as they are:
a move is spelled as a short sequence of tokens from a vocabulary built from the rule file and
the layout alone (koloda/interpreter/spelling.py), and a seat's view of the state is a flat list
of floats (koloda/interpreter/tensors.py). See docs/compact.md.

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
    cs.apply_native(native_id)         # a whole engine move at once (replaying a transcript)

One player spells all the tokens of a move: the state keeps the tokens typed so far (its
`prefix`), and each legal token is the next token of some legal engine move that begins with it.
The last token of a move plays that move on the engine's state. Nothing is random here: the
engine's seed decides every shuffle, so there are no chance nodes.
"""
from __future__ import annotations

import json
import random
from collections import OrderedDict
from typing import Any

from koloda.agents.sampling import determinize
from koloda.api import load
from koloda.dsl.types import CARD, PLAN
from koloda.interpreter.bounded import recall, remember
from koloda.interpreter.errors import IllegalAction
from koloda.interpreter.game import Game
from koloda.interpreter.spelling import Spelling
from koloda.interpreter.state import TERMINAL, State
from koloda.interpreter.tensors import Observer

__all__ = ["CompactGame", "CompactState", "TERMINAL"]

INT32_MAX = 2 ** 31 - 1
CACHED = 1 << 15        # moves (and their texts) kept for the information state strings


class CompactGame:
    """A loaded game with the compact action space and the tensors. Shares the game: cheap to make."""

    def __init__(self, game: Game):
        self.game = game
        self.spelling = Spelling(game.codec, game.layout, game.cards, game.melds, [k.name for k in game.spec.meld_kinds],
                                 game.view.render, game.action_to_string)
        if self.spelling.size > INT32_MAX:
            raise ValueError(f"{game.name}: {self.spelling.size} tokens do not fit a 32-bit action id")
        self.observer = Observer(game, self.spelling)
        # the moves of histories as seats saw them: the cards of each move, and its text by the cards hidden
        self._move_cards: OrderedDict[int, tuple[int, ...]] = OrderedDict()
        self._move_texts: OrderedDict[tuple[int, tuple[int, ...]], str] = OrderedDict()
        # whole histories as seats saw them, by (their last link, seat): (that link, the cards named in
        # them, those the seat did not know, the text)
        self._histories: OrderedDict[tuple[int, int], tuple[Any, int, int, str]] = OrderedDict()

    @classmethod
    def load(cls, name_or_path: str, players: int | None = None, **options: Any) -> "CompactGame":
        return cls(load(name_or_path, options or None, players))

    @property
    def num_players(self) -> int:
        return self.game.num_players

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
        return self.spelling.token_to_string(token)

    def move_as_seen(self, s: State, native: int, seat: int) -> str:
        """A move of the history as `seat` knows it now (View.describe: `play a card` for a card it
        does not know), kept by the cards it hides: an information state lists every move so far."""
        cards = recall(self._move_cards, native)
        if cards is None:
            cards = self._cards_of(native)
        bit = 1 << seat
        key = (native, tuple([c for c in cards if not s.known[c] & bit]))
        text = recall(self._move_texts, key)
        if text is None:
            text = remember(self._move_texts, key, self.game.describe(s, native, seat), CACHED)
        return text

    def _cards_of(self, native: int) -> tuple[int, ...]:
        action, b = self.game.codec.decode(native)
        cards = tuple(c for p in action.params
                      for c in (b[p.var].cards if p.type == PLAN else (b[p.var],) if p.type == CARD else ()))
        return remember(self._move_cards, native, cards, CACHED)

    def history_as_seen(self, s: State, seat: int) -> str:
        """Every move so far as `seat` knows it now (`P1 draw; P2 discard 7♠; ...`).

        A move's text changes only when the seat learns or forgets one of its cards, so the text of a
        history is kept and extended by the next move while the seat knows the same of the cards
        named so far: a long match costs one move's text a call, not the whole match's."""
        link = s.history.tail
        if link is None:
            return ""
        cached = self._histories.get((id(link), seat))
        if cached is not None and cached[0] is link and self._hidden(s, seat, cached[1]) == cached[2]:
            return cached[3]
        parent, (mover, move) = link
        before = self._histories.get((id(parent), seat)) if parent is not None else (None, 0, 0, "")
        if before is None or before[0] is not parent or self._hidden(s, seat, before[1]) != before[2]:
            moves = list(s.history)[:-1]
            named = 0
            for _, m in moves:
                named |= self._named(m)
            text = "; ".join(f"P{p + 1} {self.move_as_seen(s, m, seat)}" for p, m in moves)
            before = (parent, named, self._hidden(s, seat, named), text)
        named = before[1] | self._named(move)
        seen = f"P{mover + 1} {self.move_as_seen(s, move, seat)}"
        text = before[3] + "; " + seen if before[3] else seen
        remember(self._histories, (id(link), seat), (link, named, self._hidden(s, seat, named), text), 256)
        return text

    def _named(self, native: int) -> int:
        """The cards a move names, as a mask."""
        cards = recall(self._move_cards, native)
        if cards is None:
            cards = self._cards_of(native)
        mask = 0
        for c in cards:
            mask |= 1 << c
        return mask

    @staticmethod
    def _hidden(s: State, seat: int, named: int) -> int:
        """Those of the cards in the mask `named` that `seat` does not know."""
        bit = 1 << seat
        known = s.known
        hidden = 0
        while named:
            low = named & -named
            c = low.bit_length() - 1
            if not known[c] & bit:
                hidden |= low
            named ^= low
        return hidden

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

    def new_initial_state(self, seed: int = 0, **position: Any) -> "CompactState":
        """A new match (the keywords are those of Game.new_initial_state: dealer, hands, deck)."""
        return CompactState(self, self.game.new_initial_state(seed=seed, **position))

    def wrap(self, native: State) -> "CompactState":
        """A compact view of an engine state, at the start of a move."""
        return CompactState(self, native)


# (tokens, native id) of each legal engine move of a decision
Spelled = tuple[tuple[tuple[int, ...], int], ...]


class CompactState:
    __slots__ = ("game", "native", "prefix", "_spelled", "_legal", "_at")

    def __init__(self, game: CompactGame, native: State, prefix: tuple[int, ...] = ()):
        self.game = game
        self.native = native
        self.prefix = prefix
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
        if not (isinstance(token, int) and 0 <= token < spelling.size):
            raise IllegalAction(f"token {token!r} is not in the vocabulary (0..{spelling.size - 1})")
        if spelling.identity:       # the token is the engine's id, checked by the engine
            self.native.apply_action(token)
            return
        if token not in self.legal_actions():
            raise IllegalAction(f"token {token} ({self.game.token_to_string(token)}) is not legal now")
        typed = self.prefix + (token,)
        for tokens, native in self._moves():
            if tokens == typed:
                self.prefix = ()
                self._spelled = self._legal = None
                self.native.apply_action(native)
                return
        self.prefix = typed

    def apply_native(self, native: int) -> None:
        """Play a whole engine move; only between moves (no token typed yet)."""
        if self.prefix:
            raise IllegalAction(f"a move is being spelled ({self.prefix_text()}); finish it first")
        self.native.apply_action(native)
        self._spelled = self._legal = None

    def clone(self) -> "CompactState":
        c = CompactState(self.game, self.native.clone(), self.prefix)
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

        Its tensors and strings for `player` are this state's. The moves so far are kept as they were
        played (the bots' guesses drop them): a card of theirs the player did not know is one it still
        does not know, so they tell it nothing new. The move being spelled is kept for its speller; for
        another player it is not theirs to know, and the state starts the move afresh."""
        seat = self._seat(player)
        native = self.native
        d = determinize(native, seat, rng)
        d.history = native.history.copy()
        return CompactState(self.game, d, self.prefix if seat == native.current_player() else ())

    def observation_string(self, player: int | None = None) -> str:
        """What the seat sees, as the table shows it (State.observation), and the move it is spelling."""
        seat = self._seat(player)
        text = json.dumps(self.native.observation(seat), sort_keys=True, ensure_ascii=False)
        if self.prefix and seat == self.native.current_player():
            text += " | spelling: " + self.prefix_text()
        return text

    def information_state_string(self, player: int | None = None) -> str:
        """The observation and every move so far as the seat saw it (cards it does not know unnamed)."""
        seat = self._seat(player)
        return self.observation_string(seat) + " | moves: " + self.game.history_as_seen(self.native, seat)

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
