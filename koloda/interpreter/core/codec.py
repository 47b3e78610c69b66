"""Action ids: every action of a game as a block of integers, declared before play.

An action's id is its block's offset plus its parameters written as digits,
each in the radix of its type (a card: the deck's size; a player: the number
of players; a meld plan: the plan's own code). The same rule file, options
and number of players always give the same ids.

A number is its own digit, 0 to the deck's size, as it always was, so a game's
ids stay as they were. A number drawn from a range fixed before play
(`k in 100..300 by 5`, its ends and step from constants, options and the
player count) that does not fit there is written as its place in the range
instead: 100 is 0, 105 is 1, and so on, up to `MOST_NUMBERS` values. A number drawn from a
list of fixed numbers (`b in [18, 20, 22, 23]`) that does not fit there is written as its place
in the range that covers the list (18..23 by 1: 18 is 0, 20 is 2), so it shares that code; the
places between listed numbers are ids no move takes.

A word parameter (`g in ["grand", "null"]`, checked by dsl/paramwords.py) is its word's place in
its list: `grand` is 0, `null` is 1.

A combination parameter (`m in combos(my hand)`) is the combination's code among all those the deck and
`combos:` allow (melds/combos.py); one of a single kind (`combos(my hand, "chain")`) is its place among
that kind's, written as a number from a range is: its kind's first code is 0.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.errors import RuleError, RuleErrors, Span
from koloda.dsl.fixed import MOST_NUMBERS, count_of, fixed_span, too_many_numbers
from koloda.dsl.limits import MAX_WORK
from koloda.dsl.types import BOOL, CARD, COLOR, COMBO, INT, PLAN, PLAYER, RANK, SIDE, SUIT, ZONE, enum_words, is_enum
from koloda.interpreter.base.cards import CardTable
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.melds.combos import ComboTable
from koloda.interpreter.melds.melds import MeldRules


@dataclass(frozen=True)
class ParamCode:
    var: str
    type: str
    radix: int
    low: int = 0           # a number from a fixed range: its digit is (value - low) // step
    step: int = 1
    words: tuple[str, ...] = ()     # a word parameter (`g in ["grand", "null"]`): its digit is its word's place

    @property
    def plain(self) -> bool:
        """Is a value its own digit?"""
        return not self.words and self.low == 0 and self.step == 1

    @property
    def word_digits(self) -> dict[str, int] | None:
        """A word parameter's digit of each word; None for any other parameter."""
        return {w: i for i, w in enumerate(self.words)} if self.words else None

    def digit_of(self, value: Any) -> int | None:
        """The digit of a value, or None if the parameter cannot take it."""
        if self.words:
            return self.words.index(value) if value in self.words else None
        offset = int(value) - self.low
        digit, off_step = divmod(offset, self.step)
        return digit if off_step == 0 and 0 <= digit < self.radix else None

    def value_of(self, digit: int) -> Any:
        if self.words:
            return self.words[digit]
        if self.type == BOOL:
            return bool(digit)
        return self.low + digit * self.step

    def values_text(self) -> str:
        """The values it may take, as a range is written (a word parameter: its words)."""
        if self.words:
            return ", ".join(self.words)
        high = self.low + (self.radix - 1) * self.step
        return f"{self.low}..{high}" + (f" by {self.step}" if self.step != 1 else "")


@dataclass(frozen=True)
class ActionCode:
    """One action as declared: its name, phase, place among the ids, parameters and text."""
    index: int
    name: str
    phase: int
    offset: int
    params: tuple[ParamCode, ...]
    text: str | None
    span: Span

    @property
    def size(self) -> int:
        size = 1
        for p in self.params:
            size *= p.radix
        return size


