"""Ranked hand patterns (poker and its kin): which pattern a set of cards makes, and which set wins.

A rule file (or a library it imports) lists its patterns highest first; each
names what the cards must show — groups of one rank (`groups: [3, 2]`), cards
of one suit (`same suit: 5`), consecutive ranks (`run: 5`) — and the first
pattern the cards make is theirs. Two sets compare by pattern, then by the
usual tie-break: ranks by how many of each there are, then by rank (a run
by its top card, so A-2-3-4-5 is the lowest straight).
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import cast
from koloda.dsl.model import Pattern
from koloda.interpreter.melds.bounded import fill


class PatternRules:
    def __init__(self, patterns: list[Pattern], cards):
        self.patterns = patterns          # highest first
        self.cards = cards
        self._cache: dict[tuple, tuple] = {}

    def _strength(self, rank: int) -> int:
        return self.cards.order[rank]

    def evaluate(self, hand) -> tuple[int, tuple]:
        """(pattern index, highest first; tie-break key) of the cards as given."""
        key = tuple(sorted(hand))
        found = self._cache.get(key)
        if found is not None:
            return found
        if not hand:
            return len(self.patterns), ()     # no cards make no pattern
        ranks = [self.cards.ranks[c] for c in hand if self.cards.ranks[c] != 0]
        suits = Counter(self.cards.suits[c] for c in hand if self.cards.suits[c] is not None)
        counts = Counter(ranks)
        sizes = sorted(counts.values(), reverse=True)
        top = self._run_top(set(ranks))
        result: tuple[int, tuple[int, ...]] = (len(self.patterns), ())
        for index, p in enumerate(self.patterns):
            if p.groups and (len(sizes) < len(p.groups) or any(s < g for s, g in zip(sizes, p.groups))):
                continue
            if p.same_suit and (not suits or max(suits.values()) < p.same_suit):
                continue
            if p.run and (top is None or top[1] < p.run):
                continue
            tie: tuple[int, ...]
            if p.run:
                # not None: the test above skipped run patterns when there is no run
                tie = (cast("tuple[int, int]", top)[0],)
            else:
                tie = tuple(self._strength(r) for r, _ in
                            sorted(counts.items(), key=lambda rc: (-rc[1], -self._strength(rc[0]))))
            result = (index, tie)
            break
        return fill(self._cache, key, result, 100001)

    def _run_top(self, ranks: set[int]) -> tuple[int, int] | None:
        """(strength of the top card, length) of the longest run of consecutive ranks; the ace
        also stands below the two."""
        if not ranks:
            return None
        strengths = sorted({self._strength(r) for r in ranks})
        if 14 in ranks:
            strengths = [1] + strengths            # the ace low as well as high
        best, length = (0, 0), 1
        for prev, cur in zip(strengths, strengths[1:]):
            length = length + 1 if cur == prev + 1 else 1
            if length >= best[1]:
                best = (cur, length)
        if best[1] == 0:
            best = (strengths[-1], 1)
        return best

    def name(self, hand) -> str:
        index, _ = self.evaluate(hand)
        return self.patterns[index].name if index < len(self.patterns) else "nothing"

    def compare(self, a, b) -> int:
        """1 if `a` beats `b`, -1 if `b` beats `a`, 0 for a tie."""
        (ia, ka), (ib, kb) = self.evaluate(a), self.evaluate(b)
        if ia != ib:
            return 1 if ia < ib else -1
        return (ka > kb) - (ka < kb)

    def best(self, hand, k: int) -> list:
        """The strongest `k` of the cards (all of them when there are no more): Hold'em's best five of seven.
        Of equal choices the first in the cards' order, so that the same cards always give the same hand."""
        cards = list(hand)
        if len(cards) <= k:
            return cards
        best: list = []
        best_key: tuple | None = None
        for choice in combinations(cards, k):
            index, tie = self.evaluate(choice)
            key = (-index, tie)
            if best_key is None or key > best_key:
                best, best_key = list(choice), key
        return best

    def strength(self, hand) -> tuple:
        """A key that orders hands as `compare` does: the larger, the stronger."""
        index, tie = self.evaluate(hand)
        return (-index, tie)
