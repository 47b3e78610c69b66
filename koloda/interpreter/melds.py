"""Melds: sets and runs, wild cards standing for a declared card, layoffs and joker swaps.

Only the valid plays of a hand are listed, never all subsets: sets are built
rank by rank from the suits present, runs window by window along the rank
sequence, with wild cards filling the gaps. Every play is a `Plan`: an int
(its stable action code) that also carries what it does.
"""
from __future__ import annotations

from itertools import combinations

from koloda.dsl.model import MeldKind

NEW, LAYOFF, SWAP = 0, 1, 2
NO_SUIT = 4


def identity(rank: int, suit: int | None) -> int:
    """What a wild card stands for, as a small int (suit 4: any suit)."""
    return rank * 5 + (NO_SUIT if suit is None else suit)


def identity_parts(code: int) -> tuple[int, int | None]:
    rank, suit = divmod(code, 5)
    return rank, None if suit == NO_SUIT else suit


class Plan(int):
    """One way to put cards on the table; its int value is the action code."""
    kind: int
    type: int
    cards: tuple[int, ...]           # in table order for a new meld or a run
    wild: tuple[tuple[int, int], ...]  # (wild card, identity it stands for)
    target: int                      # meld slot for a layoff or swap; owner for a new meld
    at_start: bool                   # a layoff at the low end of a run
    points: int
    taken: int | None                # the wild card a swap takes back


