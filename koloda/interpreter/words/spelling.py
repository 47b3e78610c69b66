"""The compact spelling of moves: every move as a short sequence of tokens from a small vocabulary.

A native action id (codec.py) is a plan code where melds are declared, up to ~10^47: too big for
the tools that number actions with a C int. Here the same moves are spelled with a vocabulary
built from the rule file and the table's layout alone, so the same rule file, options and number of
players always give the same tokens:

* an action whose native ids are few (no meld plan among its parameters and at most
  `ONE_TOKEN_MOST` ids) is one token per move, its block in file order;
* any other action is a token of its own, then one token for each parameter: a card, a number,
  a suit, a player... by its value; a meld plan as a *head* (new meld of a kind for an owner, or
  onto a meld slot, at which end) then its cards one at a time (a wild card with what it stands
  for) and an end token.

Where every action is one token (no melds), a token is the native id itself. The spelling of a
move is worked out from its native id alone and read back to it (`native`), so it is prefix-free:
no move's spelling begins another's.
"""
from __future__ import annotations

from collections import Counter, OrderedDict
from typing import Any, Callable

from koloda.dsl.types import BOOL, CARD, PLAN
from koloda.interpreter.melds.bounded import recall, remember
from koloda.interpreter.base.cards import CardTable, rank_name
from koloda.interpreter.core.codec import ActionCodec, ParamCode
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.melds.meldlist import IDENTITIES, identity_parts
from koloda.interpreter.melds.melds import LAYOFF, NEW, SWAP, MeldRules, Plan

__all__ = ["Spelling", "ONE_TOKEN_MOST"]

# An action with at most this many native ids is spelled as one token: a card and a cell (Leopard's
# 104 x 22) stays one choice, as at the table.
ONE_TOKEN_MOST = 1 << 16
PLAN_TYPES = 3          # NEW, LAYOFF, SWAP
_SUITS = "♣♦♥♠"


