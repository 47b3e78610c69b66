"""The new melds a handful of cards can make, listed as plain records.

Only valid melds are listed, never all subsets: sets rank by rank from the suits present, runs
window by window along the rank sequence, wild cards filling the gaps. A meld is listed as a
`Record` — its action code without the owner, its kind, its cards in table order, the wild cards
with what each stands for, and its points — built up card by card, so that no object is made for
a meld nobody asks about; melds.py turns the records the rules read into plans, and reach.py
searches over them as they are.

The code of a record is the plan's action code before the owner and the kind of play are
written in (`MeldRules.encode`): the identities of the wild cards as digits, then the mask of
the cards, then the kind.
"""
from __future__ import annotations

from itertools import combinations
from functools import lru_cache
from typing import Iterable, Sequence

from koloda.dsl.model import MeldKind
from koloda.interpreter.melds.bitmask import bits, mask_of
from koloda.interpreter.melds.bounded import RECENT_LISTINGS, fill
from koloda.interpreter.base.cards import CardTable
from koloda.interpreter.melds.meldwhole import whole_only

NO_SUIT = 4
IDENTITIES = 76      # rank * 5 + suit < 75, and 0 for a wild card that stands for nothing

# (code without owner, kind, cards in table order, (wild card, identity) pairs, points)
Record = tuple[int, int, tuple[int, ...], tuple[tuple[int, int], ...], int]
# (kind, natural cards of one rank or suit, wild cards): the cards a group of melds is made of
Group = tuple[int, tuple[int, ...], tuple[int, ...]]


def identity(rank: int, suit: int | None) -> int:
    """What a wild card stands for, as a small int (suit 4: any suit)."""
    return rank * 5 + (NO_SUIT if suit is None else suit)


def identity_parts(code: int) -> tuple[int, int | None]:
    rank, suit = divmod(code, 5)
    return rank, None if suit == NO_SUIT else suit


def run_sequences(ranks: list[int], ace: str) -> list[list[int]]:
    """The rank orders a run may follow: ace high, low, either, or round the corner (joined end to start)."""
    high = [r for r in ranks if r != 14] + ([14] if 14 in ranks else [])
    low = ([14] if 14 in ranks else []) + [r for r in ranks if r != 14]
    if ace == "high":
        return [high]
    if ace == "low":
        return [low]
    if ace == "both":
        return [high, low]
    return [high + high]


def suit_sequences(cards: CardTable, ace: str) -> dict[int, list[list[int]]]:
    """By suit, the rank orders a run of that suit may follow: the ranks its cards have, in the deck's order
    (every suit has the deck's ranks, but in a deck built from a list)."""
    present: dict[int, set[int]] = {}
    for rank, suit in zip(cards.ranks, cards.suits):
        if suit is not None:
            present.setdefault(suit, set()).add(rank)
    return {suit: run_sequences([r for r in cards.deck_ranks if r in held], ace) for suit, held in present.items()}


def distinct_suits(kind: MeldKind, size: int) -> bool:
    """Must a set of this kind and size hold no suit twice?"""
    return kind.suits == "distinct" and (kind.repeat_from is None or size < kind.repeat_from)


def least_naturals(kind: MeldKind, wilds: int) -> int:
    """The fewest natural cards of a meld of `kind` that may take up to `wilds` wild cards (`wild_ok`):
    a group of fewer makes no meld, and is not listed."""
    naturals = 1
    while naturals + min(wilds, naturals - 1 if kind.wild_max is None else kind.wild_max) < kind.min:
        naturals += 1
    return naturals


def wild_ok(kind: MeldKind, naturals: int, wilds: int) -> bool:
    if naturals == 0:
        return False
    if kind.wild_max is not None:
        return wilds <= kind.wild_max
    return wilds < naturals


