"""The `deck:` section of a rule file: a base deck, copies, jokers, a deck each, listed ranks and suits, or
several named decks."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from koloda.dsl import ast
from koloda.dsl.deckcount import problems, work_out
from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.limits import MAX_CARDS
from koloda.dsl.marked import MarkedDict, span_of
from koloda.dsl.options import OptionSpec
from koloda.dsl.decklist import (STANDARD_COLOURS, ExtraCard, RankItems, SuitSpec, card_names, clashes, read_cards, read_ranks,
                                 read_suits, static_ranks, work_out_ranks)
from koloda.dsl.types import (DECK_RANKS, DECKS, KNIGHT, SUIT_LETTERS, SUIT_SYMBOLS, SUITS, rank_number,
                              rank_word)


@dataclass
class DeckSpec:
    base: object          # a deck name, or an expression over options
    copies: object        # a number, `option.NAME`, or an expression over the table (ast)
    jokers: object
    span: Span
    per_player: bool = False   # every player has a deck of their own
    ranks: tuple[int, ...] | None = None    # the ranks listed (`ranks: [J, Q, K]`), low to high; None: the base's
    suits: tuple[int, ...] | None = None    # the suits listed, in the order of `suits`; None: all four
    # several named decks (`deck: {main: {...}, small: {...}}`), in the order written; the game's cards are
    # theirs, one deck after the other, and the fields above are unused
    named: tuple[tuple[str, "DeckSpec"], ...] = ()
    # `ranks:` as written where a range follows the table (`2..player_count + 2`); `ranks` is then None
    rank_items: RankItems | None = None
    # a deck built from its suits (`suits: {hearts: [1..10, J, C, Q, K], trumps: 1..21}`), and cards named
    # on their own (`cards: {EX: {}}`); with these, `base`, `ranks` and `suits` are unused
    suit_list: tuple[SuitSpec, ...] = ()
    extras: tuple[ExtraCard, ...] = ()

    @property
    def listed(self) -> bool:
        """Is this a deck built from its suits and cards?"""
        return bool(self.suit_list or self.extras)

    def parts(self) -> tuple["DeckSpec", ...]:
        return tuple(part for _, part in self.named) if self.named else (self,)

    def own_suits(self) -> dict[str, SuitSpec]:
        """The suits of the game's own (beside the four), by name."""
        return {s.name: s for part in self.parts() for s in part.suit_list if s.code >= len(SUITS)}

    def has_knights(self) -> bool:
        return any(KNIGHT in (part.ranks or ()) or KNIGHT in (part.rank_items or ())
                   or any(KNIGHT in s.ranks for s in part.suit_list) for part in self.parts())

    def standard(self) -> bool:
        """Are all its ranks 2..A (and jokers) of the four suits, as the meld rules' wild cards need?"""
        def plain(items: object) -> bool:
            return items is None or all(isinstance(r, int) and 2 <= r <= 14 for r in items)   # type: ignore
        return all(plain(part.ranks) and part.rank_items is None and not part.extras
                   and all(s.code < len(SUITS) and plain(s.ranks) for s in part.suit_list) for part in self.parts())

    def words(self) -> dict[str, tuple[str, int]]:
        """The names its cards bring to expressions beside the language's: its own suits, the knight `C`."""
        found: dict[str, tuple[str, int]] = {name: ("suit", s.code) for name, s in self.own_suits().items()}
        if self.has_knights():
            found["C"] = ("rank", KNIGHT)
        return found

    def numbers(self) -> set[int] | None:
        """The numbers a rank may be written as (`c.rank == 21`): 2..10, and those its lists have (None:
        any, where a range follows the table)."""
        found = set(range(2, 11))
        for part in self.parts():
            lists = [part.rank_items] + [s.ranks for s in part.suit_list] if part.ranks is None else [part.ranks]
            for items in lists:
                if items is None:
                    continue
                if static_ranks(items) is None:
                    return None
                found |= {rank_number(r) for r in items if isinstance(r, int) and (r == 1 or r > KNIGHT)}
        return found

    def ranks_at(self, options: dict[str, object], players: int) -> tuple[int, ...] | None:
        """`ranks:` at a table (None: the base's)."""
        if self.rank_items is not None:
            return work_out_ranks(self.rank_items, options, players, self.span)
        return self.ranks

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.named)

    def size(self, options: dict[str, object], players: int) -> int | None:
        """How many cards the game has at a table (None if that is not known from the parts)."""
        if self.named:
            sizes = [part.size(options, players) for _, part in self.named]
            return None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None)
        if self.listed:
            _, copies, jokers = self.bound(options, players)
            try:
                ranks = [len(work_out_ranks(s.ranks, options, players, s.span)) for s in self.suit_list]
            except RuleError:
                return None
            if not isinstance(copies, int) or not isinstance(jokers, int):
                return None
            return (sum(ranks) + len(self.extras)) * copies + jokers
        if self.rank_items is not None:
            try:
                listed = self.ranks_at(options, players)
            except RuleError:
                return None
            return deck_size(*self.bound(options, players), players, self.per_player, listed, self.suits)
        return deck_size(*self.bound(options, players), players, self.per_player, self.ranks, self.suits)

    def bound(self, options: dict[str, object], players: int = 1) -> tuple[object, object, object]:
        """(base, copies, jokers) for a table: each `option.NAME` replaced by the option's value, each
        expression worked out (a RuleError if it is not a whole number of 0 or more)."""
        def value(v: object, what: str) -> object:
            if isinstance(v, ast.Node):
                found = work_out(v, options, players)
                if isinstance(found, bool) or not isinstance(found, int) or found < 0:
                    raise RuleError(f"deck `{what}` works out to {found} with {players} players; it must be a "
                                    "whole number, 0 or more", v.span, category="runtime")
                return found
            return options.get(v[len("option."):]) if isinstance(v, str) and v.startswith("option.") else v
        return value(self.base, "base"), value(self.copies, "copies"), value(self.jokers, "jokers")


