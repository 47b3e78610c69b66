"""One seat's observation tensors of many states, written into rows of one NumPy array at once.

The same numbers as koloda/interpreter/words/tensors.py's `Observer.observation` (tests/test_vector.py
compares them state by state in every shipped game), laid out by that observer, but the cards —
most of a tensor, and most of its cost one state at a time — are counted for all the states in a
few NumPy operations: each state gives its cards' places (`State.loc`) and who knows them
(`State.known`) as they are, two lists that NumPy reads whole, and one `bincount` adds them up
into every card block of every row. What is left in Python per state is what is small: the
header's one-hots, the shown top cards, meld slots, the variables and the move being spelled.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from koloda.interpreter.melds.meldlist import IDENTITIES
from koloda.interpreter.core.state import State
from koloda.interpreter.words.tensors import Observer

__all__ = ["BatchObserver"]


class BatchObserver:
    """Seat `seat`'s observation tensors, written a batch of states at a time."""

    def __init__(self, observer: Observer, seat: int):
        self.observer = o = observer
        self.seat = seat
        self.bit = 1 << seat
        self.width = width = o.observation_size
        self.trash = width          # a column past the tensor, where counts that belong nowhere go
        zones = len(o.layout.zones)
        # where each zone counts a card: a known one by name (-1: nowhere), every one in its size,
        # an unknown one in its count of unknown cards (`width`: nowhere); the last entry, index -1,
        # is for a card in no zone (loc -1)
        named = [-1] * (zones + 1)
        size = [width] * (zones + 1)
        unknown = [width] * (zones + 1)
        for zi, at, _ in o.zones:
            named[zi], size[zi], unknown[zi] = at, at + o.names, at + o.names + 1
        for zi, _, at in o.slots:
            named[zi], size[zi] = at, at + o.names + IDENTITIES + o.kinds + o.owners
        # the three columns a card adds 1 to, by (card, its zone + 1, whether the seat knows it): a
        # known card by name in its zone, an unknown one by name in the unknown plane; its zone's
        # size; its zone's count of unknown cards
        self.places = places = zones + 1
        table = np.empty((len(o.name_of), places, 2, 3), np.int64)
        for c, name in enumerate(o.name_of):
            for z in range(-1, zones):
                for flag in (0, 1):
                    known = flag and z >= 0
                    table[c, z + 1, flag] = (named[z] + name if known else o.unknown_at + name, size[z],
                                             width if known else unknown[z])
        self.table = table.reshape(-1, 3)
        # a card's row of the table is card * places * 2 + (zone + 1) * 2 + flag
        self.card_base = np.arange(len(o.name_of), dtype=np.int64) * places * 2 + 2
        self.tops = [(zi, at + o.names + 2) for zi, at, top in o.zones if top]
        self.template = np.zeros(width, np.float32)
        self.template[seat] = 1.0
        n = o.n
        self.turn_at, self.terminal_at, self.dealer_at = n, 2 * n, 2 * n + 1
        self.steps_at, self.deal_at = 3 * n + 1, 3 * n + 1 + len(o.steps)
        self.vars = [(vi, at, encode) for vi, at, encode in o.vars if o.view.sees_var(seat, vi)]

    def write(self, states: Sequence[State], prefixes: Sequence[tuple[int, ...]], out: np.ndarray) -> None:
        """Row k of `out` (a C-contiguous float32 array of at least len(states) rows of the tensor's
        length) becomes the seat's observation of states[k], prefixes[k] the tokens of the move
        being spelled."""
        o, width = self.observer, self.width
        m = len(states)
        if m == 0:
            return
        stride = width + 1
        # every card's zone, then who knows it, state after state: two lists NumPy reads whole
        cards = len(self.card_base)
        both = np.array([s.loc + s.known for s in states], np.int64)
        key = (both[:, :cards] << 1) + ((both[:, cards:] >> self.seat) & 1) + self.card_base
        index = self.table[key]
        index += (np.arange(m, dtype=np.int64) * stride)[:, None, None]
        # the rest of what is counted or one-hot, as flat indices into the (m, stride) counts
        extra: list[int] = []
        values: defaultdict[int, float] = defaultdict(float)     # flat index into out -> value
        for k, s in enumerate(states):
            self._rest(s, prefixes[k], k * stride, extra, k * width, values)
        index = np.concatenate((index.ravel(), np.array(extra, np.int64)))
        counts = np.bincount(index, minlength=m * stride).reshape(m, stride)
        block = out[:m]
        block[:] = counts[:, :width]
        block += self.template
        block[:, self.deal_at] = [s.deal_number for s in states]
        if values:
            flat = block.reshape(-1)
            assert np.shares_memory(flat, out), "write() needs a C-contiguous array"
            flat[np.fromiter(values.keys(), np.int64, len(values))] = np.fromiter(values.values(), np.float32,
                                                                                  len(values))
        if o.spelled:
            block[:, o.prefix_at + o.spelling.size] = [len(p) if p and self.seat == s.current else 0
                                                      for s, p in zip(states, prefixes)]

    def _rest(self, s: State, prefix: tuple[int, ...], row: int, extra: list[int], at_out: int,
              values: defaultdict[int, float]) -> None:
        """What is small, for one state whose counts start at flat index `row`: the header, shown
        top cards, meld slots and the move being spelled as indices to count in `extra`; the
        variables as (flat index into the output, from `at_out`) -> value in `values`, written by
        the observer's own encoders (a defaultdict takes their `x[i] = v` and `x[i] += 1`)."""
        o, bit, known, name_of = self.observer, self.bit, s.known, self.observer.name_of
        extra.append(row + (self.terminal_at if s.terminal else self.turn_at + s.current))
        extra.append(row + self.dealer_at + s.dealer)
        step = o.steps.get((s.phase, s.step))
        if step is not None:
            extra.append(row + self.steps_at + step)
        for zi, at in self.tops:
            cards = s.zones[zi]
            if cards and known[cards[-1]] & bit and s.face[cards[-1]]:
                extra.append(row + at + name_of[cards[-1]])
        for zi, slot, at in o.slots:
            for c in s.zones[zi]:
                stands = s.stands[c]
                if stands is not None:        # declared to the whole table, as the view shows it
                    extra.append(row + at + o.names + stands)
            kind, owner = s.slot_kind[slot], s.slot_owner[slot]
            at += o.names + IDENTITIES
            if kind is not None:
                extra.append(row + at + kind)
                if owner is not None:
                    extra.append(row + at + o.kinds + owner)
        vs = s.vars
        for vi, at, encode in self.vars:
            value = vs[vi]
            if value is None:
                values[at_out + at] = 1.0
            else:
                encode(values, at_out + at + 1, value)      # type: ignore[arg-type]
        if o.spelled and prefix and self.seat == s.current:
            extra.extend(row + o.prefix_at + token for token in prefix)
