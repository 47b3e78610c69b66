"""The new melds of a hand as the search of reach.py sees them: the names of their cards and their points.

A play names its cards by name, not by id (a second copy of a card can stand in for the first),
and says what it takes from a hand as packed counts of each name (`Names.counts`), so that
whether a hand still holds it is one subtraction. The plays of a group of melds (meldlist.py)
depend only on the names of the group's cards, so they are kept by those names: a group met again
in another hand, with other copies or other jokers, is not listed again.

A part of a hand whose whole has been listed is listed by keeping the plays of the whole that the
part still holds: a run or a set of distinct suits of the part is one of the whole. Only a set
that takes the first copies of its rank (`suits: any`, or suits repeated from some size) depends
on which copies there are, so the groups of those sets that lost a card are listed afresh.
"""
from __future__ import annotations

from collections import Counter, OrderedDict
from functools import lru_cache
from typing import Callable, Hashable, Sequence

from koloda.interpreter.melds.bitmask import ByteSums, bits, mask_of
from koloda.interpreter.melds.bounded import RECENT_HANDS, RECENT_PARTS, fill, remember
from koloda.interpreter.melds.meldlist import Group, NewMelds

Names = tuple[int, ...]   # a play's cards as indices of their names in name order, sorted (copies alike)
# a play: its cards, its points, the table meld it extends (-1: a new meld), and what it takes from
# the hand as packed counts of each name
Play = tuple[Names, int, int, int]
# kept as tuples of tuples of ints, which the garbage collector stops tracking
Plays = tuple[Play, ...]
# a hand's groups: each with its plays, the mask of its cards and the points of its richest play
Grouped = tuple[tuple[Group, Plays, int, int], ...]


class Counts:
    """Counts of each card name packed into one int: a field of a few bits per name, its top bit a
    guard that a subtraction clears when the field would go below zero."""

    def __init__(self, names: Sequence[str]):
        order = sorted(set(names))
        index = {name: i for i, name in enumerate(order)}
        self.name_of = [index[name] for name in names]           # card id -> its name's index
        width = max(Counter(names).values()).bit_length() + 1
        self.unit = [1 << (i * width) for i in range(len(order))]
        self.guard = sum(u << (width - 1) for u in self.unit)     # the top bit of every field
        # the counts of the cards in a mask
        self.of: Callable[[int], int] = ByteSums([self.unit[name] for name in self.name_of]).of

    def need(self, names: Names) -> int:
        return sum(self.unit[name] for name in names)


