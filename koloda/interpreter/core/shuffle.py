"""The shuffle source: each shuffle's order drawn from the seed, or the deck order a user gave for it.

A given order is matched to the zone's cards by name; one that is not exactly those cards is an
error, since falling back to the seed would deal something the user did not ask for.
"""
from __future__ import annotations

import random
from typing import Sequence

from _random import Random as Generator     # random.Random's C base: what a deal draws from

from koloda.interpreter.base.errors import PositionError


def generator(seed: int) -> Generator:
    """The generator of one random event: the same stream as `random.Random(seed)` for a whole
    number, without its Python layer (seeding is most of a small game's deal, and every match
    makes a generator per shuffle)."""
    return Generator(seed)


def below(rng: Generator | random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0, the same number from the same generator (`Random._randbelow`)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled(rng: Generator | random.Random, cards: list[int]) -> None:
    """`rng.shuffle(cards)`, the same order from the same generator, with `Random._randbelow` written
    out: Python's own shuffle calls it once per card, and a deal shuffles the whole deck."""
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def given_order(cards: list[int], wanted: list[int], names: Sequence[str], decks: Sequence[int] | None,
                zone: str, deal: int) -> list[int]:
    """A zone's `cards` in the order `wanted` gives, matched by name (copies of a card are alike, and
    each player's deck has its own copies; with `decks`, cards of one name from two decks are not).
    `zone` and `deal` name the shuffle in the error."""
    pool: dict[object, list[int]] = {}
    for c in sorted(cards):
        pool.setdefault(names[c] if decks is None else (names[c], decks[c]), []).append(c)
    order, extra = [], []
    for c in wanted:
        copies = pool.get(names[c] if decks is None else (names[c], decks[c]))
        if copies:
            order.append(copies.pop(0))
        else:
            extra.append(names[c])
    missing = [names[c] for copies in pool.values() for c in copies]
    if missing or extra:
        raise PositionError(_misfit(zone, deal, len(cards), len(wanted), missing, extra))
    return order


def _misfit(zone: str, deal: int, holds: int, given: int, missing: list[str], extra: list[str]) -> str:
    text = (f"the deck order for the shuffle of `{zone}` in deal {deal} does not fit it: "
            f"`{zone}` holds {holds} cards and the order lists {given}")
    if missing:
        text += f"; {len(missing)} of its cards are missing from the order ({_some(missing)})"
    if extra:
        text += f"; {len(extra)} listed cards are not in `{zone}` ({_some(extra)})"
    return text


def _some(names: list[str], most: int = 8) -> str:
    shown = " ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")
