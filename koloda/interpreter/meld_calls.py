"""The meld functions of the language as the engine runs them: `melds_in`, `layoffs`, `swaps`,
`best_points` and `best_points_after`, the group-at-a-time listing `any`/`all` ask melds through, and the
opening question `best_points(…, need) >= need`. builtins.py registers them with the other built-ins."""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import ZONE
from koloda.dsl.errors import Span
from koloda.interpreter.bitmask import mask_of
from koloda.interpreter.env import Context, Env, Fn
from koloda.interpreter.errors import RuleRuntimeError


# ------------------------------------------------------------ functions of plain values (generated code calls
# them; the closures below make the same values)
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
    """`meld_stream` with a card: only the groups of melds that may hold it (any melds for no card)."""
    if not isinstance(card, int):
        return melds.each_meld(held, owner)
    return melds.each_meld_with(held, owner, card)


def melds_in(melds: Any, mask: int, owner: int) -> list:
    """`melds_in(cards)`: the new melds of the cards (their mask) the player to move (`owner`) may make."""
    return melds.melds_of(mask, owner)


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


def card_set(c: Context, node: R.Expr, env: Env, mask: bool = False) -> Fn:
    """The cards of a list, each once: lowest first, or (`mask`) as the mask the meld listings look their
    cards up by. A zone's cards are each there once already."""
    listed = c.sequence(node, env)
    if node.type == ZONE:
        done: Callable[[Any], Any] = mask_of if mask else sorted
        return lambda s, b: done(listed(s, b))
    held = held_mask if mask else held_cards
    return lambda s, b: held(listed(s, b))


def card_mask(c: Context, node: R.Expr, env: Env) -> Fn:
    """`card_set(..., mask=True)`, with no list made for a zone (or its `.cards`), a list written out, or
    two of those joined with `+` (`my hand.cards + [top]`): their masks are or-ed, none left out."""
    if node.type == ZONE or (isinstance(node, R.ZoneAttr) and node.name == "cards"):
        zone = c.expr(node.obj if isinstance(node, R.ZoneAttr) else node, env)
        return lambda s, b: mask_of(s.zones[zone(s, b)])
    if isinstance(node, R.ListLit):
        items = [c.expr(item, env) for item in node.items]
        return lambda s, b: written_mask([item(s, b) for item in items])
    if joins_masks(node):
        assert isinstance(node, R.Arith)
        left, right = card_mask(c, node.left, env), card_mask(c, node.right, env)
        return lambda s, b: left(s, b) | right(s, b)
    return card_set(c, node, env, mask=True)


def joins_masks(node: R.Expr) -> bool:
    """`a + b` of zones, their cards or lists written out: a mask of each, or-ed."""
    return isinstance(node, R.Arith) and node.op == "+" and all(
        x.type == ZONE or isinstance(x, (R.ZoneAttr, R.ListLit)) for x in (node.left, node.right))


def meld_stream(c: Context, n: R.BuiltinCall, env: Env, card: Fn | None = None) -> Fn:
    """`melds_in(cards)` for a question that may be answered before all its melds are made (`any`,
    `all`): the same plans, a group at a time, in no particular order. With `card`, for a question
    that passes over every meld without that card: those of other groups are not made."""
    melds, meld_owner_of = c.melds, c.layout.meld_owner_of
    assert melds is not None, "the checker lets meld functions through only where melds are declared"
    cards = card_mask(c, n.args[0], env)
    if card is None:
        return lambda s, b: melds.each_meld(cards(s, b), meld_owner_of(s.current))
    every = melds.each_meld

    def holding(s, b):
        held = cards(s, b)
        try:
            x = card(s, b)
        except Exception:        # left to the question itself, which meets the failure where it always did
            return every(held, meld_owner_of(s.current))
        return stream_holding(melds, held, meld_owner_of(s.current), x)
    return holding


def meld_function(c: Context, n: R.BuiltinCall, args: list[Fn], env: Env) -> Fn:
    """A call of `melds_in`, `layoffs` or `swaps` (the plans of its cards, listed by their mask), or of
    `best_points` / `best_points_after` (the opening search of reach.py)."""
    melds, reach, layout = c.melds, c.reach, c.layout
    assert melds is not None and reach is not None, \
        "the checker lets meld functions through only where melds are declared"
    after = n.name == "best_points_after"
    if n.name == "melds_in":
        meld_owner_of, mask = layout.meld_owner_of, card_mask(c, n.args[0], env)
        return lambda s, b: melds_in(melds, mask(s, b), meld_owner_of(s.current))
    if n.name in ("layoffs", "swaps"):
        mask, plans = card_mask(c, n.args[0], env), layoffs if n.name == "layoffs" else swaps
        return lambda s, b: plans(melds, s, mask(s, b))
    cards = card_set(c, n.args[1 if after else 0], env)
    rest = args[2:] if after else args[1:]         # `keep` and `enough`, each may be left out
    keep = rest[0] if rest else c.constant(0)
    enough = rest[1] if len(rest) > 1 else c.constant(None)
    plan, span = args[0], n.span

    def best(s, b):
        k = keep(s, b)
        if k is None:            # before the cards are worked out, as it has always been
            raise RuleRuntimeError(f"`{n.name}` keeping none", span)
        if after:
            return best_points_after(reach, s, plan(s, b), cards(s, b), k, enough(s, b), span)
        return best_points(reach, cards(s, b), k, enough(s, b), span)
    return best


def asks_reach(n: R.Compare) -> bool:
    """`best_points(…, need) >= need` (or `best_points_after`): the comparison asks only whether `need`
    can be reached, a question whose search may stop as soon as it is answered either way."""
    call = n.left
    if n.op != ">=" or not isinstance(call, R.BuiltinCall) or call.name not in ("best_points", "best_points_after"):
        return False
    return len(call.args) == (4 if call.name == "best_points_after" else 3) and R.same(call.args[-1], n.right)


def reach_test(c: Context, test: R.Compare, env: Env, plain: Fn) -> Fn:
    """The test `asks_reach` recognises, with the same value as `plain` (the comparison as written),
    which is asked instead where `need` is none."""
    n = test.left
    assert isinstance(n, R.BuiltinCall)
    reach = c.reach
    assert reach is not None, "the checker lets meld functions through only where melds are declared"
    after = n.name == "best_points_after"
    cards = card_set(c, n.args[1 if after else 0], env)
    plan = c.expr(n.args[0], env) if after else None
    keep, enough = c.expr(n.args[-2], env), c.expr(n.args[-1], env)
    span, name = n.span, n.name

    def reaches(s, b):           # worked out in the order the call works its arguments out
        k = keep(s, b)
        if k is None:
            raise RuleRuntimeError(f"`{name}` keeping none", span)
        if plan is not None:
            m, held, need = plan(s, b), cards(s, b), enough(s, b)
            if need is None or m is None:
                return plain(s, b)
            return reach.reaches_after(s, m, held, k, need)
        held, need = cards(s, b), enough(s, b)
        if need is None:
            return plain(s, b)
        return reach.reaches(held, k, need)
    return reaches
