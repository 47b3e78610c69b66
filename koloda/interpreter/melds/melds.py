"""Melds: sets and runs, wild cards standing for a declared card, layoffs and joker swaps.

Every play is a `Plan`: an int (its stable action code) that also carries what
it does. The new melds of a hand are listed by meldlist.py as plain records and
made plans only when the rules ask for them, a group at a time, and kept in
bounded caches. What fits a meld on the table is decided on a `Laid` (what each
of its cards stands for), so a search can ask the same of a meld it only
imagines (reach.py).
"""
from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import Final, Iterable, Iterator, Sequence

from koloda.dsl.model import MeldKind
from koloda.interpreter.melds.bitmask import bits, mask_of
from koloda.interpreter.melds.bounded import RECENT_LISTINGS, fill, remember
from koloda.interpreter.melds.meldlist import (IDENTITIES, NO_SUIT, Group, NewMelds, Record, distinct_suits, identity,
                                         identity_parts, suit_sequences, wild_ok)
from koloda.interpreter.melds.plan import Plan

__all__ = ["NEW", "LAYOFF", "SWAP", "NO_SUIT", "identity", "identity_parts", "Plan", "Laid", "MeldRules"]

NEW, LAYOFF, SWAP = 0, 1, 2


# A meld on the table as the rules of adding to it see it: what each card stands for, worked out from a
# meld slot of the state, or from a plan not yet carried out, so that the same rules say what fits a meld
# that is really there and one a search only imagines. A plain tuple, (kind, ranks in table order (a run
# low end first), suits (None: a wild card standing for any suit), natural cards), which the garbage
# collector stops tracking (a named tuple it tracks for ever, and every key and tuple that holds one):
# the searches keep thousands of them in their caches.
Laid = tuple[int, tuple[int, ...], tuple["int | None", ...], int]
KIND: Final = 0
RANKS: Final = 1
SUITS: Final = 2
NATURALS: Final = 3


def run_suit(laid: Laid) -> int:
    """The suit of a run: its first card's, or else (a wild card of any suit first) its first natural one's."""
    suit = laid[SUITS][0]
    return suit if suit is not None else next(s for s in laid[SUITS] if s is not None)


