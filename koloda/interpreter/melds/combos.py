"""The combinations of `combos:` (dsl/combokinds.py): every one the deck allows, numbered before play, and
those a hand makes.

A combination is groups of cards of one value (`values:` of the rule file), the groups' values
consecutive, and the wings its groups bring. Cards of one value stand for each other in it, so a
combination is its shape: its kind, its lowest value, its length and its wings' values. Every shape the
deck's cards allow is listed once when the game is loaded, kind after kind in the order written; its place
in that list is its code, the digit of a move that puts it down (core/codec.py). A hand's combinations are
found from how many cards of each value it holds, and take the first cards of each value in it.
"""
from __future__ import annotations

import sys
from collections import OrderedDict
from itertools import combinations, combinations_with_replacement
from typing import Iterable, Iterator, Sequence

from koloda.dsl.combokinds import ComboKind
from koloda.dsl.errors import NOWHERE, RuleError, RuleErrors
from koloda.dsl.types import rank_word
from koloda.interpreter.base.cards import JOKER, CardTable
from koloda.interpreter.melds.combo import Combo

__all__ = ["ComboTable", "Combo", "Kind", "MOST_COMBOS"]

# The most combinations a game's `combos:` may make of its deck: each is a move's digit, listed at load.
MOST_COMBOS = 200_000
# Hands whose combinations are kept: a hand is asked again while it waits (the others pass) and for other
# kinds, so the few latest serve; more only keep objects alive for Python's garbage collector to walk
# (4,096 hands made a Dou Dizhu game half as dear again).
_REMEMBERED = 16

# (low value, length, wings' values (one item per wing, least first))
Shape = tuple[int, int, tuple[int, ...]]


class Kind:
    """A kind of `combos:` (dsl/combokinds.py) as the search reads it for each hand: its numbers in fields
    of this compiled class, read at once rather than looked up on the rule file's object (None: no bound)."""

    def __init__(self, kind: ComboKind):
        self.name: str = sys.intern(kind.name)       # (a guard compares it with words of the rules: interned)
        self.same: int = kind.same
        self.run_min: int = kind.run_min
        self.run_max: int = kind.run_max
        self.low: int | None = kind.low
        self.high: int | None = kind.high
        self.wings: int = kind.wings
        self.wing_most: int = kind.wing_most
        self.span = kind.span


