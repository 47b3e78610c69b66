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

from collections import OrderedDict
from typing import Iterator, Sequence

from koloda.dsl.combokinds import ComboKind
from koloda.dsl.errors import NOWHERE, RuleError, RuleErrors
from koloda.dsl.types import rank_word
from koloda.interpreter.base.cards import JOKER, CardTable
from koloda.interpreter.melds.combo import Combo

__all__ = ["ComboTable", "Combo", "MOST_COMBOS"]

# The most combinations a game's `combos:` may make of its deck: each is a move's digit, listed at load.
MOST_COMBOS = 200_000
_REMEMBERED = 4096           # hands whose combinations are kept (a hand is asked about again while it waits)

# (low value, length, wings' values (one item per wing, least first))
Shape = tuple[int, int, tuple[int, ...]]


class ComboTable:
    """Every combination the deck allows, by code; and the combinations of cards held."""

    def __init__(self, kinds: Sequence[ComboKind], cards: CardTable):
        self.kinds = list(kinds)
        self.names = tuple(k.name for k in kinds)
        self.card_values = cards.values
        pool: dict[int, list[int]] = {}
        for card, value in enumerate(cards.values):
            pool.setdefault(value, []).append(card)
        self.pool = pool                              # each value's cards in the deck, the first of each shown
        self.label = {v: _label(cards, held) for v, held in pool.items()}
        in_deck = {v: len(held) for v, held in pool.items()}
        self.entries: list[tuple[int, Shape]] = []      # code -> (kind, shape)
        self.codes: dict[tuple[int, Shape], int] = {}
        self.offsets: list[int] = []                    # by kind: the code of its first combination
        for k, kind in enumerate(self.kinds):
            self.offsets.append(len(self.entries))
            for shape in shapes(kind, in_deck):
                self.codes[(k, shape)] = len(self.entries)
                self.entries.append((k, shape))
                if len(self.entries) > MOST_COMBOS:
                    raise RuleErrors([RuleError(
                        f"the combinations of `combos:` make more than {MOST_COMBOS:,} moves of this deck "
                        f"(at `{kind.name}`)", kind.span or NOWHERE,
                        "give fewer lengths to `run:`, fewer `values:`, or smaller wings", category="limit")])
        self.size = len(self.entries)
        # by code, what a combination is (its kind, lowest and highest value, length, cards of each value)
        self._about: list[tuple[str, int, int, int, tuple[tuple[int, int], ...]] | None] = [None] * self.size
        self._held: OrderedDict[tuple, list[Combo]] = OrderedDict()

    def kind_span(self, kind: str | None) -> tuple[int, int]:
        """The codes of one kind (None: of every kind): its first code and how many."""
        if kind is None:
            return 0, self.size
        k = self.names.index(kind)
        end = self.offsets[k + 1] if k + 1 < len(self.offsets) else self.size
        return self.offsets[k], end - self.offsets[k]

    # ------------------------------------------------------------ combinations held
    def held(self, cards: Sequence[int], kind: str | None = None) -> list[Combo]:
        """`combos(cards)`, `combos(cards, kind)`: each combination the cards make, once, in code order."""
        key = (tuple(cards), kind)
        found = self._held.get(key)
        if found is not None:
            self._held.move_to_end(key)
            return found
        pool: dict[int, list[int]] = {}
        values = self.card_values
        for card in dict.fromkeys(cards):
            if card is not None:
                pool.setdefault(values[card], []).append(card)
        have = {v: len(held) for v, held in pool.items()}
        kinds = range(len(self.kinds)) if kind is None else (self.names.index(kind),)
        found = [self.combo(self.codes[(k, shape)], pool) for k in kinds for shape in shapes(self.kinds[k], have)]
        self._held[key] = found
        if len(self._held) > _REMEMBERED:
            self._held.popitem(last=False)
        return found

    def combo(self, code: int, pool: dict[int, list[int]] | None = None) -> Combo:
        """The combination of a code, its cards the first of each value in `pool` (the deck's by default)."""
        about = self._about[code]
        if about is None:
            about = self._about[code] = self._describe(code)
        name, low, high, length, counts = about
        combo = Combo(code)
        combo.kind, combo.low, combo.high, combo.length, combo.counts = name, low, high, length, counts
        combo.pool, combo.deck = pool if pool is not None else self.pool, self.pool
        return combo

    def _describe(self, code: int) -> tuple[str, int, int, int, tuple[tuple[int, int], ...]]:
        k, (low, length, wings) = self.entries[code]
        kind = self.kinds[k]
        counts: dict[int, int] = {v: kind.same for v in range(low, low + length)}
        for v in wings:
            counts[v] = counts.get(v, 0) + kind.wings
        return kind.name, low, low + length - 1, length, tuple(counts.items())

    def decode(self, code: int) -> Combo:
        return self.combo(code)

    def pick(self, combo: Combo, cards: Sequence[int]) -> Combo:
        """The same combination taking its cards from these (the cards its move puts down)."""
        pool: dict[int, list[int]] = {}
        values = self.card_values
        for card in cards:
            if card is not None:
                pool.setdefault(values[card], []).append(card)
        return self.combo(int(combo), pool)

    def text(self, code: int) -> str:
        """How a combination is shown: its values, a wing's after `with` (`3 3 3 4 4 4 with 7 8`)."""
        k, (low, length, wings) = self.entries[code]
        kind = self.kinds[k]
        groups = " ".join(self.label[v] for v in range(low, low + length) for _ in range(kind.same))
        if not wings:
            return groups
        return groups + " with " + " ".join(self.label[v] for v in wings for _ in range(kind.wings))


def shapes(kind: ComboKind, have: dict[int, int]) -> Iterator[Shape]:
    """The shapes of a kind that cards holding `have[v]` of each value `v` make: by length, lowest value,
    then wings."""
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


def _label(cards: CardTable, held: list[int]) -> str:
    """A value as a combination shows it: the rank its cards share (`10`, `J`), else its first card's name."""
    ranks = {cards.ranks[c] for c in held}
    if len(ranks) == 1 and JOKER not in ranks:
        return rank_word(next(iter(ranks)))
    return cards.names[held[0]]