_RANK_CODES = {"A": 14, "K": 13, "Q": 12, "J": 11, **{str(k): k for k in range(2, 11)}}


def cell_rank(cell, where: Span, errors: list) -> int | None:
    """A grid cell's rank: `7`, `A`, or null/`-` for a cell that belongs to no rank."""
    if cell is None or cell == "-":
        return None
    code = _RANK_CODES.get(str(cell).upper())
    if code is None:
        errors.append(RuleError(f"a grid cell is a rank (A, 2..10, J, Q, K) or `-`, not `{cell}`",
                                span_of(cell, where), category="schema"))
    return code





def is_named(raw: object) -> bool:
    """`deck: {main: {...}, small: {...}}`: a mapping whose values are all mappings names its decks (a single
    deck's mapping has no mapping among its values)."""
    return isinstance(raw, MarkedDict) and bool(raw) and all(isinstance(v, MarkedDict) for v in raw.values()) \
        and not any(key in _DECK_KEYS for key in raw)      # `{suits: {...}, cards: {...}}` is one deck


_DECK_KEYS = ("base", "copies", "jokers", "each", "ranks", "suits", "cards")


def read_deck(doc: MarkedDict, options: dict[str, OptionSpec], errors: list[RuleError],
              parse: Callable[[object, Span], ast.Node | None], word: Callable[[str], bool] = str.isidentifier
              ) -> DeckSpec:
    """The `deck:` section; what is wrong with it goes to `errors`. `word` tells a name that may be a
    deck's (it is `c.deck`'s value, written bare beside it as a word variable's words are)."""
    deck = _read_deck(doc, options, errors, parse, word)
    values = doc.get("values")
    if isinstance(values, MarkedDict):
        tables = [(f"values.{k}", v) for k, v in values.items() if isinstance(v, MarkedDict)] or [("values", values)]
        for where, table in tables:
            errors.extend(_value_keys(deck, where, table))
    jokers = any(part.jokers != 0 or any(c.rank == 0 for c in part.extras) for part in deck.parts())
    if doc.get("melds") and not deck.standard() and (doc.get("wild") is not None or jokers):
        errors.append(RuleError("a wild card in a meld stands for a rank 2..A of the four suits, and this deck has "
                                "other ranks, suits or cards", doc.key_spans.get("melds", doc.span),
                                "melds of such a deck are made of natural cards: give it no `wild:` and no jokers",
                                category="schema"))
    return deck