class Spelling:
    """The vocabulary of one loaded game, and moves spelled with it."""

    def __init__(self, codec: ActionCodec, layout: Layout, cards: CardTable, melds: MeldRules | None,
                 meld_kinds: list[str], render: Callable[[Any, str], str], move_text: Callable[[int], str]):
        self.codec, self.layout, self.cards, self.melds = codec, layout, cards, melds
        self.render = render            # (value, type) -> text, and a native move's text: the view's
        self.move_text = move_text
        self.meld_kinds = meld_kinds
        self.whole: dict[int, int] = {}       # action index -> first token of its one-token block
        self.head: dict[int, int] = {}        # action index -> its token, for an action spelled part by part
        base = 0
        for a in codec.actions:
            if a.size <= ONE_TOKEN_MOST and all(p.type != PLAN for p in a.params):
                self.whole[a.index] = base
                base += a.size
            else:
                self.head[a.index] = base
                base += 1
        # the blocks of parameter values, by type, for the actions spelled part by part
        self.block: dict[str, tuple[int, int]] = {}       # type (or a numbers' range) -> (first token, radix)
        self.ranged: dict[str, ParamCode] = {}            # a numbers' range -> how its values are written
        plans = False
        for index in self.head:
            for p in codec.actions[index].params:
                if p.type == PLAN:
                    plans = True
                elif _block_key(p) not in self.block:
                    self.block[_block_key(p)] = (base, p.radix)
                    base += p.radix
                    if not p.plain:
                        self.ranged[_block_key(p)] = p
        self.kinds = max(len(meld_kinds), 1)
        self.targets = melds.target_radix if melds is not None else 1
        self.plan_head = self.card = self.wild = self.end = -1
        self.heads = PLAN_TYPES * self.kinds * self.targets * 2
        self.wild_ids: list[int] = []
        if plans and melds is not None:
            self.plan_head = base
            base += self.heads
            if CARD not in self.block:
                self.block[CARD] = (base, cards.size)
                base += cards.size
            self.card = self.block[CARD][0]
            self.wild_ids = list(melds.wild_ids)
            self.wild = base
            base += len(self.wild_ids) * IDENTITIES
            self.end = base
            base += 1
        self.wild_index = {w: i for i, w in enumerate(self.wild_ids)}
        self.size = base
        # every move one token, and the blocks in the engine's order: a token is the engine's id
        self.identity = not self.head and base == codec.num_distinct_actions
        self._spelled: OrderedDict[int, tuple[int, ...]] = OrderedDict()

    # ------------------------------------------------------------ moves to tokens and back
    def spell(self, native: int) -> tuple[int, ...]:
        """The tokens of a native action id."""
        found = recall(self._spelled, native)
        if found is not None:
            return found
        action, b = self.codec.decode(native)
        start = self.whole.get(action.index)
        if start is not None:
            return remember(self._spelled, native, (start + native - action.offset,), 4096)
        out = [self.head[action.index]]
        for p in action.params:
            value = b[p.var]
            if p.type == PLAN:
                out += self._plan_tokens(value)
            else:
                digit = p.digit_of(value)
                assert digit is not None, f"{value} is no value of parameter `{p.var}`"
                out.append(self.block[_block_key(p)][0] + digit)
        return remember(self._spelled, native, tuple(out), 4096)

    def _plan_tokens(self, plan: Plan) -> list[int]:
        out = [self.plan_head + ((plan.type * self.kinds + plan.kind) * self.targets + plan.target) * 2
               + int(plan.at_start)]
        stands = dict(plan.wild)
        for c in plan.cards:
            out.append(self.card + c if c not in stands else
                       self.wild + self.wild_index[c] * IDENTITIES + stands[c])
        out.append(self.end)
        return out

    def native(self, tokens: tuple[int, ...] | list[int]) -> int | None:
        """The native id a complete spelling stands for; None if `tokens` spell no whole move."""
        if not tokens:
            return None
        first = tokens[0]
        for index, start in self.whole.items():
            a = self.codec.actions[index]
            if start <= first < start + a.size:
                return a.offset + first - start if len(tokens) == 1 else None
        headed = next((i for i, t in self.head.items() if t == first), None)
        if headed is None:
            return None
        action = self.codec.actions[headed]
        code, at = 0, 1
        digit: int | None
        for p in action.params:
            if p.type == PLAN:
                digit, at = self._plan_code(tokens, at)
            else:
                start, radix = self.block[_block_key(p)]
                if at >= len(tokens) or not start <= tokens[at] < start + radix:
                    return None
                digit, at = tokens[at] - start, at + 1
            if digit is None:
                return None
            code = code * p.radix + digit
        if at != len(tokens):
            return None
        # a meld's cards in another order, or one named twice, would read as the same plan: only
        # a move's own spelling stands for it
        native = action.offset + code
        return native if self.spell(native) == tuple(tokens) else None

    def _plan_code(self, tokens, at: int) -> tuple[int | None, int]:
        melds = self.melds
        if melds is None or at >= len(tokens):
            return None, at
        head = tokens[at] - self.plan_head
        if not 0 <= head < self.heads:
            return None, at
        head, at_start = divmod(head, 2)
        head, target = divmod(head, self.targets)
        type_, kind = divmod(head, self.kinds)
        cards, wild = [], []
        at += 1
        while at < len(tokens) and tokens[at] != self.end:
            t = tokens[at]
            if self.card <= t < self.card + self.cards.size:
                cards.append(t - self.card)
            elif self.wild <= t < self.wild + len(self.wild_ids) * IDENTITIES:
                w, code = divmod(t - self.wild, IDENTITIES)
                cards.append(self.wild_ids[w])
                wild.append((self.wild_ids[w], code))
            else:
                return None, at
            at += 1
        if at >= len(tokens) or not cards:
            return None, at
        return melds.encode(kind, type_, cards, wild, target, bool(at_start)), at + 1

    # ------------------------------------------------------------ sizes and text
    def longest(self) -> int:
        """The most tokens one move takes."""
        most = 1
        for index in self.head:
            length = 1
            for p in self.codec.actions[index].params:
                length += self._longest_plan() if p.type == PLAN else 1
            most = max(most, length)
        return most

    def _longest_plan(self) -> int:
        """Head, cards and end: a meld holds at most its kind's most, a run no more than the ranks
        (and their wild cards), a set no more than the copies of a rank and the wild cards."""
        melds = self.melds
        if melds is None:
            return 2
        wild = len(melds.wild)
        per_rank = max(Counter(self.cards.ranks).values())
        most = 1
        for k in melds.kinds:
            bound = len(self.cards.deck_ranks) + 1 if k.of == "suit" else per_rank + wild
            most = max(most, min(k.max or bound, bound, self.cards.size))
        return most + 2

    def token_to_string(self, token: int) -> str:
        """`discard 7♠`, `meld`, `new run for P1`, `onto meld 3 (low end)`, `8♠`, `🃏=9♠`, `end`."""
        if not 0 <= token < self.size:
            raise ValueError(f"token {token} is not in this game's vocabulary of {self.size}")
        for index, start in self.whole.items():
            a = self.codec.actions[index]
            if start <= token < start + a.size:
                return self.move_text(a.offset + token - start)
        for index, t in self.head.items():
            if t == token:
                return self.codec.actions[index].name
        if token == self.end:
            return "end"
        if self.plan_head >= 0 and self.plan_head <= token < self.plan_head + self.heads:
            return self._head_text(token - self.plan_head)
        if self.wild >= 0 and self.wild <= token < self.end:
            w, code = divmod(token - self.wild, IDENTITIES)
            rank, suit = identity_parts(code)
            return f"{self.cards.labels[self.wild_ids[w]]}={rank_name(rank)}{'' if suit is None else _SUITS[suit]}"
        for key, (start, radix) in self.block.items():
            if start <= token < start + radix:
                ranged = self.ranged.get(key)
                if ranged is not None:
                    return self.render(ranged.value_of(token - start), ranged.type)
                value = token - start
                return self.render(bool(value) if key == BOOL else value, key)
        raise AssertionError(f"token {token} is in no block of the vocabulary")

    def _head_text(self, head: int) -> str:
        head, at_start = divmod(head, 2)
        head, target = divmod(head, self.targets)
        type_, kind = divmod(head, self.kinds)
        kind_name = self.meld_kinds[kind] if kind < len(self.meld_kinds) else "meld"
        if type_ == NEW:
            return f"new {kind_name} for {self.layout.owner_label(target, self.layout.meld_by_side)}"
        if type_ == LAYOFF:
            return f"onto meld {target + 1}" + (" (low end)" if at_start else "")
        assert type_ == SWAP
        return f"for the joker in meld {target + 1}"


def _block_key(p: ParamCode) -> str:
    """The block of tokens a parameter's values take: one per type, and one per range of numbers
    written as their place in it (codec.py)."""
    return p.type if p.plain else f"{p.type} {p.values_text()}"
