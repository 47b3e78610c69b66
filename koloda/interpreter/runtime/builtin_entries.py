"""What the interpreter knows of each built-in function, one entry per built-in.

The signature and the line an editor shows on hover are the dsl's (koloda/dsl/builtins.py,
koloda/dsl/reference.py); this is the interpreter's side, read by what needs the facts rather than
each keeping its own list of names:

- `runtime`: the function of plain values that works the built-in out. Generated code calls it
  (gen_calls.py; checked code in place of the template too), so what a built-in means is written once.
  It takes the state first (`s`) only when it reads or spends from it (`reads`).
- `template`: the text generated code writes in place of the call, where it is cheaper inline
  (`{0}`, `{1}`: the arguments' text; `{table}`: the table of values read; `s.direction`, `s.n`: the
  state's). A built-in has a runtime, a template or both (the template then gives the same value).
- `pure`: the value reads only the arguments, so a condition that calls it is asked again only when
  what its arguments read changes (watch.py). `winner` reads who played the trick's cards, which
  moved there; `next` and `prev` read the direction of play, and `reverse direction` marks every
  condition.
- `cheap`: cheaper to work out again than to keep in a cell of generated code (gen_frag.costly).
- `static`: reads the card alone, not where it lies or who moved it: what `wild:` may call (the dsl's
  STATIC_FUNCTIONS, which the checker reads, must agree).
- `reads`: what the value reads besides its arguments and the game's tables (READS).

The state's names and the attributes have entries too (NAMES, ATTRIBUTES), with the facts the watch
and the checker read:

- `watched`: the watch knows when the value changes (watch.py): a name that does not change during a
  match; a card's attribute the card alone decides; a zone's cards, or its fixed place.
- `static`: a card's attribute the card alone decides, not where it lies or who moved it: what `wild:`
  may read (the dsl's STATIC_CARD_ATTRS, which the checker reads, must agree).

tests/test_builtin_entries.py checks every fact of every entry.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from koloda.interpreter.runtime import builtin_runtime as rt

from koloda.interpreter.melds import meld_calls
from koloda.interpreter.runtime.pots import pot_shares
from koloda.interpreter.runtime.choices import combinations_of, subsets_of
from koloda.interpreter.runtime.trick_order import extreme_card, trick_winner

# What a built-in may read besides its arguments: the state's parts, as the watch (watch.py) knows them.
DIRECTION = "the direction of play"
SEATS = "the number of players"          # fixed for a match
PLAYED_BY = "who played each card"
TABLE = "the melds on the table"
MOVER = "the player to move"
BUDGET = "the run's budget of work"      # spends from it (work.py)
LISTING = "the legal moves of the player to move"     # lists them (flow.py: Flow.no_moves)
READS = frozenset({DIRECTION, SEATS, PLAYED_BY, TABLE, MOVER, BUDGET, LISTING})
# what a pure built-in may read: what does not change during a match, or marks every condition when it does
PURE_READS = frozenset({DIRECTION, SEATS, PLAYED_BY})


@dataclass(frozen=True)
class Entry:
    runtime: Callable[..., Any] | None = None
    template: str | None = None
    pure: bool = False
    cheap: bool = False
    static: bool = False
    reads: frozenset[str] = field(default_factory=frozenset)


ENTRIES: dict[str, Entry] = {
    "abs": Entry(rt.absolute, "abs({0})", pure=True, cheap=True, static=True),
    "value": Entry(rt.value_of, "{table}[{0}]", pure=True, cheap=True, static=True),
    "next": Entry(rt.step, "(({0} + s.direction) % s.n)", pure=True, cheap=True,
                  reads=frozenset({DIRECTION, SEATS})),
    "prev": Entry(rt.step, "(({0} - s.direction) % s.n)", pure=True, cheap=True,
                  reads=frozenset({DIRECTION, SEATS})),
    "top": Entry(rt.top_cards, pure=True, cheap=True),
    "player": Entry(rt.seat_player, pure=True, reads=frozenset({SEATS})),
    "winner": Entry(trick_winner, pure=True, reads=frozenset({PLAYED_BY})),
    "count": Entry(None, "len({0})", pure=True, static=True),
    "sum": Entry(rt.total, "_sum({0})", pure=True, static=True),
    "any": Entry(None, "any({0})", pure=True, static=True),
    "all": Entry(None, "all({0})", pure=True, static=True),
    "max": Entry(rt.extreme, "max({0})", pure=True, static=True),
    "min": Entry(rt.extreme, "min({0})", pure=True, static=True),
    "hand_pattern": Entry(meld_calls.hand_pattern, pure=True),
    "hand_compare": Entry(meld_calls.hand_compare, pure=True),
    "best_hand": Entry(meld_calls.best_hand, pure=True),
    "pot_shares": Entry(pot_shares, pure=True),
    "combos": Entry(meld_calls.combos, pure=True),
    "product": Entry(rt.total, static=True),
    "combinations": Entry(combinations_of, static=True, reads=frozenset({BUDGET})),
    "subsets": Entry(subsets_of, static=True, reads=frozenset({BUDGET})),
    "highest": Entry(extreme_card),
    "lowest": Entry(extreme_card),
    "winning_card": Entry(trick_winner),
    "best_points": Entry(meld_calls.best_points),
    "best_points_after": Entry(meld_calls.best_points_after, reads=frozenset({TABLE})),
    "layoffs": Entry(meld_calls.layoffs, reads=frozenset({TABLE})),
    "melds_in": Entry(meld_calls.melds_in, reads=frozenset({MOVER})),
    "swaps": Entry(meld_calls.swaps, reads=frozenset({TABLE})),
    # the flow lists the moves of the decision that comes next (only once the action is over: flow.py)
    "no_moves": Entry(None, "_no_moves(s)", reads=frozenset({MOVER, LISTING})),
}

PURE = frozenset(name for name, entry in ENTRIES.items() if entry.pure)
CHEAP = frozenset(name for name, entry in ENTRIES.items() if entry.cheap)
STATIC = frozenset(name for name, entry in ENTRIES.items() if entry.static)


@dataclass(frozen=True)
class NameEntry:
    watched: bool = False
    static: bool = False


_WATCHED, _STATIC = NameEntry(watched=True), NameEntry(watched=True, static=True)

NAMES: dict[str, NameEntry] = {
    "me": NameEntry(), "dealer": NameEntry(), "players": _WATCHED, "others": NameEntry(),
    "player_count": _WATCHED, "deal_number": NameEntry(), "deck_size": _WATCHED, "suits": _WATCHED,
    "ranks": _WATCHED, "sides": _WATCHED, "melds": NameEntry(), "all_cards": _WATCHED, "last_meld": NameEntry(),
    "direction": NameEntry(),
}

# by the kind of what has them, as the dsl's tables (koloda/dsl/builtins.py) name them
ATTRIBUTES: dict[str, dict[str, NameEntry]] = {
    "card": {"rank": _STATIC, "suit": _STATIC, "color": _STATIC, "deck": _STATIC, "by": NameEntry(),
             "face_up": NameEntry(), "rank_index": NameEntry(static=True), "suit_index": NameEntry(static=True),
             "zone": NameEntry(), "depth": NameEntry()},
    "zone": {"top": _WATCHED, "bottom": _WATCHED, "size": _WATCHED, "cards": _WATCHED, "free": _WATCHED,
             "rank": _WATCHED, "grid": _WATCHED, "row": _WATCHED, "column": _WATCHED, "owner": NameEntry(),
             "side": NameEntry(), "kind": NameEntry(), "fresh": NameEntry()},
    "grid": {name: NameEntry() for name in ("cells", "lines", "rows", "columns", "diagonals")},
    "plan": {name: NameEntry() for name in ("cards", "points", "size", "kind", "target", "new", "layoff", "swap",
                                            "taken")},
    "combo": {name: NameEntry() for name in ("cards", "size", "kind", "low", "high", "length")},
    "player": {"side": NameEntry(), "seat": NameEntry()},
    "side": {"players": NameEntry()},
    "list": {"size": NameEntry()},
}


def watched_names(table: dict[str, NameEntry]) -> frozenset[str]:
    return frozenset(name for name, entry in table.items() if entry.watched)
