"""Small functions generated code calls: what does not fit in one Python expression.

A failure here need not carry the rule's message: wherever fast generated
code fails, the engine works the same thing out again by its checked code,
which raises the located error (see generate.py, gen_checks.py).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from koloda.dsl.errors import NOWHERE
from koloda.interpreter.runtime import builtin_runtime, effect_runtime
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.exact import quotient
from koloda.interpreter.runtime.knowledge import audience, is_true, told
from koloda.interpreter.base.work import MAX_VALUE, checked_number, too_much


def _set(cell: list, value: Any) -> Any:
    """Fill a cell of a hoisted value (the first use works it out, later ones read it)."""
    cell.append(value)
    return value


def _memo(cell: list, listing: int, value: Any) -> Any:
    """Keep a value for the rest of one listing of legal moves."""
    cell[0], cell[1] = listing, value
    return value


def _get(table: Any, card: Any) -> Any:
    return None if card is None else table[card]


def _top(zone: list) -> Any:
    return zone[-1] if zone else None


def _bottom(zone: list) -> Any:
    return zone[0] if zone else None


def _free(zone: list, face: list) -> bool:
    return not zone or not face[zone[-1]]


def _in_zone(loc: list, card: Any, zone: int) -> bool:
    return card is not None and loc[card] == zone


def _zone_of(loc: list, card: Any) -> Any:
    """`c.zone`: none for no card, or a card in no zone yet."""
    return None if card is None or loc[card] < 0 else loc[card]


def _depth_of(loc: list, card: Any, zones: list) -> Any:
    """`c.depth`: the cards lying on it, counted from its zone's top (0: the top card)."""
    if card is None or loc[card] < 0:
        return None
    cards = zones[loc[card]]
    return len(cards) - 1 - cards.index(card)


def _no_moves(s: Any) -> bool:
    """`no_moves()`: the flow answers (it lists the next decision's moves once an action is over)."""
    return s.flow.no_moves(s)


def _side(player: Any, sides: int) -> Any:
    return None if player is None else player % sides


def _others(s: Any) -> list[int]:
    return [(s.current + k * s.direction) % s.n for k in range(1, s.n)]


def _plan(get: Any, plan: Any) -> Any:
    return None if plan is None else get(plan)


def _plan_cards(plan: Any) -> Any:
    return None if plan is None else plan.cards


def _reach(reach: Any, keep: Any, cards: Any, need: Any) -> bool:
    """`best_points(cards, keep, need) >= need`, asked of the opening search (none: checked code says what failed)."""
    if keep is None or need is None:
        raise ValueError("none")
    held = set(cards)
    held.discard(None)
    return reach.reaches(sorted(held), keep, need)


def _reach_after(reach: Any, s: Any, keep: Any, plan: Any, cards: Any, need: Any) -> bool:
    """`best_points_after(plan, cards, keep, need) >= need`, as meld_calls.reach_test asks it."""
    if keep is None or need is None or plan is None:
        raise ValueError("none")
    held = set(cards)
    held.discard(None)
    return reach.reaches_after(s, plan, held, keep, need)


def _fail() -> None:
    """A value the rules cannot take (a parameter outside its ids): checked code tells what it is."""
    raise ValueError("checked code says what failed")


# ------------------------------------------------------------ the run's budget (work.py)
# These name no place (the same text stands for the same list wherever it is written, see
# Generator.answer_any): past the budget they fail, and checked code, working the same thing out again,
# raise the located error (an effect's own failure says its place).
def _counted(s: Any, items: Any) -> Any:
    """The items of a list a comprehension, a `for:` or a listing goes through, their number spent."""
    if type(items) is list:
        s.work -= len(items)
        if s.work < 0:
            raise ValueError(too_much(f"going through a list of {len(items):,} items", NOWHERE).message)
    return items


def _counted_at(s: Any, items: Any, span: Any) -> Any:
    """The items of a list gone through, its length spent, an overrun told at `span` (a `for:` effect,
    checked code). An iterator of melds, made a group at a time, is not counted here: meld listing has
    bounds of its own."""
    if type(items) is list:
        s.work -= len(items)
        if s.work < 0:
            raise too_much(f"going through a list of {len(items):,} items", span)
    return items


