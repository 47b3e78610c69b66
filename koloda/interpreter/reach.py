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
"""
from __future__ import annotations

from koloda.interpreter.melds import NEW, Laid, MeldRules, Plan

Names = tuple[str, ...]              # the names of a play's cards, sorted (copies of a card are alike)
# a play: its cards, its points, the table meld it extends (-1: a new meld), how many of each name it needs
Play = tuple[Names, int, int, tuple[tuple[str, int], ...]]


class Reach:
    """The most points a turn can still put down; one per game, with its caches."""

    def __init__(self, rules: MeldRules, limit: int = 4000, relist: int = 14, states: int = 2000):
        self.rules = rules
        self.limit = limit            # positions the search looks at, at most
        self.relist = relist          # hands up to this size have their melds listed afresh at each step
        self.states = states          # extensions of one meld looked at, at most
        self._best: dict[tuple, tuple[int, bool]] = {}
        self._laid: dict[tuple, Laid] = {}
        self._extensions: dict[tuple, list[tuple[Names, int]]] = {}
        self._plays: dict[int, list[Play]] = {}

    # ------------------------------------------------------------ the questions
    def best_points(self, cards, keep: int = 0, enough: int | None = None) -> int:
        """The most points `cards` can put down as new melds, leaving at least `keep` of them;
        with `enough`, counted no further than that (the search stops there)."""
        return self.best(cards, keep, (), enough)

    def best_after(self, state, plan: Plan, cards, keep: int = 0, enough: int | None = None) -> int:
        """The most `cards` can add once `plan` is made: new melds, and layoffs onto the melds on
        the table as the plan leaves it (its own new meld among them), leaving at least `keep`."""
        rules = self.rules
        table = []
        for slot, kind in enumerate(state.slot_kind):
            if kind is None:
                continue
            laid = self._on_table(state, slot)
            if plan.type != NEW and slot == plan.target:
                laid = rules.laid_after(laid, plan)
            table.append(laid)
        if plan.type == NEW:
            table.append(rules.laid_after(None, plan))
        return self.best(cards, keep, tuple(table), enough)

    def best(self, cards, keep: int, table: tuple[Laid, ...], enough: int | None = None) -> int:
        if enough is not None and enough <= 0:
            return enough
        cards = sorted(set(cards))
        room = len(cards) - keep      # how many cards may go down
        if room <= 0:
            return 0
        # only the melds some of these cards can go on matter: the same answer serves another table
        table = tuple(laid for laid in table if self._extensions_of(laid, cards))
        key = (tuple(cards), room, table)
        found = self._best.get(key)   # (the best found, whether the search went to the end)
        if found is None or not (found[1] or (enough is not None and found[0] >= enough)):
            found = self._search(cards, room, table, enough)
            if len(self._best) > 50000:        # the same questions come back often; keep memory bounded
                self._best.clear()
            self._best[key] = found
        return found[0] if enough is None else min(found[0], enough)

    # ------------------------------------------------------------ the search
    def _search(self, cards: list[int], room: int, table: tuple[Laid, ...], enough: int | None) -> tuple[int, bool]:
        """The most points found, and False if the search stopped at `enough` before the end."""
        names = self.rules.cards.names
        ids: dict[str, list[int]] = {}
        for c in cards:
            ids.setdefault(names[c], []).append(c)
        left = {n: len(v) for n, v in ids.items()}
        extensions = [(n, points, i, _needs(n)) for i, laid in enumerate(table)
                      for n, points in self._extensions_of(laid, cards)]
        listed = self._new_melds(cards)
        if enough is not None:       # one play alone is often enough: no search at all
            alone = max((p[1] for p in listed + extensions if len(p[0]) <= room), default=0)
            if alone >= enough:
                return alone, False
        # the most a card of this name can add: its share of its best play (a card in no play of the
        # whole hand is in none of a part of it either)
        share: dict[str, float] = {}
        for n, points, _, _ in listed + extensions:
            for name in n:
                share[name] = max(share.get(name, 0.0), points / len(n))
        small = len(cards) <= self.relist
        best, budget = [0], [self.limit]
        richest = sorted(share, key=lambda name: -share[name])
        order = sorted(share)
        by_name: dict[str, list[Play]] = {name: [] for name in order}
        if not small:
            for play in listed + extensions:
                for name in set(play[0]):
                    by_name[name].append(play)

        def most(room: int) -> float:
            """No more than `room` cards go down: at best the richest of those left."""
            total = 0.0
            for name in richest:
                k = min(left[name], room)
                total += k * share[name]
                room -= k
                if room == 0:
                    break
            return total

        goal = float("inf") if enough is None else enough

        def search(acc: int, bound: float, room: int, extended: int, count: int) -> None:
            if acc > best[0]:
                best[0] = acc
                if acc >= goal:
                    budget[0] = 0
            budget[0] -= 1
            if budget[0] < 0 or room <= 0 or acc + bound <= best[0] + 1e-9 \
                    or (room < count and acc + most(room) <= best[0] + 1e-9):
                return
            def can(p: Play) -> bool:
                return len(p[0]) <= room and not (p[2] >= 0 and extended >> p[2] & 1) \
                    and all(left[n] >= k for n, k in p[3])
            if small:       # listed afresh from the cards left: every one can be made
                here = [c for name, k in left.items() for c in ids[name][:k]]
                plays = [p for p in self._new_melds(here) if len(p[0]) <= room]
                plays += [p for p in extensions if can(p)]
                if not plays:
                    return
                first = min(name for p in plays for name in p[0])
                holding = [p for p in plays if first in p[0]]
            else:           # the lowest card with a play left: only the plays of each card are looked at
                holding = []
                for first in order:
                    if left[first]:
                        holding = [p for p in by_name[first] if can(p)]
                        if holding:
                            break
                if not holding:
                    return
            for n, points, meld, _ in sorted(holding, key=lambda p: -p[1]):
                for name in n:
                    left[name] -= 1
                search(acc + points, bound - sum(share.get(name, 0.0) for name in n), room - len(n),
                       extended | (1 << meld if meld >= 0 else 0), count - len(n))
                for name in n:
                    left[name] += 1
            copies = left[first]       # or no copy of it goes down (one copy going down is a branch above)
            left[first] = 0
            search(acc, bound - copies * share.get(first, 0.0), room, extended, count - copies)
            left[first] = copies
        search(0, sum(share.get(names[c], 0.0) for c in cards), room, 0, len(cards))
        return best[0], best[0] < goal

    def _new_melds(self, cards: list[int]) -> list[Play]:
        """The new melds of the cards as plays (the meld list itself is cached by the meld rules)."""
        key = sum(1 << c for c in cards)
        found = self._plays.get(key)
        if found is None:
            if len(self._plays) > 20000:
                self._plays.clear()
            names = self.rules.cards.names
            found = []
            for p in self.rules.melds_in(cards, 0):
                n = tuple(sorted(names[c] for c in p.cards))
                found.append((n, p.points, -1, _needs(n)))
            self._plays[key] = found
        return found

    # ------------------------------------------------------------ plays
    def _on_table(self, state, slot: int) -> Laid:
        key = (state.slot_kind[slot], tuple(state.zones[state.layout.slot_zone[slot]]))
        found = self._laid.get(key)
        if found is None:
            if len(self._laid) > 20000:
                self._laid.clear()
            found = self._laid[key] = self.rules.laid(state, slot)
        return found

    def _extensions_of(self, laid: Laid, cards: list[int]) -> list[tuple[Names, int]]:
        """Every handful of `cards` that can be laid off on `laid`, one card after another, and its
        best points: breadth first over the single layoffs, each state of the meld met once."""
        rules = self.rules
        kind = rules.kinds[laid.kind]
        wild = rules.wild
        if kind.of == "rank":
            rank = laid.ranks[0]
            cards = [c for c in cards if c in wild or rules.cards.ranks[c] == rank]
        else:
            suit = next(s for s in laid.suits if s is not None)
            cards = [c for c in cards if c in wild or rules.cards.suits[c] == suit]
        key = (laid, tuple(cards))
        found = self._extensions.get(key)
        if found is not None:
            return found
        names = rules.cards.names
        best: dict[Names, int] = {}
        seen: set[tuple] = set()
        frontier: list[tuple[Laid, tuple[int, ...], int]] = [(laid, (), 0)]
        looked = 0
        while frontier and looked < self.states:
            after: list[tuple[Laid, tuple[int, ...], int]] = []
            for meld, used, points in frontier:
                for card, code, at_start in rules.fits(meld, rules.one_of_each(c for c in cards if c not in used)):
                    looked += 1
                    bigger = rules.extended(meld, card, code, at_start)
                    now = tuple(sorted(used + (card,)))
                    n = tuple(sorted(names[c] for c in now))
                    total = points + rules.worth(card, code)
                    state = (self._shape(bigger), n, total)
                    if state in seen:
                        continue
                    seen.add(state)
                    if total > best.get(n, -1):
                        best[n] = total
                    after.append((bigger, now, total))
            frontier = after
        found = sorted(best.items())
        if len(self._extensions) > 20000:
            self._extensions.clear()
        self._extensions[key] = found
        return found

    def _shape(self, laid: Laid) -> tuple:
        """What decides what else fits a meld: a set's cards in any order, a run's in table order."""
        if self.rules.kinds[laid.kind].of == "rank":
            cards = sorted((r, -1 if s is None else s) for r, s in zip(laid.ranks, laid.suits))
            return laid.kind, tuple(cards), laid.naturals
        return laid


def _needs(names: Names) -> tuple[tuple[str, int], ...]:
    return tuple((n, names.count(n)) for n in sorted(set(names)))