class ComboTable:
    """Every combination the deck allows, by code; and the combinations of cards held."""

    def __init__(self, kinds: Sequence[ComboKind], cards: CardTable):
        self.kinds = [Kind(k) for k in kinds]
        self.names = tuple(k.name for k in self.kinds)
        self.card_values = cards.values
        pool: dict[int, list[int]] = {}
        for card, value in enumerate(cards.values):
            pool.setdefault(value, []).append(card)
        self.pool = pool                              # each value's cards in the deck, the first of each shown
        # the deck's values, least first, and each card's value's place among them (a hand counts by place)
        self.value_at = sorted(pool)
        place = {v: i for i, v in enumerate(self.value_at)}
        self.card_slot = tuple(place[v] for v in cards.values)
        self.marks = [0] * len(cards.values)          # by card, the count of a hand that counted it last
        self.counted = 0
        self.label = {v: _label(cards, held) for v, held in pool.items()}
        in_deck = {v: len(held) for v, held in pool.items()}
        self.entries: list[tuple[int, Shape]] = []      # code -> (kind, shape)
        self.codes: dict[tuple[int, Shape], int] = {}
        self.offsets: list[int] = []                    # by kind: the code of its first combination
        self.kind_codes: list[dict[Shape, int]] = []   # by kind: its shapes' codes
        # by kind with no wings: its codes by `low * (run_max + 1) + length` (an int hashes cheaper than a shape)
        self.run_codes: list[dict[int, int]] = []
        for k, kind in enumerate(self.kinds):
            self.offsets.append(len(self.entries))
            self.kind_codes.append({})
            self.run_codes.append({})
            for shape in shapes(kind, in_deck):
                self.codes[(k, shape)] = self.kind_codes[k][shape] = len(self.entries)
                if not kind.wings:
                    self.run_codes[k][shape[0] * (kind.run_max + 1) + shape[1]] = len(self.entries)
                self.entries.append((k, shape))
                if len(self.entries) > MOST_COMBOS:
                    raise RuleErrors([RuleError(
                        f"the combinations of `combos:` make more than {MOST_COMBOS:,} moves of this deck "
                        f"(at `{kind.name}`)", kind.span or NOWHERE,
                        "give fewer lengths to `run:`, fewer `values:`, or smaller wings", category="limit")])
        self.size = len(self.entries)
        # by code, what its combinations are (its kind, lowest and highest value, length, cards of each value)
        self._about: list[dict[str, object] | None] = [None] * self.size
        self._counts: list[tuple[tuple[int, int], ...] | None] = [None] * self.size
        # by code, its kind's name, least and greatest value and length: what a listing that goes through
        # codes reads of each (codegen/gen_attrs.py), with no Combo made
        self.kind_of = [self.names[k] for k, _ in self.entries]
        self.low_of = [low for _, (low, _, _) in self.entries]
        self.high_of = [low + length - 1 for _, (low, length, _) in self.entries]
        self.length_of = [length for _, (_, length, _) in self.entries]
        self.index = {name: k for k, name in enumerate(self.names)}
        self._wanted: dict[tuple, list[int]] = {}        # the kinds a listing asks for -> their indices
        self._held: OrderedDict[tuple, Hand] = OrderedDict()

    def kind_span(self, kind: str | None) -> tuple[int, int]:
        """The codes of one kind (None: of every kind): its first code and how many."""
        if kind is None:
            return 0, self.size
        k = self.names.index(kind)
        end = self.offsets[k + 1] if k + 1 < len(self.offsets) else self.size
        return self.offsets[k], end - self.offsets[k]

    # ------------------------------------------------------------ combinations held
    def held(self, cards: Sequence[int], kind: str | None = None, kinds: Iterable[object] | None = None
             ) -> list[Combo]:
        """`combos(cards)`, `combos(cards, kind)`: each combination the cards make, once, in code order.
        `kinds`: only those of these kinds' names (what a listing's `if:` lets through, gen_kinds.py;
        a name of no kind is none)."""
        hand = self._hand(cards)
        if kind is not None:
            if kinds is not None and kind not in kinds:
                return []
            return self._of_kind(hand, self.names.index(kind))
        if kinds is None:
            found = hand.every
            if found is None:
                found = hand.every = [c for k in range(len(self.kinds)) for c in self._of_kind(hand, k)]
            return found
        wanted = self._wanted_kinds(kinds)
        if len(wanted) == 1:
            return self._of_kind(hand, wanted[0])
        return [c for k in wanted for c in self._of_kind(hand, k)]

    def held_codes(self, cards: Sequence[int], kind: str | None = None, kinds: Iterable[object] | None = None
                   ) -> list[int]:
        """The codes of the combinations `held` lists, in the same order, none made a Combo: a listing
        whose `if:` reads only their attributes goes through these (codegen/gen_listing.py)."""
        hand = self._hand(cards)
        if kind is not None:
            if kinds is not None and kind not in kinds:
                return []
            return self._codes_of_kind(hand, self.names.index(kind))
        if kinds is None:
            found = hand.every_code
            if found is None:
                found = hand.every_code = [c for k in range(len(self.kinds)) for c in self._codes_of_kind(hand, k)]
            return found
        wanted = self._wanted_kinds(kinds)
        if len(wanted) == 1:
            return self._codes_of_kind(hand, wanted[0])
        return [c for k in wanted for c in self._codes_of_kind(hand, k)]

    def _hand(self, cards: Sequence[int]) -> Hand:
        """What is known of these cards, kept for the hands listed last."""
        key = tuple(cards)
        hand = self._held.get(key)
        if hand is None:
            hand = self._held[key] = Hand(key, self)
            if len(self._held) > _REMEMBERED:
                self._held.popitem(last=False)
        else:
            self._held.move_to_end(key)
        return hand

    def _wanted_kinds(self, kinds: Iterable[object]) -> list[int]:
        """The indices of the kinds named, least first (a kind named twice: once; a name of no kind: none)."""
        wanted = self._wanted.get(kinds) if type(kinds) is tuple else None
        if wanted is None:
            index = self.index
            wanted = sorted({index[name] for name in kinds if name in index})
            if type(kinds) is tuple and len(self._wanted) < 256:
                self._wanted[kinds] = wanted
        return wanted

    def _codes_of_kind(self, hand: Hand, k: int) -> list[int]:
        """The codes of the combinations of one kind (its index) a hand makes, in code order, found when
        first asked."""
        found = hand.codes[k]
        if found is None:
            kind = self.kinds[k]
            found = hand.codes[k] = []
            if kind.same > hand.most or kind.run_min > len(hand.values):     # (bombs, runs: often none)
                return found
            if not kind.wings:
                runs, wide = self.run_codes[k], kind.run_max + 1
                if kind.run_max == 1:       # (groups of one value, as most kinds are: no runs to find)
                    found += [runs[v * wide + 1] for v in kind_values(kind, hand)]
                else:
                    found += [runs[low * wide + length] for low, length in held_runs(kind, hand)]
                return found
            codes = self.kind_codes[k]
            found += [codes[shape] for shape in held_shapes(kind, hand)]
            found.sort()            # (wings chosen in another order than their codes')
        return found

    def _of_kind(self, hand: Hand, k: int) -> list[Combo]:
        """The combinations of one kind (its index) a hand makes, found when first asked."""
        found = hand.kinds[k]
        if found is None:
            about, pool = self._about, hand.pool()
            found = hand.kinds[k] = []
            for code in self._codes_of_kind(hand, k):
                made = about[code] or self._describe(code)
                combo = Combo(code)
                # (a copy of what the code's combinations share, with this hand's cards: one dict, not seven
                # attributes set one at a time)
                combo.__dict__ = attrs = made.copy()
                attrs["pool"] = pool
                found.append(combo)
        return found

    def cards_listed(self, code: int, cards: Sequence[int]) -> list[int]:
        """The cards of the combination of a code as `held` lists it from these cards (its Combo's `cards`)."""
        return self._cards_in(code, self._hand(cards).cards)      # (each card once, as the hand was listed)

    def cards_picked(self, code: int, cards: Sequence[int]) -> list[int]:
        """The cards of the combination of a code as `pick` takes them from these."""
        return self._cards_in(code, cards)

    def _cards_in(self, code: int, cards: Sequence[int | None]) -> list[int]:
        """The cards of a code's combination: of each value, the first cards of it among these (fewer when
        there are fewer), else the deck's first. Each value's cards are looked for in the cards themselves:
        a move puts down one combination, so a pass over a hand costs less than sorting it by value."""
        counts = self._counts[code]
        if counts is None:
            self._describe(code)
            counts = self._counts[code]
            assert counts is not None
        values = self.card_values
        found: list[int] = []
        for v, n in counts:
            wanted = n
            for card in cards:
                if card is not None and values[card] == v:
                    found.append(card)
                    wanted -= 1
                    if wanted == 0:
                        break
            if wanted == n:
                found += self.pool[v][:n]
        return found

    def combo(self, code: int, pool: dict[int, list[int]] | None = None) -> Combo:
        """The combination of a code, its cards the first of each value in `pool` (the deck's by default)."""
        combo = Combo(code)
        combo.__dict__ = attrs = (self._about[code] or self._describe(code)).copy()
        attrs["pool"] = pool if pool is not None else self.pool
        return combo

    def _describe(self, code: int) -> dict[str, object]:
        """What the combinations of a code share (Combo's attributes but `pool`), kept for the next."""
        k, (low, length, wings) = self.entries[code]
        kind = self.kinds[k]
        counts: dict[int, int] = {v: kind.same for v in range(low, low + length)}
        for v in wings:
            counts[v] = counts.get(v, 0) + kind.wings
        shape = self._counts[code] = tuple(counts.items())
        made = self._about[code] = {"kind": kind.name, "low": low, "high": low + length - 1, "length": length,
                                    "counts": shape, "deck": self.pool}
        return made

    def decode(self, code: int) -> Combo:
        return self.combo(code)

    def pick(self, combo: int, cards: Sequence[int]) -> Combo:
        """The combination of a code (or the same combination) taking its cards from these (the cards its
        move puts down)."""
        return self.combo(int(combo), self._pool(cards))

    def _pool(self, cards: Sequence[int]) -> dict[int, list[int]]:
        """Each value's cards among these, in their order."""
        hand = self._held.get(tuple(cards))
        if hand is not None and hand.plain:         # (listed a moment ago: each value's cards are known)
            return hand.pool()
        pool: dict[int, list[int]] = {}
        values = self.card_values
        for card in cards:
            if card is not None:
                pool.setdefault(values[card], []).append(card)
        return pool

    def text(self, code: int) -> str:
        """How a combination is shown: its values, a wing's after `with` (`3 3 3 4 4 4 with 7 8`)."""
        k, (low, length, wings) = self.entries[code]
        kind = self.kinds[k]
        groups = " ".join(self.label[v] for v in range(low, low + length) for _ in range(kind.same))
        if not wings:
            return groups
        return groups + " with " + " ".join(self.label[v] for v in wings for _ in range(kind.wings))


