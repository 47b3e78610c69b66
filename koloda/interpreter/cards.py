"""Decks and cards: every physical card is a small int with attribute tables."""
from __future__ import annotations

from dataclasses import dataclass, field

from koloda.dsl.types import DECK_RANKS, RANK_NAMES, SUIT_LETTERS, SUIT_SYMBOLS
JOKER = 0


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


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
    return values.get(rank_name(rank), rank if rank <= 10 else 10)


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
    order = [0] * 15
    for code in range(2, 15):
        order[code] = code
    if ace == "low":
        order[14] = 1
    return CardTable(tuple(ranks), tuple(suits), tuple(colors), tuple(vals), tuple(names), tuple(labels),
                     deck_ranks, tuple(order), tables, deck_suits)


def joined(tables: list[CardTable]) -> CardTable:
    """Several decks as one game's cards, one deck after the other: its ranks and suits are every deck's."""
    first = tables[0]

    def cat(field: str) -> tuple:
        return tuple(x for t in tables for x in getattr(t, field))
    return CardTable(cat("ranks"), cat("suits"), cat("colors"), cat("values"), cat("names"), cat("labels"),
                     tuple(sorted({r for t in tables for r in t.deck_ranks})), first.order,
                     {name: tuple(v for t in tables for v in t.tables[name]) for name in first.tables},
                     tuple(sorted({s for t in tables for s in t.deck_suits})))


def rank_indexes(cards: CardTable) -> list[int | None]:
    """Each card's rank counted in the game's rank order from 0 for the deck's lowest rank (none: a joker)."""
    by_strength = sorted(set(cards.deck_ranks), key=lambda r: cards.order[r])
    place = {rank: i for i, rank in enumerate(by_strength)}
    return [place.get(rank) for rank in cards.ranks]


def suit_indexes(cards: CardTable) -> list[int | None]:
    """Each card's suit counted from 0 in the order of `suits` (none: a joker)."""
    place = {suit: i for i, suit in enumerate(cards.deck_suits)}
    return [None if suit is None else place[suit] for suit in cards.suits]
