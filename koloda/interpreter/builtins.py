"""The language's built-ins as the engine runs them: functions, attributes, state names.

Keyed exactly like koloda/dsl/builtins.py, which holds their signatures (a
test keeps the key sets equal). Each entry builds a closure at load time
from the compiler (for the layout, the deck, the melds) and the closures of
its arguments.
"""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.errors import Span
from koloda.dsl.types import BOOL, ZONE
from koloda.interpreter.env import Context, Env, Fn
from koloda.interpreter.errors import RuleRuntimeError
from koloda.interpreter.cards import rank_indexes, suit_indexes
from koloda.interpreter.choices import combinations_of, subsets_of
from koloda.interpreter import builtin_runtime as rt, meld_calls
from koloda.interpreter.trick_order import extreme_by, extreme_card, rank_strength, trick_taker, trick_winner
from koloda.interpreter.melds import LAYOFF, NEW, SWAP

FunctionImpl = Callable[[Context, R.BuiltinCall, list[Fn], Env], Fn]
AttrImpl = Callable[[Context, R.Attribute, Fn, Env], Fn]
StateImpl = Callable[[Context], Fn]

FUNCTIONS: dict[str, FunctionImpl] = {}
STATE_VALUES: dict[str, StateImpl] = {}
CARD_ATTRS: dict[str, AttrImpl] = {}
ZONE_ATTRS: dict[str, AttrImpl] = {}
GRID_ATTRS: dict[str, AttrImpl] = {}
PLAN_ATTRS: dict[str, AttrImpl] = {}
PLAYER_ATTRS: dict[str, AttrImpl] = {}
SIDE_ATTRS: dict[str, AttrImpl] = {}
LIST_ATTRS: dict[str, AttrImpl] = {}


def register(table: dict, *names: str) -> Callable:
    """Put an implementation in a table under one or more names."""
    def add(impl: Callable) -> Callable:
        for name in names:
            table[name] = impl
        return impl
    return add


# ------------------------------------------------------------------ names from the state of play
STATE_VALUES.update({
    "me": lambda c: lambda s, b: s.current,
    "dealer": lambda c: lambda s, b: s.dealer,
    "players": lambda c: lambda s, b: list(range(s.n)),
    # in the order of play, starting after the player to move
    "others": lambda c: lambda s, b: [(s.current + k * s.direction) % s.n for k in range(1, s.n)],
    "direction": lambda c: lambda s, b: s.direction,
    "last_meld": lambda c: lambda s, b: s.last_meld,
    "player_count": lambda c: lambda s, b: s.n,
    "deal_number": lambda c: lambda s, b: s.deal_number,
})


@register(STATE_VALUES, "suits")
def _suits(c: Context) -> Fn:
    suits = list(c.cards.deck_suits)
    return lambda s, b: list(suits)


@register(STATE_VALUES, "deck_size")
def _deck_size(c: Context) -> Fn:
    size = c.cards.size
    return lambda s, b: size


@register(STATE_VALUES, "ranks")
def _ranks(c: Context) -> Fn:
    ranks = list(c.cards.deck_ranks)
    return lambda s, b: ranks


@register(STATE_VALUES, "sides")
def _sides(c: Context) -> Fn:
    count = c.layout.num_sides
    return lambda s, b: list(range(count))


@register(STATE_VALUES, "melds")
def _melds(c: Context) -> Fn:
    slot_zone = c.layout.slot_zone
    return lambda s, b: rt.table_melds(s.slot_kind, None, slot_zone, None, True)


@register(STATE_VALUES, "all_cards")
def _all_cards(c: Context) -> Fn:
    every = list(range(c.cards.size))
    return lambda s, b: list(every)


