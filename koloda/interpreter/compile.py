"""AST -> Python closures, once per game load.

Every closure takes (s, b): the State and a dict of local bindings
(parameters, loop names, `let`). Names were resolved by the checker, options
are constants by now, and rule text never reaches eval or exec.
"""
from __future__ import annotations

import operator
from typing import Callable, TYPE_CHECKING

from koloda.dsl import ast
from koloda.dsl.check import Checked
from koloda.dsl.types import BOOL, RANK, ZONE, is_list
from koloda.interpreter.errors import RuleRuntimeError

if TYPE_CHECKING:
    from koloda.interpreter.game import Game

Fn = Callable[[object, dict], object]
_MISSING = object()

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


class Compiler:
    def __init__(self, game: "Game", checked: Checked):
        self.game = game
        self.types = checked.types
        self.refs = checked.refs
        self.functions: dict[str, Fn] = {}
        # id(closure) -> (closure, the value it always gives); the closure is kept so its id stays unique
        self.constants: dict[int, tuple[Fn, object]] = {}
        # While a user function is compiled inline: its parameters -> the caller's argument closures.
        self.subst: dict[str, Fn] = {}
        self._binders: dict[str, set[str]] = {}
        self.epoch = [0]           # advanced by the flow each time legal moves are listed
        self._free_cache: dict[ast.Node, set[str]] = {}

    def constant(self, value) -> Fn:
        f = lambda s, b: value
        self.constants[id(f)] = (f, value)
        return f

    def is_constant(self, f: Fn) -> bool:
        return id(f) in self.constants

    # ------------------------------------------------------------ helpers
    def type_of(self, node: ast.Node) -> str:
        return self.types.get(id(node), "any")

    def sequence(self, node: ast.Node) -> Fn:
        """A closure giving the items of a list- or zone-valued expression."""
        f = self.expr(node)
        if self.type_of(node) == ZONE:
            return lambda s, b: s.zones[f(s, b)]
        return f

    # ------------------------------------------------------------ expressions
    def expr(self, n: ast.Node) -> Fn:
        method = getattr(self, "_" + type(n).__name__)
        f = method(n)
        if self.hoisting and isinstance(n, _COSTLY) and not self._free_locals(n):
            return self._once_per_decision(f)
        return f

    # While legal moves are listed the state does not change, so a costly part of a guard that
    # does not depend on the action's parameters (`any(d.suit == led() for d in my hand)`) is
    # worked out once per decision, not once per card.
    hoisting = False

    def guard(self, n: ast.Node) -> Fn:
        self.hoisting = True
        try:
            return self.expr(n)
        finally:
            self.hoisting = False

    def _once_per_decision(self, f: Fn) -> Fn:
        epoch = self.epoch
        memo = [None, -1, None]

        def once(s, b):
            if memo[0] is s and memo[1] == epoch[0]:
                return memo[2]
            value = f(s, b)
            memo[0], memo[1], memo[2] = s, epoch[0], value
            return value
        return once

    def _free_locals(self, n: ast.Node) -> set[str]:
        """Local names (parameters, loop names) a node reads but does not bind itself."""
        if n in self._free_cache:
            return self._free_cache[n]
        free: set[str] = set()
        if isinstance(n, ast.Name):
            ref = self.refs.get(id(n))
            if ref is not None and ref[0] == "local":
                free.add(n.name)
        elif isinstance(n, ast.Call) and n.func in self.game.spec.functions and n.args:
            free = set().union(*(self._free_locals(a) for a in n.args))
        else:
            for child in _children(n):
                free |= self._free_locals(child)
            if isinstance(n, (ast.Aggregate, ast.ListComp)):
                free = (free - {n.var}) | self._free_locals(n.iterable)
        self._free_cache[n] = free
        return free

    def _Number(self, n: ast.Number) -> Fn:
        ref = self.refs.get(id(n))
        return self.constant(ref[1] if ref else n.value)

    def _String(self, n: ast.String) -> Fn:
        return self.constant(n.value)

    def _Name(self, n: ast.Name) -> Fn:
        kind, arg = self.refs[id(n)]
        if kind == "local":
            if arg in self.subst:
                return self.subst[arg]
            return lambda s, b: b[arg]
        if kind == "const":
            return self.constant(arg)
        if kind == "grid":
            return self.constant(self.game.grid_base[arg])
        if kind == "melds_of":
            return self._melds_of(None)
        if kind == "zone":
            return self.constant(self.game.zone_base[arg])
        if kind == "var":
            index = self.game.var_base[arg]
            return lambda s, b: s.vars[index]
        return self._state_name(arg)

    def _state_name(self, name: str) -> Fn:
        g = self.game
        if name == "me":
            return lambda s, b: s.current
        if name == "dealer":
            return lambda s, b: s.dealer
        if name == "players":
            return lambda s, b: list(range(s.n))
        if name == "others":            # in seat order, starting at the left of the player to move
            return lambda s, b: [(s.current + k) % s.n for k in range(1, s.n)]
        if name == "last_meld":
            return lambda s, b: s.last_meld
        if name == "player_count":
            return lambda s, b: s.n
        if name == "deal_number":
            return lambda s, b: s.deal_number
        if name == "deck_size":
            size = g.cards.size
            return lambda s, b: size
        if name == "suits":
            return lambda s, b: [0, 1, 2, 3]
        if name == "ranks":
            ranks = list(g.cards.deck_ranks)
            return lambda s, b: ranks
        if name == "sides":
            return lambda s, b: list(range(g.num_sides))
        if name == "melds":
            return self._melds_of(None)
        if name == "all_cards":
            every = list(range(g.cards.size))
            return lambda s, b: list(every)
        raise AssertionError(name)

    def _My(self, n: ast.My) -> Fn:
        return self._player_attr(self.refs[id(n)], lambda s, b: s.current, n)

    def _Attr(self, n: ast.Attr) -> Fn:
        ref = self.refs.get(id(n))
        if ref is None:
            raise AssertionError(f"unresolved attribute at {n.span}")
        kind, name = ref
        if kind == "option":
            return self.constant(self.game.options[name])
        obj = self.expr(n.obj)
        cards = self.game.cards
        if kind == "card":
            table = {"rank": cards.ranks, "suit": cards.suits, "color": cards.colors}.get(name)
            if table is not None and isinstance(n.obj, ast.Name) and self.refs[id(n.obj)][0] == "local" \
                    and n.obj.name not in self.subst:
                var = n.obj.name

                def local_card_attr(s, b):
                    c = b[var]
                    return None if c is None else table[c]
                return local_card_attr
            if table is not None:
                def card_attr(s, b):
                    c = obj(s, b)
                    return None if c is None else table[c]
                return card_attr

            if name == "deck":
                decks = self.game.card_deck

                def card_deck(s, b):
                    c = obj(s, b)
                    return None if c is None or decks is None else decks[c]
                return card_deck
            if name == "face_up":
                def card_face_up(s, b):
                    c = obj(s, b)
                    return None if c is None else s.face[c]
                return card_face_up

            def card_by(s, b):
                c = obj(s, b)
                return None if c is None else s.by[c]
            return card_by
        if kind == "grid":
            grids = self.game.grids

            def grid_attr(s, b):
                g = obj(s, b)
                return None if g is None else getattr(grids[g], name)
            return grid_attr
        if kind == "player_side":
            nsides = self.game.num_sides

            def side_of(s, b):
                p = obj(s, b)
                return None if p is None else p % nsides
            return side_of
        if kind == "side_players":
            nsides = self.game.num_sides
            return lambda s, b: [p for p in range(s.n) if p % nsides == obj(s, b)]
        if kind == "zone":
            if name == "top":
                def top(s, b):
                    z = s.zones[obj(s, b)]
                    return z[-1] if z else None
                return top
            if name == "bottom":
                def bottom(s, b):
                    z = s.zones[obj(s, b)]
                    return z[0] if z else None
                return bottom
            if name == "size":
                return lambda s, b: len(s.zones[obj(s, b)])
            if name == "cards":
                return lambda s, b: list(s.zones[obj(s, b)])
            if name == "free":
                def free(s, b):
                    z = s.zones[obj(s, b)]
                    return not z or not s.face[z[-1]]
                return free
            if name in ("kind", "fresh"):
                zone_slot, kinds = self.game.zone_slot, [k.name for k in self.game.spec.meld_kinds]

                def meld_attr(s, b):
                    slot = zone_slot.get(obj(s, b))
                    if slot is None or s.slot_kind[slot] is None:
                        return None if name == "kind" else False
                    return kinds[s.slot_kind[slot]] if name == "kind" else s.slot_turn[slot] == s.turn_no
                return meld_attr
            if name in ("rank", "grid", "row", "column"):
                cells, k = self.game.zone_cell, ("grid", "row", "column", "rank").index(name)

                def cell_attr(s, b):
                    cell = cells[obj(s, b)]
                    return None if cell is None else cell[k]
                return cell_attr
            g = self.game
            # a side's zone has no single owner; a player's zone belongs to the player's side too
            owners = [None if by_side else o for o, by_side in zip(g.zone_owner, g.zone_by_side)]
            sides = [o if by_side or o is None else g.side_of(o) for o, by_side in zip(g.zone_owner, g.zone_by_side)]
            table = owners if name == "owner" else sides
            zone_slot = g.zone_slot

            def owner_of(s, b):
                z = obj(s, b)
                slot = zone_slot.get(z)
                if slot is not None and s.slot_kind[slot] is not None:     # a meld: whoever made it
                    o = s.slot_owner[slot]
                    if g.meld_by_side:
                        return None if name == "owner" else o
                    return o if name == "owner" else g.side_of(o)
                return table[z]
            return owner_of
        if kind == "list":
            return lambda s, b: len(obj(s, b))
        if kind == "plan":
            return self._plan_attr(name, obj)
        return self._player_attr(ref, obj, n)

    def _plan_attr(self, name: str, obj: Fn) -> Fn:
        from koloda.interpreter.melds import LAYOFF, NEW, SWAP
        g = self.game
        kinds = [k.name for k in g.spec.meld_kinds]
        slot_zone = g.slot_zone
        get = {
            "cards": lambda p: list(p.cards), "points": lambda p: p.points, "size": lambda p: len(p.cards),
            "kind": lambda p: kinds[p.kind], "new": lambda p: p.type == NEW, "layoff": lambda p: p.type == LAYOFF,
            "swap": lambda p: p.type == SWAP,
            "target": lambda p: None if p.type == NEW else slot_zone[p.target],
        }[name]

        def plan_attr(s, b):
            p = obj(s, b)
            return None if p is None else get(p)
        return plan_attr

    def _melds_of(self, owner: Fn | None) -> Fn:
        """The melds on the table, in the order made (all of them, or one owner's)."""
        slot_zone = self.game.slot_zone
        if owner is None:
            return lambda s, b: [slot_zone[k] for k, kind in enumerate(s.slot_kind) if kind is not None]

        def melds_of(s, b):
            o = owner(s, b)
            return [slot_zone[k] for k, kind in enumerate(s.slot_kind) if kind is not None and s.slot_owner[k] == o]
        return melds_of

    def owner_index(self, kind: str, name: str, owner: Fn, span) -> Fn:
        """Where a player's (or side's) own zone, grid or variable sits: base + owner.

        A player reaches their side's things through the side: partners share them."""
        g = self.game
        family = kind.split("_", 1)[1]
        base = {"zone": g.zone_base, "grid": g.grid_base, "var": g.var_base}[family][name]
        spec = g.spec.vars[name] if family == "var" else g.spec.zones[name]
        nsides = g.num_sides if kind.startswith("player_") and spec.per_side else 0

        def index(s, b):
            p = owner(s, b)
            if p is None:
                raise RuleRuntimeError(f"`{name}` of no {kind.split('_')[0]}", span)
            return base + (p % nsides if nsides else p)
        return index

    def _player_attr(self, ref: tuple, player: Fn, n: ast.Node) -> Fn:
        kind, name = ref
        if kind.endswith("_melds"):
            g = self.game
            if kind == "player_melds":
                return self._melds_of(lambda s, b: g.meld_owner_of(player(s, b)))
            return self._melds_of(player)
        index = self.owner_index(kind, name, player, n.span)
        if kind.endswith("_var"):
            return lambda s, b: s.vars[index(s, b)]
        return index

    def _Index(self, n: ast.Index) -> Fn:
        obj, index, span = self.expr(n.obj), self.expr(n.index), n.span

        def at(s, b):
            items = obj(s, b)
            i = index(s, b)
            if not -len(items) <= i < len(items):
                raise RuleRuntimeError(f"index {i} is outside a list of {len(items)}", span)
            return items[i]
        return at

    def _Call(self, n: ast.Call) -> Fn:
        kind, name = self.refs[id(n)]
        args = [self.expr(a) for a in n.args]
        if kind == "function":
            return self._user_call(name, n, args)
        g = self.game
        span = n.span
        if name in ("value", "next", "prev", "abs"):
            (a,) = args
            f = {"value": g.cards.values.__getitem__, "abs": abs}.get(name)
            step = 1 if name == "next" else -1
            what = {"value": "card", "abs": "number"}.get(name, "player")

            def unary(s, b):
                x = a(s, b)
                if x is None:
                    raise RuleRuntimeError(f"`{name}` of no {what} (the argument is none)", span)
                return f(x) if f is not None else (x + step) % s.n
            return unary
        if name == "top":
            zone, count = args

            def top(s, b):
                k = count(s, b)
                if k is None or k < 0:
                    raise RuleRuntimeError(f"`top` takes a count of 0 or more, not {k}", span)
                return s.zones[zone(s, b)][::-1][:k]
            return top
        if name == "winner":
            return self._winner(args, n)
        if name in ("melds_in", "layoffs", "swaps", "best_points"):
            return self._meld_function(name, n)
        if name == "hand_pattern":
            cards = self.sequence(n.args[0])
            return lambda s, b: g.patterns.name(list(cards(s, b)))
        if name == "hand_compare":
            left, right = self.sequence(n.args[0]), self.sequence(n.args[1])
            return lambda s, b: g.patterns.compare(list(left(s, b)), list(right(s, b)))
        if name in ("max", "min") and len(args) >= 2:
            fold = max if name == "max" else min
            return lambda s, b: fold(a(s, b) for a in args)
        items = self.sequence(n.args[0])
        return self._reduce(name, items, n)

    def _reduce(self, name: str, items: Fn, n: ast.Node) -> Fn:
        span = n.span
        if name == "count":
            return lambda s, b: len(items(s, b))
        if name == "sum":
            def total(s, b):
                values = items(s, b)
                if None in values:
                    raise RuleRuntimeError("`sum` over a list that holds none", span)
                return sum(values)
            return total
        if name == "any":
            return lambda s, b: any(items(s, b))
        if name == "all":
            return lambda s, b: all(items(s, b))
        fold = max if name == "max" else min

        def extreme(s, b):
            values = list(items(s, b))
            if not values:
                raise RuleRuntimeError(f"`{name}` of nothing", span)
            return fold(values)
        return extreme

    def _meld_function(self, name: str, n: ast.Call) -> Fn:
        g = self.game
        listed = self.sequence(n.args[0])

        def cards(s, b):                 # a card named twice is still one card
            return sorted(set(c for c in listed(s, b) if c is not None))
        slot_zone = g.slot_zone

        def occupied(s):
            return [(k, slot_zone[k]) for k, kind in enumerate(s.slot_kind) if kind is not None]
        if name == "melds_in":
            return lambda s, b: g.melds.melds_in(cards(s, b), g.meld_owner_of(s.current))
        if name == "layoffs":
            return lambda s, b: g.melds.layoffs(s, cards(s, b), occupied(s))
        if name == "swaps":
            return lambda s, b: g.melds.swaps(s, cards(s, b), occupied(s))
        return lambda s, b: g.melds.best_points(cards(s, b))

    def _winner(self, args: list[Fn], n: ast.Node) -> Fn:
        """The player whose card takes the trick: highest trump, else highest of the suit led."""
        zone, trump = args
        cards = self.game.cards
        suits, ranks, order = cards.suits, cards.ranks, cards.order
        span = n.span

        def winner(s, b):
            trick = s.zones[zone(s, b)]
            if not trick:
                raise RuleRuntimeError("`winner` of an empty trick", span)
            t = trump(s, b)
            led = suits[trick[0]]
            best = trick[0]
            for c in trick[1:]:
                cs, bs = suits[c], suits[best]
                if cs == bs:
                    if order[ranks[c]] > order[ranks[best]]:
                        best = c
                elif cs == t and t is not None:
                    best = c
                elif bs != t and cs == led and bs != led:
                    best = c
            return s.by[best]
        return winner

    def _user_call(self, name: str, n: ast.Call, args: list[Fn]) -> Fn:
        fn = self.game.spec.functions[name]
        params = [p.name for p in fn.signature.params]
        if all(_simple(a) for a in n.args):
            used = set().union(*(_locals_in(a) for a in n.args)) if n.args else set()
            if not used & self.binders(name):
                # Inline: the body reads the caller's argument closures directly, with no frame of its own.
                # Safe because arguments are cheap and pure, and the body binds none of the caller's names.
                saved = self.subst
                self.subst = dict(zip(params, args))
                try:
                    return self.expr(fn.body)
                finally:
                    self.subst = saved
        key = (name, self.hoisting)         # a body compiled for a guard may hold per-decision memos
        if key not in self.functions:
            self.functions[key] = None     # the checker rejected recursion already
            saved, self.subst = self.subst, {}     # a body compiled on its own sees only its parameters
            try:
                self.functions[key] = self.expr(fn.body)
            finally:
                self.subst = saved
        body_ref, name = self.functions, key
        if not params:
            return lambda s, b: body_ref[name](s, {})
        if len(params) == 1:
            (p0,), (a0,) = params, args
            return lambda s, b: body_ref[name](s, {p0: a0(s, b)})
        pairs = list(zip(params, args))
        return lambda s, b: body_ref[name](s, {p: a(s, b) for p, a in pairs})

    def binders(self, name: str) -> set[str]:
        """Names a function's body binds (loop names), through every function it calls."""
        if name not in self._binders:
            self._binders[name] = set()
            found: set[str] = set()
            for node in _walk(self.game.spec.functions[name].body):
                if isinstance(node, (ast.Aggregate, ast.ListComp)):
                    found.add(node.var)
                elif isinstance(node, ast.Call) and node.func in self.game.spec.functions:
                    found |= self.binders(node.func)
            self._binders[name] = found
        return self._binders[name]

    def _iterate(self, var: str, iterable: ast.Node, cond: ast.Node | None, elem_node) -> Fn:
        items = self.sequence(iterable)
        # the loop name hides an inlined parameter of the same name
        saved = self.subst
        if var in saved:
            self.subst = {k: v for k, v in saved.items() if k != var}
        try:
            test = self.expr(cond) if cond is not None else None
            elem = elem_node if callable(elem_node) else self.expr(elem_node)
        finally:
            self.subst = saved

        def gen(s, b):
            saved = b.get(var, _MISSING)
            out = []
            for x in list(items(s, b)):
                b[var] = x
                if test is None or test(s, b):
                    out.append(elem(s, b))
            if saved is _MISSING:
                b.pop(var, None)
            else:
                b[var] = saved
            return out
        return gen

    def _Aggregate(self, n: ast.Aggregate) -> Fn:
        if n.func == "count":
            # `count(c.rank == J for c in hand)` counts the true ones; `count(c for c in hand if ...)` the items
            if self.type_of(n.elem) == BOOL:
                test = n.elem if n.cond is None else ast.And(n.span, n.cond, n.elem)
                self.types[id(test)] = BOOL
                values = self._iterate(n.var, n.iterable, test, lambda s, b: True)
            else:
                values = self._iterate(n.var, n.iterable, n.cond, lambda s, b: True)
        else:
            values = self._iterate(n.var, n.iterable, n.cond, n.elem)
        return self._reduce(n.func, values, n)

    def _ListLit(self, n: ast.ListLit) -> Fn:
        items = [self.expr(i) for i in n.items]
        return lambda s, b: [f(s, b) for f in items]

    def _ListComp(self, n: ast.ListComp) -> Fn:
        return self._iterate(n.var, n.iterable, n.cond, n.elem)

    def _Range(self, n: ast.Range) -> Fn:
        low, high = self.expr(n.low), self.expr(n.high)
        return lambda s, b: list(range(low(s, b), high(s, b) + 1))

    def _Arith(self, n: ast.Arith) -> Fn:
        left, right, op, span = self.expr(n.left), self.expr(n.right), _ARITH[n.op], n.span

        def arith(s, b):
            x, y = left(s, b), right(s, b)
            if x is None or y is None:
                raise RuleRuntimeError(f"`{n.op}` with none", span)
            if y == 0 and n.op in ("//", "%"):
                raise RuleRuntimeError("division by zero", span)
            return op(x, y)
        return arith

    def _Compare(self, n: ast.Compare) -> Fn:
        left, right, op = self.expr(n.left), self.expr(n.right), _COMPARE[n.op]
        if n.op in ("==", "!="):
            equal = n.op == "=="
            if self.is_constant(right):
                k = self.constants[id(right)][1]
                if k is None:
                    return (lambda s, b: left(s, b) is None) if equal else (lambda s, b: left(s, b) is not None)
                return (lambda s, b: left(s, b) == k) if equal else (lambda s, b: left(s, b) != k)
            if equal:
                return lambda s, b: left(s, b) == right(s, b)
            return lambda s, b: left(s, b) != right(s, b)
        span = n.span
        if self.type_of(n.left) == RANK:
            order = self.game.cards.order

            def rank_compare(s, b):
                x, y = left(s, b), right(s, b)
                if x is None or y is None:
                    raise RuleRuntimeError(f"`{n.op}` with none", span)
                return op(order[x], order[y])
            return rank_compare

        def compare(s, b):
            x, y = left(s, b), right(s, b)
            if x is None or y is None:
                raise RuleRuntimeError(f"`{n.op}` with none", span)
            return op(x, y)
        return compare

    def _In(self, n: ast.In) -> Fn:
        item, negated = self.expr(n.item), n.negated
        if self.type_of(n.container) == ZONE:
            zone = self.expr(n.container)

            def in_zone(s, b):
                x = item(s, b)
                return (x is not None and s.loc[x] == zone(s, b)) != negated
            return in_zone
        container = self.expr(n.container)
        return lambda s, b: (item(s, b) in container(s, b)) != negated

    def _And(self, n: ast.And) -> Fn:
        parts = [self.expr(x) for x in _chain(n, ast.And)]
        if len(parts) == 2:
            left, right = parts
            return lambda s, b: left(s, b) and right(s, b)

        def all_of(s, b):
            for f in parts:
                if not f(s, b):
                    return False
            return True
        return all_of

    def _Or(self, n: ast.Or) -> Fn:
        if self.type_of(n) == BOOL:
            parts = [self.expr(x) for x in _chain(n, ast.Or)]
            if len(parts) == 2:
                left, right = parts
                return lambda s, b: left(s, b) or right(s, b)

            def any_of(s, b):
                for f in parts:
                    if f(s, b):
                        return True
                return False
            return any_of
        left, right = self.expr(n.left), self.expr(n.right)

        def coalesce(s, b):            # `named_suit or pile.top.suit`: the first that is not none
            x = left(s, b)
            return right(s, b) if x is None else x
        return coalesce

    def _Not(self, n: ast.Not) -> Fn:
        operand = self.expr(n.operand)
        return lambda s, b: not operand(s, b)

    def _Neg(self, n: ast.Neg) -> Fn:
        operand, span = self.expr(n.operand), n.span

        def neg(s, b):
            x = operand(s, b)
            if x is None:
                raise RuleRuntimeError("`-` of none", span)
            return -x
        return neg

    def _IfElse(self, n: ast.IfElse) -> Fn:
        then, cond, orelse = self.expr(n.then), self.expr(n.cond), self.expr(n.orelse)
        return lambda s, b: then(s, b) if cond(s, b) else orelse(s, b)

    # ------------------------------------------------------------ effects
    def effects(self, nodes) -> Fn:
        steps = [self.effect(e) for e in nodes]
        if not steps:
            return lambda s, b: None
        if len(steps) == 1:
            return steps[0]

        def run_all(s, b):
            for step in steps:
                step(s, b)
        return run_all

    def effect(self, e: ast.Node) -> Fn:
        run = getattr(self, "_do_" + type(e).__name__)(e)
        span = e.span

        def located(s, b):
            try:
                run(s, b)
            except RuleRuntimeError:
                raise
            except (TypeError, IndexError, KeyError, ValueError) as exc:
                raise RuleRuntimeError(f"this effect failed: {exc}", span) from None
        return located

    def _do_Move(self, e: ast.Move) -> Fn:
        what, dest, kind, span = self.expr(e.what), self.expr(e.dest), self.type_of(e.what), e.span
        face_up, under = not e.face_down, e.under

        def move(s, b):
            target = dest(s, b)
            x = what(s, b)
            if kind == ZONE:
                cards = list(s.zones[x])
            elif is_list(kind):
                cards = list(x)
            else:
                if x is None:
                    raise RuleRuntimeError("there is no card to move", span)
                cards = [x]
            who = s.actor
            for c in (reversed(cards) if under else cards):      # under: the cards keep their order
                s.move(c, target, who, face_up, under)
        return move

    def _do_Meld(self, e: ast.Meld) -> Fn:
        plan, span = self.expr(e.plan), e.span

        def meld(s, b):
            p = plan(s, b)
            if p is None:
                raise RuleRuntimeError("nothing to meld", span)
            s.meld(p, s.actor)
        return meld

    def _do_Shuffle(self, e: ast.Shuffle) -> Fn:
        zone = self.expr(e.zone)
        return lambda s, b: s.shuffle(zone(s, b))

    def _do_Gather(self, e: ast.Gather) -> Fn:
        zone = self.expr(e.dest)
        return lambda s, b: s.gather(zone(s, b))

    def _do_Deal(self, e: ast.Deal) -> Fn:
        count = self.expr(e.count)
        base = self.game.zone_base[e.family]
        source = self.expr(e.source) if e.source is not None else (lambda s, b, z=self.game.zone_base["stock"]: z)
        span = e.span
        return lambda s, b: s.deal(count(s, b), base, source(s, b), span)

    def _do_Assign(self, e: ast.Assign) -> Fn:
        value = self.expr(e.value)
        kind, name = self.refs[id(e.target)]
        if kind == "var":
            base = self.game.var_base[name]
            index = lambda s, b: base
        else:
            index = self.owner_index(kind, name, self.expr(e.target.obj), e.target.span)
        if e.op == "=":
            def assign(s, b):
                s.vars[index(s, b)] = value(s, b)
            return assign
        op = _ARITH[e.op[0]]
        span = e.span

        def update(s, b):
            i = index(s, b)
            old, x = s.vars[i], value(s, b)
            if old is None or x is None:
                raise RuleRuntimeError(f"`{e.op}` with none", span)
            s.vars[i] = op(old, x)
        return update

    def _do_Let(self, e: ast.Let) -> Fn:
        value, name = self.expr(e.value), e.name

        def let(s, b):
            b[name] = value(s, b)
        return let

    def _do_Goto(self, e: ast.Goto) -> Fn:
        step = e.step

        def goto(s, b):
            s.goto = step
        return goto

    def _do_TurnTo(self, e: ast.TurnTo) -> Fn:
        player = self.expr(e.player)

        def turn_to(s, b):
            s.next_player = player(s, b)
        return turn_to

    def _do_Skip(self, e: ast.Skip) -> Fn:
        player = self.expr(e.player)

        def skip(s, b):
            s.skips[player(s, b)] += 1
        return skip

    def _do_Ask(self, e: ast.Ask) -> Fn:
        player, step, span = self.expr(e.player), e.step, e.span
        many = is_list(self.type_of(e.player))

        def ask(s, b):
            p = player(s, b)
            if p is None:
                raise RuleRuntimeError("nobody to ask", span)
            s.asked = ([q for q in p if q is not None] if many else [p], step)
        return ask

    def _do_EndDeal(self, e) -> Fn:
        def end_deal(s, b):
            s.deal_over = True
        return end_deal

    def _do_EndTurn(self, e) -> Fn:
        def end_turn(s, b):
            s.goto = None
        return end_turn

    def _do_If(self, e: ast.If) -> Fn:
        cond, then, orelse = self.expr(e.cond), self.effects(e.then), self.effects(e.orelse)

        def if_(s, b):
            if cond(s, b):
                then(s, b)
            else:
                orelse(s, b)
        return if_

    def _do_For(self, e: ast.For) -> Fn:
        items, body, var = self.sequence(e.iterable), self.effects(e.body), e.var

        def for_(s, b):
            saved = b.get(var, _MISSING)
            for x in list(items(s, b)):
                b[var] = x
                body(s, b)
            if saved is _MISSING:
                b.pop(var, None)
            else:
                b[var] = saved
        return for_


def _chain(n, kind) -> list:
    """`a and b and c` as [a, b, c]."""
    if isinstance(n, kind):
        return _chain(n.left, kind) + _chain(n.right, kind)
    return [n]


def _simple(n) -> bool:
    """Cheap, pure expressions that may be evaluated more than once."""
    if isinstance(n, (ast.Name, ast.Number, ast.String, ast.My)):
        return True
    return isinstance(n, ast.Attr) and _simple(n.obj)


def _locals_in(n) -> set[str]:
    return {x.name for x in _walk(n) if isinstance(x, ast.Name)}


def _children(n):
    for name in getattr(n, "__slots__", ()):
        value = getattr(n, name, None)
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, ast.Node):
                    yield item


def _walk(n):
    yield n
    for child in _children(n):
        yield from _walk(child)


_COSTLY = (ast.Aggregate, ast.ListComp, ast.Call)
