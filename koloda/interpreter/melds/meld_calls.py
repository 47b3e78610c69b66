"""The meld functions of the language as functions of plain values: `melds_in`, `layoffs`, `swaps`,
`best_points` and `best_points_after`, the group-at-a-time listing `any`/`all` ask melds through, and what
the generator reads of a call (`joins_masks`, the opening question `asks_reach`). builtin_entries.py names
them; generated code calls them (gen_calls.py)."""
from __future__ import annotations

from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.nodes import same
from koloda.dsl.types import ZONE
from koloda.dsl.errors import Span
from koloda.interpreter.melds.bitmask import mask_of
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.work import choices_count


# ------------------------------------------------------------ functions of plain values (generated code calls them)
def held_cards(items: Any) -> list:
    """The cards of a list, each once, lowest first (a card named twice is still one card; none is none)."""
    held = set(items)
    held.discard(None)
    return sorted(held)


def held_mask(items: Any) -> int:
    """The mask of the cards of a list (as `held_cards`), which the meld listings look cards up by."""
    held = set(items)
    held.discard(None)
    return mask_of(held)


def written_mask(cards: list) -> int:
    """The mask of cards written out (`[a, b]`), none left out."""
    mask = 0
    for card in cards:
        if card is not None:
            mask |= 1 << card
    return mask


def stream_holding(melds: Any, held: int, owner: int, card: Any) -> Any:
    """The melds of `any(c in m.cards and … for m in melds_in(…))` a group at a time: only the groups that
    may hold the card `c` (any melds for no card)."""
    if not isinstance(card, int):
        return melds.each_meld(held, owner)
    return melds.each_meld_with(held, owner, card)


def melds_in(melds: Any, mask: int, owner: int) -> list:
    """`melds_in(cards)`: the new melds of the cards (their mask) the player to move (`owner`) may make."""
    return melds.melds_of(mask, owner)


def combos(table: Any, cards: Any, kind: str | None = None, kinds: Any = None) -> list:
    """`combos(cards)`, `combos(cards, kind)`: the combinations of `combos:` the cards make (combos.py);
    `kinds`, in a listing, the kinds its `if:` lets through (None: any, codegen/gen_kinds.py)."""
    return table.held(cards, kind, kinds)


def layoffs(melds: Any, s: Any, mask: int) -> list:
    """`layoffs(cards)`: the cards' layoffs onto the melds on the table."""
    return melds.layoffs_of(s, mask)


def swaps(melds: Any, s: Any, mask: int) -> list:
    """`swaps(cards)`: the cards' swaps for wild cards in the melds on the table."""
    return melds.swaps_of(s, mask)


def hand_pattern(patterns: Any, cards: Any) -> str:
    """`hand_pattern(cards)`: the name of the highest pattern the cards make."""
    return patterns.name(list(cards))


def hand_compare(patterns: Any, left: Any, right: Any) -> int:
    """`hand_compare(a, b)`: which set of cards wins by the patterns (1, 0 or -1)."""
    return patterns.compare(list(left), list(right))


MOST_HANDS = 1 << 12       # `best_hand` weighs at most this many choices of cards (C(12, 6) = 924; 7 cards: 21)


def best_hand(patterns: Any, cards: Any, k: Any, at: Span) -> list:
    """`best_hand(cards, k)`: the strongest `k` of the cards by the patterns (Hold'em's best five of seven)."""
    if k is None or k < 1:
        raise RuleRuntimeError(f"`best_hand` of {k} cards: give a whole number from 1", at)
    held = [c for c in cards if c is not None]
    if choices_count(len(held), k, MOST_HANDS) > MOST_HANDS:
        raise RuleRuntimeError(f"`best_hand` of {k} from {len(held)} cards weighs more than {MOST_HANDS} hands", at)
    return patterns.best(held, k)


def best_points(reach: Any, cards: Any, keep: Any, enough: Any, at: Span) -> int:
    """`best_points(cards, keep, enough)`: the most points that can go down with `keep` cards left."""
    if keep is None:
        raise RuleRuntimeError("`best_points` keeping none", at)
    return reach.best_points(cards, keep, enough)


def best_points_after(reach: Any, s: Any, plan: Any, cards: Any, keep: Any, enough: Any, at: Span) -> int:
    """`best_points_after(plan, cards, keep, enough)`: the same after a plan, layoffs too."""
    if keep is None:
        raise RuleRuntimeError("`best_points_after` keeping none", at)
    return reach.best_after(s, plan, cards, keep, enough)


def joins_masks(node: R.Expr) -> bool:
    """`a + b` of zones, their cards or lists written out: a mask of each, or-ed."""
    return isinstance(node, R.Arith) and node.op == "+" and all(
        x.type == ZONE or isinstance(x, (R.ZoneAttr, R.ListLit)) for x in (node.left, node.right))


def asks_reach(n: R.Compare) -> bool:
    """`best_points(…, need) >= need` (or `best_points_after`): the comparison asks only whether `need`
    can be reached, a question whose search may stop as soon as it is answered either way."""
    call = n.left
    if n.op != ">=" or not isinstance(call, R.BuiltinCall) or call.name not in ("best_points", "best_points_after"):
        return False
    return len(call.args) == (4 if call.name == "best_points_after" else 3) and same(call.args[-1], n.right)