class Hand:
    """What is known of the cards of one hand: how many of each value it holds, each value's cards in it
    (when asked), and its combinations of each kind once they were asked for (a hand is listed again while
    it waits: passes, other kinds)."""
    __slots__ = ("cards", "card_values", "value_at", "counts", "values", "most", "plain", "_pool", "kinds",
                 "every", "codes", "every_code", "_at_least")

    def __init__(self, cards: Sequence[int | None], table: ComboTable):
        # how many cards of each value, by the value's place among the deck's values: a list, not a dict,
        # as a hand is counted for each listing of a new hand; a card is marked as counted on the table's
        # marks (a number per card, this count's own), so that one named twice counts once
        value_at, slot, marks = table.value_at, table.card_slot, table.marks
        counted = table.counted = table.counted + 1
        counts = [0] * len(value_at)
        plain = True                            # each card once, none none: as `pick` reads them
        for card in cards:
            if card is None or marks[card] == counted:
                plain = False
                continue
            marks[card] = counted
            i: int = slot[card]
            counts[i] = counts[i] + 1
        self.plain = plain
        self.cards: Sequence[int | None] = cards if plain else tuple(dict.fromkeys(c for c in cards if c is not None))
        self.card_values = table.card_values
        self.value_at = value_at
        self.counts = counts
        values: list[int] = []
        most = 0
        for i in range(len(counts)):
            n = counts[i]
            if n:
                values.append(value_at[i])
                if n > most:
                    most = n
        self.values = values
        self.most = most
        self._pool: dict[int, list[int]] | None = None
        self.kinds: list[list[Combo] | None] = [None] * len(table.kinds)
        self.every: list[Combo] | None = None
        self.codes: list[list[int] | None] = [None] * len(table.kinds)
        self.every_code: list[int] | None = None
        self._at_least: dict[int, list[int]] = {}

    def pool(self) -> dict[int, list[int]]:
        """Each value's cards in the hand, in their order (made when first asked: only a move put down,
        or a guard that reads a combination's cards, needs them)."""
        pool = self._pool
        if pool is None:
            pool = self._pool = {}
            values = self.card_values
            for card in self.cards:
                if card is None:
                    continue
                held = pool.get(values[card])
                if held is None:
                    pool[values[card]] = [card]
                else:
                    held.append(card)
        return pool

    def at_least(self, n: int) -> list[int]:
        """The values held `n` times or more, least first."""
        found = self._at_least.get(n)
        if found is None:
            value_at = self.value_at
            found = self._at_least[n] = [value_at[i] for i, held in enumerate(self.counts) if held >= n]
        return found

    def held(self) -> dict[int, int]:
        """How many cards of each value held, by value (of those held)."""
        value_at = self.value_at
        return {value_at[i]: n for i, n in enumerate(self.counts) if n}


