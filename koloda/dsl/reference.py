"""One line of reference text for each built-in, as an editor shows it on hover.

Keyed like the tables of koloda/dsl/builtins.py (a test keeps the key sets equal, so a new built-in
comes with its line here); docs/language.md §4.3 and §5 say the same at length.
"""
from __future__ import annotations

FUNCTIONS: dict[str, str] = {
    "value": "the card's value from `values:`; `value(c, \"order\")`: from the named table `order`",
    "next": "the player after `p` in the direction of play",
    "prev": "the player before `p` in the direction of play",
    "player": "the player in seat `n` (`player(1)` is P1)",
    "abs": "the number without its sign",
    "top": "a list of the top `n` cards of zone `z`, top card first (fewer if the zone is smaller)",
    "winner": "the player whose card takes the trick: the highest trump, else the highest card of the suit led",
    "winning_card": "the card that takes the trick, by the same rule as `winner`",
    "highest": "the card of the highest rank in the game's rank order; `none` for no cards",
    "lowest": "the card of the lowest rank in the game's rank order; `none` for no cards",
    "count": "how many items in a list or zone; `count(x for x in xs if ...)` counts those that hold",
    "sum": "the sum of a list of numbers, or `sum(... for x in xs)`",
    "any": "true if any item of a list of true/false holds, or `any(... for x in xs)`",
    "all": "true if every item of a list of true/false holds, or `all(... for x in xs)`",
    "max": "the largest of a list of numbers, or of two or more numbers: `max(a, b)`",
    "min": "the smallest of a list of numbers, or of two or more numbers: `min(a, b)`",
    "product": "the product of a list of numbers, or `product(... for x in xs)`; 1 for no numbers",
    "combinations": "every list of `k` items of a list, in the list's order (at most 65,536 lists)",
    "subsets": "every sub-list of a list (at most 16 items), the empty one included",
    "melds_in": "the melds (plans) that can be made from the cards, by `melds:`",
    "layoffs": "the layoffs (plans) of the cards onto melds on the table",
    "swaps": "the joker swaps (plans) the cards allow on melds on the table",
    "best_points": "the most points that can go down from the cards, `keep` left in hand, counted up to `enough`",
    "best_points_after": "as `best_points`, after plan `m` (layoffs too)",
    "hand_pattern": "the name of the hand pattern the cards make, by `patterns:`",
    "hand_compare": "1 if cards `a` beat cards `b`, -1 if they lose, 0 for an exact tie",
    "best_hand": "the strongest `k` of the cards by `patterns:` (the best five of seven)",
    "pot_shares": "what each player takes from a pot and its side pots, from what each put in and their hands",
    "combos": "the combinations of `combos:` the cards make (of one kind: `combos(cards, \"chain\")`)",
    "no_moves": "true when the player to move has no legal move (asked in `deal ends:` only)",
}

STATE_NAMES: dict[str, str] = {
    "me": "the player whose turn it is",
    "dealer": "the player who deals this deal",
    "players": "every player, P1 first",
    "others": "every player but the one whose turn it is",
    "player_count": "how many play",
    "deal_number": "the number of this deal in the match, from 1",
    "deck_size": "how many cards the deck holds",
    "suits": "the suits, clubs diamonds hearts spades",
    "ranks": "the ranks of the deck in the game's rank order, lowest first",
    "sides": "every side, the first side (P1's) first",
    "melds": "the melds on the table, each a zone",
    "all_cards": "every card of the deck",
    "last_meld": "the meld made last",
    "direction": "1 while play passes to the left (P1, P2, ...), -1 to the right",
}

CARD_ATTRS: dict[str, str] = {
    "rank": "its rank", "suit": "its suit (`none` for a joker)", "color": "its colour (`none` for a joker)",
    "by": "the player who last moved it by an action", "face_up": "true if it lies face up",
    "deck": "with `deck: {each: player}`, the player whose deck it is",
    "rank_index": "its rank's place in the game's rank order, counting from 0",
    "suit_index": "its suit's place in `suits`, counting from 0",
    "zone": "the zone it lies in (`none` before the deck is gathered)",
    "depth": "how many cards lie on it in its zone: 0 for the top card",
}
ZONE_ATTRS: dict[str, str] = {
    "top": "the top card, or `none` if the zone is empty", "bottom": "the bottom card, or `none` if empty",
    "size": "how many cards it holds", "owner": "its player, for an `each: player` zone or a meld",
    "side": "the side that owns it", "cards": "its cards as a list, bottom first",
    "rank": "a grid cell's rank", "free": "a grid cell is empty or face down on top",
    "grid": "the grid a cell belongs to", "row": "a cell's row, from 0", "column": "a cell's column, from 0",
    "kind": "a meld's kind (`none` for a zone that is not a meld)", "fresh": "a meld made this turn",
}
PLAN_ATTRS: dict[str, str] = {
    "cards": "the cards it puts down", "points": "the points they count", "size": "how many cards",
    "kind": "the meld kind", "target": "the meld it lays off onto", "new": "true for a new meld",
    "layoff": "true for a layoff", "swap": "true for a joker swap", "taken": "the card a swap takes",
}
COMBO_ATTRS: dict[str, str] = {
    "cards": "the cards it puts down", "size": "how many cards", "kind": "its kind in `combos:`",
    "low": "the least value of its groups", "high": "the greatest value of its groups",
    "length": "how many groups (1 for a pair, 5 for a chain of five)",
}
GRID_ATTRS: dict[str, str] = {
    "cells": "every cell, each a zone", "lines": "its rows, columns and diagonals",
    "rows": "its rows of cells", "columns": "its columns of cells", "diagonals": "its diagonals of cells",
}
PLAYER_ATTRS: dict[str, str] = {"side": "the player's side", "seat": "the player's seat number, P1 in seat 1"}
SIDE_ATTRS: dict[str, str] = {"players": "the side's players, in seat order"}
LIST_ATTRS: dict[str, str] = {"size": "how many items"}