class MeldRules:
    """The meld kinds of one game, its deck, and the action code layout of plans."""

    def __init__(self, kinds: list[MeldKind], cards, wild: set[int], slots: int, owners: int, values):
        self.kinds = kinds
        self.cards = cards
        self.wild = wild
        self.wild_ids = sorted(wild)
        self.slots = slots
        self.owners = owners
        self.n = cards.size
        self.target_radix = max(slots, owners, 1)
        self.rank_value = values       # rank code -> points of a card of that rank (for wild cards)
        self.radix = 2 * 2 * 4 * self.target_radix * max(len(kinds), 1) * (2 ** self.n) * (76 ** len(self.wild_ids))
        ranks = list(cards.deck_ranks)
        self.sequences = {k.name: self._sequences(ranks, k.ace) for k in kinds if k.of == "suit"}
        self._melds_cache: dict[tuple, list[Plan]] = {}
        self._best_cache: dict[int, int] = {}

    # ------------------------------------------------------------ codes
    def encode(self, kind: int, type_: int, cards, wild, target: int, at_start: bool) -> int:
        mask = 0
        for c in cards:
            mask |= 1 << c
        digits = 0
        stands = dict(wild)
        for w in self.wild_ids:
            digits = digits * 76 + (stands[w] + 1 if w in stands else 0)
        code = digits
        code = code * (2 ** self.n) + mask
        code = code * max(len(self.kinds), 1) + kind
        code = code * self.target_radix + target
        code = code * 4 + type_
        return code * 2 + int(at_start)

    def plan(self, kind: int, type_: int, cards, wild, target: int, at_start: bool = False,
             taken: int | None = None) -> Plan:
        p = Plan(self.encode(kind, type_, cards, wild, target, at_start))
        p.kind, p.type, p.cards, p.wild, p.target, p.at_start = kind, type_, tuple(cards), tuple(wild), target, at_start
        p.taken = taken
        stands = dict(wild)
        p.points = sum(self.rank_value[identity_parts(stands[c])[0]] if c in stands else self.cards.values[c]
                       for c in cards)
        return p

    def decode(self, code: int, state) -> Plan:
        at_start = bool(code & 1)
        code >>= 1
        code, type_ = divmod(code, 4)
        code, target = divmod(code, self.target_radix)
        code, kind = divmod(code, max(len(self.kinds), 1))
        digits, mask = divmod(code, 2 ** self.n)
        wild = []
        for w in reversed(self.wild_ids):
            digits, d = divmod(digits, 76)
            if d:
                wild.append((w, d - 1))
        chosen = [c for c in range(self.n) if mask >> c & 1]
        taken = None
        if type_ == NEW and self.kinds[kind].of == "suit":
            chosen = self._run_order(chosen, dict(wild), kind)
        if type_ == SWAP and state is not None:
            taken = self._joker_for(state, target, chosen[0])
        return self.plan(kind, type_, chosen, wild, target, at_start, taken)

    # ------------------------------------------------------------ ranks along a run
    @staticmethod
    def _sequences(ranks: list[int], ace: str) -> list[list[int]]:
        high = [r for r in ranks if r != 14] + ([14] if 14 in ranks else [])
        low = ([14] if 14 in ranks else []) + [r for r in ranks if r != 14]
        if ace == "high":
            return [high]
        if ace == "low":
            return [low]
        if ace == "both":
            return [high, low]
        return [high + high]          # wrap: the sequence joined end to start

    def _max_len(self, kind: MeldKind) -> int:
        ranks = len(self.cards.deck_ranks)
        return min(kind.max or ranks, ranks)

    def _run_order(self, cards: list[int], stands: dict, kind: int) -> list[int]:
        """Cards of a run, low end first."""
        k = self.kinds[kind]
        rank_of = {c: identity_parts(stands[c])[0] if c in stands else self.cards.ranks[c] for c in cards}
        for seq in self.sequences[k.name]:
            for start in range(len(seq)):
                window = seq[start:start + len(cards)]
                if len(window) == len(cards) and sorted(window) == sorted(rank_of.values()) \
                        and len(set(window)) == len(window):
                    order = {r: i for i, r in enumerate(window)}
                    return sorted(cards, key=lambda c: order[rank_of[c]])
        return cards

    def _wild_ok(self, kind: MeldKind, naturals: int, wilds: int) -> bool:
        if naturals == 0:
            return False
        if kind.wild_max is not None:
            return wilds <= kind.wild_max
        return wilds < naturals

    # ------------------------------------------------------------ new melds
    def melds_in(self, cards, owner: int) -> list[Plan]:
        """Every valid new meld that can be made from `cards`, wild cards included."""
        cards = list(cards)
        key = (sum(1 << c for c in cards), owner)
        cached = self._melds_cache.get(key)
        if cached is not None:
            return cached
        if len(self._melds_cache) > 20000:      # the same hands come back often; keep memory bounded
            self._melds_cache.clear()
        found = self._melds_in(cards, owner)
        self._melds_cache[key] = found
        return found

    def _melds_in(self, cards: list[int], owner: int) -> list[Plan]:
        wilds = sorted(c for c in cards if c in self.wild)
        naturals = [c for c in cards if c not in self.wild]
        found: dict[int, Plan] = {}
        for ki, kind in enumerate(self.kinds):
            plans = self._sets(kind, ki, naturals, wilds, owner) if kind.of == "rank" else \
                self._runs(kind, ki, naturals, wilds, owner)
            for p in plans:
                found.setdefault(int(p), p)
        return [found[k] for k in sorted(found)]

    def _by_rank_suit(self, naturals) -> dict:
        table: dict[tuple[int, int], list[int]] = {}
        for c in naturals:
            table.setdefault((self.cards.ranks[c], self.cards.suits[c]), []).append(c)
        for v in table.values():
            v.sort()
        return table

    def _sets(self, kind: MeldKind, ki: int, naturals, wilds, owner) -> list[Plan]:
        table = self._by_rank_suit(naturals)
        plans = []
        for rank in sorted({r for r, _ in table}):
            per_suit = {s: table[(rank, s)] for s in range(4) if (rank, s) in table}
            if kind.suits == "distinct":
                choices = [[(s, 1) for s in combo] for k in range(1, len(per_suit) + 1)
                           for combo in combinations(sorted(per_suit), k)]
            else:
                # suits do not matter: only how many of the rank (the lowest ids, so copies make one play)
                pool = sorted((c, s) for s in per_suit for c in per_suit[s])
                choices = []
                for k in range(1, len(pool) + 1):
                    taken: dict[int, int] = {}
                    for _, s in pool[:k]:
                        taken[s] = taken.get(s, 0) + 1
                    choices.append(sorted(taken.items()))
            for choice in choices:
                chosen = [c for s, k in choice for c in per_suit[s][:k]]
                present = {s for s, _ in choice}
                for j in range(0, len(wilds) + 1):
                    size = len(chosen) + j
                    if size < kind.min or (kind.max is not None and size > kind.max):
                        continue
                    if not self._wild_ok(kind, len(chosen), j):
                        continue
                    if kind.suits == "distinct":
                        missing = [s for s in range(4) if s not in present]
                        if j > len(missing):
                            continue
                        for suits in combinations(missing, j):
                            wild = [(w, identity(rank, s)) for w, s in zip(wilds[:j], suits)]
                            plans.append(self.plan(ki, NEW, chosen + wilds[:j], wild, owner))
                    else:
                        wild = [(w, identity(rank, None)) for w in wilds[:j]]
                        plans.append(self.plan(ki, NEW, chosen + wilds[:j], wild, owner))
        return plans

    def _runs(self, kind: MeldKind, ki: int, naturals, wilds, owner) -> list[Plan]:
        table = self._by_rank_suit(naturals)
        longest = self._max_len(kind)
        plans = []
        for suit in range(4):
            held = {r: table[(r, suit)][0] for r in self.cards.deck_ranks if (r, suit) in table}
            if not held:
                continue
            for seq in self.sequences[kind.name]:
                span = len(seq) if kind.ace != "wrap" else len(seq) // 2
                for start in range(span):
                    window: list[int] = []
                    missing = 0
                    for length in range(1, longest + 1):
                        if start + length > len(seq):
                            break
                        rank = seq[start + length - 1]
                        if rank in window:
                            break
                        window.append(rank)
                        if rank not in held:
                            missing += 1
                            if missing > len(wilds):
                                break
                        if length < kind.min:
                            continue
                        natural = [held[r] for r in window if r in held]
                        if not self._wild_ok(kind, len(natural), missing):
                            continue
                        w = iter(wilds)
                        order, wild = [], []
                        for r in window:
                            if r in held:
                                order.append(held[r])
                            else:
                                card = next(w)
                                order.append(card)
                                wild.append((card, identity(r, suit)))
                        plans.append(self.plan(ki, NEW, order, wild, owner))
        return plans

    # ------------------------------------------------------------ onto melds on the table
    def meld_ranks(self, state, slot_zone: int) -> list[int]:
        """The rank each card of a meld stands for, in table order."""
        out = []
        for c in state.zones[slot_zone]:
            code = state.stands[c]
            out.append(identity_parts(code)[0] if code is not None else self.cards.ranks[c])
        return out

    def meld_suits(self, state, slot_zone: int) -> list[int | None]:
        out = []
        for c in state.zones[slot_zone]:
            code = state.stands[c]
            out.append(identity_parts(code)[1] if code is not None else self.cards.suits[c])
        return out

    def layoffs(self, state, cards, slots) -> list[Plan]:
        """Every single card of `cards` that can be added to one of the melds in `slots`."""
        found: dict[int, Plan] = {}
        cards = self._one_of_each(cards)
        for slot, zone in slots:
            ki = state.slot_kind[slot]
            kind = self.kinds[ki]
            size = len(state.zones[zone])
            if kind.max is not None and size >= kind.max:
                continue
            naturals = sum(1 for c in state.zones[zone] if state.stands[c] is None)
            wilds_in = size - naturals
            if kind.of == "rank":
                rank = next(r for r, code in zip(self.meld_ranks(state, zone), state.zones[zone])
                            if state.stands[code] is None)
                suits = {s for s in self.meld_suits(state, zone) if s is not None}
                for c in cards:
                    if c in self.wild:
                        if not self._wild_ok(kind, naturals, wilds_in + 1):
                            continue
                        options = [s for s in range(4) if s not in suits] if kind.suits == "distinct" else [None]
                        for s in options:
                            p = self.plan(ki, LAYOFF, [c], [(c, identity(rank, s))], slot)
                            found.setdefault(int(p), p)
                    elif self.cards.ranks[c] == rank and (kind.suits != "distinct" or self.cards.suits[c] not in suits):
                        p = self.plan(ki, LAYOFF, [c], [], slot)
                        found.setdefault(int(p), p)
            else:
                if size >= self._max_len(kind):
                    continue
                ranks = self.meld_ranks(state, zone)
                suit = next(s for s in self.meld_suits(state, zone) if s is not None)
                for at_start, rank in self._run_ends(kind, ranks):
                    for c in cards:
                        if c in self.wild:
                            if self._wild_ok(kind, naturals, wilds_in + 1):
                                p = self.plan(ki, LAYOFF, [c], [(c, identity(rank, suit))], slot, at_start)
                                found.setdefault(int(p), p)
                        elif self.cards.ranks[c] == rank and self.cards.suits[c] == suit:
                            p = self.plan(ki, LAYOFF, [c], [], slot, at_start)
                            found.setdefault(int(p), p)
        return [found[k] for k in sorted(found)]

    def _run_ends(self, kind: MeldKind, ranks: list[int]) -> list[tuple[bool, int]]:
        """(at the low end?, rank) for each rank that would extend this run."""
        ends = []
        for seq in self.sequences[kind.name]:
            for start in range(len(seq) - len(ranks) + 1):
                if seq[start:start + len(ranks)] == ranks:
                    if start > 0 and seq[start - 1] not in ranks:
                        ends.append((True, seq[start - 1]))
                    elif kind.ace == "wrap" and start == 0 and seq[-1] not in ranks:
                        ends.append((True, seq[-1]))
                    after = start + len(ranks)
                    if after < len(seq) and seq[after] not in ranks:
                        ends.append((False, seq[after]))
                    break
        return sorted(set(ends))

    def swaps(self, state, cards, slots) -> list[Plan]:
        """A card of `cards` that is what a wild card on the table stands for: it takes the wild card's place."""
        found: dict[int, Plan] = {}
        for slot, zone in slots:
            for w in state.zones[zone]:
                code = state.stands[w]
                if code is None:
                    continue
                rank, suit = identity_parts(code)
                for c in self._one_of_each(cards):
                    if c in self.wild:
                        continue
                    if self.cards.ranks[c] == rank and (suit is None or self.cards.suits[c] == suit):
                        p = self.plan(state.slot_kind[slot], SWAP, [c], [], slot, taken=w)
                        found.setdefault(int(p), p)
        return [found[k] for k in sorted(found)]

    def _one_of_each(self, cards) -> list[int]:
        """Copies of a card make the same play: keep the first of each name."""
        seen: dict[str, int] = {}
        for c in sorted(set(cards)):
            seen.setdefault(self.cards.names[c], c)
        return sorted(seen.values())

    def _joker_for(self, state, slot: int, card: int) -> int | None:
        zone = state.layout.slot_zone[slot]
        for w in state.zones[zone]:
            code = state.stands[w]
            if code is None:
                continue
            rank, suit = identity_parts(code)
            if self.cards.ranks[card] == rank and (suit is None or self.cards.suits[card] == suit):
                return w
        return None

    # ------------------------------------------------------------ the best a hand can do
    def best_points(self, cards, limit: int = 4000, relist: int = 14) -> int:
        """The most points the cards can put down as new melds at once (disjoint melds).

        Branch and bound: take the lowest card still usable, try each meld that holds it, and
        leaving it out; drop a branch that cannot beat the best found. For a hand of at most
        `relist` cards, the melds are listed afresh from the cards left at each step, so a second
        copy of a card is used as well as the first; for bigger hands (24 cards and two decks) the
        melds of the whole hand are used, which is much faster and can only make the answer lower. The search looks at no more than `limit`
        positions. Either way the answer is never more than the cards can really make."""
        cards = sorted(set(cards))
        whole = sum(1 << c for c in cards)
        if whole in self._best_cache:
            return self._best_cache[whole]
        names = self.cards.names
        share: dict[str, float] = {}   # the most a card of this name can add: its share of its best meld
        for p in self.melds_in(cards, 0):
            for c in p.cards:
                share[names[c]] = max(share.get(names[c], 0.0), p.points / len(p.cards))
        worth = {c: share.get(names[c], 0.0) for c in cards}
        best = [0]
        budget = [limit]

        listed = self.melds_in(cards, 0)
        small = len(cards) <= relist

        def search(left: list[int], acc: int, bound: float) -> None:
            if acc > best[0]:
                best[0] = acc
            budget[0] -= 1
            if budget[0] < 0 or acc + bound <= best[0] + 1e-9:
                return
            if small:
                plans = self.melds_in(left, 0)
            else:
                there = set(left)
                plans = [p for p in listed if all(c in there for c in p.cards)]
            if not plans:
                return
            first = min(c for p in plans for c in p.cards)
            holding = sorted((p for p in plans if first in p.cards), key=lambda p: -p.points)
            for p in holding:
                used = set(p.cards)
                search([c for c in left if c not in used], acc + p.points, bound - sum(worth[c] for c in used))
            search([c for c in left if c != first], acc, bound - worth[first])
        search(cards, 0, sum(worth.values()))
        value = best[0]
        if len(self._best_cache) > 50000:
            self._best_cache.clear()
        self._best_cache[whole] = value
        return value