def _range(s: Any, low: int, high: int) -> range:
    """`low..high`, its numbers spent before it is made."""
    count = high - low + 1
    if count > 0:
        s.work -= count
        if s.work < 0:
            raise ValueError(too_much(f"a range of {count:,} numbers", NOWHERE).message)
    return range(low, high + 1)


def _times(x: Any, y: Any) -> Any:
    """`x * y`, bounded as numbers in play are (a fraction by its numerator and denominator too)."""
    made = x * y
    if -MAX_VALUE <= made <= MAX_VALUE and (type(made) is int or made.denominator <= MAX_VALUE):
        return made
    raise ValueError(f"`*` gives a number of {len(str(abs(made)))} digits")


def _sum(values: Any) -> Any:
    """`sum(...)`, bounded as numbers in play are."""
    made = sum(values)
    if -MAX_VALUE <= made <= MAX_VALUE:
        return made
    raise ValueError(f"`sum` gives a number of {len(str(abs(made)))} digits")


def _number(value: Any, what: str, span: Any) -> Any:
    """A value set into a variable, bounded as numbers in play are."""
    if type(value) is int:
        if not -MAX_VALUE <= value <= MAX_VALUE:
            checked_number(value, what, span)
    elif type(value) is Fraction:
        checked_number(value, what, span)
    return value


# ------------------------------------------------------------ effects: what does not fit in a statement or two
# Each does what the effect does, with its messages, in its order.
def _check_events(s: Any) -> None:
    s.flow.check_events(s)


def _turn_over(s: Any, cards: list, face_up: bool) -> None:
    for c in cards:
        s.turn_over(c, face_up)


def _text(s: Any, value: Any, t: str) -> str:
    """A value of a `say` as the table writes it."""
    return s.game.value_text(value, t)


def _say(s: Any, mask: int, text: str) -> None:
    s.said += ((s.moves, mask, text),)


def _shown(x: Any) -> list:
    """The cards a `reveal` of a card or a list of cards shows (none: nothing)."""
    return list(x) if isinstance(x, list) else [] if x is None else [x]


def _reveal(s: Any, cards: list, mask: int) -> None:
    for c in cards:
        s.known[c] |= mask
        s.shown[c] = s.shown.get(c, 0) | mask


def _tell(s: Any, zone: Any, kind: int, value: Any, holds: bool, span: Any) -> None:
    """A fact `tell` would tell, refused unless it is true."""
    if value is None:
        raise RuleRuntimeError("a fact needs a rank or a suit, and this is none", span)
    if not is_true(s.game.cards, s.zones[zone], kind, value, holds):
        raise RuleRuntimeError("this fact is not true: a fact told must be true when it is told "
                               "(to say something that may be false, use `say`)", span)


def _told(s: Any, zone: Any, kind: int, value: Any, holds: bool, mask: int) -> None:
    if mask:
        s.facts = told(s.facts, (zone, kind, value, holds, mask))


RUNTIME: dict[str, Any] = {f.__name__: f for f in (
    _set, _memo, _get, _top, _bottom, _free, _in_zone, _zone_of, _depth_of, _no_moves, _side, _others,
    _plan, _plan_cards, _reach, _reach_after, _fail, _counted, _range, _times, _sum, _number,
    _check_events, _turn_over, _text, _say, _shown, _reveal, _tell, _told)}
RUNTIME["_quotient"] = quotient       # `/`, exact (base/exact.py)
# the built-ins' own functions
RUNTIME.update({"_melds": builtin_runtime.table_melds, "_meld_kind": builtin_runtime.meld_kind,
                "_meld_fresh": builtin_runtime.meld_fresh})
# effects' own functions
RUNTIME.update({"_counted_at": _counted_at, "_repeat": effect_runtime.repeat_rounds, "_score": effect_runtime.add_score})
RUNTIME["_audience"] = audience       # generated names of the runtime all start with `_`
RUNTIME["_too_much"] = too_much
