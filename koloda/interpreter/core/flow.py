"""The flow of play: match -> deals -> phases -> turns -> steps.

This is the only place that moves the turn around; actions, events and
scoring are the rule file's effects as generated functions (generate.py).
"""
from __future__ import annotations

import itertools
import time
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, cast

from koloda.interpreter.core.codec import ActionCode, ActionCodec
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.core.house import LEVEL, against_house, shares
from koloda.interpreter.base.work import MAX_WORK
from koloda.interpreter.core.shuffle import below
from koloda.interpreter.core.varstarts import VarStarts
from koloda.interpreter.core.watch import ALL
from koloda.interpreter.core.window import END_TURN, Window, note_decision, offer_next, opened

if TYPE_CHECKING:       # the flow drives the state, which imports this module (mypyc compiles the two together)
    from koloda.interpreter.core.state import State

Fn = Callable[[Any, dict], Any]
EVENT_LIMIT = 100   # events that keep firing mean the rules loop
# A game that does not end is stopped with a report, not left running: far above any real game.
MAX_DEALS = 5_000             # deals in one match
MAX_TURNS = 20_000            # turns in one phase of a deal
DECISION_SECONDS = 60.0       # listing the legal moves of one decision
# Each listing of legal moves stamps the state with a number never used before, so parts of guards
# worked out once per listing know when they are stale.
_LISTINGS = itertools.count(1)
_perf = time.perf_counter


