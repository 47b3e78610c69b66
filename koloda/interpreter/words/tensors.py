"""A seat's view of a state as a flat list of floats, laid out from the rule file and the layout alone.

What a seat knows is decided where the rest of the engine decides it: a card is known to a player
when its bit in `State.known` is set (what the bots' determinization keeps, what the table's move
history names), and a variable is shown as the view shows it (`View.sees_var`). Nothing else of a
state is read, so two states that differ only in cards a seat does not know give it the same tensor.

Cards are counted by *name* (two decks: two 7♣ are one name counted twice), so a tensor does
not tell copies apart, as the players cannot. The blocks, in order (docs/compact.md):

  seat one-hot; whose turn one-hot and a terminal flag; dealer one-hot; phase-and-step one-hot;
  deal number;
  each zone: counts of the known cards by name, its size, how many of its cards are unknown, and
  for a zone whose top is shown (visible top or all) the top card by name;
  each meld slot: counts by name, what its wild cards stand for, its kind, its owner, its size;
  each variable: a `none` flag and its value (number; flag; one-hot of card name, suit, rank,
  colour, player, side or zone; counts for a list); zeros where the seat may not see it;
  the unknown plane: for each name, the copies whose place the seat does not know;
  where moves take more than one token: the tokens typed so far (counts over the vocabulary)
  and how many, for the seat spelling the move only (until it is played, a move is its own).
The information state adds the last `2 x players` moves, oldest first, each as its player,
its action, the names of its cards the seat knows, how many it does not, and its other
parameters' values.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

from koloda.dsl.types import BOOL, CARD, COLOR, FRAC, INT, PLAN, PLAYER, RANK, SIDE, SUIT, ZONE, elem, enum_words, is_enum, is_list
from koloda.interpreter.melds.bounded import recall, remember
from koloda.interpreter.melds.meldlist import IDENTITIES
from koloda.interpreter.words.spelling import Spelling
from koloda.interpreter.core.state import State

__all__ = ["Observer"]

Encoder = Callable[[list[float], int, Any], None]     # (tensor, offset, value) -> writes the value's block


class Observer:
    def __init__(self, game: Any, spelling: Spelling):
        self.game = game
        self.layout = layout = game.layout
        self.view = game.view
        self.spelling = spelling
        cards = game.cards
        order: dict[str, int] = {}
        for name in cards.names:
            order.setdefault(name, len(order))
        self.names = len(order)
        self.name_of = [order[name] for name in cards.names]
        self.copies = [0] * self.names
        for i in self.name_of:
            self.copies[i] += 1
        n = self.n = layout.num_players
        self.steps = {(pi, step): k for k, (pi, step) in
                      enumerate((pi, step) for pi, ph in enumerate(game.flow.phases) for step in ph.steps)}
        # (label, offset, width) of each block, in order: the layout of the tensor, for people and tools
        self.blocks: list[tuple[str, int, int]] = []
        add = self._block
        add("seat", n)
        add("to move", n + 1)
        add("dealer", n)
        add("phase and step", len(self.steps))
        add("deal", 1)
        # zones: (zone, offset, shows its top); meld slots: (zone, slot, offset)
        self.zones: list[tuple[int, int, bool]] = []
        self.slots: list[tuple[int, int, int]] = []
        self.kinds = max(len(game.spec.meld_kinds), 1)
        self.owners = layout.num_sides if layout.meld_by_side else n
        for zi, z in enumerate(layout.zones):
            if z.slot is not None:
                self.slots.append((zi, z.slot, add(f"meld {z.slot + 1}", self.names + IDENTITIES + self.kinds
                                                   + self.owners + 1)))
            else:
                top = z.visible in ("top", "all")
                self.zones.append((zi, add(layout.zone_label(zi), self.names + 2 + (self.names if top else 0)), top))
        self.vars: list[tuple[int, int, Encoder]] = []
        types = game.rules.var_types
        for vi, name in enumerate(layout.var_names):
            width, encode = self._encoder(types[name])
            owner = layout.var_owner[vi]
            label = name if owner is None else f"{layout.owner_label(owner, self.view.var_view[name][1])} {name}"
            self.vars.append((vi, add(label, 1 + width), encode))
        self.unknown_at = add("unknown", self.names)
        self.spelled = spelling.longest() > 1
        self.prefix_at = add("spelling", spelling.size + 1) if self.spelled else self._size()
        self.observation_size = self._size()
        # the information state: the observation, then the last moves
        self.actions = len(game.codec.actions)
        self.params = max((len(a.params) for a in game.codec.actions), default=0)
        self.remembered = 2 * n
        self.move_size = n + self.actions + self.names + 1 + self.params
        self.information_blocks = self.blocks[:]
        for k in range(self.remembered, 0, -1):
            self.information_blocks.append((f"move -{k}", self._size(self.information_blocks), self.move_size))
        self.information_size = self._size(self.information_blocks)
        # the moves of the history, decoded once: (action index, cards, (parameter, value) of the others)
        self._decoded: OrderedDict[int, tuple[int, tuple[int, ...], tuple[tuple[int, float], ...]]] = OrderedDict()

    def _size(self, blocks: list[tuple[str, int, int]] | None = None) -> int:
        blocks = self.blocks if blocks is None else blocks
        return blocks[-1][1] + blocks[-1][2] if blocks else 0

    def _block(self, label: str, width: int) -> int:
        """Add a block at the end of the observation; its offset."""
        at = self._size()
        self.blocks.append((label, at, width))
        return at

    # ------------------------------------------------------------ variables
    def _encoder(self, t: str) -> tuple[int, Encoder]:
        """The width of a value of type `t` and how to write it."""
        layout = self.layout
        one_hot = {SUIT: self.game.cards.suit_radix, RANK: self.game.cards.rank_radix, COLOR: 2, PLAYER: layout.num_players, SIDE: layout.num_sides,
                   ZONE: len(layout.zones)}
        if t in (INT, FRAC, BOOL):          # a fraction as a float: 15/2 is 7.5
            def number(x: list[float], at: int, v: Any) -> None:
                x[at] = float(v)
            return 1, number
        if t == CARD:
            name_of = self.name_of

            def card(x: list[float], at: int, v: Any) -> None:
                x[at + name_of[v]] = 1.0
            return self.names, card
        if t in one_hot:
            width = one_hot[t]

            def hot(x: list[float], at: int, v: Any) -> None:
                if 0 <= int(v) < width:
                    x[at + int(v)] = 1.0
            return width, hot
        if is_enum(t):
            words = {w: i for i, w in enumerate(enum_words(t))}

            def word(x: list[float], at: int, v: Any) -> None:
                x[at + words[v]] = 1.0
            return len(words), word
        if is_list(t):
            inner = elem(t)
            if inner == CARD or inner in one_hot:
                width = self.names if inner == CARD else one_hot[inner]
                index: Callable[[int], int] = (lambda v: self.name_of[v]) if inner == CARD else int

                def counts(x: list[float], at: int, v: Any) -> None:
                    for item in v:
                        if item is not None and 0 <= index(item) < width:
                            x[at + index(item)] += 1.0
                return width, counts

            def length(x: list[float], at: int, v: Any) -> None:
                x[at] = float(len(v))
            return 1, length
        return 0, lambda x, at, v: None          # text, plans, grids: only whether it is set

    # ------------------------------------------------------------ the tensors
    def observation(self, s: State, player: int, prefix: tuple[int, ...] = ()) -> list[float]:
        x = [0.0] * self.observation_size
        self._fill(x, s, player, prefix)
        return x

    def information_state(self, s: State, player: int, prefix: tuple[int, ...] = ()) -> list[float]:
        x = [0.0] * self.information_size
        self._fill(x, s, player, prefix)
        at = self.observation_size
        moves = s.history[-self.remembered:] if len(s.history) else []
        at += (self.remembered - len(moves)) * self.move_size     # the latest move last, always in one place
        for mover, action in moves:
            self._move(x, at, s, player, mover, action)
            at += self.move_size
        return x

    def _fill(self, x: list[float], s: State, player: int, prefix: tuple[int, ...]) -> None:
        n = self.n
        bit = 1 << player
        known = s.known
        name_of = self.name_of
        x[player] = 1.0
        if s.terminal:
            x[2 * n] = 1.0
        else:
            x[n + s.current] = 1.0
        x[2 * n + 1 + s.dealer] = 1.0
        step = self.steps.get((s.phase, s.step))
        if step is not None:
            x[3 * n + 1 + step] = 1.0
        x[3 * n + 1 + len(self.steps)] = float(s.deal_number)
        unknown = x[self.unknown_at:self.unknown_at + self.names] = list(map(float, self.copies))
        for zi, at, top in self.zones:
            cards = s.zones[zi]
            seen = 0
            for c in cards:
                if known[c] & bit:
                    x[at + name_of[c]] += 1.0
                    unknown[name_of[c]] -= 1.0
                    seen += 1
            x[at + self.names] = float(len(cards))
            x[at + self.names + 1] = float(len(cards) - seen)
            if top and cards and known[cards[-1]] & bit and s.face[cards[-1]]:
                x[at + self.names + 2 + name_of[cards[-1]]] = 1.0
        for zi, slot, at in self.slots:
            cards = s.zones[zi]
            for c in cards:
                if known[c] & bit:
                    x[at + name_of[c]] += 1.0
                    unknown[name_of[c]] -= 1.0
                stands = s.stands[c]
                if stands is not None:        # declared to the whole table, as the view shows it
                    x[at + self.names + stands] += 1.0
            kind, owner = s.slot_kind[slot], s.slot_owner[slot]
            at += self.names + IDENTITIES
            if kind is not None:
                x[at + kind] = 1.0
            if kind is not None and owner is not None:
                x[at + self.kinds + owner] = 1.0
            x[at + self.kinds + self.owners] = float(len(cards))
        x[self.unknown_at:self.unknown_at + self.names] = unknown
        sees = self.view.sees_var
        for vi, at, encode in self.vars:
            if not sees(player, vi):
                continue
            value = s.vars[vi]
            if value is None:
                x[at] = 1.0
            else:
                encode(x, at + 1, value)
        # the move being spelled is the speller's own until it is played: others see none of it
        if self.spelled and prefix and player == s.current:
            for token in prefix:
                x[self.prefix_at + token] += 1.0
            x[self.prefix_at + self.spelling.size] = float(len(prefix))

    def _move(self, x: list[float], at: int, s: State, player: int, mover: int, native: int) -> None:
        """One move of the history as the seat knows it now: hidden cards are counted, not named."""
        found = recall(self._decoded, native)
        if found is None:
            action, b = self.game.codec.decode(native)
            cards = tuple(c for p in action.params if p.type in (CARD, PLAN)
                          for c in ((b[p.var],) if p.type == CARD else b[p.var].cards))
            # a word parameter's value is its word's place in the list
            others = tuple((k, float(enum_words(p.type).index(b[p.var]) if is_enum(p.type) else b[p.var]))
                           for k, p in enumerate(action.params) if p.type not in (CARD, PLAN))
            found = remember(self._decoded, native, (action.index, cards, others), 1 << 14)
        index, cards, others = found
        x[at + mover] = 1.0
        x[at + self.n + index] = 1.0
        cards_at = at + self.n + self.actions
        bit = 1 << player
        known, name_of = s.known, self.name_of
        for c in cards:
            if known[c] & bit:
                x[cards_at + name_of[c]] += 1.0
            else:
                x[cards_at + self.names] += 1.0
        for k, value in others:
            x[cards_at + self.names + 1 + k] = value
