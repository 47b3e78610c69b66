"""The state of play: zones, variables, turn position and the shuffle source.

Everything is plain lists and ints so that cloning copies lists, not
objects, and a state round-trips through JSON exactly.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from koloda.dsl.limits import MAX_WORK
from koloda.interpreter.base.errors import IllegalAction, RuleRuntimeError
from koloda.interpreter.core import state_fields
from koloda.interpreter.core.history import History
from koloda.interpreter.core.table import Table
from koloda.interpreter.runtime.knowledge import Fact, Said, facts_after_move
from koloda.interpreter.melds.melds import LAYOFF, NEW, SWAP
from koloda.interpreter.core.movetext import action_named
from koloda.interpreter.core.shuffle import Generator, generator, given_order, shuffled
from koloda.interpreter.core.watch import ALL
from koloda.interpreter.core.window import copy_waiting


# Cards that left a public zone (one the whole table shares and sees) in the last action: (source zone,
# destination zone, the cards (None: one lying face down), who had put each there (None: no player, or
# face down), whether they were all of its cards (a trick taken whole)). A plain tuple: it is made on
# the way of play, and must cost next to nothing.
Moved = tuple[int, int, list[int | None], list[int | None], bool]


TERMINAL = -4
CHANCE = -1   # never returned: shuffles are decided by the seed or a given deck order


class State:
    # every field, with how a clone, a save and the reading of a save take it, is declared in state_fields.py
    __slots__ = state_fields.slots()

    def __new__(cls, *args: Any, **kwargs: Any) -> State:
        # a clone is made without running __init__ (`State.__new__(State)`); compiled with mypyc, a class
        # without a __new__ of its own runs __init__ there too, and with no arguments
        return super().__new__(cls)

    def __init__(self, game: Table, n: int, seed: int, orders: list[list[int]] | None = None):
        self.game = game
        self.layout = game.layout
        self.flow = game.flow
        self.n = n
        size = game.cards.size
        self.zones: list[list[int]] = [[] for _ in range(len(self.layout.zones))]
        # bit z set: zones[z] is a list shared with a clone, copied before it is changed (`own`)
        self.shared = 0
        self.loc: list[int] = [-1] * size
        self.by: list[int | None] = [None] * size
        self.face: list[bool] = [True] * size       # False: lying face down
        # bit p set: player p knows where this card is (saw it arrive, or watched it leave a place they saw)
        self.known: list[int] = [0] * size
        self.vars: list = []
        self.dealer = 0
        self.current = 0
        self.phase = 0
        self.step = ""
        self.turns = 0
        self.deal_number = 0
        self.moves = 0
        self.skips = [0] * n
        self.direction = 1                 # 1: play passes to the left (P1, P2 ...); -1: to the right
        self.deal_turns = 0                # turns taken in this deal (for `turn cap:`)
        self.capped = False                # the match ended drawn by `turn cap:`
        self.next_player: int | None = None
        self.goto: str | None = None
        self.deal_over = False
        self.terminal = False
        self.seed = seed
        self.shuffles = 0
        self.orders = [list(o) for o in (orders or [])]
        self.history = History()           # shared with clones, never copied
        self.actor: int | None = None      # the player whose action is running, for `c.by`
        self.asked: tuple | None = None     # set by `ask` while an action runs: (players, step[, window index])
        # for each question being answered: [asker, step to return to, players still to answer, their step,
        # the open window's record (window.py) or None]
        self.waiting: list[list] = []
        slots = len(self.layout.slot_zone)
        self.slot_kind: list[int | None] = [None] * slots      # the meld kind in each slot; None: free
        self.slot_owner: list[int | None] = [None] * slots
        self.slot_turn: list[int] = [0] * slots                # the turn the meld was made in
        self.stands: list[int | None] = [None] * size          # what a wild card on the table stands for
        self.turn_no = 0
        self.last_meld: int | None = None     # the zone of the meld made most recently
        self.listing = 0                      # stamped by each listing of legal moves
        self.work = MAX_WORK                  # steps left to the run of the rules going on (work.py)
        self.moved: tuple[Moved, ...] = ()    # what left public zones in the last action (never changed in place)
        self._listed: list[int] | None = None     # the legal moves, once listed
        self.settled = False                  # an action is over: `deal ends:` may ask `no_moves()` (flow.py)
        # bits of the conditions the flow must ask again (koloda/interpreter/core/watch.py): set by what changes
        # the zones and variables they read, cleared when one is found false
        self.dirty = ALL
        # the melds on the table as MeldRules.on_table made them, while the table bit of `dirty` is clear
        self.table: list | None = None
        # what the rules told players (koloda/interpreter/runtime/knowledge.py): messages (`say`), cards shown
        # during the current action (`reveal`), and facts about zones' cards (`tell`)
        self.said: tuple[Said, ...] = ()
        self.phase_start = 0               # the number of moves made when the phase under way began
        # the named parts of `score:` effects, for the table: (deal, variable index, ((part, value), ...))
        self.scored: tuple[tuple[int, int, tuple[tuple[str, int], ...]], ...] = ()
        self.shown: dict[int, int] = {}
        self.facts: tuple[Fact, ...] = ()
        # who shuffles this state's zones in place of the seed (None: the next given order, else the seed):
        # a function of the state and the zone, which calls `shuffle_cards` itself if it shuffles
        # (koloda/dealing.py asks for each order at chance nodes; arrange.py notes where the cards went)
        self.shuffler: Callable[[State, int], None] | None = None

    # ------------------------------------------------------------ copying
    def clone(self) -> State:
        """A copy to play on without changing this one (its zones' lists shared until changed: `own`).
        Each line is its field's entry in state_fields.py, in that order (a test checks it): straight
        assignments, since clone is hot (every playout copies the state), not a loop over the fields."""
        c = State.__new__(State)
        c.game = self.game
        c.layout = self.layout
        c.flow = self.flow
        c.n = self.n
        c.shuffler = self.shuffler
        c.zones = self.zones[:]
        self.shared = c.shared = (1 << len(self.zones)) - 1
        c.loc = self.loc[:]
        c.by = self.by[:]
        c.face = self.face[:]
        c.known = self.known[:]
        c.vars = self.vars[:]
        c.dealer = self.dealer
        c.current = self.current
        c.phase = self.phase
        c.step = self.step
        c.turns = self.turns
        c.deal_number = self.deal_number
        c.moves = self.moves
        c.skips = self.skips[:]
        c.direction = self.direction
        c.deal_turns = self.deal_turns
        c.capped = self.capped
        c.next_player = self.next_player
        c.goto = self.goto
        c.deal_over = self.deal_over
        c.terminal = self.terminal
        c.seed = self.seed
        c.shuffles = self.shuffles
        c.orders = [o[:] for o in self.orders] if self.orders else []
        c.history = self.history.copy()
        c.waiting = [copy_waiting(w) for w in self.waiting] if self.waiting else []
        c.slot_kind = self.slot_kind[:]
        c.slot_owner = self.slot_owner[:]
        c.slot_turn = self.slot_turn[:]
        c.stands = self.stands[:]
        c.turn_no = self.turn_no
        c.last_meld = self.last_meld
        c.moved = self.moved
        c.said = self.said
        c.facts = self.facts
        c.scored = self.scored
        c.phase_start = self.phase_start
        c.shown = dict(self.shown) if self.shown else {}
        c.actor = self.actor
        c.asked = self.asked
        c.listing = 0
        c.settled = False
        c.work = MAX_WORK
        c._listed = None if self._listed is None else self._listed[:]
        c.dirty = self.dirty
        c.table = self.table
        return c

    def own(self, zone: int) -> list[int]:
        """The list of `zone`'s cards, to change: this state's own copy. Every change to a zone's
        cards goes through it (a clone shares the lists until one side changes one)."""
        if self.shared >> zone & 1:
            self.zones[zone] = self.zones[zone][:]
            self.shared &= ~(1 << zone)
        return self.zones[zone]

    def forget(self) -> None:
        """Code outside the rules changed this state by hand (a test's position, a bot's sample):
        the legal moves and the conditions found false are stale."""
        self._listed = None
        self.dirty = ALL

    @property
    def _legal(self) -> list[int] | None:
        return self._listed

    @_legal.setter
    def _legal(self, value: list[int] | None) -> None:
        """Setting `_legal = None` is how code that changes a state by hand has long said so."""
        if value is None:
            self.forget()
        else:
            self._listed = value

    # ------------------------------------------------------------ card movement
    def move(self, card: int, dest: int, who: int | None, face_up: bool = True, under: bool = False) -> None:
        # the hottest function of play: the state's lists are read once into locals
        loc, known_of, zones, layout = self.loc, self.known, self.zones, self.layout
        src = loc[card]
        known = before = known_of[card]
        dirt = self.flow.zone_dirt
        if src >= 0:
            cards = zones[src] if not self.shared >> src & 1 else self.own(src)
            if cards[-1] == card:       # the top card (a draw, a deal): no search
                cards.pop()
            else:
                cards.remove(card)
            if self.stands[card] is not None:
                self.stands[card] = None
            if not cards and src in layout.zone_slot:
                self.slot_kind[layout.zone_slot[src]] = None       # an emptied meld frees its slot
            # those who knew the card and could see it go know where it went
            known &= layout.watchers[src] if self.face[card] else self._knew_face_down(card, who)
            if self.shown:      # shown to some players in this action: they watch it go
                known |= self.shown.get(card, 0) & known_of[card]
            self.dirty |= dirt[dest] | dirt[src]
        else:
            self.dirty |= dirt[dest]
        cards = zones[dest] if not self.shared >> dest & 1 else self.own(dest)
        if under:
            cards.insert(0, card)
        else:
            cards.append(card)
        loc[card] = dest
        if who is not None and src >= 0:
            who = self._credit(card, src, dest, who)
        self.by[card] = who
        self.face[card] = face_up
        known_of[card] = known = known | (layout.watchers[dest] if face_up and not under else 0)
        if self.facts:
            self.facts = facts_after_move(self.facts, self.game.cards, card, src, dest, before, known)

    def _credit(self, card: int, src: int, dest: int, actor: int) -> int:
        """Who a card that `actor`'s action moves out of zone `src` is credited to (its `by`): the player
        whose own zone it leaves (the dummy's hand laid down by the leader); a card moving on between
        zones the table shares keeps the player who put it there (an attack card beaten, a card played
        from the dummy); any other card, the actor."""
        layout = self.layout
        holder = layout.holder[src]
        if holder >= 0:
            return holder
        if layout.public[src] and layout.zone_owner[dest] is None:
            put = self.by[card]
            if put is not None:
                return put
        return actor

    def move_zone(self, src: int, dest: int, who: int | None, face_up: bool = True, under: bool = False) -> None:
        """`move ZONE to ...`: every card of `src`, noted for the table if `src` is public, each moved as
        `move` does, in one pass (a trick taken, a pile turned over)."""
        cards = list(self.zones[src])
        if not cards:
            return
        face, by = self.face, self.by
        if self.layout.public[src]:     # as note_leaving notes them: one record, the whole zone
            self.moved += ((src, dest, [c if face[c] else None for c in cards],
                            [by[c] if face[c] else None for c in cards], True),)
        if under or src == dest or self.facts or self.shown:
            for c in (reversed(cards) if under else cards):      # under: the cards keep their order
                self.move(c, dest, who, face_up, under)
            return
        self.own(src).clear()
        layout, loc, known_of, stands = self.layout, self.loc, self.known, self.stands
        if src in layout.zone_slot:
            self.slot_kind[layout.zone_slot[src]] = None       # an emptied meld frees its slot
        seen_leaving, arriving = layout.watchers[src], layout.watchers[dest] if face_up else 0
        pile = self.own(dest)
        holder = layout.holder[src]
        credit = who if who is None or holder < 0 else holder
        keeps = who is not None and holder < 0 and layout.public[src] and layout.zone_owner[dest] is None
        for c in cards:
            if stands[c] is not None:
                stands[c] = None
            known = known_of[c] & seen_leaving if face[c] else self._knew_face_down(c, who)
            pile.append(c)
            loc[c] = dest
            if not keeps or by[c] is None:
                by[c] = credit
            face[c] = face_up
            known_of[c] = known | arriving
        dirt = self.flow.zone_dirt
        self.dirty |= dirt[dest] | dirt[src]

    def turn_over(self, card: int, face_up: bool) -> None:
        """`turn c face up/down`: the card stays where it lies. Turned up, those who see its zone see it;
        turned down, those who knew it still do."""
        zone = self.loc[card]
        if zone < 0 or self.face[card] == face_up:
            return
        self.face[card] = face_up
        if face_up:
            self.known[card] |= self.layout.watchers[zone]
        self.dirty |= self.flow.zone_dirt[zone]

    def note_leaving(self, cards: list[int], dest: int) -> None:
        """Cards of public zones about to be moved to `dest`: noted in `moved` as they lie now (with
        who put each there), one record per zone, for the table to tell."""
        loc, face, by, zones = self.loc, self.face, self.by, self.zones
        sources = {loc[c] for c in cards}
        for src in sorted(sources):
            mine = cards if len(sources) == 1 else [c for c in cards if loc[c] == src]
            self.moved += ((src, dest, [c if face[c] else None for c in mine],
                            [by[c] if face[c] else None for c in mine], len(mine) == len(zones[src])),)

    def meld(self, plan, who: int | None) -> None:
        """Carry out a plan: a new meld in a free slot, a card added to a meld, or a wild card won back."""
        layout = self.layout
        if plan.type == NEW:
            slot = self.slot_kind.index(None) if None in self.slot_kind else None
            if slot is None:
                raise RuleRuntimeError("no room for another meld on the table")
            zone = layout.slot_zone[slot]
            for c in plan.cards:
                self.move(c, zone, who)
            self.slot_kind[slot], self.slot_owner[slot], self.slot_turn[slot] = plan.kind, plan.target, self.turn_no
            self.last_meld = zone
        elif plan.type == LAYOFF:
            zone = layout.slot_zone[plan.target]
            (c,) = plan.cards
            self.move(c, zone, who, under=plan.at_start)
            if plan.at_start:
                self.known[c] |= layout.watchers[zone]
        elif plan.type == SWAP:
            zone = layout.slot_zone[plan.target]
            (c,) = plan.cards
            joker = plan.taken
            if joker is None or self.loc[joker] != zone:
                raise RuleRuntimeError("that joker is no longer on the table")
            home = self.loc[c]
            where = self.zones[zone].index(joker)
            self.move(joker, home, who)
            self.move(c, zone, who)
            meld = self.own(zone)
            meld.remove(c)
            meld.insert(where, c)        # the card takes the joker's place in the meld
            return
        for card, code in plan.wild:
            self.stands[card] = code

    def _knew_face_down(self, card: int, who: int | None) -> int:
        """A face-down card moved: only the mover (if they knew it) still knows it."""
        return self.known[card] & (1 << who) if who is not None else 0

    def rng(self) -> Generator:
        """A fresh generator for the next random event, decided by the seed (the stream of
        `random.Random` of the same number: shuffle.py)."""
        self.shuffles += 1
        return generator(self.seed * 1_000_003 + self.shuffles)

    def shuffle(self, zone: int) -> None:
        """`shuffle ZONE`: by this state's shuffler if it has one, else as `shuffle_cards` does."""
        if self.shuffler is not None:
            self.shuffler(self, zone)
        else:
            self.shuffle_cards(zone)

    def shuffle_cards(self, zone: int) -> None:
        """The zone's cards in the next given order, or else in the seed's next random order."""
        cards = self.own(zone)
        self.dirty |= self.flow.zone_dirt[zone]
        watchers = self.layout.watchers[zone]
        known = self.known
        for c in cards:        # after a shuffle only those who see the zone know where a card is
            known[c] &= watchers
        if self.orders:
            # named decks' cards of one name are not alike (a `big` joker is not a `main` one)
            decks = self.game.card_deck if self.game.spec.deck.named else None
            order = given_order(cards, self.orders.pop(0), self.game.cards.names, decks,
                                self.layout.zone_label(zone), self.deal_number)
            cards[:] = order[::-1]    # given top first; the end is the top
            return
        shuffled(self.rng(), cards)

    def deal(self, count: int, family_base: int, source: int, span) -> None:
        if count < 0:
            raise RuleRuntimeError(f"cannot deal {count} cards", span)
        needed = count * self.n
        pile = self.zones[source]
        if needed > len(pile):
            raise RuleRuntimeError(f"dealing {count} card{'' if count == 1 else 's'} to each of {self.n} players needs "
                                   f"{needed} cards, but only {len(pile)} {'is' if len(pile) == 1 else 'are'} left "
                                   "to deal", span)
        n, d = self.n, self.direction
        first = (self.dealer + d) % n
        dests = [family_base + (first + k * d) % n for k in range(n)]
        pile = self.own(source)     # this state's own list, which the moves take the cards from
        if self.facts or self.shown or source in dests:
            for _ in range(count):
                for dest in dests:
                    self.move(pile[-1], dest, None)
            return
        if count == 0:
            return
        # as `move` does it, card by card, with the lists read once
        layout, loc, by, face, known_of, stands = self.layout, self.loc, self.by, self.face, self.known, self.stands
        seen_leaving = layout.watchers[source]
        hands = [(dest, self.own(dest), layout.watchers[dest]) for dest in dests]
        for _ in range(count):
            for dest, hand, arriving in hands:
                card = pile.pop()
                if stands[card] is not None:
                    stands[card] = None
                known = known_of[card] & seen_leaving if face[card] else 0     # face down: no mover knew it
                hand.append(card)
                loc[card] = dest
                by[card] = None
                face[card] = True
                known_of[card] = known | arriving
        if not pile and source in layout.zone_slot:
            self.slot_kind[layout.zone_slot[source]] = None
        dirt = self.flow.zone_dirt
        dirty = dirt[source]
        for dest in dests:
            dirty |= dirt[dest]
        self.dirty |= dirty

    def gather(self, dest: int) -> None:
        self.dirty = ALL
        zones = self.zones          # the same outer list: code that runs the rules holds it
        for z in range(len(zones)):
            zones[z] = []           # new lists: none is shared with a clone
        self.shared = 0
        self.zones[dest].extend(range(len(self.loc)))
        self.loc = [dest] * len(self.loc)
        self.by = [None] * len(self.by)
        self.face = [True] * len(self.face)
        self.stands = [None] * len(self.stands)
        self.slot_kind = [None] * len(self.slot_kind)
        self.known = [self.layout.watchers[dest]] * len(self.known)
        self.shown = {}
        self.facts = ()

    # ------------------------------------------------------------ State API
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.current

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.terminal or (player is not None and player != self.current):
            return []
        if self._listed is None:
            self._listed = self.flow.legal(self)
        return self._listed

    def apply_action(self, action: int) -> None:
        listed = self._listed       # set only while the state is not over and has not changed
        if action not in (listed if listed is not None else self.legal_actions()):
            raise IllegalAction(f"action {action} ({self.game.action_to_string(action)}) is not legal now")
        self.history.append((self.current, action))
        self.moves += 1
        self._listed = None
        self.moved = ()
        if self.shown:
            self.shown = {}       # a card is shown for the action that shows it
        self.flow.apply(self, action)       # (it may leave the next decision's moves listed: Flow.no_moves)

    def action_to_string(self, action: int, plain: bool = False) -> str:
        """A move's text: `play 10♥`, or with plain=True `play 10H` (as typed at a keyboard)."""
        return self.game.action_to_string(action, plain)

    def string_to_action(self, text: str) -> int:
        """The legal action written `text`: `play 10H`, `play 10♥`, `PLAY TH` and `bid 3` all work, and
        so do short forms (`bid 2nt`, `x` for `double`, `meld KH KD KS` in any order: movetext.py).
        Raises IllegalAction (a ValueError), listing the legal moves, if no legal move or several read so."""
        return action_named(text, self.legal_actions(), self.game.action_to_string,
                            None if self.terminal or self.current < 0 else self.current)

    def returns(self) -> list[float]:
        return self.flow.returns(self)

    def scores(self) -> list[int]:
        return self.flow.scores(self)

    def observation(self, player: int) -> dict:
        return self.game.observe(self, player)

    def to_json(self, history: bool = True) -> dict:
        """A plain, independent copy of the state (later play does not change it); without
        `history`, the moves played are left out and only their number is kept."""
        return json.loads(json.dumps(self._json(history)))

    def _json(self, history: bool = True) -> dict:
        return {"format": "koloda-state/1", "game": self.game.name, "fingerprint": self.game.fingerprint,
                "options": self.game.options, "players": self.n, **state_fields.saved(self, history)}

    @classmethod
    def from_json(cls, game: Table, data: dict) -> "State":
        s = cls(game, data["players"], data["seed"])
        state_fields.load(s, data)
        return s

    def __str__(self) -> str:
        return self.game.render_text(self)