class SlowListing(Exception):
    """Raised by a generated listing when the decision's time is up: the index of the action in its step."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


@dataclass
class Param:
    var: str
    type: str
    radix: int
    # Cards that are copies of each other, lying in one zone the same way up, make the same move:
    # only the first is offered (two decks give one `discard 7♣`, not two).
    kind: tuple | None = None
    low: int = 0            # a number from a fixed range is written as its place in it (codec.py)
    step: int = 1
    words: dict[str, int] | None = None     # a word parameter: each word's digit (codec.py)


@dataclass
class Action:
    """A declared action (its ids) with its parameters and effects (its `if:` is asked in its step's listing)."""
    code: ActionCode
    params: list[Param]
    run: Fn
    # generated (generate.py): runs the effects given the id less the offset, decoding the parameters itself
    run_code: Callable[[Any, int], None] | None = None

    @property
    def name(self) -> str:
        return self.code.name

    @property
    def offset(self) -> int:
        return self.code.offset

    @property
    def span(self) -> Any:
        return self.code.span


@dataclass
class Phase:
    name: str
    first: Fn | None
    once: bool
    ends: Fn | None
    start: Fn
    after_turn: Fn
    steps: dict[str, list[Action]]
    first_step: str
    # step -> the generated function (s, found, deadline) listing its legal moves (generate.py)
    listings: dict[str, Callable[[Any, list, float], None]] = field(default_factory=dict)
    # step -> the same listing checked (generate.py), asked when the listing fails: it says what failed
    checked: dict[str, Callable[[Any, list, float], None]] = field(default_factory=dict)
    when: Fn | None = None      # `if:`: asked when the phase would begin; false: the phase is passed over


@dataclass
class Event:
    name: str
    when: Fn
    run: Fn
    # the bits of the parts of `when` (watch.py): while one of them is clear, `when` is false (0: asked every time)
    mask: int = 0


class Flow:
    def __init__(self, *, phases: list[Phase], events: list[Event], setup: Fn, deal: Fn, deal_ends: Fn | None,
                 scoring: Fn, match_ends: Fn | None, score: Fn | None, lowest_wins: bool,
                 first_dealer: Fn | None, rotate: bool, var_starts: VarStarts,
                 codec: ActionCodec, actions: list[Action], side_of: Callable[[int], int],
                 next_dealer: Fn | None = None, turn_cap: Fn | None = None, cap_ends_match: bool = True):
        self.phases = phases
        self.events = events
        self._event_masks = [e.mask for e in events]
        self.setup = setup
        self.deal = deal
        self.deal_ends = deal_ends
        self.scoring = scoring
        self.match_ends = match_ends
        self.score = score
        self.lowest_wins = lowest_wins
        self.first_dealer = first_dealer
        self.rotate = rotate
        self.var_starts = var_starts
        self.codec = codec
        self.actions = actions
        self.side_of = side_of
        self.next_dealer = next_dealer
        self.turn_cap = turn_cap            # the most turns a deal may last (`turn cap:`), or None
        self.cap_ends_match = cap_ends_match   # reaching it ends the match drawn; False: it ends the deal
        # called with the state each time a deal has been scored, before the next deal starts
        self.deal_listeners: list[Callable[[State], None]] = []
        # the rule file's `heuristic` (with `p`), not asked by the flow: kept here to be generated with it
        self.heuristic: Callable[[State, dict], Any] | None = None
        # `match: house score:`, in a game against the house (each player judged against it), or None
        self.house_score: Fn | None = None
        # `match: won` (with `p`): a goal; each player who reached it wins, whatever the scores (game.py sets it)
        self.won: Callable[[State, dict], Any] | None = None
        self._offsets = [a.offset for a in actions]
        # the open windows of the rule file (`ask … until all pass`), by the index their effect gives
        self.windows: list[Window] = []
        # zone -> the bits of the conditions that read it (watch.py): a card moving in or out sets them
        self.zone_dirt: list[int] = []
        self._deadline = 0.0
        self.asks_moves = False     # `deal ends:` asks `no_moves()` (game.py sets it)

    # ------------------------------------------------------------ the match
    def start(self, s: State, dealer: int | None = None) -> None:
        """Set up the match and its first deal. `dealer`: the first dealer, instead of the rules' choice."""
        s.work = MAX_WORK
        s.vars = s.vars or self.var_starts(s)      # a state copied before its match has them (game.py)
        if self.first_dealer is None:
            # drawn even when the dealer is given, so that the seed shuffles the same either way
            drawn = below(s.rng(), s.n)
            s.dealer = drawn if dealer is None else dealer
        else:
            s.dealer = self.first_dealer(s, {}) % s.n if dealer is None else dealer
        self.setup(s, {})
        if self._start_deal(s):
            self._end_deal(s)
        self._settle(s)

    def _start_deal(self, s: State) -> bool:
        """Deal; True if the deal is over as soon as it starts."""
        if s.deal_number >= MAX_DEALS:
            raise RuleRuntimeError(f"the match has gone on for {s.deal_number} deals without ending, so it was "
                                   "stopped: `match: ends` may never become true")
        s.deal_number += 1
        s.work = MAX_WORK           # each deal has the work of one run of the rules
        s.deal_over = False
        s.deal_turns = 0
        s.skips = [0] * s.n
        self._to_the_left(s)        # every deal starts to the left; `deal:` may reverse it
        s.waiting = []
        self.deal(s, {})
        self._events(s)
        return self._start_phase(s, 0)

    def _start_phase(self, s: State, index: int) -> bool:
        """Begin a phase (or the first after it whose `if:` holds); True if the deal is over as soon as
        it begins, or no phase is left to play."""
        while True:
            if index >= len(self.phases):
                return True
            s.phase, s.current = index, (s.dealer + s.direction) % s.n
            when = self.phases[index].when
            if when is None or when(s, {}):
                break
            index += 1
        phase = self.phases[index]
        s.phase, s.turns, s.next_player, s.goto = index, 0, None, None
        s.phase_start = s.moves          # the phase's moves are those made from here on (the table lists them)
        s.current = (s.dealer + s.direction) % s.n
        phase.start(s, {})
        self._events(s)
        if phase.first is not None:
            first = phase.first(s, {})
            if first is None:
                raise RuleRuntimeError(f"phase `{phase.name}` has no first player")
            s.current = first % s.n
        s.step = phase.first_step
        return s.deal_over or (self.deal_ends is not None and bool(self.deal_ends(s, {})))

    def _end_deal(self, s: State) -> None:
        # a loop, not recursion: deals that end as soon as they are dealt follow one another here
        while True:
            self._to_the_left(s)    # scoring and the next dealer see the table as it sits
            self.scoring(s, {})
            for listener in self.deal_listeners:
                listener(s)
            if self.match_ends is None or self.match_ends(s, {}):
                s.terminal = True
                return
            if self.next_dealer is not None:
                dealer = self.next_dealer(s, {})
                if dealer is None:
                    raise RuleRuntimeError("`next dealer` gave no player")
                s.dealer = dealer % s.n
            elif self.rotate:
                s.dealer = (s.dealer + 1) % s.n
            if not self._start_deal(s):
                return

    @staticmethod
    def _to_the_left(s: State) -> None:
        """The direction of play lasts one deal."""
        if s.direction != 1:
            s.direction = 1
            s.dirty = ALL

    def check_events(self, s: State) -> None:
        """Events checked at a `check events` effect, in the middle of an action's (or other) effects."""
        if self.events:
            self._events(s)

    def _events(self, s: State) -> None:
        fired, events = 0, self.events
        while fired < EVENT_LIMIT:
            for event in events:
                if event.when(s, {}):
                    event.run(s, {})
                    fired += 1
                    break
            else:
                return
        raise RuleRuntimeError(f"events keep firing ({EVENT_LIMIT} times in a row): "
                               "an event's `do:` must make its `when:` false")

    # ------------------------------------------------------------ decisions
    def _settle(self, s: State) -> None:
        """The action is over and the next decision set: `deal ends:` asked again, now with `no_moves()`."""
        while self.asks_moves and not s.terminal:
            s.settled = True
            try:
                over = self.deal_ends is not None and self.deal_ends(s, {})
            finally:
                s.settled = False
            if not over:
                return
            self._end_deal(s)

    def no_moves(self, s: State) -> bool:
        """`no_moves()`: false while an action is under way (dsl/nomoves.py); once it is over, whether the
        player to move has no legal move (those they have are kept as the state's listing)."""
        if not s.settled:
            return False
        found = self._listing(s)
        s._listed = found or None
        return not found

    def legal(self, s: State) -> list[int]:
        found = self._listing(s)
        if not found:
            raise RuleRuntimeError(f"player {s.current + 1} has no legal move in step `{s.step}` of phase "
                                   f"`{self.phases[s.phase].name}`: the rules must always offer a move (a pass, "
                                   "a draw)")
        return found

    def _listing(self, s: State) -> list[int]:
        s.listing = stamp = next(_LISTINGS)      # parts of guards worked out once per listing are stale now
        phase = self.phases[s.phase]
        found: list[int] = []
        # a listing has a budget of its own (an action lists moves to see whether a window closes)
        work, s.work = s.work, MAX_WORK
        try:
            self._deadline = deadline = _perf() + DECISION_SECONDS
            listed = True
            try:
                phase.listings[s.step](s, found, deadline)
            except SlowListing as slow:
                raise self._too_long(phase.steps[s.step][slow.index]) from None
            except Exception:                 # the checked listing tells what failed, and where
                listed = False                # (outside this handler: its error is the only one shown)
            if not listed:
                s.work = MAX_WORK                 # (from the start: the same work, the same place)
                found = []
                try:
                    phase.checked[s.step](s, found, deadline)
                except SlowListing as slow:
                    raise self._too_long(phase.steps[s.step][slow.index]) from None
        finally:
            # after the listing no stamp is the state's: what was kept for it is never used on a changed state
            s.listing = -stamp
            s.work = work
        found.sort()
        return found

    @staticmethod
    def _too_long(action: Action) -> RuleRuntimeError:
        return RuleRuntimeError(f"listing the moves of `{action.name}` took more than {DECISION_SECONDS:.0f} s, "
                                "so the game was stopped: its `with:` or `if:` asks too much", action.span)

    def apply(self, s: State, action_id: int) -> None:
        self._apply(s, action_id)
        if self.asks_moves:         # (the calls a move makes are a small game's cost: none that does nothing)
            self._settle(s)

    def _apply(self, s: State, action_id: int) -> None:
        offsets = self._offsets
        index = bisect_right(offsets, action_id) - 1      # as the codec finds the action
        action = self.actions[index]
        run_code = action.run_code
        # cleared for the action to set, typed as the attribute: taken for None, the reads below would fail compiled
        s.goto = cast("str | None", None)
        s.actor = s.current
        s.work = MAX_WORK
        if s.waiting and s.waiting[-1][4] is not None:       # a decision in an open window
            entry = s.waiting[-1][4]
            note_decision(entry, self.windows[entry[0]], action.name)
        try:
            if run_code is not None:
                run_code(s, action_id - offsets[index])
            else:
                action.run(s, self.codec.decode(action_id, s)[1])
        finally:
            s.actor = None
        if self.events:
            self._events_that_may_hold(s)
        deal_ends = self.deal_ends
        if s.deal_over or (deal_ends is not None and deal_ends(s, {})):
            s.asked = None
            self._end_deal(s)
            return
        if s.asked is not None:
            # a question out of turn: the asked players decide one after another, then play comes back
            players, step, *window = s.asked
            s.asked = None
            back = s.goto if s.goto is not None else s.step
            if window:
                s.waiting.append([s.current, back, [], step, opened(window[0], list(players))])
                s.goto = None
                self._resume(s)
                return
            if players:
                s.waiting.append([s.current, back, list(players[1:]), step, None])
                s.current, s.step, s.goto = players[0], step, None
                return
        goto = s.goto
        if goto is not None:
            s.goto = None
            if goto != END_TURN:
                s.step = goto
                if not self._window_closes(s):
                    return
        if s.waiting:
            self._resume(s)
        else:
            self._end_turn(s)

    def _only_passes(self, s: State, passing: str) -> bool:
        """True if the player to move may only take the action `passing` (a window's pass)."""
        actions, offsets = self.actions, self._offsets
        return all(actions[bisect_right(offsets, a) - 1].name == passing for a in self.legal(s))

    def _window_closes(self, s: State) -> bool:
        """True if the player answering an open window is to decide again (in s.step), but its condition
        now holds (their answer is cut short, and the window closes), or they could only pass (their
        answer ends there)."""
        if not s.waiting or s.waiting[-1][4] is None:
            return False
        window = self.windows[s.waiting[-1][4][0]]
        return (window.closes is not None and bool(window.closes(s, {}))) or self._only_passes(s, window.passing)

    def _resume(self, s: State) -> None:
        """An answer (or a turn's last action) is over: the next player of a window or a question answers,
        or play comes back to the one who asked, or the turn ends."""
        while s.waiting:
            entry = s.waiting[-1]
            asker, back, queue, step, window = entry
            if window is None:
                if queue:                       # the next player asked answers
                    s.current, s.step = queue.pop(0), step
                    return
            elif offer_next(s, step, window, self.windows[window[0]], self._only_passes):
                return
            s.waiting.pop()
            s.current = asker
            if back != END_TURN:
                s.step = back
                if not self._window_closes(s):
                    return
                continue
            # the asker said `end turn`: their turn (or their own answer) is over too
        self._end_turn(s)

    def _events_that_may_hold(self, s: State) -> None:
        """The events, asked only if some event's `when:` can hold after what changed (watch.py)."""
        dirty = s.dirty
        for mask in self._event_masks:
            if dirty & mask == mask:
                self._events(s)
                break

    def _end_turn(self, s: State) -> None:
        phase = self.phases[s.phase]
        s.turns += 1
        s.turn_no += 1
        s.deal_turns += 1
        phase.after_turn(s, {})
        if self.events:
            self._events_that_may_hold(s)
        deal_ends = self.deal_ends
        if s.deal_over or (deal_ends is not None and deal_ends(s, {})):
            self._end_deal(s)
            return
        if self.turn_cap is not None and self._capped(s):
            return
        ends = phase.ends
        if (phase.once and s.turns >= s.n) or (ends is not None and ends(s, {})):
            if s.phase + 1 >= len(self.phases) or self._start_phase(s, s.phase + 1):
                self._end_deal(s)
            return
        if s.turns >= MAX_TURNS:
            raise RuleRuntimeError(f"phase `{phase.name}` has gone on for {s.turns} turns in deal {s.deal_number} "
                                   "without ending, so the game was stopped: its `ends:` (or `deal ends`) may "
                                   "never become true")
        player = s.next_player
        if player is None:
            player = (s.current + s.direction) % s.n
        else:
            s.next_player = None
        skips = s.skips
        if skips[player] > 0:
            for _ in range(4 * s.n):
                if skips[player] > 0:
                    skips[player] -= 1
                    player = (player + s.direction) % s.n
                else:
                    break
        s.current = player
        s.step = phase.first_step

    def _capped(self, s: State) -> bool:
        """The deal has lasted the `turn cap:`: the match ends drawn (no scoring for the unfinished
        deal), or with `ends: deal` the deal ends as with `end deal`. True if it has."""
        assert self.turn_cap is not None
        cap = self.turn_cap(s, {})
        if cap is None or cap < 1:
            raise RuleRuntimeError(f"`turn cap` must be at least 1 turn, not {cap}")
        if s.deal_turns < cap:
            return False
        if self.cap_ends_match:
            s.capped = s.terminal = True
        else:
            self._end_deal(s)
        return True

    # ------------------------------------------------------------ results
    def scores(self, s: State) -> list[int]:
        if self.score is None:
            return [0] * s.n
        return [self.score(s, {"p": p}) for p in range(s.n)]

    def returns(self, s: State) -> list[float]:
        """The share of the win: 1 for a sole winner, split among tied winners, 0 otherwise.
        Partners win together: each player of a winning side gets that side's share."""
        if not s.terminal:
            return [0.0] * s.n
        if self.won is not None:     # a goal, reached or not: no share, and no draw at the cap
            return [1.0 if self.won(s, {"p": p}) else 0.0 for p in range(s.n)]
        if self.house_score is not None:       # a game against the house: each player is judged alone
            return [LEVEL] * s.n if s.capped else against_house(self.scores(s), self.house_score(s, {}),
                                                                 self.lowest_wins)
        return shares(lambda: self.scores(s), s.n, self.side_of, s.capped, self.lowest_wins)