class NewMelds:
    """Lists the new melds of a set of cards for the meld kinds of one game."""

    def __init__(self, kinds: list[MeldKind], cards: CardTable, wild: set[int], rank_value: Sequence[int], groups: int = 4096):
        self.kinds = kinds
        self.wild = frozenset(wild)
        self.ranks, self.suits, self.values = cards.ranks, cards.suits, cards.values
        self.rank_value = rank_value
        self.kind_radix = max(len(kinds), 1)
        wild_ids = sorted(wild)
        # a wild card's identity is a base-76 digit above the card mask: its weight in the code
        self.digit = {w: IDENTITIES ** (len(wild_ids) - 1 - i) * (1 << cards.size) * self.kind_radix
                      for i, w in enumerate(wild_ids)}
        deck_ranks = list(cards.deck_ranks)
        self.sequences = [suit_sequences(cards, k.ace) if k.of == "suit" else {} for k in kinds]
        self.longest = [min(k.max or len(deck_ranks), len(deck_ranks)) for k in kinds]
        self._suit_combos: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        # a hand's groups are mostly those of the hands before it; each is kept until `groups` others
        # have been used since
        self.group = lru_cache(maxsize=groups)(self._group)
        # a hand's groups are asked for by its listing, its plays and the searches over its parts
        self._grouped: dict[int, tuple[tuple[Group, ...], tuple[int, ...]]] = {}
        self._grouped_size = groups
        # the natural cards (in some suit, not wild) of each rank and of each suit, as masks
        natural = [c for c in range(cards.size) if c not in self.wild and self.suits[c] is not None]
        self._of_rank = {r: mask_of(c for c in natural if self.ranks[c] == r) for r in {self.ranks[c] for c in natural}}
        self._of_suit = [mask_of(c for c in natural if self.suits[c] == s) for s in range(cards.suit_radix)]
        self._wild_mask = mask_of(self.wild)
        self._rank_masks = [self._of_rank[r] for r in sorted(self._of_rank)]
        # no suit holds two copies of a card: a suit's cards in a hand are a run group's as they are
        self._single = all(len({self.ranks[c] for c in bits(m)}) == len(bits(m)) for m in self._of_suit)
        self._id_tuples: dict[int, tuple[int, ...]] = {}
        # by kind, by the number of wild cards at hand: the fewest natural cards a meld of the kind takes
        self._least = [[least_naturals(k, extra) for extra in range(len(wild_ids) + 1)] for k in kinds]
        self._makes: dict[int, bool] = {}       # `_makes_melds`
        self._wild_radix = len(wild_ids) + 1

    def listing(self, cards: Iterable[int]) -> list[Record]:
        """Every valid new meld of `cards` (ids, each once), in the order of their codes."""
        out: list[Record] = []
        for key in self.groups(cards):
            out += self.group(key)
        out.sort()            # by code: no two melds of different groups have the same code
        return out

    def groups_of(self, mask: int) -> tuple[Group, ...]:
        """`groups` of the cards in `mask`, kept (a bounded number of hands)."""
        return self.grouped(mask)[0]

    def grouped(self, mask: int) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        """`groups_of(mask)`, and the mask of each group's cards."""
        found = self._grouped.get(mask)
        if found is None:
            found = fill(self._grouped, mask, self._groups_and_masks(mask), RECENT_LISTINGS)
        return found

    def groups_with(self, mask: int, card: int) -> list[Group]:
        """The groups of `groups_of(mask)` that hold `card`, in the same order, worked out without
        the others: a question about the melds with one card (the one just drawn) looks at those alone."""
        if not mask >> card & 1:
            return []
        if card in self.wild or mask in self._grouped:
            return [g for g in self.groups_of(mask) if card in g[1] or card in g[2]]
        suit = self.suits[card]
        if suit is None:            # a card of no suit that is not wild is in no group
            return []
        wilds = mask & self._wild_mask
        spare = self._ids(wilds) if wilds else ()
        rank = self.ranks[card]
        out: list[Group] = []
        for ki, kind in enumerate(self.kinds):
            least = self._least[ki][len(spare)]     # as `groups`: a group too small for a meld is left out
            if kind.of == "rank":
                held = mask & self._of_rank[rank]
                if held.bit_count() >= least and self._makes_melds(group := (ki, self._ids(held), spare), held):
                    out.append(group)
            elif self._single:
                held = mask & self._of_suit[suit]
                if held.bit_count() >= least and self._makes_melds(group := (ki, self._ids(held), spare), held):
                    out.append(group)
            else:
                firsts = self._firsts(mask & self._of_suit[suit])     # runs take the first copy of a card
                if card in firsts and len(firsts) >= least \
                        and self._makes_melds(group := (ki, firsts, spare), mask_of(firsts)):
                    out.append(group)
        return out

    def groups(self, cards: Iterable[int]) -> list[Group]:
        """The groups the melds of `cards` fall in: one kind, and the natural cards of one rank (a set)
        or one suit (a run), with the wild cards. A group's melds depend on its cards only, and a
        hand's groups are mostly those of the hand before it, so each is worked out once (`group`)."""
        mask = 0
        for c in cards:
            mask |= 1 << c
        return list(self._groups_and_masks(mask)[0])

    def _groups_and_masks(self, mask: int) -> tuple[tuple[Group, ...], tuple[int, ...]]:
        """The groups of the cards in `mask` that hold enough cards for a meld of their kind (most
        ranks of a hand have too few for a set), and the mask of each one's cards."""
        wilds = mask & self._wild_mask
        spare = self._ids(wilds) if wilds else ()
        extra = len(spare)
        known = self._id_tuples.get
        out: list[Group] = []
        masks: list[int] = []
        for ki, kind in enumerate(self.kinds):
            least = self._least[ki][extra]          # the natural cards a group needs at least
            if kind.of == "rank":
                for of_rank in self._rank_masks:         # (by rank)
                    held = mask & of_rank
                    if held and held.bit_count() >= least:
                        group = (ki, known(held) or self._ids(held), spare)
                        if self._makes_melds(group, held):
                            out.append(group)
                            masks.append(held | wilds)
            else:
                for of_suit in self._of_suit:
                    held = mask & of_suit
                    if not held or held.bit_count() < least:
                        continue
                    if self._single:
                        group = (ki, known(held) or self._ids(held), spare)
                    else:
                        firsts = self._firsts(held)
                        if len(firsts) < least:
                            continue
                        group, held = (ki, firsts, spare), mask_of(firsts)
                    if self._makes_melds(group, held):
                        out.append(group)
                        masks.append(held | wilds)
        return tuple(out), tuple(masks)

    def _makes_melds(self, group: Group, naturals: int) -> bool:
        """Does `group` (its natural cards `naturals`, as a mask) make any meld? That depends on its natural
        cards and on how many wild cards it has, not on which (they stand in alike), so the answer is
        kept by those: a group that makes none, such as a suit's cards with no three in a row, is not
        listed, looked up or searched again."""
        key = (naturals * self.kind_radix + group[0]) * self._wild_radix + len(group[2])
        found = self._makes.get(key)
        if found is None:
            found = fill(self._makes, key, bool(self.group(group)), self._grouped_size * 4)
        return found

    def _ids(self, mask: int) -> tuple[int, ...]:
        """The ids of a mask, lowest first: the same few masks (the cards of a rank or of a suit in a
        hand) come back hand after hand."""
        found = self._id_tuples.get(mask)
        if found is None:
            found = fill(self._id_tuples, mask, tuple(bits(mask)), self._grouped_size)
        return found

    def _firsts(self, mask: int) -> tuple[int, ...]:
        """The first copy (lowest id) of each card in `mask`, lowest first: runs take one of each."""
        held: dict[int, int] = {}
        for c in bits(mask):
            held.setdefault(self.ranks[c], c)
        return tuple(held.values())

    def _group(self, key: Group) -> tuple[Record, ...]:
        # kept as a tuple of tuples of ints, which the garbage collector stops tracking: a full
        # collection then passes over thousands of kept melds at no cost
        ki, naturals, wilds = key
        found = self._sets(ki, naturals, wilds) if self.kinds[ki].of == "rank" else self._runs(ki, naturals, wilds)
        return tuple(whole_only(found, naturals) if self.kinds[ki].whole else found)

    # ------------------------------------------------------------ sets
    def _choices(self, kind: MeldKind, per_suit: dict[int, list[int]]) -> list[tuple[tuple[int, int], ...]]:
        """The natural cards a set of one rank may take, as (suit, how many) pairs."""
        present = tuple(sorted(per_suit))
        choices: list[tuple[tuple[int, int], ...]] = []
        if kind.suits == "distinct":
            combos = self._suit_combos.get(present)
            if combos is None:
                combos = self._suit_combos[present] = [c for k in range(1, len(present) + 1)
                                                       for c in combinations(present, k)]
            choices += [tuple((s, 1) for s in combo) for combo in combos]
        if kind.suits == "any" or kind.repeat_from is not None:
            # suits do not matter: only how many of the rank (the lowest ids, so copies make one play)
            taken: dict[int, int] = {}
            for _, s in sorted((c, s) for s in per_suit for c in per_suit[s]):
                taken[s] = taken.get(s, 0) + 1
                choices.append(tuple(sorted(taken.items())))
        return choices

    def _sets(self, ki: int, naturals: tuple[int, ...], wilds: tuple[int, ...]) -> list[Record]:
        """The sets of kind `ki` of one rank: `naturals` are the hand's cards of that rank."""
        kind = self.kinds[ki]
        values, digit, radix, suits = self.values, self.digit, self.kind_radix, self.suits
        low, high, most = kind.min, kind.max, kind.wild_max
        rank = self.ranks[naturals[0]]
        worth = self.rank_value[rank]
        per_suit: dict[int, list[int]] = {}
        for c in naturals:
            per_suit.setdefault(suits[c], []).append(c)        # type: ignore[arg-type]
        found: dict[int, Record] = {}
        for choice in self._choices(kind, per_suit):
            chosen = [c for s, k in choice for c in per_suit[s][:k]]
            count = len(chosen)
            top = min(len(wilds), count - 1 if most is None else most)
            if high is not None:
                top = min(top, high - count)
            if top < low - count:
                continue
            mask = points = 0
            for c in chosen:
                mask |= 1 << c
                points += values[c]
            for j in range(max(0, low - count), top + 1):
                used = wilds[:j]
                cards = tuple(chosen) + used
                code = mask
                for w in used:
                    code |= 1 << w
                code = code * radix + ki
                total = points + j * worth
                if distinct_suits(kind, count + j):
                    if len(choice) < count:        # a suit twice
                        continue
                    present = {s for s, _ in choice}
                    missing = [s for s in range(4) if s not in present]
                    for chosen_suits in combinations(missing, j):     # none when j > len(missing)
                        wild = tuple((w, rank * 5 + s) for w, s in zip(used, chosen_suits))
                        key = code
                        for w, stands in wild:
                            key += digit[w] * (stands + 1)
                        found.setdefault(key, (key, ki, cards, wild, total))
                else:
                    stands = rank * 5 + NO_SUIT
                    key = code
                    for w in used:
                        key += digit[w] * (stands + 1)
                    found.setdefault(key, (key, ki, cards, tuple((w, stands) for w in used), total))
        return list(found.values())

    # ------------------------------------------------------------ runs
    def _runs(self, ki: int, held: tuple[int, ...], wilds: tuple[int, ...]) -> list[Record]:
        """The runs of kind `ki` in one suit: `held` is the first copy of each card of that suit in the hand."""
        kind = self.kinds[ki]
        values, digit, radix, rank_value = self.values, self.digit, self.kind_radix, self.rank_value
        low, most, longest = kind.min, kind.wild_max, self.longest[ki]
        suit = self.suits[held[0]]
        assert suit is not None
        at = {self.ranks[c]: c for c in held}
        spare = len(wilds)
        found: dict[int, Record] = {}
        for seq in self.sequences[ki].get(suit, []):
            span = len(seq) if kind.ace != "wrap" else len(seq) // 2
            holds = [r in at for r in seq]
            for start in range(span):
                # a run starts on a card held or on wild cards followed by one: where the first `spare` + 1
                # ranks are all missing, the wild cards run out before any natural card (no run)
                if not holds[start] and (spare == 0 or not any(holds[start + 1:start + spare + 1])):
                    continue
                order: list[int] = []
                wild: list[tuple[int, int]] = []
                missing = mask = points = code = 0
                for length in range(1, min(longest, len(seq) - start) + 1):
                    rank = seq[start + length - 1]
                    c = at.get(rank)
                    if c is None:
                        if missing == spare:
                            break
                        c = wilds[missing]
                        missing += 1
                        stands = rank * 5 + suit
                        wild.append((c, stands))
                        points += rank_value[rank]
                        code += digit[c] * (stands + 1)
                    else:
                        points += values[c]
                    order.append(c)
                    mask |= 1 << c
                    if length < low:
                        continue
                    naturals = length - missing
                    if naturals == 0 or missing > (naturals - 1 if most is None else most):
                        continue
                    key = code + mask * radix + ki
                    found.setdefault(key, (key, ki, tuple(order), tuple(wild), points))
        return list(found.values())
