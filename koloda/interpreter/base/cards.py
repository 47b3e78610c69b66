"""Decks and cards: every physical card is a small int with attribute tables."""
from __future__ import annotations

from dataclasses import dataclass, field

from koloda.dsl.decklist import ExtraCard, SuitSpec
from koloda.dsl.types import DECK_RANKS, KNIGHT, SUIT_LETTERS, SUIT_SYMBOLS, SUITS, rank_strength, rank_word
JOKER = 0


def rank_name(rank: int) -> str:
    return rank_word(rank)


@dataclass(frozen=True)
class CardTable:
    """The deck of one game: card id -> rank, suit, colour, value, names."""
    ranks: tuple[int, ...]
    suits: tuple[int | None, ...]
    colors: tuple[int | None, ...]
    values: tuple[int, ...]
    names: tuple[str, ...]          # "QS", "10H", "JK": files and the command line
    labels: tuple[str, ...]         # "Q♠", "10♥", "🃏": the screen
    deck_ranks: tuple[int, ...]     # ranks of the base deck, low to high
    order: tuple[int, ...]          # rank code -> strength (for <, > and tricks)
    tables: dict[str, tuple[int, ...]] = field(default_factory=dict)   # named value tables: card id -> value
    deck_suits: tuple[int, ...] = (0, 1, 2, 3)   # the suits of the deck, in the order of `suits`
    # by suit code: its name, its letter in card names, its sign on screen (a deck built from a list may
    # have suits of its own after the four)
    suit_names: tuple[str, ...] = SUITS
    suit_letters: str | tuple[str, ...] = SUIT_LETTERS
    suit_symbols: str | tuple[str, ...] = SUIT_SYMBOLS

    @property
    def rank_radix(self) -> int:
        """One more than the highest rank code (15 for the packs of 2..A)."""
        return len(self.order)

    @property
    def suit_radix(self) -> int:
        return len(self.suit_names)

    @property
    def size(self) -> int:
        return len(self.ranks)

    def parse(self, text: str) -> list[int]:
        """All ids of the card named `text` (one per copy), or [] if none."""
        key = normalize_card_name(text)
        return [i for i, name in enumerate(self.names) if name == key]


def normalize_card_name(text: str) -> str:
    t = text.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
    if t in ("JK", "JOKER", "🃏"):
        return "JK"
    if t.startswith("T") and len(t) == 2:
        t = "10" + t[1]
    return t


def card_value(rank: int, values: dict[str, int]) -> int:
    """A rank's value in a table of `values:`; ranks left out count their number, 10 for a picture, 0 a joker."""
    return values.get(rank_name(rank), rank if rank <= 10 else 10 if rank <= KNIGHT else rank - 5)


def strengths(ranks: tuple[int, ...] | list[int], ace: str) -> tuple[int, ...]:
    """Rank code -> strength, for <, > and tricks (the packs of 2..A: the code itself, an ace low 1)."""
    knight = KNIGHT in ranks
    order = [0] * max(15, max(ranks, default=0) + 1)
    for code in range(1 if any(r == 1 or r >= 15 for r in ranks) else 2, len(order)):
        order[code] = rank_strength(code, knight)
    if ace == "low":
        order[14] = 1
    return tuple(order)


def build_deck(base: str, copies: int, jokers: int, values: dict[str, int], ace: str = "high",
               named: dict[str, dict[str, int]] | None = None,
               listed: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)) -> CardTable:
    ranks: list[int] = []
    suits: list[int | None] = []
    colors: list[int | None] = []
    vals: list[int] = []
    names: list[str] = []
    labels: list[str] = []
    deck_ranks = listed[0] if listed[0] is not None else DECK_RANKS[base]
    deck_suits = listed[1] if listed[1] is not None else (0, 1, 2, 3)
    for _ in range(copies):
        for suit in deck_suits:
            for rank in deck_ranks:
                ranks.append(rank)
                suits.append(suit)
                colors.append(0 if suit in (1, 2) else 1)   # diamonds, hearts are red
                name = rank_name(rank)
                vals.append(card_value(rank, values))
                names.append(name + SUIT_LETTERS[suit])
                labels.append(name + SUIT_SYMBOLS[suit])
    for _ in range(jokers):
        ranks.append(JOKER)
        suits.append(None)
        colors.append(None)
        vals.append(values.get("JK", 0))
        names.append("JK")
        labels.append("🃏")
    tables = {name: tuple(card_value(rank, table) for rank in ranks) for name, table in (named or {}).items()}
    return CardTable(tuple(ranks), tuple(suits), tuple(colors), tuple(vals), tuple(names), tuple(labels),
                     deck_ranks, strengths(deck_ranks, ace), tables, deck_suits)