_VALUE_KEYS = {"A", "K", "Q", "J", "JK", *(str(n) for n in range(2, 11))}


def _value_keys(deck: DeckSpec, where: str, table: MarkedDict) -> list[RuleError]:
    """A key of `values:` beyond the 52-card pack's ranks (`21`, `C`, `EX`) must be a rank or a card of the deck."""
    numbers = deck.numbers()
    extras = {c.name for part in deck.parts() for c in part.extras}
    found = []
    for key in table:
        text = str(key)
        if text in _VALUE_KEYS or text in extras or (text == "C" and deck.has_knights()):
            continue
        if text.isdigit() and (numbers is None or int(text) in numbers):
            continue
        found.append(RuleError(f"`{text}` cannot be a key of `{where}`: this deck has no such rank or card",
                               table.key_spans.get(key, table.span), did_you_mean(text, sorted(extras)) or None,
                               category="schema"))
    return found


def _read_deck(doc: MarkedDict, options: dict[str, OptionSpec], errors: list[RuleError],
               parse: Callable[[object, Span], ast.Node | None], word: Callable[[str], bool]) -> DeckSpec:
    raw_deck = doc.get("deck", "standard52")
    own: dict[str, SuitSpec] = {}      # the game's own suits, shared by its decks
    if is_named(raw_deck):
        parts = []
        for name, raw in raw_deck.items():
            where = raw_deck.key_spans.get(name, raw_deck.span)
            part = _read_one(raw, where, options, errors, parse, own)
            if not word(str(name)):
                errors.append(RuleError(f"`{name}` cannot name a deck: a deck's name is a name such as `small`, "
                                        "and not a word of the language", where, category="name"))
            if part.per_player:
                errors.append(RuleError(f"deck `{name}`: `each: player` is for a game with one deck", where,
                                        "with several named decks, `c.deck` is the deck's name", category="schema"))
                part.per_player = False
            parts.append((str(name), part))
        deck = DeckSpec("standard52", 1, 0, raw_deck.span, named=tuple(parts))
        errors.extend(_shared_names(parts))
        sizes = [_static_size(p) for _, p in parts]
        size = sum(s for s in sizes if s is not None)
        if size > MAX_CARDS and all(s is None or s <= MAX_CARDS for s in sizes):    # else the part said so
            errors.append(RuleError(f"these decks hold {size:,} cards; a game has at most {MAX_CARDS:,}",
                                    deck.span, category="limit"))
        return deck
    return _read_one(raw_deck, doc.key_spans.get("deck", doc.span), options, errors, parse, own)


def _cards_of(deck: DeckSpec) -> dict[str, tuple[int, int | None, int | None]] | None:
    """Each card's name and what it is (rank, suit, colour), where that does not follow the table."""
    found: dict[str, tuple[int, int | None, int | None]]
    if deck.listed:
        suits = [(s, static_ranks(s.ranks)) for s in deck.suit_list]
        if any(r is None for _, r in suits):
            return None
        found = {rank_word(r) + s.letter: (r, s.code, s.colour) for s, ranks in suits for r in ranks or ()}
        found.update({c.name: (c.rank, c.suit, c.colour) for c in deck.extras})
    elif isinstance(deck.base, str) and deck.base in DECKS and deck.rank_items is None:
        found = {rank_word(r) + SUIT_LETTERS[s]: (r, s, STANDARD_COLOURS[s])
                 for s in deck.suits or range(len(SUITS)) for r in deck.ranks or DECK_RANKS[deck.base]}
    else:
        return None
    if deck.jokers != 0:
        found["JK"] = (0, None, None)
    return found


def _shared_names(parts: list[tuple[str, DeckSpec]]) -> list[RuleError]:
    """Two named decks' cards of one name are copies of one card: they must be the same card."""
    seen: dict[str, tuple[str, tuple[int, int | None, int | None]]] = {}
    for name, part in parts:
        for card, what in (_cards_of(part) or {}).items():
            first = seen.setdefault(card, (name, what))
            if first[1] != what:
                return [RuleError(f"decks `{first[0]}` and `{name}` each have a card named {card}, and they are "
                                  "different cards", part.span, "give a card of `cards:` another name, or a suit "
                                  "another `letter:`", category="name")]
    return []