class NamedMelds:
    """The new melds of hands as plays, with bounded caches."""

    def __init__(self, new: NewMelds, counts: Counts, cached: int = 4096):
        self.new = new
        self.counts = counts
        self.cached = cached
        self.unit_of = [counts.unit[name] for name in counts.name_of]      # card id -> its name's unit
        # set kinds that take the first copies of a rank: their groups depend on the copies held
        self.by_copies = {ki for ki, k in enumerate(new.kinds)
                          if k.of == "rank" and (k.suits == "any" or k.repeat_from is not None)}
        self.runs = {ki for ki, k in enumerate(new.kinds) if k.of == "suit"}
        # with whole melds only a part's melds are not among the whole hand's (a set short of a card used
        # elsewhere is whole in the part): each part is listed afresh
        self.whole = any(k.whole for k in new.kinds)
        # the plays of a group by its cards, before they are looked up by the names of its cards: a hand's
        # groups are mostly the groups of the hand before it
        self.group_plays = lru_cache(maxsize=cached)(self._group_plays)
        self._last_relisted: tuple[tuple[int, int], dict[int, Plays]] = ((0, 0), {})
        self.wild_mask = mask_of(new.wild)
        # the natural cards of each suit (wild cards are in no suit's group)
        self.of_suit = [mask_of(c for c in range(len(new.suits)) if new.suits[c] == suit and c not in new.wild)
                        for suit in range(max([4] + [s + 1 for s in new.suits if s is not None]))]
        self._hands: OrderedDict[int, Plays] = OrderedDict()
        self._grouped: OrderedDict[int, Grouped] = OrderedDict()
        self._named: OrderedDict[Hashable, Plays] = OrderedDict()
        # a group's plays and the points of the richest, by the mask of its cards and its kind (one int)
        self._by_cards: dict[int, tuple[Plays, int]] = {}
        self._kinds = max(len(new.kinds), 1)
        self._touch: OrderedDict[int, list[tuple[int, int, bool]]] = OrderedDict()
        # the whole hand last asked about, its groups, and the indices of those, the richest first
        self._last_whole: tuple[int, Grouped, tuple[int, ...]] = (0, (), ())

    def of(self, mask: int, within: int = 0) -> Plays:
        """The plays of the cards in `mask`; `within`, if given, a hand that holds them all, whose
        listing (made once) the part's is taken from."""
        found = self._hands.get(mask)
        if found is not None:
            self._hands.move_to_end(mask)
            return found
        if within and within != mask and not mask & ~within and not self.whole:
            found = self._part(mask, within, self._groups(within), self.counts.of(mask) | self.counts.guard)
        else:
            found = tuple([p for _, plays, _, _ in self._groups(mask) for p in plays])
        return remember(self._hands, mask, found, RECENT_PARTS)

    def _groups(self, mask: int) -> Grouped:
        """The groups of a hand, each with its plays, the mask of its cards and its richest play's points."""
        found = self._grouped.get(mask)
        if found is not None:
            self._grouped.move_to_end(mask)
            return found
        groups, masks = self.new.grouped(mask)
        # a group is one of its cards' mask and its kind: looked up by that int, without hashing its tuples
        known, kinds = self._by_cards.get, self._kinds
        out = []
        for group, cards in zip(groups, masks):
            key = cards * kinds + group[0]
            entry = known(key)
            if entry is None:
                plays = self.group_plays(group)
                entry = fill(self._by_cards, key, (plays, max([p[1] for p in plays], default=0)), self.cached)
            out.append((group, entry[0], cards, entry[1]))
        return remember(self._grouped, mask, tuple(out), RECENT_HANDS)

    def _richest_first(self, within: int) -> tuple[Grouped, tuple[int, ...]]:
        """The groups of `within` and their indices, the group with the richest play first: a walk for one
        play worth some points stops at the first group whose richest is worth less."""
        last = self._last_whole       # the plays of one listing are asked about with the same whole
        if last[0] == within:
            return last[1], last[2]
        groups = self._groups(within)
        order = tuple(sorted(range(len(groups)), key=lambda i: -groups[i][3]))
        self._last_whole = (within, groups, order)
        return groups, order

    def _one(self, groups: Grouped, order: tuple[int, ...], room: int, spare: int, others: int, floor: int) -> int:
        """The most points of one play of `groups` worth `floor` or more, taking at most `room` cards, that
        the counts `spare` (guard bits set) hold, in no group of the index mask `others`; 0 if none."""
        guard = self.counts.guard
        best = 0
        for i in order:
            most = groups[i][3]
            if most < floor or most <= best:
                break
            if others >> i & 1:
                continue
            for names, points, _, need in groups[i][1]:
                if points >= floor and points > best and len(names) <= room and (spare - need) & guard == guard:
                    best = points
        return best

    def richest(self, mask: int, room: int, within: int = 0, floor: int = 0) -> int:
        """The most points of one play of the cards in `mask` that takes at most `room` cards: the
        same as the best of `of(mask, within)`, found without listing the part when `within` is
        given, by going down the whole hand's groups from the richest to the first play the part holds.
        Where that is less than `floor`, perhaps less than the most (the walk stops at `floor`)."""
        if not within or within == mask or mask & ~within or mask in self._hands or self.whole:
            return max((p[1] for p in self.of(mask, within) if len(p[0]) <= room), default=0)
        groups, order = self._richest_first(within)
        relisted = self._relisted(mask, within, groups)
        best = 0
        for plays in relisted.values():
            best = max(best, max((p[1] for p in plays if len(p[0]) <= room), default=0))
        others = 0
        for i in relisted:
            others |= 1 << i
        return max(best, self._one(groups, order, room, self.counts.of(mask) | self.counts.guard, others,
                                   max(floor, best + 1)))

    def one_or_part(self, mask: int, room: int, within: int, floor: int) -> tuple[int, Plays | None]:
        """The points of one play of the cards in `mask` worth `floor` or more that takes at most `room`
        cards, found by going down the plays of `within` (a hand that holds them all) from the richest;
        where there is none such, the richest play of the part that takes at most `room` cards and the
        part's plays (`of(mask, within)`). The whole's groups and lost cards are looked up once
        for both questions, and the part is listed only when no one play is enough."""
        found = self._hands.get(mask)
        if found is None and within and within != mask and not mask & ~within and not self.whole:
            groups, order = self._richest_first(within)
            spare = self.counts.of(mask) | self.counts.guard
            others = self._may_relist(mask, within)
            alone = self._one(groups, order, room, spare, others, floor)
            if alone:
                return alone, None
            found = remember(self._hands, mask, self._part(mask, within, groups, spare), RECENT_PARTS)
            if not others:         # every play of the part was walked above: none is worth `floor`
                return 0, found
        elif found is None:
            found = self.of(mask, within)
        else:
            self._hands.move_to_end(mask)
        return max([p[1] for p in found if len(p[0]) <= room], default=0), found

    def _may_relist(self, mask: int, within: int) -> int:
        """A mask of the indices of the whole's groups that `_relisted` may list afresh for the part:
        those that lost a natural card (a set by copies, or a run while a wild card is left)."""
        wilds_left = mask & self.wild_mask
        if not self.by_copies and not wilds_left:      # as `_relisted`: nothing that could be listed otherwise
            return 0
        gone = within & ~mask
        out = 0
        for i, natural, by_copies in self._touchable(within):
            if gone & natural and (by_copies or wilds_left):
                out |= 1 << i
        return out

    def _touchable(self, within: int) -> list[tuple[int, int, bool]]:
        """The whole's groups a lost card can make `_relisted` list afresh: (index, the mask of its
        natural cards, whether it is a set by copies); the other groups are listed alike."""
        found = self._touch.get(within)
        if found is None:
            found = [(i, cards & ~self.wild_mask, group[0] in self.by_copies)
                     for i, (group, _, cards, _) in enumerate(self._groups(within))
                     if group[0] in self.by_copies or group[0] in self.runs]
            remember(self._touch, within, found, RECENT_HANDS)
        else:
            self._touch.move_to_end(within)
        return found

    def _relisted(self, mask: int, within: int, groups: Grouped) -> dict[int, Plays]:
        """The groups of a part whose plays are not those of the whole that it holds, by the index of the
        whole's group: sets that take the first copies of a rank that lost a card, and runs that lost
        every copy of a rank while a wild card is left, which may now stand where that card stood."""
        if not self.by_copies and not mask & self.wild_mask:     # nothing that could be listed otherwise
            return {}
        if self._last_relisted[0] == (mask, within):              # richest() and of() ask for the same part
            return self._last_relisted[1]
        new = self.new
        ranks, suits, wild = new.ranks, new.suits, new.wild
        gone = within & ~mask
        touched = {ranks[c] for c in bits(gone) if c not in wild} if self.by_copies else set()
        wilds_left = tuple(w for w in bits(mask & self.wild_mask))
        out: dict[int, Plays] = {}
        self._last_relisted = ((mask, within), out)
        for i, (group, _, cards, _) in enumerate(groups):
            ki, naturals, wilds = group
            if ki in self.by_copies and ranks[naturals[0]] in touched:
                left = tuple(c for c in naturals if mask >> c & 1)
                out[i] = self.group_plays((ki, left, tuple(w for w in wilds if mask >> w & 1))) if left else ()
            elif ki in self.runs and wilds_left and gone & cards & ~self.wild_mask:
                held: dict[int, int] = {}
                for c in bits(mask & self.of_suit[suits[naturals[0]] or 0]):    # (runs hold cards of a suit)       # the first copy of each card, as groups() takes
                    held.setdefault(ranks[c], c)
                if len(held) < len(naturals):       # a rank is gone: the part's own group, listed
                    part = (ki, tuple(sorted(held.values())), wilds_left)
                    out[i] = self.group_plays(part) if held else ()
        return out

    def _part(self, mask: int, within: int, groups: Grouped, spare: int) -> Plays:
        """The plays of a part of `within`: `spare` is the part's counts with the guard bits set."""
        gone = within & ~mask
        relisted = self._relisted(mask, within, groups)
        guard = self.counts.guard
        out: list[Play] = []
        for i, (group, plays, cards, _) in enumerate(groups):
            if i in relisted:
                out += relisted[i]
            elif not gone & cards:            # the part holds all of the group's cards
                out += plays
            else:
                out += [p for p in plays if (spare - p[3]) & guard == guard]
        return tuple(out)

    def _group_plays(self, group: Group) -> Plays:
        name_of = self.counts.name_of
        ki, naturals, wilds = group
        key = (ki, tuple([name_of[c] for c in naturals]), tuple([name_of[w] for w in wilds]))
        found = self._named.get(key)
        if found is not None:
            self._named.move_to_end(key)
            return found
        # what a meld takes from a hand (its packed counts) says which names it holds: melds that differ
        # only in a copy or a wild card taken are one play, found without sorting their names
        unit_of = self.unit_of
        out: dict[tuple[int, int], Play] = {}
        for _, _, meld, _, points in self.new.group(group):
            need = 0
            for c in meld:
                need += unit_of[c]
            if (need, points) not in out:
                out[need, points] = (tuple(sorted([name_of[c] for c in meld])), points, -1, need)
        return remember(self._named, key, tuple(out.values()), self.cached)