def build_listed(suits: list[tuple[SuitSpec, tuple[int, ...]]], extras: tuple[ExtraCard, ...], own: list[SuitSpec],
                 copies: int, jokers: int, values: dict[str, int], ace: str = "high",
                 named: dict[str, dict[str, int]] | None = None) -> CardTable:
    """A deck built from a list: each suit with its ranks (as worked out for the table), then the cards
    named on their own, `copies` times; then the jokers. `own`: the game's own suits, by code from 4."""
    rows: list[tuple[int, int | None, int | None, str, str, int]] = []    # rank, suit, colour, name, label, value
    for _ in range(copies):
        for suit, ranks in suits:
            for rank in ranks:
                word = rank_name(rank)
                rows.append((rank, suit.code, suit.colour, word + suit.letter, word + suit.symbol,
                             card_value(rank, values)))
        for card in extras:
            rows.append((card.rank, card.suit, card.colour, card.name, card.label,
                         values[card.name] if card.name in values else card_value(card.rank, values)))
    for _ in range(jokers):
        rows.append((JOKER, None, None, "JK", "🃏", values.get("JK", 0)))
    ranks = tuple(r[0] for r in rows)
    extra = {card.name for card in extras}       # a card named on its own may have a value of its own
    tables = {name: tuple(table[row[3]] if row[3] in extra and row[3] in table else card_value(row[0], table)
                          for row in rows) for name, table in (named or {}).items()}
    deck_ranks = tuple(sorted({r for r in ranks if r != JOKER}, key=lambda r: rank_strength(r, KNIGHT in ranks)))
    deck_suits = tuple(sorted({s for s in (r[1] for r in rows) if s is not None}))
    return CardTable(ranks, tuple(r[1] for r in rows), tuple(r[2] for r in rows), tuple(r[5] for r in rows),
                     tuple(r[3] for r in rows), tuple(r[4] for r in rows), deck_ranks,
                     strengths(deck_ranks, ace), tables, deck_suits, *suit_tables(own))


def suit_tables(own: list[SuitSpec]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The names, letters and signs of the four suits and then the game's own, by code."""
    own = sorted(own, key=lambda s: s.code)
    return (SUITS + tuple(s.name for s in own), tuple(SUIT_LETTERS) + tuple(s.letter for s in own),
            tuple(SUIT_SYMBOLS) + tuple(s.symbol for s in own))


def joined(tables: list[CardTable]) -> CardTable:
    """Several decks as one game's cards, one deck after the other: its ranks and suits are every deck's."""
    first = tables[0]

    def cat(field: str) -> tuple:
        return tuple(x for t in tables for x in getattr(t, field))
    ranks = cat("ranks")
    deck_ranks = tuple(sorted({r for t in tables for r in t.deck_ranks}, key=lambda r: rank_strength(r, KNIGHT in ranks)))
    widest = max(tables, key=lambda t: len(t.suit_names))
    return CardTable(ranks, cat("suits"), cat("colors"), cat("values"), cat("names"), cat("labels"),
                     deck_ranks, strengths(deck_ranks, "low" if first.order[14] == 1 else "high"),
                     {name: tuple(v for t in tables for v in t.tables[name]) for name in first.tables},
                     tuple(sorted({s for t in tables for s in t.deck_suits})),
                     widest.suit_names, widest.suit_letters, widest.suit_symbols)


def rank_indexes(cards: CardTable) -> list[int | None]:
    """Each card's rank counted in the game's rank order from 0 for the deck's lowest rank (none: a joker)."""
    by_strength = sorted(set(cards.deck_ranks), key=lambda r: cards.order[r])
    place = {rank: i for i, rank in enumerate(by_strength)}
    return [place.get(rank) for rank in cards.ranks]


def suit_indexes(cards: CardTable) -> list[int | None]:
    """Each card's suit counted from 0 in the order of `suits` (none: a joker)."""
    place = {suit: i for i, suit in enumerate(cards.deck_suits)}
    return [None if suit is None else place[suit] for suit in cards.suits]