def _static_size(deck: DeckSpec) -> int | None:
    """How many cards a deck holds, where that does not depend on the table."""
    if _optional(deck):
        return None
    if deck.listed:
        return deck.size({}, 1) if all(isinstance(v, int) for v in (deck.copies, deck.jokers)) else None
    return deck_size(deck.base, deck.copies, deck.jokers, 1, ranks=deck.ranks, suits=deck.suits) \
        if deck.rank_items is None else None


def _optional(deck: DeckSpec) -> bool:
    return any(isinstance(v, str) and v.startswith("option.") for v in (deck.base, deck.copies, deck.jokers))


def _read_one(raw_deck: object, at: Span, options: dict[str, OptionSpec], errors: list[RuleError],
              parse: Callable[[object, Span], ast.Node | None], own: dict[str, SuitSpec]) -> DeckSpec:
    """One deck: a deck's name, or its mapping."""
    if isinstance(raw_deck, MarkedDict):
        deck = DeckSpec(raw_deck.get("base", "standard52"), raw_deck.get("copies", 1),
                        raw_deck.get("jokers", 0), raw_deck.span, raw_deck.get("each") == "player")
        if isinstance(raw_deck.get("suits"), MarkedDict) or isinstance(raw_deck.get("cards"), MarkedDict):
            _read_listed(deck, raw_deck, options, errors, parse, own)
        else:
            items = read_ranks(raw_deck["ranks"], raw_deck.key_spans["ranks"], options, errors, parse) \
                if raw_deck.get("ranks") is not None else None
            deck.ranks, deck.suits = static_ranks(items), _listed_suits(raw_deck, errors)
            deck.rank_items = items if items is not None and deck.ranks is None else None
    else:
        deck = DeckSpec(raw_deck, 1, 0, span_of(raw_deck, at))
    base = deck.base
    if isinstance(base, str) and base not in DECKS and not base.startswith("option."):
        errors.append(RuleError(f"unknown deck `{base}`", deck.span, did_you_mean(base, DECKS) or
                                "decks: " + ", ".join(DECKS)))
    for field_name in ("base", "copies", "jokers"):
        value = getattr(deck, field_name)
        where = getattr(value, "span", deck.span)
        if isinstance(value, str) and value.startswith("option."):
            name = value[len("option."):]
            if name not in options:
                errors.append(RuleError(f"unknown option `{name}`", where, did_you_mean(name, options),
                                        category="name"))
            elif field_name != "base" and options[name].type != "int":
                errors.append(RuleError(f"deck `{field_name}` needs a whole-number option, and `{name}` is not",
                                        where, category="type"))
        elif field_name != "base" and isinstance(value, str):
            # `copies: 2 if player_count > 5 else 1`: worked out for each table
            node = parse(value, where)
            if node is not None:
                found = problems(node, options, f"deck `{field_name}`")
                errors.extend(found)
                setattr(deck, field_name, node if not found else 1)
        elif field_name != "base" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            errors.append(RuleError(f"deck `{field_name}` is a whole number, `option.NAME` or an expression over "
                                    f"`player_count` and options, not `{value}`", where, category="type"))
    size = _static_size(deck)
    if size is not None and size > MAX_CARDS:
        errors.append(RuleError(f"this deck holds {size:,} cards; a game has at most {MAX_CARDS:,}", deck.span,
                                category="limit"))
    return deck


