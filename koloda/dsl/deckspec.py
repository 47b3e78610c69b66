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
from koloda.dsl.types import DECKS, SUITS


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

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.named)

    def size(self, options: dict[str, object], players: int) -> int | None:
        """How many cards the game has at a table (None if that is not known from the parts)."""
        if self.named:
            sizes = [part.size(options, players) for _, part in self.named]
            return None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None)
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
    return isinstance(raw, MarkedDict) and bool(raw) and all(isinstance(v, MarkedDict) for v in raw.values())


def read_deck(doc: MarkedDict, options: dict[str, OptionSpec], errors: list[RuleError],
              parse: Callable[[object, Span], ast.Node | None], word: Callable[[str], bool] = str.isidentifier
              ) -> DeckSpec:
    """The `deck:` section; what is wrong with it goes to `errors`. `word` tells a name that may be a
    deck's (it is `c.deck`'s value, written bare beside it as a word variable's words are)."""
    raw_deck = doc.get("deck", "standard52")
    if is_named(raw_deck):
        parts = []
        for name, raw in raw_deck.items():
            where = raw_deck.key_spans.get(name, raw_deck.span)
            part = _read_one(raw, where, options, errors, parse)
            if not word(str(name)):
                errors.append(RuleError(f"`{name}` cannot name a deck: a deck's name is a name such as `small`, "
                                        "and not a word of the language", where, category="name"))
            if part.per_player:
                errors.append(RuleError(f"deck `{name}`: `each: player` is for a game with one deck", where,
                                        "with several named decks, `c.deck` is the deck's name", category="schema"))
                part.per_player = False
            parts.append((str(name), part))
        deck = DeckSpec("standard52", 1, 0, raw_deck.span, named=tuple(parts))
        sizes = [deck_size(p.base, p.copies, p.jokers, 1, ranks=p.ranks, suits=p.suits) for _, p in parts]
        size = sum(s for s in sizes if s is not None)
        if size > MAX_CARDS and all(s is None or s <= MAX_CARDS for s in sizes):    # else the part said so
            errors.append(RuleError(f"these decks hold {size:,} cards; a game has at most {MAX_CARDS:,}",
                                    deck.span, category="limit"))
        return deck
    return _read_one(raw_deck, doc.key_spans.get("deck", doc.span), options, errors, parse)


def _optional(deck: DeckSpec) -> bool:
    return any(isinstance(v, str) and v.startswith("option.") for v in (deck.base, deck.copies, deck.jokers))


def _read_one(raw_deck: object, at: Span, options: dict[str, OptionSpec], errors: list[RuleError],
              parse: Callable[[object, Span], ast.Node | None]) -> DeckSpec:
    """One deck: a deck's name, or its mapping."""
    if isinstance(raw_deck, MarkedDict):
        deck = DeckSpec(raw_deck.get("base", "standard52"), raw_deck.get("copies", 1),
                        raw_deck.get("jokers", 0), raw_deck.span, raw_deck.get("each") == "player")
        deck.ranks, deck.suits = _listed_cards(raw_deck, errors)
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
    size = deck_size(deck.base, deck.copies, deck.jokers, 1, ranks=deck.ranks, suits=deck.suits) if not \
        _optional(deck) else None
    if size is not None and size > MAX_CARDS:
        errors.append(RuleError(f"this deck holds {size:,} cards; a game has at most {MAX_CARDS:,}", deck.span,
                                category="limit"))
    return deck


def _listed_cards(raw: MarkedDict, errors: list[RuleError]) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """`ranks: [9, 10, J, Q, K, A]` and `suits: [hearts, spades]`: the deck made of these cards only."""
    ranks = suits = None
    if raw.get("ranks") is not None:
        where = raw.key_spans["ranks"]
        codes = [cell_rank(r, where, errors) for r in raw["ranks"]]
        ranks = tuple(sorted({c for c in codes if c is not None}))
        if len(ranks) != len(codes):
            errors.append(RuleError("deck `ranks`: each rank once", where, category="schema"))
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
    return ranks, suits


def deck_size(base: object, copies: object, jokers: object, players: int, per_player: bool = False,
              ranks: tuple[int, ...] | None = None, suits: tuple[int, ...] | None = None) -> int | None:
    """How many cards a deck holds (None if its parts are not a known deck and whole numbers)."""
    if not isinstance(base, str) or base not in DECKS or not isinstance(copies, int) or not isinstance(jokers, int):
        return None
    one = (len(ranks) if ranks is not None else DECKS[base] // 4) * (len(suits) if suits is not None else 4)
    return (one * copies + jokers) * (players if per_player else 1)
