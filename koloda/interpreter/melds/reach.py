"""What a turn can still put down: the most points of new melds and layoffs, some cards kept back.

An opening minimum ("the first melds must make 40 points in one turn") is tested before each
play by asking whether the rest of the hand can still reach it, so the answer must not miss a way
the player really has: layoffs count as well as new melds, several of them on one meld (5♣ and
then 6♣ on 2♣ 3♣ 4♣), and a rule that keeps cards in hand (one to discard last) limits how many
may go down.

The search is branch and bound over disjoint plays. A play is a new meld of the cards, or an
*extension* of one meld on the table: the cards laid off on it one after another, listed by
laying single cards with the same rules as `layoffs` (`MeldRules.fits`). Each meld on the table
takes at most one extension. Plays name their cards by name, not by id, so a second copy of a
card can stand in for the first.

Hands are bit masks of card ids; what is left of a hand during the search is a count of each
name packed into one int (a field of a few bits per name), so that whether a play still fits is
one subtraction: a field that would go below zero clears the guard bit at its top.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Hashable, TypeVar

from koloda.interpreter.melds.melds import KIND, NATURALS, NEW, RANKS, SUITS, Laid, MeldRules, Plan
from koloda.interpreter.melds.bounded import remember
from koloda.interpreter.melds.bitmask import bits, mask_of
from koloda.interpreter.melds.plays import Counts, NamedMelds, Names, Play

V = TypeVar("V")


class Reach:
    """The most points a turn can still put down; one per game, with its caches."""

    def __init__(self, rules: MeldRules, limit: int = 4000, relist: int = 14, states: int = 2000,
                 cached: int = 4096):
        self.rules = rules
        self.limit = limit            # positions the search looks at, at most
        self.relist = relist          # hands up to this size have their melds listed afresh at each step
        self.states = states          # extensions of one meld looked at, at most
        self.counts = counts = Counts(rules.cards.names)
        self.name_of, self.unit, self.guard = counts.name_of, counts.unit, counts.guard
        self.plays = NamedMelds(rules.new, counts, cached)
        self.cached = cached
        self._best: OrderedDict[Hashable, tuple[int, bool]] = OrderedDict()
        self._extensions: OrderedDict[Hashable, tuple[Play, ...]] = OrderedDict()
        # the least goal a search found out of reach, by the key of `_best`
        self._short: OrderedDict[Hashable, int] = OrderedDict()
        self._ceiling: float | None = None    # set by a search that found its goal out of reach at once

    def _remember(self, cache: OrderedDict, key: Hashable, value: V) -> V:
        return remember(cache, key, value, self.cached)

    # ------------------------------------------------------------ the questions
    def best_points(self, cards, keep: int = 0, enough: int | None = None) -> int:
        """The most points `cards` can put down as new melds, leaving at least `keep` of them;
        with `enough`, counted no further than that (the search stops there)."""
        return self.best(cards, keep, (), enough)

    def best_after(self, state, plan: Plan, cards, keep: int = 0, enough: int | None = None) -> int:
        """The most `cards` can add once `plan` is made: new melds, and layoffs onto the melds on
        the table as the plan leaves it (its own new meld among them), leaving at least `keep`."""
        table, whole = self._after(state, plan, mask_of(set(cards)))
        return self.best(cards, keep, table, enough, whole)

    # ------------------------------------------------------------ yes or no
    # `best_points(..., need) >= need` asks only whether `need` can be reached: the search may stop
    # as soon as the answer is known either way, where the number must be the most up to `need`.
    def reaches(self, cards, keep: int, enough: int) -> bool:
        """`best_points(cards, keep, enough) >= enough`."""
        if enough <= 0:
            return True
        ids = sorted(set(cards))
        return self._reaches(ids, mask_of(ids), len(ids) - keep, (), enough, 0)

    def reaches_after(self, state, plan: Plan, cards, keep: int, enough: int) -> bool:
        """`best_after(state, plan, cards, keep, enough) >= enough`; `cards`: card ids, each once, none of them none."""
        if enough <= 0:
            return True
        ids = sorted(cards)
        mask = mask_of(ids)
        room = len(ids) - keep
        if room <= 0:
            return False
        table, whole = self._after(state, plan, mask)
        return self._reaches(ids, mask, room, table, enough, whole)

    def _after(self, state, plan: Plan, mask: int) -> tuple[tuple[Laid, ...], int]:
        """The melds on the table once `plan` is made (its own new meld among them), those alone that a card
        of `mask` can go on (only they matter: the same answer serves another table), and the mask of the
        plan's cards (the hand's melds are listed once for all its plans)."""
        rules = self.rules
        table = []
        new = plan.type == NEW
        for slot, laid, fit in rules.on_table(state):
            if not new and slot == plan.target:
                laid = rules.laid_after(laid, plan)
                fit = rules.fit_mask(laid)
            if mask & fit:
                table.append(laid)
        if new:
            laid, fit = rules.new_laid(plan)
            if mask & fit:
                table.append(laid)
        whole = 0
        for c in plan.cards:
            whole |= 1 << c
        return tuple(table), whole

    def _reaches(self, ids: list[int], mask: int, room: int, table: tuple[Laid, ...], enough: int, whole: int) -> bool:
        """Can the cards `ids` (lowest first; `mask`), `room` of them at most, add `enough`? `table`: the melds
        on the table that one of them can go on."""
        if room <= 0:
            return False
        key = (mask, room, table)
        found = self._best.get(key)
        if found is not None and (found[1] or found[0] >= enough):
            self._best.move_to_end(key)
            return found[0] >= enough
        short = self._short.get(key)
        if short is not None and short <= enough:
            return False
        found = self._search(ids, mask, room, table, enough, whole | mask, decide=True)
        if found[0] >= enough or found[0] > 0:      # what was found is reached by any smaller need too
            if found[0] >= enough or found[0] > self._best.get(key, (0, False))[0]:
                self._remember(self._best, key, (found[0], False))
            if found[0] >= enough:
                return True
        # every need above the most the cards can add at their shares is out of reach as well
        ceiling = self._ceiling
        out = enough if ceiling is None else min(enough, int(ceiling + 1e-6) + 1)
        self._remember(self._short, key, out if short is None else min(short, out))
        return False

    def best(self, cards, keep: int, table: tuple[Laid, ...], enough: int | None = None, whole: int = 0) -> int:
        if enough is not None and enough <= 0:
            return enough
        cards = sorted(set(cards))
        room = len(cards) - keep      # how many cards may go down
        if room <= 0:
            return 0
        mask = mask_of(cards)
        # only the melds some of these cards can go on matter: the same answer serves another table
        table = tuple(laid for laid in table if self._fits_any(laid, mask))
        key = (mask, room, table)
        found = self._best.get(key)   # (the best found, whether the search went to the end)
        if found is None or not (found[1] or (enough is not None and found[0] >= enough)):
            found = self._remember(self._best, key, self._search(cards, mask, room, table, enough, whole | mask))
        else:
            self._best.move_to_end(key)
        return found[0] if enough is None else min(found[0], enough)

    # ------------------------------------------------------------ the search
    def _search(self, cards: list[int], mask: int, room: int, table: tuple[Laid, ...],
                enough: int | None, whole: int, decide: bool = False) -> tuple[int, bool]:
        """The most points found, and False if the search stopped at `enough` before the end; with
        `decide`, it stops as soon as it is sure `enough` cannot be reached (and the most is not known)."""
        # set below where the cards at their shares fall short at once; reset here, by the search alone, so
        # that a check of types (and the compiled code's check) does not take the caller's reading for None
        self._ceiling = None
        if enough is not None:       # one new meld alone is often enough: no search, and no layoffs listed
            alone, part = self.plays.one_or_part(mask, room, whole, enough)
            if alone >= enough or part is None:
                return alone, False
            listed = part
        else:
            listed = self.plays.of(mask, whole)
        extensions = [(n, points, i, need) for i, laid in enumerate(table)
                      for n, points, _, need in self._extensions_of(laid, mask)]
        name_of, unit, guard = self.name_of, self.unit, self.guard
        # the most a card of this name can add: its share of its best play (a card in no play of the
        # whole hand is in none of a part of it either)
        share: dict[int, float] = {}
        for n, points, _, _ in (*listed, *extensions):
            each = points / len(n)
            for name in n:
                if each > share.get(name, 0.0):
                    share[name] = each
        if decide:       # most often even every card at its share falls short: no search at all
            assert enough is not None
            values = [share.get(name_of[c], 0.0) for c in cards]
            if room < len(values):
                values = sorted(values, reverse=True)[:room]
            if sum(values) < enough - 1e-9:
                self._ceiling = sum(values)
                return 0, False
        if enough is not None:       # or one play with its layoffs
            alone = max((p[1] for p in extensions if len(p[0]) <= room), default=0)
            if alone >= enough:
                return alone, False
        ids: dict[int, list[int]] = {}
        for c in cards:
            ids.setdefault(name_of[c], []).append(c)
        left = [0] * len(unit)
        avail = 0
        for name, copies in ids.items():
            left[name] = len(copies)
            avail += len(copies) * unit[name]
        share_of = [0.0] * len(unit)
        for name, value in share.items():
            share_of[name] = value
        small = len(cards) <= self.relist
        best, budget = [0], [self.limit]
        richest = sorted(share, key=lambda name: -share[name])
        order = sorted(share)
        by_name: dict[int, list[Play]] = {name: [] for name in order}
        if not small:
            for play in (*listed, *extensions):
                for name in set(play[0]):
                    by_name[name].append(play)

        def most(room: int) -> float:
            """No more than `room` cards go down: at best the richest of those left."""
            total = 0.0
            for name in richest:
                k = min(left[name], room)
                total += k * share_of[name]
                room -= k
                if room == 0:
                    break
            return total

        goal = float("inf") if enough is None else enough
        floor = goal - 1e-9 if decide else float("-inf")     # what a branch must be able to reach

        def search(acc: int, bound: float, room: int, extended: int, count: int, avail: int, here: int) -> None:
            if acc > best[0]:
                best[0] = acc
                if acc >= goal:
                    budget[0] = 0
            budget[0] -= 1
            if budget[0] < 0 or room <= 0 or acc + bound <= best[0] + 1e-9 or acc + bound < floor \
                    or (room < count and acc + most(room) <= max(best[0] + 1e-9, floor - 1e-9)):
                return
            spare = avail | guard
            if small:       # listed afresh from the cards left: every one can be made
                plays = [p for p in self.plays.of(here, mask) if len(p[0]) <= room]
                plays += [p for p in extensions if len(p[0]) <= room and not extended >> p[2] & 1
                          and (spare - p[3]) & guard == guard]
                if not plays:
                    return
                first = min(p[0][0] for p in plays)
                holding = [p for p in plays if first in p[0]]
            else:           # the lowest card with a play left: only the plays of each card are looked at
                holding = []
                for first in order:
                    if left[first]:
                        holding = [p for p in by_name[first] if len(p[0]) <= room
                                   and not (p[2] >= 0 and extended >> p[2] & 1) and (spare - p[3]) & guard == guard]
                        if holding:
                            break
                if not holding:
                    return
            for n, points, meld, need in sorted(holding, key=lambda p: -p[1]):
                rest = here
                for name in n:
                    left[name] -= 1
                    if small:
                        rest &= ~(1 << ids[name][left[name]])
                search(acc + points, bound - sum(share_of[name] for name in n), room - len(n),
                       extended | (1 << meld if meld >= 0 else 0), count - len(n), avail - need, rest)
                for name in n:
                    left[name] += 1
            copies = left[first]       # or no copy of it goes down (one copy going down is a branch above)
            left[first] = 0
            rest = here
            if small:
                for c in ids[first][:copies]:
                    rest &= ~(1 << c)
            search(acc, bound - copies * share_of[first], room, extended, count - copies, avail - copies * unit[first],
                   rest)
            left[first] = copies
        search(0, sum(share_of[name_of[c]] for c in cards), room, 0, len(cards), avail, mask)
        # `search` holds itself through its closure: a cycle that only the garbage collector would free,
        # with the lists it holds, and whose collections cost more than the search itself
        search = most = None  # type: ignore[assignment]
        return best[0], best[0] < goal and not decide

    # ------------------------------------------------------------ plays
    def _fits_any(self, laid: Laid, mask: int) -> bool:
        """Can a card of `mask` be laid off on `laid`? (Has it any extension at all?)"""
        return bool(mask & self.rules.fit_mask(laid))

    def _extensions_of(self, laid: Laid, mask: int) -> tuple[Play, ...]:
        """Every handful of the cards in `mask` that can be laid off on `laid`, one card after another,
        and its best points: breadth first over the single layoffs, each state of the meld met once."""
        rules = self.rules
        mask &= rules.fitting(laid)
        key = (laid, mask)
        found = self._extensions.get(key)
        if found is not None:
            self._extensions.move_to_end(key)
            return found
        cards = bits(mask)
        name_of = self.name_of
        best: dict[Names, int] = {}
        seen: set[tuple] = set()
        frontier: list[tuple[Laid, tuple[int, ...], int]] = [(laid, (), 0)]
        looked = 0
        while frontier and looked < self.states:
            after: list[tuple[Laid, tuple[int, ...], int]] = []
            for meld, used, points in frontier:
                for card, code, at_start in rules.fits(meld, rules.firsts([c for c in cards if c not in used])):
                    looked += 1
                    bigger = rules.extended(meld, card, code, at_start)
                    now = tuple(sorted(used + (card,)))
                    n = tuple(sorted(name_of[c] for c in now))
                    total = points + rules.worth(card, code)
                    state = (self._shape(bigger), n, total)
                    if state in seen:
                        continue
                    seen.add(state)
                    if total > best.get(n, -1):
                        best[n] = total
                    after.append((bigger, now, total))
            frontier = after
        plays = tuple([(n, points, -1, sum(self.unit[name] for name in n)) for n, points in sorted(best.items())])
        return self._remember(self._extensions, key, plays)

    def _shape(self, laid: Laid) -> tuple:
        """What decides what else fits a meld: a set's cards in any order, a run's in table order."""
        if self.rules.kinds[laid[KIND]].of == "rank":
            cards = sorted((r, -1 if s is None else s) for r, s in zip(laid[RANKS], laid[SUITS]))
            return laid[KIND], tuple(cards), laid[NATURALS]
        return laid