class MeldRules:
    """The meld kinds of one game, its deck, and the action code layout of plans."""

    def __init__(self, kinds: list[MeldKind], cards, wild: set[int], slots: int, owners: int, values: Sequence[int],
                 cached: int = 2048):
        self.kinds = kinds
        self.cards = cards
        self.wild = wild
        self.wild_ids = sorted(wild)
        self.slots = slots
        self.owners = owners
        self.n = cards.size
        self.target_radix = max(slots, owners, 1)
        self.rank_value = values       # rank code -> points of a card of that rank (for wild cards)
        self.radix = 2 * 2 * 4 * self.target_radix * max(len(kinds), 1) * (2 ** self.n) * (IDENTITIES ** len(self.wild_ids))
        # by kind and suit: the rank orders a run of that suit follows (each suit's own ranks)
        self.sequences = {k.name: suit_sequences(cards, k.ace) for k in kinds if k.of == "suit"}
        self.new = NewMelds(kinds, cards, wild, values, groups=2 * cached)
        # the plans of a group of melds for one owner, and whole listings (a hand is often asked about
        # again in the same decision): the least recently used are forgotten
        self.group_plans = lru_cache(maxsize=2 * cached)(self._group_plans)
        self._listed: OrderedDict[tuple[int, int], list[Plan]] = OrderedDict()
        self._listed_size = cached
        self._laid: OrderedDict[tuple, Laid] = OrderedDict()
        self._layoffs: OrderedDict[tuple, list[Plan]] = OrderedDict()
        self.table_bit = 0       # the bit of `State.dirty` that a change to the melds on the table sets
        self._fit_masks: dict[Laid, int] = {}
        # the meld a new-meld plan makes, and its fit mask, by the plan's code
        self._new_laid: dict[int, tuple[Laid, int]] = {}
        self._swap_plans: dict[tuple[int, int, int, int], Plan] = {}
        self._of_rank = [k.of == "rank" for k in kinds]      # by kind: a set (else a run)
        # by kind: the most cards of a run on the table (`layoffs past max`: as many as the ranks)
        self._longest = [len(cards.deck_ranks) if k.layoffs_past_max else self._max_len(k) for k in kinds]
        self._ends: dict[tuple[str, tuple[int, ...], int], list[tuple[bool, int]]] = {}
        self._wilds_of: tuple[list | None, list] = (None, [])
        # the cards that may go on a set of each rank (by rank), or on a run of each suit (rank_radix + suit)
        wild_mask = sum(1 << c for c in wild)
        self._suits_at = cards.rank_radix
        self._fitting = [sum(1 << c for c in range(self.n) if cards.ranks[c] == r) | wild_mask
                         for r in range(cards.rank_radix)] \
            + [sum(1 << c for c in range(self.n) if cards.suits[c] == s) | wild_mask for s in range(cards.suit_radix)]
        # by what a wild card stands for (`identity`): the cards that are it, which a swap may put in its place
        self._standing_for = [self._cards_that_are(code) for code in range(IDENTITIES)]

    # ------------------------------------------------------------ codes
    def encode(self, kind: int, type_: int, cards, wild, target: int, at_start: bool) -> int:
        mask = 0
        for c in cards:
            mask |= 1 << c
        digits = 0
        stands = dict(wild)
        for w in self.wild_ids:
            digits = digits * IDENTITIES + (stands[w] + 1 if w in stands else 0)
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
            digits, d = divmod(digits, IDENTITIES)
            if d:
                wild.append((w, d - 1))
        chosen = bits(mask)
        taken = None
        if type_ == NEW and self.kinds[kind].of == "suit":
            chosen = self._run_order(chosen, dict(wild), kind)
        if type_ == SWAP and state is not None:
            taken = self._joker_for(state, target, chosen[0])
        return self.plan(kind, type_, chosen, wild, target, at_start, taken)

    # ------------------------------------------------------------ ranks along a run
    def _max_len(self, kind: MeldKind) -> int:
        ranks = len(self.cards.deck_ranks)
        return min(kind.max or ranks, ranks)

    def _run_order(self, cards: list[int], stands: dict, kind: int) -> list[int]:
        """Cards of a run, low end first."""
        k = self.kinds[kind]
        rank_of = {c: identity_parts(stands[c])[0] if c in stands else self.cards.ranks[c] for c in cards}
        suit = next((self.cards.suits[c] for c in cards if c not in stands), None)
        for seq in self.sequences[k.name].get(suit, []) if suit is not None else []:
            for start in range(len(seq)):
                window = seq[start:start + len(cards)]
                if len(window) == len(cards) and sorted(window) == sorted(rank_of.values()) \
                        and len(set(window)) == len(window):
                    order = {r: i for i, r in enumerate(window)}
                    return sorted(cards, key=lambda c: order[rank_of[c]])
        return cards

    # ------------------------------------------------------------ new melds
    def melds_in(self, cards: Iterable[int], owner: int) -> list[Plan]:
        """Every valid new meld that can be made from `cards`, wild cards included, in the order of their codes."""
        return self.melds_of(mask_of(cards), owner)

    def melds_of(self, mask: int, owner: int) -> list[Plan]:
        """`melds_in` the cards of `mask`."""
        key = (mask, owner)
        listed = self._listed
        found = listed.get(key)
        if found is not None:
            listed.move_to_end(key)
            return found
        found = []
        for group in self.new.groups_of(mask):
            found += self.group_plans(group, owner)
        found.sort()          # plans are their codes; no two groups share one
        return remember(listed, key, found, RECENT_LISTINGS)

    def each_meld(self, mask: int, owner: int) -> Iterator[Plan]:
        """The melds of the cards of `mask`, a group at a time and in no particular order: for a question
        that may be answered before all of them are made."""
        listed = self._listed.get((mask, owner))
        if listed is not None:
            yield from listed
            return
        for group in self.new.groups_of(mask):
            yield from self.group_plans(group, owner)

    def each_meld_with(self, mask: int, owner: int, card: int) -> Iterator[Plan]:
        """`each_meld`, less (some) melds without `card`: for a question that passes over those."""
        listed = self._listed.get((mask, owner))
        if listed is not None:
            yield from listed
            return
        for group in self.new.groups_with(mask, card):
            yield from self.group_plans(group, owner)

    def _group_plans(self, group: Group, owner: int) -> list[Plan]:
        return [self._new_plan(record, owner) for record in self.new.group(group)]

    def _new_plan(self, record: Record, owner: int) -> Plan:
        code, kind, cards, wild, points = record
        p = Plan(((code * self.target_radix + owner) * 4 + NEW) * 2)
        p.kind, p.type, p.cards, p.wild, p.target, p.at_start, p.points, p.taken = \
            kind, NEW, cards, wild, owner, False, points, None
        return p

    def distinct(self, kind: MeldKind, size: int) -> bool:
        """Must a set of this kind and size hold no suit twice?"""
        return distinct_suits(kind, size)

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

    def laid(self, state, slot: int) -> Laid:
        """The meld in `slot` as it lies on the table."""
        zone = state.layout.slot_zone[slot]
        cards = state.zones[zone]
        key = (state.slot_kind[slot], tuple(cards), tuple([state.stands[c] for c in cards]))
        found = self._laid.get(key)
        if found is not None:
            self._laid.move_to_end(key)
            return found
        naturals = sum(1 for c in cards if state.stands[c] is None)
        found = (state.slot_kind[slot], tuple(self.meld_ranks(state, zone)), tuple(self.meld_suits(state, zone)),
                 naturals)
        return remember(self._laid, key, found, self._listed_size)

    def fitting(self, laid: Laid) -> int:
        """The mask of the cards that might be added to `laid`: the wild ones, and those of its rank
        (a set) or suit (a run)."""
        if self._of_rank[laid[KIND]]:
            return self._fitting[laid[RANKS][0]]
        return self._fitting[self._suits_at + run_suit(laid)]

    def fit_mask(self, laid: Laid) -> int:
        """The mask of the cards that can each be laid off on `laid` as it is: whether one fits
        depends on that card alone, so a hand's layoffs onto a meld are among its cards in this mask."""
        found = self._fit_masks.get(laid)
        if found is None:           # bounded: a long match meets many melds
            found = fill(self._fit_masks, laid, mask_of({c for c, _, _ in self.fits(laid, bits(self.fitting(laid)))}),
                         self._listed_size)
        return found

    def new_laid(self, plan: Plan) -> tuple[Laid, int]:
        """The meld a new-meld plan makes, and its `fit_mask`: asked at each listing while its cards stay in
        the hand, so kept by the plan's code."""
        found = self._new_laid.get(plan)        # (a plan is looked up as the int it is, without making one)
        if found is None:
            stands = dict(plan.wild)
            ranks = tuple(identity_parts(stands[c])[0] if c in stands else self.cards.ranks[c] for c in plan.cards)
            suits = tuple(identity_parts(stands[c])[1] if c in stands else self.cards.suits[c] for c in plan.cards)
            laid = (plan.kind, ranks, suits, len(plan.cards) - len(stands))
            found = fill(self._new_laid, int(plan), (laid, self.fit_mask(laid)), self._listed_size)
        return found

    def laid_after(self, laid: Laid | None, plan: Plan) -> Laid:
        """The meld a plan makes (`laid` None) or leaves (`laid`: its target) on the table."""
        if laid is None or plan.type == NEW:
            return self.new_laid(plan)[0]
        stands = dict(plan.wild)
        if plan.type == SWAP:              # a natural card takes a wild card's place: the meld stands for the same
            return laid[KIND], laid[RANKS], laid[SUITS], laid[NATURALS] + 1
        card = plan.cards[0]
        return self.extended(laid, card, stands.get(card), plan.at_start)

    def extended(self, laid: Laid, card: int, code: int | None, at_start: bool) -> Laid:
        """`laid` with one more card: a natural one (`code` None) or a wild one standing for `code`."""
        rank, suit = identity_parts(code) if code is not None else (self.cards.ranks[card], self.cards.suits[card])
        if at_start:
            return laid[KIND], (rank,) + laid[RANKS], (suit,) + laid[SUITS], laid[NATURALS] + (code is None)
        return laid[KIND], laid[RANKS] + (rank,), laid[SUITS] + (suit,), laid[NATURALS] + (code is None)

    def worth(self, card: int, code: int | None) -> int:
        """The points a card adds to a meld: its own value, or for a wild card the value of what it stands for."""
        return self.cards.values[card] if code is None else self.rank_value[identity_parts(code)[0]]

    def layoffs(self, state, cards) -> list[Plan]:
        """Every single card of `cards` that can be added to one of the melds on the table, in the order of
        their codes (no two are alike: a layoff's code holds its card, its meld's slot, the end it goes on
        and what a wild card stands for)."""
        return self.layoffs_of(state, mask_of(cards))

    def layoffs_of(self, state, mask: int) -> list[Plan]:
        """`layoffs` of the cards of `mask`."""
        listed: list[Plan] = []
        for slot, laid, fit in self.on_table(state):
            part = mask & fit
            if not part:
                continue
            key = (slot, laid, part)
            plans = self._layoffs.get(key)
            if plans is None:
                plans = [self.plan(laid[KIND], LAYOFF, [card], [] if code is None else [(card, code)], slot, at_start)
                         for card, code, at_start in self.fits(laid, self.firsts(bits(part)))]
                remember(self._layoffs, key, plans, self._listed_size)
            else:
                self._layoffs.move_to_end(key)
            listed += plans
        listed.sort()
        return listed

    def on_table(self, state) -> list[tuple[int, Laid, int]]:
        """Every meld on the table, by slot, and the mask of the cards that can each be laid off on it:
        kept on the state until a meld changes (a move in or out of a slot sets its bit of `dirty`)."""
        found = state.table
        if found is not None and not state.dirty & self.table_bit:
            return found
        found = []
        for slot, kind in enumerate(state.slot_kind):
            if kind is not None:
                laid = self.laid(state, slot)
                found.append((slot, laid, self.fit_mask(laid)))
        state.table = found
        state.dirty &= ~self.table_bit
        return found

    def fits(self, laid: Laid, cards) -> list[tuple[int, int | None, bool]]:
        """The cards that extend `laid` by one: (card, the identity a wild card takes or None, at the low end?)."""
        kind = self.kinds[laid[KIND]]
        size = len(laid[RANKS])
        if kind.max is not None and size >= kind.max and not kind.layoffs_past_max:
            return []
        wilds_in = size - laid[NATURALS]
        out: list[tuple[int, int | None, bool]] = []
        if kind.of == "rank":
            rank = laid[RANKS][0]
            distinct = self.distinct(kind, size + 1)
            suits = {s for s in laid[SUITS] if s is not None}
            for c in cards:
                if c in self.wild:
                    if wild_ok(kind, laid[NATURALS], wilds_in + 1):
                        options = [s for s in range(4) if s not in suits] if distinct else [None]
                        out.extend((c, identity(rank, s), False) for s in options)
                elif self.cards.ranks[c] == rank and (not distinct or self.cards.suits[c] not in suits):
                    out.append((c, None, False))
            return out
        if size >= self._longest[laid[KIND]]:
            return []
        suit = run_suit(laid)
        for at_start, rank in self._ends_of(kind, laid[RANKS], suit):
            for c in cards:
                if c in self.wild:
                    if wild_ok(kind, laid[NATURALS], wilds_in + 1):
                        out.append((c, identity(rank, suit), at_start))
                elif self.cards.ranks[c] == rank and self.cards.suits[c] == suit:
                    out.append((c, None, at_start))
        return out

    def _ends_of(self, kind: MeldKind, ranks: tuple[int, ...], suit: int) -> list[tuple[bool, int]]:
        """`_run_ends`, kept by the run's ranks: the same runs on the table (and those a search imagines
        one card longer) are asked about listing after listing."""
        key = (kind.name, ranks, suit)
        found = self._ends.get(key)
        if found is None:
            found = fill(self._ends, key, self._run_ends(kind, list(ranks), suit), self._listed_size)
        return found

    def _run_ends(self, kind: MeldKind, ranks: list[int], suit: int) -> list[tuple[bool, int]]:
        """(at the low end?, rank) for each rank that would extend this run."""
        ends = []
        for seq in self.sequences[kind.name].get(suit, []):
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

    def swaps(self, state, cards) -> list[Plan]:
        """A card of `cards` that is what a wild card on the table stands for: it takes the wild card's place."""
        return self.swaps_of(state, mask_of(cards))

    def swaps_of(self, state, mask: int) -> list[Plan]:
        """`swaps` of the cards of `mask`: for each wild card on the table, the cards of the mask that are
        what it stands for (`_standing_for`), one of each name (copies make the same play)."""
        wilds = self._table_wilds(state)
        if not wilds:
            return []
        found: dict[int, Plan] = {}
        standing_for = self._standing_for
        for slot, kind, w, rank, suit in wilds:
            held = mask & standing_for[identity(rank, suit)]
            if held:
                for c in self.firsts(bits(held)):
                    p = self._swap_plan(kind, c, slot, w)
                    found.setdefault(int(p), p)
        return [found[k] for k in sorted(found)]

    def _cards_that_are(self, code: int) -> int:
        """The mask of the natural cards that are what a wild card standing for `code` stands for."""
        rank, suit = identity_parts(code)
        return mask_of(c for c in range(self.n) if c not in self.wild and self.cards.ranks[c] == rank
                       and (suit is None or self.cards.suits[c] == suit))

    def _table_wilds(self, state) -> list[tuple[int, int, int, int, int | None]]:
        """The wild cards in the melds on the table: (slot, the meld's kind, the card, the rank and suit it
        stands for), worked out once for each listing of the table (`on_table`)."""
        table = self.on_table(state)
        last = self._wilds_of
        if last[0] is table:         # (held here, the list cannot be another one at the same address)
            return last[1]
        out = []
        slot_zone, zones, stands = state.layout.slot_zone, state.zones, state.stands
        for slot, _, _ in table:
            for w in zones[slot_zone[slot]]:
                code = stands[w]
                if code is not None:
                    rank, suit = identity_parts(code)
                    out.append((slot, state.slot_kind[slot], w, rank, suit))
        self._wilds_of = (table, out)
        return out

    def _swap_plan(self, kind: int, card: int, slot: int, wild: int) -> Plan:
        """The plan of `card` taking the place of `wild` in the meld in `slot`: the same swap is offered
        at every listing while the card stays in the hand and the wild card on the table."""
        key = (kind, card, slot, wild)
        found = self._swap_plans.get(key)
        if found is None:
            found = fill(self._swap_plans, key, self.plan(kind, SWAP, [card], [], slot, taken=wild), self._listed_size)
        return found

    def firsts(self, cards: list[int]) -> list[int]:
        """`one_of_each` of card ids given once each, lowest first (as a mask's bits are)."""
        names = self.cards.names
        seen: dict[str, int] = {}
        for c in cards:
            seen.setdefault(names[c], c)
        return list(seen.values())        # (in the order of the ids: the first of each name comes first)

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
