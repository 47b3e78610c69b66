"""Cards written by a user: deck files and hands files, read with the place of every word.

Both formats name cards as the table does in ASCII (`QS`, `10H` or `TH`,
`JK`), separated by spaces or commas; `#` starts a comment that runs to the
end of its line. Every word keeps its file:line:col, so a mistake is shown
where it was written. In a game of several named decks a card may say its
deck after `@` (`JK@big`), and must where decks share its name: copies of one
deck are alike, but a `big` joker is not a `main` one.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from koloda.dsl.errors import NOWHERE, Span, did_you_mean
from koloda.dsl.model import Spec
from koloda.interpreter.base.cards import CardTable
from koloda.interpreter.base.errors import PositionError

_WORD = re.compile(r"[^\s,#]+")


@dataclass(frozen=True)
class Written:
    """A word as the user wrote it, and where."""
    text: str
    at: Span = NOWHERE


@dataclass(frozen=True)
class Given:
    """The cards given for one zone (`P1 hand: AS KS`), listed top card first."""
    zone: Written
    cards: tuple[Written, ...]


def _words(line: str, file: str, number: int, start: int = 0) -> list[Written]:
    line = line.split("#", 1)[0]
    return [Written(m.group(), Span(file, number, m.start() + 1, m.end() + 1))
            for m in _WORD.finditer(line, start)]


Decks = Sequence[str] | None      # each card's deck by name, in a game of named decks; else None


def named_decks(spec: Spec, card_deck: Sequence[int] | None) -> Decks:
    """Each card's deck by name where the game names its decks (None otherwise)."""
    return [spec.deck.names[i] for i in card_deck] if spec.deck.named and card_deck else None


def card_ids(cards: CardTable, word: Written, decks: Decks = None) -> list[int]:
    """Every id the word can name: all copies of its card, of the deck after `@` if it names one."""
    name, at, deck = word.text.partition("@")
    ids = cards.parse(name)
    if not ids:
        raise PositionError(f"`{word.text}` is not a card of this deck", word.at,
                            "cards are written like 10H or TH, QS, 2C, JK" + (", JK@deck" if decks else ""))
    if not at:
        return ids
    if decks is None:
        raise PositionError(f"`{word.text}` names a deck after `@`, but this game has one deck", word.at,
                            f"write the card alone: {name}")
    names = sorted(set(decks), key=list(decks).index)
    if deck not in names:
        raise PositionError(f"`{word.text}`: there is no deck `{deck}` in this game", word.at,
                            did_you_mean(deck, names) or f"its decks: {', '.join(names)}")
    ids = [i for i in ids if decks[i] == deck]
    if not ids:
        raise PositionError(f"`{word.text}`: deck `{deck}` has no {name}", word.at)
    return ids


def ambiguous(cards: CardTable, word: Written, ids: Sequence[int], decks: Decks) -> PositionError | None:
    """The error of a card written without its deck where copies of several decks could be meant."""
    if decks is None or "@" in word.text:
        return None
    among = sorted({decks[i] for i in ids}, key=list(decks).index)
    if len(among) < 2:
        return None
    name = cards.names[ids[0]]
    return PositionError(f"`{word.text}` is a card of decks {' and '.join(f'`{d}`' for d in among)}: say "
                         "which", word.at, f"write {' or '.join(f'{name}@{d}' for d in among)}")


def card_id(cards: CardTable, word: Written, used: set[int], decks: Decks = None, either: bool = False) -> int:
    """The first copy of the card `word` names that is not yet `used` (and mark it used). With named
    decks, a card several decks hold must say its deck, unless `either` (any of them will do)."""
    ids = card_ids(cards, word, decks)
    if not either and (error := ambiguous(cards, word, ids, decks)) is not None:
        raise error
    free = [i for i in ids if i not in used]
    if not free:
        held = "once" if len(ids) == 1 else f"{len(ids)} times"
        raise PositionError(f"`{word.text}` appears more often than the deck holds it (it holds it {held})",
                            word.at)
    used.add(free[0])
    return free[0]


def parse_deck(cards: CardTable, text: str, file: str = "<deck>", decks: Decks = None) -> list[list[int]]:
    """Deck orders: card names top first; a blank line starts the next shuffle's order."""
    orders: list[list[int]] = []
    order: list[int] = []
    used: set[int] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            if order:
                orders.append(order)
            order, used = [], set()
            continue
        order.extend(card_id(cards, w, used, decks) for w in _words(line, file, number))
    if order:
        orders.append(order)
    return orders


def parse_hands(text: str, file: str = "<hands>") -> list[Given]:
    """Zones and their cards, one zone a line: `P1 hand: AS KS QS`, `trump_card: 7H`."""
    given: list[Given] = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        name, colon, _ = body.partition(":")
        if not colon or not name.strip():
            col = len(body) - len(body.lstrip()) + 1
            raise PositionError("write each zone on a line of its own as `ZONE: CARDS`",
                                Span(file, number, col), "for example `P1 hand: AS KS QS`")
        col = len(name) - len(name.lstrip()) + 1
        zone = Written(" ".join(name.split()), Span(file, number, col, len(name.rstrip()) + 1))
        given.append(Given(zone, tuple(_words(line, file, number, len(name) + 1))))
    return given


def givens(hands: Mapping[str, str | Sequence[str]] | Sequence[Given]) -> list[Given]:
    """Given zones from the Python form `{"P1 hand": "AS KS", "trump_card": ["7H"]}` (or as read)."""
    if not isinstance(hands, Mapping):
        return list(hands)
    out = []
    for zone, names in hands.items():
        words = _WORD.findall(names) if isinstance(names, str) else [str(n) for n in names]
        out.append(Given(Written(" ".join(str(zone).split())), tuple(Written(w) for w in words)))
    return out


def orders_from(cards: CardTable, deck: Sequence[Sequence[int | str] | str], decks: Decks = None) -> list[list[int]]:
    """Deck orders from the Python form: each order card ids, card names, or one string of names."""
    orders = []
    for order in deck:
        words = _WORD.findall(order) if isinstance(order, str) else order
        used: set[int] = set()
        ids = []
        for w in words:
            if isinstance(w, str):
                ids.append(card_id(cards, Written(w), used, decks))
            elif isinstance(w, int) and not isinstance(w, bool) and 0 <= w < cards.size:
                ids.append(w)
            else:
                raise PositionError(f"{w!r} is not a card id of this deck (0..{cards.size - 1}) or a card's name")
        orders.append(ids)
    return orders