def shapes(kind: Kind, have: dict[int, int]) -> Iterator[Shape]:
    """The shapes of a kind that cards holding `have[v]` of each value `v` make: by length, lowest value,
    then wings (their order is their codes', numbered at load)."""
    same, low_end, high_end = kind.same, kind.low, kind.high
    values = sorted(v for v, n in have.items() if n >= same and (low_end is None or low_end <= v)
                    and (high_end is None or v <= high_end))
    streak: dict[int, int] = {}         # how many values in a row from each, all of them held so
    for v in reversed(values):
        streak[v] = streak.get(v + 1, 0) + 1
    longest = max(streak.values(), default=0)
    others = sorted(have) if kind.wings else []
    for length in range(kind.run_min, min(kind.run_max, longest) + 1):
        for low in values:
            if streak[low] < length:
                continue
            if not kind.wings:
                yield low, length, ()
                continue
            free = [v for v in others if not low <= v < low + length]
            for wings in _wings(free, have, length, kind.wings, kind.wing_most, 0):
                yield low, length, wings


def _wings(others: list[int], have: dict[int, int], n: int, size: int, most: int, start: int) -> Iterator[tuple[int, ...]]:
    """The ways to choose `n` wings of `size` cards of one value among `others` (least value first), no
    value giving more than `most` cards or more than there are."""
    if n == 0:
        yield ()
        return
    for i in range(start, len(others)):
        v = others[i]
        most_here = min(most, have.get(v, 0)) // size
        for repeat in range(1, min(most_here, n) + 1):
            for rest in _wings(others, have, n - repeat, size, most, i + 1):
                yield (v,) * repeat + rest


