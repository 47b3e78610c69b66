"""The meld functions of the language as the engine runs them: `melds_in`, `layoffs`, `swaps`,
`best_points` and `best_points_after`, the group-at-a-time listing `any`/`all` ask melds through, and the
opening question `best_points(…, need) >= need`. builtins.py registers them with the other built-ins."""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import ZONE
from koloda.interpreter.bitmask import mask_of
from koloda.interpreter.env import Context, Env, Fn
from koloda.interpreter.errors import RuleRuntimeError


def card_set(c: Context, node: R.Expr, env: Env, done: Callable[[Any], Any] = sorted) -> Fn:
    """The cards of a list, each once: lowest first, or (`done=mask_of`) as the mask the meld listings
    look their cards up by. A zone's cards are each there once already."""
    listed = c.sequence(node, env)
    if node.type == ZONE:
        return lambda s, b: done(listed(s, b))

    def cards(s, b):                 # a card named twice is still one card
        held = set(listed(s, b))
        held.discard(None)
        return done(held)
    return cards


def card_mask(c: Context, node: R.Expr, env: Env) -> Fn:
    """`card_set(..., mask_of)`, with no list made for a zone (or its `.cards`), a list written out, or
    two of those joined with `+` (`my hand.cards + [top]`): their masks are or-ed, none left out."""
    if node.type == ZONE or (isinstance(node, R.ZoneAttr) and node.name == "cards"):
        zone = c.expr(node.obj if isinstance(node, R.ZoneAttr) else node, env)
        return lambda s, b: mask_of(s.zones[zone(s, b)])
    if isinstance(node, R.ListLit):
        items = [c.expr(item, env) for item in node.items]

        def written(s, b):
            mask = 0
            for item in items:
                card = item(s, b)
                if card is not None:
                    mask |= 1 << card
            return mask
        return written
    if isinstance(node, R.Arith) and node.op == "+" and all(
            x.type == ZONE or isinstance(x, (R.ZoneAttr, R.ListLit)) for x in (node.left, node.right)):
        left, right = card_mask(c, node.left, env), card_mask(c, node.right, env)
        return lambda s, b: left(s, b) | right(s, b)
    return card_set(c, node, env, mask_of)


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
        if not isinstance(x, int):
            return every(held, meld_owner_of(s.current))
        return melds.each_meld_with(held, meld_owner_of(s.current), x)
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
        return lambda s, b: melds.melds_of(mask(s, b), meld_owner_of(s.current))
    if n.name == "layoffs":
        mask = card_mask(c, n.args[0], env)
        return lambda s, b: melds.layoffs_of(s, mask(s, b))
    if n.name == "swaps":
        mask = card_mask(c, n.args[0], env)
        return lambda s, b: melds.swaps_of(s, mask(s, b))
    cards = card_set(c, n.args[1 if after else 0], env)
    rest = args[2:] if after else args[1:]         # `keep` and `enough`, each may be left out
    keep = rest[0] if rest else c.constant(0)
    enough = rest[1] if len(rest) > 1 else c.constant(None)
    plan, span, name = args[0], n.span, n.name

    def best(s, b):
        k = keep(s, b)
        if k is None:
            raise RuleRuntimeError(f"`{name}` keeping none", span)
        if after:
            return reach.best_after(s, plan(s, b), cards(s, b), k, enough(s, b))
        return reach.best_points(cards(s, b), k, enough(s, b))
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
