"""What the rules tell players beyond the cards they see: messages, shown cards, and facts.

* A message (`say "…" to P`) is kept with the move that said it and the players it is for:
  only they find it in their view, their information state and the table's log.
* A card shown (`reveal X to P`) becomes known to P (State.known) and stays known while P can
  follow it: P watches it move for the rest of the action that showed it, so a card shown and
  then handed into a hidden hand is still placed by P, as a card seen on the table is.
* A fact (`tell P that Z holds [no] v`) says that zone Z holds at least one card of rank or suit
  v, or none. It is kept per player (a bit mask) for as long as that player can be sure of it:
    - "holds no v" lapses for a player when a card they cannot place enters Z (it may be a v),
      or a v they can place enters Z (it is false then);
    - "holds v" lapses for a player when a card leaves Z that they could not place (it may have
      been the v), or a v leaves Z (another may or may not remain);
    - every fact lapses when the deck is gathered, and a newer fact about the same zone and
      value replaces an older one for the players it is told to.
  A fact is only ever told when it is true, and a fact kept is still true: a card that could
  falsify it would have made it lapse. So a resampled world (the bots' determinization) can
  always satisfy the facts its player holds.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from koloda.dsl.types import SUITS
from koloda.interpreter.base.cards import CardTable, rank_name

# (the move it was said in, the players it is for as bits, its text)
Said = tuple[int, int, str]
# (zone, 0 for a rank or 1 for a suit, the rank or suit, holds (True) or holds none (False), the players as bits)
Fact = tuple[int, int, int, bool, int]
RANK_FACT, SUIT_FACT = 0, 1


def attribute(cards: CardTable, kind: int) -> Sequence[int | None]:
    return cards.ranks if kind == RANK_FACT else cards.suits


def facts_after_move(facts: tuple[Fact, ...], cards: CardTable, card: int, src: int, dest: int,
                     before: int, after: int) -> tuple[Fact, ...]:
    """The facts still sure after `card` moved from `src` to `dest`; `before`/`after`: who could
    place the card before and after the move."""
    out = []
    for fact in facts:
        zone, kind, value, holds, mask = fact
        if holds and zone == src:
            mask &= before if attribute(cards, kind)[card] != value else 0
        elif not holds and zone == dest:
            mask &= after if attribute(cards, kind)[card] != value else 0
        else:
            out.append(fact)
            continue
        if mask:
            out.append((zone, kind, value, holds, mask))
    return tuple(out)


def is_true(cards: CardTable, zone: list[int], kind: int, value: int, holds: bool) -> bool:
    table = attribute(cards, kind)
    return any(table[c] == value for c in zone) == holds


def told(facts: tuple[Fact, ...], new: Fact) -> tuple[Fact, ...]:
    """The facts after `new` is told: it replaces what its players held about the same zone and value."""
    zone, kind, value, _, mask = new
    out = []
    for fact in facts:
        if fact[0] == zone and fact[1] == kind and fact[2] == value:
            rest = fact[4] & ~mask
            if rest:
                out.append((*fact[:4], rest))
        else:
            out.append(fact)
    out.append(new)
    return tuple(out)        # type: ignore[arg-type]


def facts_of(facts: tuple[Fact, ...], player: int) -> list[Fact]:
    bit = 1 << player
    return [f for f in facts if f[4] & bit]


def fact_text(fact: Fact, zone_label: Callable[[int], str], suits: Sequence[str] = SUITS) -> str:
    """`P2 hand holds no 7`, `P3 hand holds hearts` (`suits`: the suits' names, by code)."""
    zone, kind, value, holds, _ = fact
    word = rank_name(value) if kind == RANK_FACT else suits[value]
    return f"{zone_label(zone)} holds {'' if holds else 'no '}{word}"


def audience(to: Any, n: int) -> int:
    """The players a message, a shown card or a fact is for, as bits (None: everyone)."""
    if to is None:
        return (1 << n) - 1
    if isinstance(to, list):
        mask = 0
        for p in to:
            if p is not None:
                mask |= 1 << p
        return mask
    return 1 << to


def said_to(said: tuple[Said, ...], player: int, since: int = 0) -> list[str]:
    """The messages for `player` said in moves after move `since`."""
    bit = 1 << player
    return [text for k, mask, text in said if mask & bit and k > since]


# ------------------------------------------------------------------ resampling under facts
def deal_hidden(places: list[tuple[int, int]], hidden: list[int], groups: list[Any], facts: list[Fact],
                known_in: dict[int, list[int]], cards: CardTable, rng: random.Random) -> list[int] | None:
    """A card for each unknown place (`places[i]` held `hidden[i]`, of deck group `groups[i]`), drawn
    at random so that the player's facts hold: no place of a zone said to hold no v gets a v, and a
    zone said to hold v gets one (unless a card the player knows there already is one). `known_in`:
    the cards the player knows in each zone. None if no way was found (the facts cannot be met)."""
    banned: dict[int, list[tuple[int, int]]] = {}
    wanted: list[tuple[int, int, int]] = []
    for zone, kind, value, holds, _ in facts:
        if not holds:
            banned.setdefault(zone, []).append((kind, value))
        elif not any(attribute(cards, kind)[c] == value for c in known_in.get(zone, ())):
            wanted.append((zone, kind, value))
    group_of = dict(zip(hidden, groups))

    def allowed(i: int, c: int) -> bool:
        if group_of[c] != groups[i]:
            return False
        return not any(attribute(cards, kind)[c] == value for kind, value in banned.get(places[i][0], ()))

    for attempt in range(12):
        # the later attempts give up the "holds" facts rather than fail: a world that meets every
        # "holds no" fact always exists (the real one), found by the matching below
        needs = wanted if attempt < 11 else []
        pool = sorted(hidden)
        rng.shuffle(pool)
        chosen: list[int | None] = [None] * len(places)
        used: set[int] = set()
        ok = True
        for zone, kind, value in needs:
            spots = [i for i, (z, _) in enumerate(places) if z == zone and chosen[i] is None]
            rng.shuffle(spots)
            table = attribute(cards, kind)
            pick = next(((i, c) for i in spots for c in pool
                         if c not in used and table[c] == value and allowed(i, c)), None)
            if pick is None:
                ok = False
                break
            chosen[pick[0]] = pick[1]
            used.add(pick[1])
        if ok and _match(chosen, pool, allowed):
            return [c for c in chosen if c is not None]
    return None


def _match(chosen: list[int | None], pool: list[int], allowed: Callable[[int, int], bool]) -> bool:
    """Fill the open places of `chosen` with unused cards of `pool` (tried in its order), each where it
    is allowed: a bipartite matching by augmenting paths (Kuhn), a free card taken first."""
    holder: dict[int, int] = {}            # card -> the place it fills
    fixed = {c for c in chosen if c is not None}

    def place(i: int, seen: set[int]) -> bool:
        for c in pool:
            if c in fixed or c in seen or not allowed(i, c):
                continue
            seen.add(c)
            j = holder.get(c)
            if j is None or place(j, seen):
                holder[c] = i
                chosen[i] = c
                return True
        return False

    for i in range(len(chosen)):
        if chosen[i] is not None:
            continue
        free = next((c for c in pool if c not in fixed and c not in holder and allowed(i, c)), None)
        if free is not None:
            holder[free] = i
            chosen[i] = free
        elif not place(i, set()):
            return False
    return True