def kind_values(kind: Kind, hand: Hand) -> list[int]:
    """The values a hand holds often enough for a kind's groups, within the kind's values, least first."""
    values = hand.at_least(kind.same)
    if values and (kind.low is not None or kind.high is not None):
        low_end = values[0] if kind.low is None else kind.low
        high_end = values[-1] if kind.high is None else kind.high
        values = [v for v in values if low_end <= v <= high_end]
    return values


def held_runs(kind: Kind, hand: Hand) -> list[tuple[int, int]]:
    """The (lowest value, length) of a kind's groups in a hand, by length then lowest value (its shapes'
    order when it has no wings)."""
    values = kind_values(kind, hand)
    if len(values) < kind.run_min:
        return []
    if kind.run_max == 1:
        return [(v, 1) for v in values]
    streak: dict[int, int] = {}         # how many values in a row from each, all of them held so
    for v in reversed(values):
        streak[v] = streak.get(v + 1, 0) + 1
    longest = min(kind.run_max, max(streak.values()))
    return [(low, length) for length in range(kind.run_min, longest + 1) for low in values
            if streak[low] >= length]


def held_shapes(kind: Kind, hand: Hand) -> list[Shape]:
    """The shapes `shapes` finds for a hand's values, in another order (a hand's combinations are put in
    code order once made): a list made with comprehensions and itertools rather than nested generators,
    the values held often enough for a kind's groups found once per hand."""
    runs = held_runs(kind, hand)
    if not kind.wings:
        return [(low, length, ()) for low, length in runs]
    size, most = kind.wings, kind.wing_most
    room = {v: min(most, n) // size for v, n in hand.held().items()}       # how many wings each value can give
    able = [v for v in hand.values if room[v]]
    single = all(room[v] == 1 for v in able)
    found: list[Shape] = []
    for low, length in runs:
        free = [v for v in able if not low <= v < low + length]
        if length == 1:
            found += [(low, 1, (v,)) for v in free]
        elif single:
            found += [(low, length, w) for w in combinations(free, length)]
        else:
            short = [v for v in free if room[v] < length]       # values that cannot give every wing
            found += [(low, length, w) for w in combinations_with_replacement(free, length)
                      if all(w.count(v) <= room[v] for v in short)]
    return found


def _label(cards: CardTable, held: list[int]) -> str:
    """A value as a combination shows it: the rank its cards share (`10`, `J`), else its first card's name."""
    ranks = {cards.ranks[c] for c in held}
    if len(ranks) == 1 and JOKER not in ranks:
        return rank_word(next(iter(ranks)))
    return cards.names[held[0]]
