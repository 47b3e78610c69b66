"""The language's built-ins as the checker sees them: functions, attributes, state names.

One table per kind, name -> signature or type. The interpreter's facts of each
live in `koloda/interpreter/runtime/builtin_entries.py` under the same names, and a test
keeps the key sets equal, so adding a built-in is one entry here, one there, and
a test.
(The model is jmespath's functions.py: a signature declared beside a name.)
"""
from __future__ import annotations

from dataclasses import dataclass

from koloda.dsl.types import (ANY, BOOL, CARD, COLOR, COMBO, GRID, INT, PLAN, PLAYER, RANK, SIDE, STR, SUIT, ZONE,
                              list_of)

# Parameter kinds beyond the value types.
CARDS = "cards"          # a zone or a list of cards
SEQUENCE = "sequence"    # a zone or a list of anything
# A function of one card named as an argument (`winner(trick, trump, power)`): a `define:` function of one
# card, or (for an order) a named table of `values:`. The built-in applies it to each card it looks at,
# bound to the local name CARD_SLOT, which no rule file can write.
CARD_ORDER = "card order"     # gives a number: the higher, the stronger
CARD_SUIT = "card suit"       # gives the suit a card counts as
# The trump of `winner`: a suit (or none), or a function of one card named as above giving true for a trump
# card: trumps that are not a suit (Skat's jacks), which count as one suit of their own.
TRUMP = "trump"
CARD_SLOT = "$card"


@dataclass(frozen=True)
class Param:
    type: str
    what: str = ""       # how an error names this argument; "" for the plain ordinal form


@dataclass(frozen=True)
class Signature:
    params: tuple[Param, ...]
    result: str
    needs: str | None = None     # "melds" or "patterns": the part of the rule file the function reads
    element: str | None = None   # a reduction over a SEQUENCE: the type its items must have (None: any)
    several: bool = False        # also takes two or more numbers: `max(a, b)`
    optional: int = 0            # how many of the last parameters may be left out


def _reduction(result: str, element: str | None, several: bool = False) -> Signature:
    return Signature((Param(SEQUENCE),), result, element=element, several=several)


FUNCTIONS: dict[str, Signature] = {
    # a card's value from `values:`, or from the named table given as a text: `value(c, "order")`
    "value": Signature((Param(CARD), Param(STR, "the second argument of `value` (a table's name)")), INT,
                       optional=1),
    "next": Signature((Param(PLAYER),), PLAYER),
    "prev": Signature((Param(PLAYER),), PLAYER),
    "player": Signature((Param(INT, "the seat number given to `player`"),), PLAYER),   # `player(1)` is P1
    "abs": Signature((Param(INT),), INT),
    "top": Signature((Param(ZONE), Param(INT)), list_of(CARD)),
    # a trick's winner: the natural rank order and printed suits, or the game's own order (and the suit
    # each card counts as) named as functions of a card
    "winner": Signature((Param(ZONE, "the first argument of `winner` (the trick)"),
                         Param(TRUMP, "the second argument of `winner` (the trump suit)"),
                         Param(CARD_ORDER, "the third argument of `winner` (the card order)"),
                         Param(CARD_SUIT, "the fourth argument of `winner` (the suit a card counts as)")),
                        PLAYER, optional=2),
    "winning_card": Signature((Param(ZONE, "the first argument of `winning_card` (the trick)"),
                               Param(TRUMP, "the second argument of `winning_card` (the trump suit)"),
                               Param(CARD_ORDER, "the third argument of `winning_card` (the card order)"),
                               Param(CARD_SUIT, "the fourth argument of `winning_card` (the suit a card counts as)")),
                              CARD, optional=2),
    # the card of the highest (lowest) rank in the game's rank order, or in an order named as a function
    # of a card; none for no cards
    "highest": Signature((Param(CARDS), Param(CARD_ORDER, "the second argument of `highest` (the card order)")),
                         CARD, optional=1),
    "lowest": Signature((Param(CARDS), Param(CARD_ORDER, "the second argument of `lowest` (the card order)")),
                        CARD, optional=1),
    "count": _reduction(INT, None),
    "sum": _reduction(INT, INT),
    "any": _reduction(BOOL, BOOL),
    "all": _reduction(BOOL, BOOL),
    "max": _reduction(INT, INT, several=True),
    "min": _reduction(INT, INT, several=True),
    "product": _reduction(INT, INT),
    # every choice of k items (every sub-list), each keeping the list's order: a list of lists of the
    # items' type (the checker gives the exact type from the argument)
    "combinations": Signature((Param(SEQUENCE), Param(INT, "the second argument of `combinations` (how many)")),
                              list_of(list_of(ANY))),
    "subsets": Signature((Param(SEQUENCE),), list_of(list_of(ANY))),
    "melds_in": Signature((Param(CARDS),), list_of(PLAN), needs="melds"),
    "layoffs": Signature((Param(CARDS),), list_of(PLAN), needs="melds"),
    "swaps": Signature((Param(CARDS),), list_of(PLAN), needs="melds"),
    # the most points that can go down (after a plan: layoffs too), with `keep` cards left in hand,
    # counted up to `enough`
    "best_points": Signature((Param(CARDS), Param(INT), Param(INT)), INT, needs="melds", optional=2),
    "best_points_after": Signature((Param(PLAN), Param(CARDS), Param(INT), Param(INT)), INT, needs="melds",
                                   optional=2),
    "hand_pattern": Signature((Param(CARDS),), STR, needs="patterns"),
    "hand_compare": Signature((Param(CARDS), Param(CARDS)), INT, needs="patterns"),
    # the strongest k of the cards by the patterns: Hold'em's best five of seven
    "best_hand": Signature((Param(CARDS), Param(INT, "the second argument of `best_hand` (how many cards)")),
                           list_of(CARD), needs="patterns"),
    # a pot with its side pots: what each player takes, from what each put in and their hands (empty: folded)
    "pot_shares": Signature((Param(list_of(INT), "the first argument of `pot_shares` (what each player put in)"),
                             Param(list_of(list_of(CARD)), "the second argument of `pot_shares` (each player's hand)")),
                            list_of(INT), needs="patterns"),
    # the combinations of `combos:` kinds the cards make (of one kind, named by a text: `"chain"`)
    "combos": Signature((Param(CARDS), Param(STR, "the kind of combination (`\"chain\"`)")), list_of(COMBO),
                        needs="combos", optional=1),
    # the player to move has no legal move: asked by `deal ends:` only (dsl/nomoves.py says why)
    "no_moves": Signature((), BOOL),
}

