"""Built-in calls of the resolved tree -> Python expression text (part of gen_expr.py).

A built-in is written inline where its entry (builtin_entries.py) has a template, else as a call of its
entry's function of plain values, bound in the module's namespace with the game's tables it reads. A
call that can fail passes its span, so that the function raises the located error; checked code calls
the function where fast code has a template, and tests the order of its arguments (gen_checks.py).
"""
from __future__ import annotations

from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.builtins import CARD_SLOT
from koloda.dsl.types import BOOL, ZONE, is_list
from koloda.interpreter.runtime import builtin_runtime as rt
from koloda.interpreter.melds import meld_calls
from koloda.interpreter.runtime.builtin_entries import ENTRIES
from koloda.interpreter.codegen.gen_attrs import AttrGen
from koloda.interpreter.codegen.gen_frag import NOTHING, Frag, NotGenerated, Scope, deps_of
from koloda.interpreter.runtime.trick_order import card_fn, rank_strength, table_order, trick_taken


class CallGen(AttrGen):
    """Built-in calls: each entry's template, or a call of its function of plain values."""

    def bound(self, value: Any, prefix: str) -> str:
        """A name for an engine object generated code calls (a bound method is made anew each time it is read:
        kept by what it is bound to and its name)."""
        key = (id(getattr(value, "__self__", value)), getattr(value, "__name__", prefix))
        found = self._bound_names.get(key)
        if found is None:
            found = self._bound_names[key] = self.m.const(value, prefix)
        return found

    def runtime(self, name: str) -> str:
        """The function of plain values of a built-in, from its entry."""
        entry = ENTRIES[name]
        assert entry.runtime is not None, name
        return self.bound(entry.runtime, "rt_" + name)

    # ------------------------------------------------------------ calls
    def _BuiltinCall(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        name = n.name
        special = getattr(self, "call_" + name, None)
        if special is not None:
            frag: Frag = special(n, scope)
            return frag
        entry = ENTRIES.get(name)
        if entry is None or entry.template is None:
            raise NotGenerated
        template = entry.template
        args = [self.gen(a, scope) for a in n.args]
        if self.checked and name == "abs":        # its function of plain values says what failed
            return Frag(f"{self.runtime(name)}({args[0].text}, {self.at(n)})", deps_of(args), False, True)
        if self.checked and name in ("next", "prev"):
            return Frag(f"{self.runtime(name)}({args[0].text}, {1 if name == 'next' else -1}, s.direction, s.n, "
                        f"{self.at(n)})", deps_of(args), False, True)
        return Frag(template.format(*(a.text for a in args)), deps_of(args), False, True)

    def call_value(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        card = self.gen(n.args[0], scope)
        if len(n.args) == 1:
            values, table = self.c.cards.values, "value"
        else:
            written = n.args[1]
            assert isinstance(written, R.Const), "the checker lets only a table written out through"
            values, table = self.c.cards.tables[str(written.value)], str(written.value)
        if self.checked:
            return Frag(f"{self.runtime('value')}({self.m.const(values, 'value')}, {card.text}, "
                        f"{self.m.literal(table)}, {self.at(n)})", card.deps, False, True)
        template = ENTRIES["value"].template
        assert template is not None
        return Frag(template.format(card.text, table=self.m.const(values, "value")), card.deps, False, True)

    def call_top(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        zone, count = self.gen(n.args[0], scope), self.gen(n.args[1], scope)
        if self.checked:          # the count first, as the rules have always worked it out
            return Frag(f"_ck_top_after({self.fn.state('_Z')}, {count.text}, {zone.text}, {self.at(n)})",
                        zone.deps | count.deps, False, True)
        return Frag(f"{self.runtime('top')}({self.fn.state('_Z')}[{zone.text}], {count.text}, {self.at(n)})",
                    zone.deps | count.deps, False, True)

    def reduction(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        name = n.name
        if name in ("max", "min") and len(n.args) >= 2:
            args = [self.gen(a, scope) for a in n.args]
            return Frag(f"{name}({', '.join(a.text for a in args)})", deps_of(args))
        items = self.sequence(n.args[0], scope)
        if self.checked and name in ("sum", "max", "min"):
            check = "_ck_total" if name == "sum" else "_ck_extreme"
            return Frag(f"{check}({items.text}, {name!r}, {self.at(n)})", items.deps, False, True)
        template = ENTRIES[name].template
        assert template is not None
        return Frag(template.format(items.text), items.deps, items.safe and name in ("count", "any", "all"), True)

    call_count = call_sum = call_any = call_all = call_max = call_min = reduction

    def call_product(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        items = self.sequence(n.args[0], scope)
        return Frag(f"{self.runtime('product')}({items.text}, 'product', {self.at(n)})", items.deps, False, True)

    def call_player(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        seat = self.gen(n.args[0], scope)
        return Frag(f"{self.runtime('player')}({seat.text}, s.n, {self.at(n)})", seat.deps, False, True)

    def call_combinations(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        items, k = self.sequence(n.args[0], scope), self.gen(n.args[1], scope)
        return Frag(f"{self.runtime('combinations')}(s, list({items.text}), {k.text}, {self.at(n)})",
                    items.deps | k.deps, False, True)

    def call_subsets(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        items = self.sequence(n.args[0], scope)
        return Frag(f"{self.runtime('subsets')}(s, list({items.text}), {self.at(n)})", items.deps, False, True)

    def call_hand_pattern(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        cards = self.sequence(n.args[0], scope)
        patterns = self.m.const(self.c.patterns, "patterns")
        return Frag(f"{self.runtime('hand_pattern')}({patterns}, {cards.text})", cards.deps)

    def call_combos(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        return self.combos_listed(n, scope, "None")

    def combos_listed(self, n: R.BuiltinCall, scope: Scope, kinds: str) -> Frag:
        """`combos(cards)`, of only the kinds the text `kinds` names when it is not None (a listing's)."""
        cards = self.sequence(n.args[0], scope)
        combos = self.m.const(self.c.combos, "combos")
        kind = self.m.literal(n.args[1].value) if len(n.args) == 2 and isinstance(n.args[1], R.Const) else "None"
        more = "" if kinds == "None" else f", {kinds}"
        return Frag(f"{self.runtime('combos')}({combos}, {cards.text}, {kind}{more})", cards.deps, False, True)

    def combo_codes(self, n: R.BuiltinCall, scope: Scope, kinds: str) -> tuple[Frag, str]:
        """The codes of `combos(cards)` (of only the kinds the text `kinds` names when it is not None), and
        the text of the cards."""
        cards = self.sequence(n.args[0], scope)
        combos = self.m.const(self.c.combos, "combos")
        kind = self.m.literal(n.args[1].value) if len(n.args) == 2 and isinstance(n.args[1], R.Const) else "None"
        return Frag(f"{combos}.held_codes({cards.text}, {kind}, {kinds})", cards.deps, False, True), cards.text

    def call_hand_compare(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        left, right = self.sequence(n.args[0], scope), self.sequence(n.args[1], scope)
        patterns = self.m.const(self.c.patterns, "patterns")
        return Frag(f"{self.runtime('hand_compare')}({patterns}, {left.text}, {right.text})", left.deps | right.deps)

    def call_best_hand(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        cards, k = self.sequence(n.args[0], scope), self.gen(n.args[1], scope)
        patterns = self.m.const(self.c.patterns, "patterns")
        return Frag(f"{self.runtime('best_hand')}({patterns}, {cards.text}, {k.text}, {self.at(n)})",
                    cards.deps | k.deps, False, True)

    def call_pot_shares(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        stakes, hands = self.sequence(n.args[0], scope), self.sequence(n.args[1], scope)
        patterns = self.m.const(self.c.patterns, "patterns")
        return Frag(f"{self.runtime('pot_shares')}({patterns}, {stakes.text}, {hands.text}, {self.at(n)})",
                    stakes.deps | hands.deps, False, True)

    # ------------------------------------------------------------ tricks and the strongest card
    def card_function(self, arg: R.Expr, what: str, n: R.BuiltinCall) -> str:
        """The rule file's function of a card (`power` in `winner(trick, trump, power)`) as a function of a
        card for this state: a named table of `values:`, or the rule file's function generated."""
        if isinstance(arg, R.BuiltinCall) and arg.name == "value" and isinstance(arg.args[1], R.Const):
            f = self.m.const(table_order(self.c.cards.tables[str(arg.args[1].value)]), "order")
        elif isinstance(arg, R.UserCall) and len(arg.args) == 1 and isinstance(arg.args[0], R.Local) \
                and arg.args[0].name == CARD_SLOT:
            f = self.function(self.c.rules.functions[arg.name])
            if self.checked and self.c.expansion.fans_out(arg.name):    # its calls counted at this call's place
                f = f"(lambda _s, _card: {f}(_s, _card, {self.at(n)}))"
        else:
            raise NotGenerated
        return f"{self.bound(card_fn, 'card_fn')}({f}, s, {self.m.literal(what)}, {self.at(n)})"

    def call_winner(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        name = n.name
        trump_test = n.args[1].type == BOOL         # trumps that are not a suit: the rule file's test of a card
        trick = self.gen(n.args[0], scope)
        trump = (Frag(self.card_function(n.args[1], f"the trump cards of `{name}`", n), NOTHING) if trump_test
                 else self.gen(n.args[1], scope))
        by = "None" if name == "winning_card" else self.fn.state("_B")
        cards = self.c.cards
        deps = trick.deps | trump.deps
        zone = f"{self.fn.state('_Z')}[{trick.text}]"
        if self.checked:          # an empty trick is found before the trump is worked out
            zone = f"_ck_trick({zone}, {name!r}, {self.at(n)})"
        if len(n.args) == 2 and not trump_test:
            tables = ", ".join(self.m.const(t, k) for t, k in ((cards.suits, "suit"), (cards.ranks, "rank"),
                                                              (cards.order, "order")))
            return Frag(f"{self.runtime(name)}({zone}, {trump.text}, {tables}, {by}, {name!r}, {self.at(n)})", deps)
        strength = (self.card_function(n.args[2], f"the card order of `{name}`", n) if len(n.args) > 2
                    else self.bound(rank_strength(cards).__getitem__, "strength"))
        suit_of = (self.card_function(n.args[3], f"the suit function of `{name}`", n) if len(n.args) > 3
                   else self.bound(cards.suits.__getitem__, "suit_of"))
        taken = self.bound(trick_taken, "trick_taken")
        return Frag(f"{taken}({zone}, {trump.text}, {strength}, {suit_of}, {by}, {name!r}, {self.at(n)})", deps)

    call_winning_card = call_winner

    def call_highest(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        cards = self.sequence(n.args[0], scope)
        highest = n.name == "highest"
        if len(n.args) > 1:
            strength = self.card_function(n.args[1], f"the card order of `{n.name}`", n)
        else:
            strength = self.m.const(rank_strength(self.c.cards), "strength")
        return Frag(f"{self.runtime(n.name)}({cards.text}, {strength}, {highest})", cards.deps)

    call_lowest = call_highest

    # ------------------------------------------------------------ melds
    def mask(self, node: R.Expr, scope: Scope) -> Frag:
        """The mask of a list's cards, as meld_calls.card_mask makes it."""
        if node.type == ZONE or (isinstance(node, R.ZoneAttr) and node.name == "cards"):
            zone = self.gen(node.obj if isinstance(node, R.ZoneAttr) else node, scope)
            return Frag(f"{self.bound(meld_calls.mask_of, 'mask_of')}({self.fn.state('_Z')}[{zone.text}])",
                        zone.deps)
        if isinstance(node, R.ListLit):
            items = [self.gen(i, scope) for i in node.items]
            return Frag(f"{self.bound(meld_calls.written_mask, 'written_mask')}([{', '.join(i.text for i in items)}])",
                        deps_of(items))
        if meld_calls.joins_masks(node):
            assert isinstance(node, R.Arith)
            left, right = self.mask(node.left, scope), self.mask(node.right, scope)
            return Frag(f"({left.text} | {right.text})", left.deps | right.deps)
        listed = self.sequence(node, scope)
        return Frag(f"{self.bound(meld_calls.held_mask, 'held_mask')}({listed.text})", listed.deps)

    def held(self, node: R.Expr, scope: Scope) -> Frag:
        """The cards of a list each once, lowest first, as meld_calls.card_set gives them."""
        items = self.sequence(node, scope)
        done = "sorted" if node.type == ZONE else self.bound(meld_calls.held_cards, "held_cards")
        return Frag(f"{done}({items.text})", items.deps)

    def melds(self) -> Any:
        melds = self.c.melds
        assert melds is not None, "the checker lets meld functions through only where melds are declared"
        return melds

    def owner(self) -> str:
        return f"{self.bound(self.c.layout.meld_owner_of, 'meld_owner')}(s.current)"

    def call_melds_in(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        mask = self.mask(n.args[0], scope)
        melds = self.m.const(self.melds(), "melds")
        return Frag(f"{self.runtime('melds_in')}({melds}, {mask.text}, {self.owner()})", mask.deps)

    def call_layoffs(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        mask = self.mask(n.args[0], scope)
        melds = self.m.const(self.melds(), "melds")
        return Frag(f"{self.runtime(n.name)}({melds}, s, {mask.text})", mask.deps)

    call_swaps = call_layoffs

    def call_best_points(self, n: R.BuiltinCall, scope: Scope) -> Frag:
        after = n.name == "best_points_after"
        reach = self.m.const(self.c.reach, "reach")
        plan = self.gen(n.args[0], scope) if after else None
        cards = self.held(n.args[1 if after else 0], scope)
        rest = [self.gen(a, scope) for a in n.args[2 if after else 1:]]
        keep = rest[0].text if rest else "0"
        enough = rest[1].text if len(rest) > 1 else "None"
        parts = ([plan] if plan is not None else []) + [cards] + rest
        if self.checked:          # the cards to keep first, then the others in order
            k = f"_ck_keeping({keep}, {n.name!r}, {self.at(n)})"
            head = f"{reach}, s, {k}, {plan.text}" if plan is not None else f"{reach}, {k}"
            return Frag(f"_ck_best{'_after' if after else ''}({head}, {cards.text}, {enough}, {self.at(n)})",
                        deps_of(parts), False, True)
        head = f"{reach}, s, {plan.text}" if plan is not None else reach
        return Frag(f"{self.runtime(n.name)}({head}, {cards.text}, {keep}, {enough}, {self.at(n)})",
                    deps_of(parts), False, True)

    call_best_points_after = call_best_points

    def stream_items(self, n: R.Expr, scope: Scope, card: Frag | None) -> Frag:
        """The items of a list for `any`/`all`: the melds of `melds_in` a
        group at a time (with a card that cannot fail, only the groups that may hold it), a list joined with
        `+` one part after the other."""
        if isinstance(n, R.BuiltinCall) and n.name == "melds_in":
            mask = self.mask(n.args[0], scope)
            melds = self.melds()
            if card is None:
                return Frag(f"{self.bound(melds.each_meld, 'each_meld')}({mask.text}, {self.owner()})", mask.deps)
            holding = self.bound(meld_calls.stream_holding, "holding")
            return Frag(f"{holding}({self.m.const(melds, 'melds')}, {mask.text}, {self.owner()}, {card.text})",
                        mask.deps | card.deps)
        if isinstance(n, R.Arith) and n.op == "+" and is_list(n.type):
            left, right = self.stream_items(n.left, scope, card), self.stream_items(n.right, scope, card)
            return Frag(f"{self.bound(rt.joined, 'joined')}({left.text}, {right.text}, {self.at(n)})", left.deps | right.deps)
        items = self.sequence(n, scope)
        return Frag(f"list({items.text})", items.deps)

    def _SeatOrder(self, n: R.SeatOrder, scope: Scope) -> Frag:
        start = self.gen(n.start, scope)
        return Frag(f"{self.bound(rt.seat_order, 'seat_order')}({start.text}, {n.others}, s.direction, s.n, "
                    f"{self.at(n)})", start.deps, False, True)