# ------------------------------------------------------------------ card attributes
@register(CARD_ATTRS, "rank", "suit", "color")
def _card_table(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    table = {"rank": c.cards.ranks, "suit": c.cards.suits, "color": c.cards.colors}[n.name]
    if isinstance(n.obj, R.Local) and n.obj.name not in env.subst:
        var = n.obj.name          # the commonest case, `c.rank` of a parameter, without a closure call

        def local_card_attr(s, b):
            card = b[var]
            return None if card is None else table[card]
        return local_card_attr

    def card_attr(s, b):
        card = obj(s, b)
        return None if card is None else table[card]
    return card_attr


@register(CARD_ATTRS, "deck")
def _card_deck(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    decks = c.card_deck

    def card_deck(s, b):
        card = obj(s, b)
        return None if card is None or decks is None else decks[card]
    return card_deck


@register(CARD_ATTRS, "rank_index", "suit_index")
def _card_index(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    table = rank_indexes(c.cards) if n.name == "rank_index" else suit_indexes(c.cards)

    def card_index(s, b):
        card = obj(s, b)
        return None if card is None else table[card]
    return card_index


@register(CARD_ATTRS, "face_up")
def _face_up(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    def card_face_up(s, b):
        card = obj(s, b)
        return None if card is None else s.face[card]
    return card_face_up


@register(CARD_ATTRS, "by")
def _by(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    def card_by(s, b):
        card = obj(s, b)
        return None if card is None else s.by[card]
    return card_by


# ------------------------------------------------------------------ zone attributes
@register(ZONE_ATTRS, "top")
def _top(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    def top(s, b):
        z = s.zones[obj(s, b)]
        return z[-1] if z else None
    return top


@register(ZONE_ATTRS, "bottom")
def _bottom(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    def bottom(s, b):
        z = s.zones[obj(s, b)]
        return z[0] if z else None
    return bottom


@register(ZONE_ATTRS, "size")
def _zone_size(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    return lambda s, b: len(s.zones[obj(s, b)])


@register(ZONE_ATTRS, "cards")
def _zone_cards(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    return lambda s, b: list(s.zones[obj(s, b)])


@register(ZONE_ATTRS, "free")
def _free(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    def free(s, b):
        z = s.zones[obj(s, b)]
        return not z or not s.face[z[-1]]
    return free


@register(ZONE_ATTRS, "kind", "fresh")
def _meld_attr(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    zone_slot, kinds = c.layout.zone_slot, c.meld_kinds
    if n.name == "kind":
        return lambda s, b: rt.meld_kind(s.slot_kind, zone_slot, kinds, obj(s, b))
    return lambda s, b: rt.meld_fresh(s.slot_kind, s.slot_turn, zone_slot, s.turn_no, obj(s, b))


@register(ZONE_ATTRS, "rank", "grid", "row", "column")
def _cell_attr(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    cells, name = c.layout.zone_cell, n.name

    def cell_attr(s, b):
        cell = cells[obj(s, b)]
        return None if cell is None else getattr(cell, name)
    return cell_attr


@register(ZONE_ATTRS, "owner", "side")
def _zone_owner(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    layout = c.layout
    # a side's zone has no single owner; a player's zone belongs to the player's side too
    owners = [None if z.by_side else z.owner for z in layout.zones]
    sides = [z.owner if z.by_side or z.owner is None else layout.side_of(z.owner) for z in layout.zones]
    want_owner = n.name == "owner"
    table = owners if want_owner else sides
    zone_slot, by_side, side_of = layout.zone_slot, layout.meld_by_side, layout.side_of

    return lambda s, b: rt.zone_owner(obj(s, b), s.slot_kind, s.slot_owner, zone_slot, table, by_side, side_of,
                                       want_owner)


# ------------------------------------------------------------------ grids, plans, players, sides, lists
@register(GRID_ATTRS, "cells", "lines", "rows", "columns", "diagonals")
def _grid_attr(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    grids, name = c.layout.grids, n.name

    def grid_attr(s, b):
        g = obj(s, b)
        return None if g is None else getattr(grids[g], name)
    return grid_attr


@register(PLAN_ATTRS, "cards", "points", "size", "kind", "target", "new", "layoff", "swap", "taken")
def _plan_attr(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    kinds, slot_zone = c.meld_kinds, c.layout.slot_zone
    get = {
        "cards": lambda p: list(p.cards), "points": lambda p: p.points, "size": lambda p: len(p.cards),
        "kind": lambda p: kinds[p.kind], "new": lambda p: p.type == NEW, "layoff": lambda p: p.type == LAYOFF,
        "swap": lambda p: p.type == SWAP,
        "target": lambda p: None if p.type == NEW else slot_zone[p.target],
        "taken": lambda p: p.taken,
    }[n.name]

    def plan_attr(s, b):
        p = obj(s, b)
        return None if p is None else get(p)
    return plan_attr


@register(PLAYER_ATTRS, "side")
def _player_side(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    nsides = c.layout.num_sides

    def side_of(s, b):
        p = obj(s, b)
        return None if p is None else p % nsides
    return side_of


@register(PLAYER_ATTRS, "seat")
def _player_seat(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    return lambda s, b: rt.seat_number(obj(s, b))


@register(SIDE_ATTRS, "players")
def _side_players(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    nsides = c.layout.num_sides
    return lambda s, b: [p for p in range(s.n) if p % nsides == obj(s, b)]


@register(LIST_ATTRS, "size")
def _list_size(c: Context, n: R.Attribute, obj: Fn, env: Env) -> Fn:
    return lambda s, b: len(obj(s, b))


# ------------------------------------------------------------------ functions
# Each wraps the function of plain values generated code calls (builtin_runtime.py and the modules that
# own the semantics), so that what a built-in means is written once.
@register(FUNCTIONS, "value")
def _value(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    card, span = args[0], n.span
    if len(n.args) == 1:
        values, name = c.cards.values, "value"
    else:
        table = n.args[1]
        assert isinstance(table, R.Const), "the checker lets only a table written out through"
        values, name = c.cards.tables[str(table.value)], str(table.value)
    return lambda s, b: rt.value_of(values, card(s, b), name, span)


@register(FUNCTIONS, "abs")
def _abs(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    (a,), span = args, n.span
    return lambda s, b: rt.absolute(a(s, b), span)


@register(FUNCTIONS, "next", "prev")
def _step(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    """One seat round the table, in the direction of play (or against it)."""
    (a,), span, sign = args, n.span, 1 if n.name == "next" else -1
    return lambda s, b: rt.step(a(s, b), sign, s.direction, s.n, span)


@register(FUNCTIONS, "player")
def _player_at(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    (seat,), span = args, n.span
    return lambda s, b: rt.seat_player(seat(s, b), s.n, span)


@register(FUNCTIONS, "top")
def _top_cards(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    (zone, count), span = args, n.span

    def top(s, b):
        k = count(s, b)          # the count first, as the rules have always worked it out
        return rt.top_cards(s.zones[zone(s, b)], k, span)
    return top


@register(FUNCTIONS, "winner", "winning_card")
def _winner(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    """`winner`: the player whose card takes the trick (highest trump, else highest of the suit led);
    `winning_card`: that card."""
    name, span = n.name, n.span
    trump_test = n.args[1].type == BOOL         # trumps that are not a suit: the rule file's test of a card
    if len(args) > 2 or trump_test:
        return trick_taker(args[0], args[1], args[2] if len(args) > 2 else rank_strength(c.cards),
                           args[3] if len(args) > 3 else None, c.cards.suits, span, name,
                           by_card=name == "winning_card", trump_test=trump_test)
    zone, trump = args
    suits, ranks, order = c.cards.suits, c.cards.ranks, c.cards.order
    card_itself = name == "winning_card"

    def winner(s, b):
        trick = s.zones[zone(s, b)]
        if not trick:            # before the trump is worked out, as it has always been
            raise RuleRuntimeError(f"`{name}` of an empty trick", span)
        return trick_winner(trick, trump(s, b), suits, ranks, order, None if card_itself else s.by, name, span)
    return winner


@register(FUNCTIONS, "highest", "lowest")
def _highest(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    """The card of the strongest (weakest) rank; of equal ranks, the first listed (a zone: the bottom one)."""
    cards, highest = c.sequence(n.args[0], env), n.name == "highest"
    if len(args) > 1:
        return extreme_by(cards, args[1], highest, n.span, n.name)
    strength = rank_strength(c.cards)
    return lambda s, b: extreme_card(cards(s, b), strength, highest)


@register(FUNCTIONS, "combinations", "subsets")
def _choices(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    """Every choice of k items (`subsets`: of any number, fewest first), each in the list's order."""
    items, span = c.sequence(n.args[0], env), n.span
    if n.name == "subsets":
        return lambda s, b: subsets_of(s, list(items(s, b)), span)
    how_many = args[1]
    return lambda s, b: combinations_of(s, list(items(s, b)), how_many(s, b), span)


@register(FUNCTIONS, "count", "sum", "any", "all", "max", "min", "product")
def _reduction(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    if n.name in ("max", "min") and len(args) >= 2:
        fold = max if n.name == "max" else min
        return lambda s, b: fold(a(s, b) for a in args)
    return reduce(n.name, c.sequence(n.args[0], env), n.span)


def reduce(name: str, items: Fn, span: Span) -> Fn:
    """A reduction over a list (or a comprehension's items)."""
    if name == "count":
        return lambda s, b: len(items(s, b))
    if name in ("sum", "product"):
        return lambda s, b: rt.total(items(s, b), name, span)
    if name == "any":
        return lambda s, b: any(items(s, b))
    if name == "all":
        return lambda s, b: all(items(s, b))
    return lambda s, b: rt.extreme(items(s, b), name, span)


@register(FUNCTIONS, "hand_pattern")
def _hand_pattern(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    patterns = c.patterns
    assert patterns is not None, "the checker lets pattern functions through only where patterns are declared"
    cards = c.sequence(n.args[0], env)
    return lambda s, b: meld_calls.hand_pattern(patterns, cards(s, b))


@register(FUNCTIONS, "hand_compare")
def _hand_compare(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    patterns = c.patterns
    assert patterns is not None, "the checker lets pattern functions through only where patterns are declared"
    left, right = c.sequence(n.args[0], env), c.sequence(n.args[1], env)
    return lambda s, b: meld_calls.hand_compare(patterns, left(s, b), right(s, b))


# the meld functions, in meld_calls.py
register(FUNCTIONS, "melds_in", "layoffs", "swaps", "best_points", "best_points_after")(meld_calls.meld_function)