# `sum(x for x in ...)`: the reductions written over a comprehension.
AGGREGATES = {"sum", "count", "any", "all", "max", "min", "product"}

# Names whose value comes from the state of play.
STATE_NAMES: dict[str, str] = {
    "me": PLAYER, "dealer": PLAYER, "players": list_of(PLAYER), "others": list_of(PLAYER),
    "player_count": INT, "deal_number": INT, "deck_size": INT, "suits": list_of(SUIT),
    "ranks": list_of(RANK), "sides": list_of(SIDE), "melds": list_of(ZONE), "all_cards": list_of(CARD),
    "last_meld": ZONE,
    "direction": INT,        # 1: play passes to the left (P1, P2, P3 ...); -1: to the right
}

# Attributes, by the type of what has them.
CARD_ATTRS: dict[str, str] = {
    "rank": RANK, "suit": SUIT, "color": COLOR, "by": PLAYER, "face_up": BOOL,
    "deck": PLAYER,          # whose deck the card belongs to, where each player has their own
    # the rank's place in the game's rank order, 0 for the lowest; the suit's place in `suits`
    "rank_index": INT, "suit_index": INT,
    # where it lies: its zone (none before the first `gather`), and how many cards lie on it there
    "zone": ZONE, "depth": INT,
}
ZONE_ATTRS: dict[str, str] = {
    "top": CARD, "bottom": CARD, "size": INT, "owner": PLAYER, "side": SIDE, "cards": list_of(CARD),
    # cells of a grid: the rank the cell belongs to, free (empty or face down on top), where it is
    "rank": RANK, "free": BOOL, "grid": GRID, "row": INT, "column": INT,
    # melds on the table: their kind (none for a zone that is not a meld), made this turn
    "kind": STR, "fresh": BOOL,
}
# A plan: one way to put cards on the table (a new meld, a layoff, a joker swap).
PLAN_ATTRS: dict[str, str] = {
    "cards": list_of(CARD), "points": INT, "size": INT, "kind": STR, "target": ZONE, "new": BOOL,
    "layoff": BOOL, "swap": BOOL, "taken": CARD,
}
# A combination (`combos:`): its cards (the first of each value in the cards it was made from), its kind
# (a word of the `combos:` kinds), the least and greatest value of its groups, and how many groups.
COMBO_ATTRS: dict[str, str] = {
    "cards": list_of(CARD), "size": INT, "kind": STR, "low": INT, "high": INT, "length": INT,
}
GRID_ATTRS: dict[str, str] = {
    "cells": list_of(ZONE), "lines": list_of(list_of(ZONE)), "rows": list_of(list_of(ZONE)),
    "columns": list_of(list_of(ZONE)), "diagonals": list_of(list_of(ZONE)),
}
# What a player or a side has besides the zones and variables the rule file gives them.
PLAYER_ATTRS: dict[str, str] = {"side": SIDE, "seat": INT}
SIDE_ATTRS: dict[str, str] = {"players": list_of(PLAYER)}
LIST_ATTRS: dict[str, str] = {"size": INT}

# The attribute tables by the type they belong to; `kind` names the thing in messages.
ATTRIBUTES: dict[str, tuple[str, dict[str, str]]] = {
    CARD: ("card", CARD_ATTRS), ZONE: ("zone", ZONE_ATTRS), GRID: ("grid", GRID_ATTRS),
    PLAN: ("plan", PLAN_ATTRS), COMBO: ("combination", COMBO_ATTRS),
}

# The card attributes a card alone decides (not where it lies or who moved it): what `wild:` may read.
STATIC_CARD_ATTRS = {"rank", "suit", "color", "deck", "rank_index", "suit_index"}
STATIC_FUNCTIONS = {"value", "abs", "count", "sum", "any", "all", "max", "min", "product", "combinations",
                    "subsets"}

# Built-in names added after rule files were written: a file may still name its own things so (its own
# then wins where it is named), so that no file valid before they came stops being valid.
LATER_NAMES = {"player", "direction", "product", "combinations", "subsets", "best_hand", "pot_shares", "combos", "no_moves"}
NAMES_TAKEN = (set(FUNCTIONS) | set(STATE_NAMES)) - LATER_NAMES    # a rule file cannot name its own things so
