"""Attributes of the resolved tree -> Python expression text (the part of gen_expr.py reading the tables).

Each method writes what the attribute of that name gives, reading the game's
tables; a name it does not know cannot run (NotGenerated, then UnknownNode).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from koloda.dsl import resolved as R
from koloda.dsl.builtins import COMBO_ATTRS as R_COMBO_ATTRS
from koloda.interpreter.runtime import builtin_runtime as rt
from koloda.interpreter.base.cards import rank_indexes, suit_indexes
from koloda.interpreter.codegen.gen_frag import NOTHING, Frag, NotGenerated, Scope, atom, deps_of
from koloda.interpreter.codegen.gen_walk import ExprWalk
from koloda.interpreter.melds.melds import LAYOFF, NEW, SWAP


class AttrGen(ExprWalk):
    """The attributes of cards, zones, grids, plans, players, sides and lists."""

    def _MeldsOf(self, n: R.MeldsOf, scope: Scope) -> Frag:
        """The melds on the table in the order made (all of them, or one owner's)."""
        layout = self.c.layout
        slot_zone = self.m.const(layout.slot_zone, "slot_zone")
        if n.owner is None:
            return Frag(f"_melds(s.slot_kind, None, {slot_zone}, None, True)", NOTHING, True, True)
        player = self.gen(n.owner, scope)
        owner = player.text if n.by_side else f"{self.m.const(layout.meld_owner_of, 'meld_owner')}({player.text})"
        return Frag(f"_melds(s.slot_kind, s.slot_owner, {slot_zone}, {owner}, False)", player.deps, False, True)

    def _CardAttr(self, n: R.CardAttr, scope: Scope) -> Frag:
        cards = self.c.cards
        if n.name in ("rank", "suit", "color"):
            table = self.m.const({"rank": cards.ranks, "suit": cards.suits, "color": cards.colors}[n.name], n.name)
        elif n.name in ("face_up", "by"):
            table = self.fn.state("_F" if n.name == "face_up" else "_B")
        elif n.name == "deck":        # (none where the players share one deck)
            decks = self.c.card_deck
            table = self.m.const(list(decks) if decks is not None else [None] * cards.size, "deck")
        elif n.name in ("rank_index", "suit_index"):
            # one table per module: the same text for the same attribute, so that a part reading it is kept once
            table = self.m.made(n.name, lambda: (rank_indexes if n.name == "rank_index" else suit_indexes)(cards))
        elif n.name in ("zone", "depth"):
            # the state knows each card's zone (loc, -1: none yet); its depth is found in that zone's list
            card = self.gen(n.obj, scope)
            where = f"_{n.name}_of({self.fn.state('_L')}, {card.text}"
            return Frag(where + (")" if n.name == "zone" else f", {self.fn.state('_Z')})"), card.deps, card.safe)
        else:
            raise NotGenerated
        card = self.gen(n.obj, scope)
        if card.nonnull:
            return Frag(f"{table}[{card.text}]", card.deps, card.safe, n.name == "rank")
        if atom(card.text):
            return Frag(f"(None if {card.text} is None else {table}[{card.text}])", card.deps, card.safe)
        return Frag(f"_get({table}, {card.text})", card.deps, card.safe)

    def _ZoneAttr(self, n: R.ZoneAttr, scope: Scope) -> Frag:
        layout = self.c.layout
        if n.name in ("rank", "grid", "row", "column", "owner", "side"):
            # where a zone sits never changes; who owns one neither, where there are no melds (see builtins.py)
            if n.name in ("rank", "grid", "row", "column"):
                values = [None if cell is None else getattr(cell, n.name) for cell in layout.zone_cell]
            elif n.name == "owner":
                values = [None if z.by_side else z.owner for z in layout.zones]
            else:
                values = [z.owner if z.by_side or z.owner is None else layout.side_of(z.owner) for z in layout.zones]
            zone = self.gen(n.obj, scope)
            table = self.m.const(values, "zone_" + n.name)
            if n.name in ("owner", "side") and layout.zone_slot:        # a meld on the table: whoever made it
                owner = self.m.const(rt.zone_owner, "zone_owner")
                return Frag(f"{owner}({zone.text}, s.slot_kind, s.slot_owner, "
                            f"{self.m.const(layout.zone_slot, 'zone_slot')}, {table}, {layout.meld_by_side}, "
                            f"{self.m.const(layout.side_of, 'side_of')}, {n.name == 'owner'})", zone.deps)
            return Frag(f"{table}[{zone.text}]", zone.deps, zone.safe)
        if n.name in ("kind", "fresh"):
            zone = self.gen(n.obj, scope)
            zone_slot = self.m.const(layout.zone_slot, "zone_slot")
            if n.name == "kind":
                kinds = self.m.const(self.c.meld_kinds, "meld_kinds")
                return Frag(f"_meld_kind(s.slot_kind, {zone_slot}, {kinds}, {zone.text})", zone.deps, zone.safe)
            return Frag(f"_meld_fresh(s.slot_kind, s.slot_turn, {zone_slot}, s.turn_no, {zone.text})", zone.deps,
                        zone.safe, True)
        if n.name not in ("top", "bottom", "size", "cards", "free"):
            raise NotGenerated
        zone = self.gen(n.obj, scope)
        cards = f"{self.fn.state('_Z')}[{zone.text}]"
        if n.name == "size":
            return Frag(f"len({cards})", zone.deps, zone.safe, True)
        if n.name == "cards":
            return Frag(f"list({cards})", zone.deps, zone.safe, True)
        if n.name == "free":
            return Frag(f"_free({cards}, {self.fn.state('_F')})", zone.deps, zone.safe, True)
        return Frag(f"{'_top' if n.name == 'top' else '_bottom'}({cards})", zone.deps, zone.safe)

    def _GridAttr(self, n: R.GridAttr, scope: Scope) -> Frag:
        if n.name not in ("cells", "lines", "rows", "columns", "diagonals"):
            raise NotGenerated
        table = self.m.const([getattr(g, n.name) for g in self.c.layout.grids], "grid_" + n.name)
        grid = self.gen(n.obj, scope)
        if grid.nonnull:
            return Frag(f"{table}[{grid.text}]", grid.deps, grid.safe, True)
        return Frag(f"_get({table}, {grid.text})", grid.deps, grid.safe)

    def _PlanAttr(self, n: R.PlanAttr, scope: Scope) -> Frag:
        kinds, slot_zone = self.c.meld_kinds, self.c.layout.slot_zone
        get: Callable[[Any], Any] | None = {
            "cards": lambda p: list(p.cards), "points": lambda p: p.points, "size": lambda p: len(p.cards),
            "kind": lambda p: kinds[p.kind], "new": lambda p: p.type == NEW, "layoff": lambda p: p.type == LAYOFF,
            "swap": lambda p: p.type == SWAP, "target": lambda p: None if p.type == NEW else slot_zone[p.target],
            "taken": lambda p: p.taken,
        }.get(n.name)                       # as builtins.py reads a plan
        if get is None:
            raise NotGenerated
        plan = self.gen(n.obj, scope)
        inline = {"points": "{}.points", "size": "len({}.cards)", "cards": "list({}.cards)"}.get(n.name)
        if plan.nonnull and inline is not None:       # a plan that is there: read at once
            return Frag(inline.format(plan.text), plan.deps, plan.safe, True)
        if inline is not None and plan.text.isidentifier():     # a local that may be none: asked in place
            return Frag(f"(None if {plan.text} is None else {inline.format(plan.text)})", plan.deps)
        return Frag(f"_plan({self.m.const(get, 'plan_' + n.name)}, {plan.text})", plan.deps)

    def _ComboAttr(self, n: R.ComboAttr, scope: Scope) -> Frag:
        combo = self.gen(n.obj, scope)
        coded = self.coded.get(combo.text)
        if coded is not None:           # a code (gen_listing.py, gen_effects.py): its attributes from the table's lists
            cards = coded[0]
            if n.name in ("cards", "size"):
                return Frag(cards if n.name == "cards" else f"len({cards})", combo.deps, True, True)
            table = self.m.const(getattr(self.c.combos, n.name + "_of"), "combo_" + n.name)
            return Frag(f"{table}[{combo.text}]", combo.deps, True, True)
        inline = {"cards": "list({}.cards)", "size": "len({}.cards)", "kind": "{}.kind", "low": "{}.low",
                  "high": "{}.high", "length": "{}.length"}.get(n.name)     # as combo.py holds them
        if inline is None:
            raise NotGenerated
        if combo.nonnull:
            return Frag(inline.format(combo.text), combo.deps, combo.safe, True)
        if combo.text.isidentifier():       # a local that may be none: asked in place
            return Frag(f"(None if {combo.text} is None else {inline.format(combo.text)})", combo.deps)
        return Frag(f"_plan({self.m.const(_combo_attr(n.name), 'combo_' + n.name)}, {combo.text})", combo.deps)

    def _SideAttr(self, n: R.SideAttr, scope: Scope) -> Frag:
        if n.name != "players":
            raise NotGenerated
        side = self.gen(n.obj, scope)          # worked out for each player
        return Frag(f"[_p for _p in range(s.n) if _p % {self.c.layout.num_sides} == {side.text}]", side.deps,
                    side.safe, True)

    def _PlayerAttr(self, n: R.PlayerAttr, scope: Scope) -> Frag:
        player = self.gen(n.obj, scope)
        if n.name == "seat":
            if not player.nonnull:
                return Frag(f"{self.m.const(rt.seat_number, 'seat')}({player.text})", player.deps, player.safe)
            return Frag(f"({player.text} + 1)", player.deps, player.safe, True)
        sides = self.c.layout.num_sides
        if player.nonnull:
            return Frag(f"({player.text} % {sides})", player.deps, player.safe, True)
        return Frag(f"_side({player.text}, {sides})", player.deps, player.safe)

    def _ListAttr(self, n: R.ListAttr, scope: Scope) -> Frag:
        items = self.gen(n.obj, scope)
        return Frag(f"len({items.text})", items.deps, False, True)

    # ------------------------------------------------------------ calls
    def reach_test(self, n: R.Compare, scope: Scope) -> Frag:
        """`best_points(…, need) >= need`, asked as meld_calls.reach_test asks it."""
        call = n.left
        assert isinstance(call, R.BuiltinCall)
        after = call.name == "best_points_after"
        if self.c.reach is None:
            raise NotGenerated
        reach = self.m.const(self.c.reach, "reach")
        keep = self.gen(call.args[-2], scope)
        plan = self.gen(call.args[0], scope) if after else None
        cards = self.sequence(call.args[1 if after else 0], scope)
        need = self.gen(call.args[-1], scope)
        parts = [keep] + ([plan] if plan is not None else []) + [cards, need]
        text = ", ".join(p.text for p in parts)
        if plan is not None:
            return Frag(f"_reach_after({reach}, s, {text})", deps_of(parts), False, True, True)
        return Frag(f"_reach({reach}, {text})", deps_of(parts), False, True, True)


def read_as_code(c: Any, nodes: Sequence[R.Node], var: str, inlines: Callable[[R.UserCall], bool]) -> bool:
    """Whether the nodes read the combination `var` only by its attributes (so that it may be its code):
    never as a value, nor given to a call that is not inlined, nor hidden by a name of its own."""
    return all(_attrs_only(c, n, var, inlines) for n in nodes)


def _attrs_only(c: Any, n: R.Node, var: str, inlines: Callable[[R.UserCall], bool]) -> bool:
    if isinstance(n, R.Local):
        return n.name != var
    if isinstance(n, R.ComboAttr) and isinstance(n.obj, R.Local) and n.obj.name == var:
        return n.name in R_COMBO_ATTRS
    if getattr(n, "var", None) == var or (isinstance(n, R.Let) and n.name == var):
        return False
    if isinstance(n, R.UserCall):
        fn = c.rules.functions[n.name]
        for param, arg in zip(fn.params, n.args):
            if isinstance(arg, R.Local) and arg.name == var:
                if not inlines(n) or not _attrs_only(c, fn.body, param, inlines):
                    return False
            elif not _attrs_only(c, arg, var, inlines):
                return False
        return True
    return all(_attrs_only(c, child, var, inlines) for child in R.children(n))


def _combo_attr(name: str) -> Callable[[Any], Any]:
    """A combination's attribute, read from one that is there (`_plan` gives none for none)."""
    if name in ("cards", "size"):
        return (lambda c: list(c.cards)) if name == "cards" else (lambda c: len(c.cards))
    return lambda c: getattr(c, name)