def _read_listed(deck: DeckSpec, raw: MarkedDict, options: dict[str, OptionSpec], errors: list[RuleError],
                 parse: Callable[[object, Span], ast.Node | None], own: dict[str, SuitSpec]) -> None:
    """`suits: {hearts: [...], trumps: 1..21}` and `cards: {EX: {}}`: a deck built from this list."""
    suits = raw.get("suits")
    if isinstance(suits, MarkedDict):
        for key in ("base", "ranks", "each"):
            if key in raw:
                errors.append(RuleError(f"a deck built from its `suits:` mapping has no `{key}`",
                                        raw.key_spans.get(key, raw.span), "each suit lists its own ranks"
                                        if key == "ranks" else None, category="schema"))
        deck.suit_list = read_suits(suits, options, errors, parse, own)
    else:       # `{base: standard52, cards: {...}}`: a pack and cards named alone
        deck.suit_list = _base_suits(deck, raw, options, errors, parse)
    cards = raw.get("cards")
    if isinstance(cards, MarkedDict):
        deck.extras = read_cards(cards, errors, own)
    elif cards is not None:
        errors.append(RuleError("`cards:` is a mapping of each card's name to what it is", raw.key_spans["cards"],
                                "as in `cards: {EX: {label: Excuse}, RJ: {colour: red}}`", category="schema"))
    ranks_of = {s.code: static_ranks(s.ranks) for s in deck.suit_list}
    letters = [s.letter for s in deck.suit_list]
    if all(r is not None for r in ranks_of.values()) and len(set(letters)) == len(letters):   # else said so
        names = card_names(deck.suit_list, {k: v for k, v in ranks_of.items() if v is not None}, deck.extras,
                           1 if deck.jokers else 0)
        for name in clashes(names):
            card = next((c for c in deck.extras if c.name == name), None)
            errors.append(RuleError(f"two cards of this deck are named {name}", raw.span if card is None else card.span,
                                    "give the card of `cards:` another name" if card else "give a suit another `letter:`",
                                    category="name"))


def _base_suits(deck: DeckSpec, raw: MarkedDict, options: dict[str, OptionSpec], errors: list[RuleError],
                parse: Callable[[object, Span], ast.Node | None]) -> tuple[SuitSpec, ...]:
    """The suits of a pack beside `cards:`: the base's, or those `ranks:` and `suits:` list."""
    if "each" in raw:
        errors.append(RuleError("a deck with `cards:` has no `each`", raw.key_spans["each"], category="schema"))
    base = raw.get("base", "standard52")
    if not (isinstance(base, str) and base in DECKS):
        if not (isinstance(base, str) and base.startswith("option.")):
            return ()                  # the deck's name is refused where it is read
        errors.append(RuleError("a deck with `cards:` has a pack's name as its `base`, not an option",
                                raw.key_spans.get("base", raw.span), category="schema"))
        return ()
    items = read_ranks(raw["ranks"], raw.key_spans["ranks"], options, errors, parse) \
        if raw.get("ranks") is not None else DECK_RANKS[base]
    suits = _listed_suits(raw, errors) or tuple(range(len(SUITS)))
    return tuple(SuitSpec(SUITS[code], code, tuple(items), SUIT_LETTERS[code], SUIT_SYMBOLS[code], STANDARD_COLOURS[code],
                          raw.span) for code in suits)


def _listed_suits(raw: MarkedDict, errors: list[RuleError]) -> tuple[int, ...] | None:
    """`suits: [hearts, spades]`: the deck made of these suits only."""
    suits = None
    if raw.get("suits") is not None:
        where = raw.key_spans["suits"]
        named = [str(x) for x in raw["suits"]]
        for name in named:
            if name not in SUITS:
                errors.append(RuleError(f"deck `suits`: there is no suit `{name}`", where,
                                        did_you_mean(name, SUITS) or "suits: " + ", ".join(SUITS), category="name"))
        suits = tuple(sorted({SUITS.index(n) for n in named if n in SUITS}))
        if len(suits) != len(named):
            errors.append(RuleError("deck `suits`: each suit once", where, category="schema"))
    return suits


def deck_size(base: object, copies: object, jokers: object, players: int, per_player: bool = False,
              ranks: tuple[int, ...] | None = None, suits: tuple[int, ...] | None = None) -> int | None:
    """How many cards a deck holds (None if its parts are not a known deck and whole numbers)."""
    if not isinstance(base, str) or base not in DECKS or not isinstance(copies, int) or not isinstance(jokers, int):
        return None
    one = (len(ranks) if ranks is not None else DECKS[base] // 4) * (len(suits) if suits is not None else 4)
    return (one * copies + jokers) * (players if per_player else 1)