class ActionCodec:
    def __init__(self, rules: R.Rules, layout: Layout, cards: CardTable, melds: MeldRules | None,
                 options: dict | None = None, combos: ComboTable | None = None):
        self.melds = melds
        self.combos = combos
        radix = {CARD: cards.size, SUIT: cards.suit_radix, RANK: cards.rank_radix, PLAYER: layout.num_players,
                 INT: cards.size + 1, BOOL: 2, COLOR: 2, ZONE: len(layout.zones), SIDE: layout.num_sides,
                 PLAN: melds.radix if melds is not None else 1}
        self.actions: list[ActionCode] = []
        offset = 0
        for phase_index, phase in enumerate(rules.phases):
            for a in phase.actions.values():
                params = tuple(_number(p, cards.size, options or {}, layout.num_players) or _word(p)
                               or _combo(p, combos) or ParamCode(p.var, p.type, radix.get(p.type, 1))
                               for p in a.params)
                _few_enough(a, cards.size, options or {}, layout.num_players)
                code = ActionCode(len(self.actions), a.name, phase_index, offset, params,
                                  None if a.text is None else str(a.text), a.span)
                self.actions.append(code)
                offset += code.size
        self.num_distinct_actions = offset
        self._offsets = [a.offset for a in self.actions]

    def decode(self, action_id: int, state: Any = None) -> tuple[ActionCode, dict]:
        """The action an id stands for, and its parameters' values (a plan needs the state for a swap)."""
        action = self.actions[bisect_right(self._offsets, action_id) - 1]
        code = action_id - action.offset
        b: dict[str, Any] = {}
        for p in reversed(action.params):
            code, digit = divmod(code, p.radix)
            if p.type == PLAN:
                assert self.melds is not None, "a plan parameter exists only where melds are declared"
                b[p.var] = self.melds.decode(digit, state)
            elif p.type == COMBO:
                assert self.combos is not None, "a combination parameter exists only where `combos:` are declared"
                b[p.var] = self.combos.decode(p.value_of(digit))
            else:
                b[p.var] = p.value_of(digit)
        return action, b


def _combo(p: R.Param, combos: ComboTable | None) -> ParamCode | None:
    """The code of a combination parameter: the codes of every combination, or of its one kind's."""
    if p.type != COMBO or combos is None:
        return None
    call = p.domain
    kind = call.args[1] if isinstance(call, R.BuiltinCall) and len(call.args) == 2 else None
    low, count = combos.kind_span(str(kind.value) if isinstance(kind, R.Const) else None)
    return ParamCode(p.var, p.type, max(count, 1), low)


def _word(p: R.Param) -> ParamCode | None:
    """The code of a word parameter: one digit for each of its words, in the order its list gives them."""
    if not is_enum(p.type):
        return None
    words = enum_words(p.type)
    return ParamCode(p.var, p.type, len(words), words=words)


def _few_enough(a: R.Action, deck_size: int, options: dict, players: int) -> None:
    """Refuse an action whose parameters from ranges fixed before play make more moves than one listing may
    go through (work.py): the product of their sizes is known at load."""
    moves = 1
    for p in a.params:
        fixed = fixed_span(p.domain, options, {"player_count": players, "deck_size": deck_size}) \
            if p.type == INT else None
        if fixed is not None:
            moves *= count_of(fixed)
    if moves > MAX_WORK:
        raise RuleErrors([RuleError(f"the parameters of `{a.name}` make {moves:,} moves, more than one listing "
                                    f"of moves may go through ({MAX_WORK:,})", a.span,
                                    "give fewer parameters, or fewer values to each", category="limit")])


def _number(p: R.Param, deck_size: int, options: dict, players: int) -> ParamCode | None:
    """The code of a number parameter from a range or list fixed before play that does not fit
    0..deck size; None for any other parameter (written as before)."""
    fixed = fixed_span(p.domain, options, {"player_count": players, "deck_size": deck_size}) \
        if p.type == INT else None
    if fixed is None:
        return None
    low, high, step = fixed
    listed = isinstance(p.domain, R.ListLit)
    if (step == 1 or listed) and 0 <= low and high <= deck_size:   # a list's numbers are their own digits
        return None
    count = count_of(fixed)
    if count > MOST_NUMBERS:
        message, hint = too_many_numbers(p.var, count, listed)
        raise RuleErrors([RuleError(message, p.domain.span, hint)])
    return ParamCode(p.var, p.type, count, low, step)
