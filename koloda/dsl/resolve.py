"""Expressions checked and resolved: syntax nodes in, typed resolved nodes out.

Each `_<SyntaxClass>` method checks one kind of syntax node and returns the
resolved node for what it means (see resolved.py), reporting every problem
it finds instead of stopping at the first. Names are looked up once here, so
the compiler never looks at a name again.
"""
from __future__ import annotations

from typing import Callable

from koloda.dsl import ast
from koloda.dsl import resolved as R
from koloda.dsl.builtins import (AGGREGATES, ATTRIBUTES, CARD_ORDER, CARD_SLOT, CARD_SUIT, CARDS, FUNCTIONS, TRUMP,
                                 LATER_NAMES, LIST_ATTRS, PLAYER_ATTRS, SEQUENCE, SIDE_ATTRS, STATE_NAMES, Param)
from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.fixed import fixed_int
from koloda.dsl.limits import MAX_NESTING, MAX_WORK
from koloda.dsl.model import Spec
from koloda.dsl.params import combo_kind
from koloda.dsl.rows import members
from koloda.dsl.resolve_ops import Operators
from koloda.dsl.types import (ANY, BOOL, CARD, CONSTANTS, FRAC, GRID, INT, NONE, PLAYER, RANK, SIDE, STR, SUIT,
                              TYPE_NAMES, ZONE, MAX_RANK_NUMBER, assignable, compatible, elem, enum_of, enum_words,
                              is_enum, is_list, is_number, list_of, number_of, number_rank, show)

Scope = dict[str, str]       # local name -> its type

_ATTR_NODES: dict[str, type[R.Attribute]] = {CARD: R.CardAttr, ZONE: R.ZoneAttr, GRID: R.GridAttr, "plan": R.PlanAttr,
                                             "combo": R.ComboAttr}
_ORDINALS = ("first", "second", "third", "fourth")


class Resolver(Operators):
    def __init__(self, spec: Spec, var_types: dict[str, str], functions: dict[str, R.Function] | None = None):
        self.spec = spec
        self.var_types = var_types
        self.errors: list[RuleError] = []
        self.functions: dict[str, R.Function] = dict(functions or {})
        self._func_stack: list[str] = []
        self._dispatch: dict[type, Callable[[ast.Node, Scope], R.Expr]] = {}
        self._depth = 0
        self._too_deep = False

    # ------------------------------------------------------------ reporting
    def error(self, message: str, where: ast.Node | R.Node | Span, hint: str | None = None,
              category: str = "error") -> None:
        span = where if isinstance(where, Span) else where.span
        self.errors.append(RuleError(message, span, hint, category))

    def expect(self, node: ast.Node, scope: Scope, want: str, what: str) -> R.Expr:
        r = self.coerce_rank(node, self.expr(node, scope), want)
        if r.type != ANY and not assignable(want, r.type):
            wanted = "a number" if want == FRAC else show(want)       # FRAC takes whole numbers too
            hint = "a whole number is wanted here: round with `//` (`pot // 2`)" if r.type == FRAC else None
            self.error(f"{what} must be {wanted}, but this is {show(r.type)}", node, hint, category="type")
        return r

    # ------------------------------------------------------------ dispatch
    def expr(self, node: ast.Node, scope: Scope) -> R.Expr:
        cls = type(node)
        method = self._dispatch.get(cls)
        if method is None:
            method = getattr(self, "_" + cls.__name__, None) or self._not_an_expression
            self._dispatch[cls] = method
        # Bounded here, where functions' bodies are followed, so that checking, compiling and
        # evaluating never run out of Python's stack.
        if self._depth >= MAX_NESTING:
            if not self._too_deep:
                self.error(f"this is nested more than {MAX_NESTING} deep, counting the functions it calls: "
                           "write it in smaller parts", node, category="limit")
            self._too_deep = True
            return R.Invalid(node.span, ANY)
        self._depth += 1
        try:
            return method(node, scope)
        finally:
            self._depth -= 1

    def _not_an_expression(self, n: ast.Node, scope: Scope) -> R.Expr:
        self.error("an effect cannot stand where a value is expected", n)
        return R.Invalid(n.span, ANY)

    # ------------------------------------------------------------ literals and names
    def _Number(self, n: ast.Number, scope: Scope) -> R.Expr:
        return R.Const(n.span, INT, n.value)

    def _String(self, n: ast.String, scope: Scope) -> R.Expr:
        return R.Const(n.span, STR, n.value)

    def coerce_rank(self, node: ast.Node, r: R.Expr, other: str) -> R.Expr:
        """`c.rank == 7`, `c.rank in [7, 8]`, `start: 7` for a rank: a written number where a rank
        is wanted is that rank."""
        if r.type == INT and other == RANK and isinstance(node, ast.Number):
            numbers = self.spec.deck.numbers()        # 2..10, and the numbered ranks of a deck built from a list
            if not (1 <= node.value <= MAX_RANK_NUMBER if numbers is None else node.value in numbers):
                self.error(f"there is no rank {node.value}", node, category="type")
            return R.Const(r.span, RANK, number_rank(node.value))
        if r.type == list_of(INT) and other == list_of(RANK) and isinstance(node, ast.ListLit) \
                and isinstance(r, R.ListLit) \
                and all(isinstance(i, ast.Number) or item.type == RANK for i, item in zip(node.items, r.items)):
            items = tuple(self.coerce_rank(i, item, RANK) for i, item in zip(node.items, r.items))
            return R.ListLit(r.span, list_of(RANK), items)
        return r

    def word_for(self, node: ast.Node, scope: Scope, t: str) -> R.Expr:
        """A value where a word variable's value is wanted (`last == bet`, `last = fold`): one of its
        words may be written bare; a written text must be one of its words."""
        if is_enum(t) and isinstance(node, ast.Name) and node.name not in scope:
            name = node.name
            if name in enum_words(t):
                return R.Const(node.span, t, name)
            if not (name in CONSTANTS or name in STATE_NAMES or name in self.spec.zones or name in self.spec.vars):
                self.check_word(R.Const(node.span, STR, name), t)       # a misspelt word, said as one
                return R.Invalid(node.span, t)
        r = self.expr(node, scope)
        self.check_word(r, t)
        return r

    def check_word(self, r: R.Expr, t: str) -> None:
        if not is_enum(t):
            return
        words = enum_words(t)
        texts = r.items if isinstance(r, R.ListLit) else (r,)
        for item in texts:
            if isinstance(item, R.Const) and item.type == STR and item.value not in words:
                self.error(f"`{item.value}` is not one of {', '.join(words)}", item,
                           did_you_mean(str(item.value), words) or "one of " + ", ".join(words), category="type")

    def _Name(self, n: ast.Name, scope: Scope) -> R.Expr:
        name, span = n.name, n.span
        if name in scope:
            return R.Local(span, scope[name], name)
        if name in CONSTANTS:
            t, value = CONSTANTS[name]
            return R.Const(span, t, value)
        deck_word = self.spec.deck.words().get(name)     # a suit of the deck's own (`trumps`), a knight `C`
        if deck_word is not None and name not in self.spec.zones and name not in self.spec.vars:
            return R.Const(span, deck_word[0], deck_word[1])
        if name in STATE_NAMES and not (name in LATER_NAMES and (name in self.spec.zones or name in self.spec.vars)):
            return R.StateValue(span, STATE_NAMES[name], name)
        row = self.spec.rows.get(name)
        if row is not None:             # a row of like zones (dsl/rows.py): the list of them, first to last
            return R.ListLit(span, list_of(ZONE), tuple(R.ZoneRef(span, ZONE, z) for z in members(row)))
        zone = self.spec.zones.get(name)
        if zone is not None:
            if zone.each_player:
                self.error(f"`{name}` belongs to each {'side' if zone.per_side else 'player'}: "
                           f"write `my {name}` or `p.{name}`", n)
                return R.Invalid(span, GRID if zone.grid else ZONE)
            if zone.grid:
                return R.GridRef(span, GRID, name)
            if zone.melds:
                return R.MeldsOf(span, list_of(ZONE), None, False)
            return R.ZoneRef(span, ZONE, name)
        var = self.spec.vars.get(name)
        if var is not None:
            t = self.var_types.get(name, ANY)
            if var.each_player:
                self.error(f"`{name}` belongs to each player: write `my {name}` or `p.{name}`", n)
                return R.Invalid(span, t)
            return R.VarRef(span, t, name)
        if name == "option":
            self.error("`option` is followed by the option's name, as in `option.hand`", n)
            return R.Invalid(span, ANY)
        known = list(scope) + list(CONSTANTS) + list(self.spec.deck.words()) + list(STATE_NAMES) + list(self.spec.rows) + [z for z in self.spec.zones if z.isidentifier()] + list(self.spec.vars)
        self.error(f"unknown name `{name}`", n, did_you_mean(name, known), category="name")
        return R.Invalid(span, ANY)

    # ------------------------------------------------------------ attributes
    def _My(self, n: ast.My, scope: Scope) -> R.Expr:
        return self.owned(n, R.StateValue(n.span, PLAYER, "me"), n.name)

    def _Attr(self, n: ast.Attr, scope: Scope) -> R.Expr:
        span = n.span
        if isinstance(n.obj, ast.Name) and n.obj.name == "option" and "option" not in scope:
            opt = self.spec.options.get(n.name)
            if opt is None:
                self.error(f"unknown option `{n.name}`", n, did_you_mean(n.name, self.spec.options), category="name")
                return R.Invalid(span, ANY)
            return R.Option(span, {"int": INT, "bool": BOOL, "choice": STR}[opt.type], n.name)
        obj = self.expr(n.obj, scope)
        t = obj.type
        if t == ANY:
            return R.Invalid(span, ANY)
        if t in ATTRIBUTES:
            kind, table = ATTRIBUTES[t]
            if n.name not in table:
                self.error(f"a {kind} has no `{n.name}`", n, did_you_mean(n.name, table) or
                           f"a {kind} has " + ", ".join(f"`{a}`" for a in table), category="name")
                return R.Invalid(span, ANY)
            found = table[n.name]
            if t == CARD and n.name == "deck" and self.spec.deck.named:
                found = enum_of(self.spec.deck.names)      # several named decks: the card's deck's name
            if t == "combo" and n.name == "kind" and self.spec.combo_kinds:
                found = enum_of([k.name for k in self.spec.combo_kinds])    # a word of the `combos:` kinds
            return _ATTR_NODES[t](span, found, obj, n.name)
        if t == PLAYER:
            if n.name in PLAYER_ATTRS:
                return R.PlayerAttr(span, PLAYER_ATTRS[n.name], obj, n.name)
            return self.owned(n, obj, n.name)
        if t == SIDE:
            if n.name in SIDE_ATTRS:
                return R.SideAttr(span, SIDE_ATTRS[n.name], obj, n.name)
            return self.owned(n, obj, n.name, side=True)
        if is_list(t) and n.name in LIST_ATTRS:
            return R.ListAttr(span, LIST_ATTRS[n.name], obj, n.name)
        self.error(f"{show(t)} has no `{n.name}`", n, category="type")
        return R.Invalid(span, ANY)

    def owned(self, n: ast.Node, owner: R.Expr, name: str, side: bool = False) -> R.Expr:
        """`p.hand`, `my penalty`, `s.square`: what each player (or side) owns.

        A player reaches what their side owns too: partners share it."""
        span = n.span
        zone = self.spec.zones.get(name)
        if zone is not None and zone.each_player and (zone.per_side or not side):
            if zone.melds:
                return R.MeldsOf(span, list_of(ZONE), owner, side)
            if zone.grid:
                return R.OwnedGrid(span, GRID, name, owner, side, zone.per_side)
            return R.OwnedZone(span, ZONE, name, owner, side, zone.per_side)
        var = self.spec.vars.get(name)
        if var is not None and var.each_player and (var.per_side or not side):
            return R.OwnedVar(span, self.var_types.get(name, ANY), name, owner, side, var.per_side)
        who = "side" if side else "player"
        mine = [z for z, spec in self.spec.zones.items() if spec.each_player and (spec.per_side or not side)] + \
               [v for v, spec in self.spec.vars.items() if spec.each_player and (spec.per_side or not side)]
        self.error(f"a {who} has no `{name}`", n, did_you_mean(name, mine) or
                   (f"each {who} has " + ", ".join(f"`{m}`" for m in mine) if mine else None), category="name")
        return R.Invalid(span, ANY)

    def target(self, t: ast.Node, scope: Scope) -> R.Expr:
        """What an assignment sets: a variable of the table, or one a player or side owns."""
        if isinstance(t, ast.TargetVar):
            var = self.spec.vars.get(t.name)
            if var is None:
                if t.name in scope:
                    self.error(f"`{t.name}` is a parameter or a loop name and cannot be set", t)
                elif t.name == "direction":
                    self.error("`direction` is the direction of play: it cannot be set, only turned round", t,
                               "write `reverse direction` (at the start of a deal it is 1, to the left)", category="name")
                else:
                    self.error(f"unknown variable `{t.name}`", t, did_you_mean(t.name, self.spec.vars), category="name")
                return R.Invalid(t.span, ANY)
            vt = self.var_types.get(t.name, ANY)
            if var.each_player:
                self.error(f"`{t.name}` belongs to each player: write `my {t.name}` or `p.{t.name}`", t)
                return R.Invalid(t.span, vt)
            return R.VarRef(t.span, vt, t.name)
        if isinstance(t, ast.TargetAttr):
            owner = self.expr(t.obj, scope)
            if owner.type not in (PLAYER, SIDE, ANY):
                self.error(f"only a player or a side owns variables, not {show(owner.type)}", t.obj, category="type")
            var = self.spec.vars.get(t.name)
            by_side = owner.type == SIDE
            if var is None or not var.each_player or (by_side and not var.per_side):
                per_player = [v for v, spec in self.spec.vars.items()
                              if spec.each_player and (spec.per_side or not by_side) and v != t.name]
                self.error(f"`{t.name}` is not a variable of each {'side' if by_side else 'player'}", t,
                           did_you_mean(t.name, per_player))
                return R.Invalid(t.span, ANY)
            return R.OwnedVar(t.span, self.var_types.get(t.name, ANY), t.name, owner, by_side, var.per_side)
        self.error("cannot assign to this", t)
        return R.Invalid(t.span, ANY)

    # ------------------------------------------------------------ calls
    def function(self, name: str) -> R.Function | None:
        """A rule file's own function, resolved once (None if it calls itself)."""
        if name in self.functions:
            return self.functions[name]
        fn = self.spec.functions[name]
        if name in self._func_stack:
            self.error(f"function `{name}` calls itself (directly or through others); "
                       "rule files have no unbounded loops", fn.signature)
            return None
        self._func_stack.append(name)
        scope = self.signature_scope(fn.signature.params)
        body = self.expr(fn.body, scope)
        self._func_stack.pop()
        resolved = R.Function(name, tuple(scope), tuple(scope.values()), body, body.type,
                              R.nesting(body, self.functions))
        self.functions[name] = resolved
        return resolved

    def declared_type(self, name: str) -> str | None:
        """The type a function's or procedure's parameter is declared with: a type's name (`card c`), or
        a word variable's name for one of its words (`worth(contract g)`); None if neither."""
        t = TYPE_NAMES.get(name)
        if t is None and name in self.spec.vars and is_enum(self.var_types.get(name, "")):
            return self.var_types[name]
        return t

    def signature_scope(self, params: tuple[ast.Param, ...]) -> Scope:
        """The scope of a function's or procedure's body: its parameters' types (an unknown one told here)."""
        scope: Scope = {}
        for p in params:
            t = self.declared_type(p.type)
            if t is None:
                words = [name for name, t in self.var_types.items() if is_enum(t)]
                self.error(f"unknown type `{p.type}`", p, did_you_mean(p.type, [*TYPE_NAMES, *words]) or
                           "types: " + ", ".join(TYPE_NAMES) + ", or a word variable's name for one of its words")
            scope[p.name] = t or ANY
        return scope

    def arguments(self, name: str, args: tuple[ast.Node, ...], params: tuple[ast.Param, ...],
                  scope: Scope) -> tuple[R.Expr, ...]:
        """A call's arguments, each checked against its parameter's type; one of a word variable's words
        may be written bare for a parameter of its words (`worth(grand)`)."""
        out = []
        for arg, p in zip(args, params):
            want, what = self.declared_type(p.type) or ANY, f"argument `{p.name}` of `{name}`"
            if not is_enum(want):
                out.append(self.expect(arg, scope, want, what))
                continue
            r = self.word_for(arg, scope, want)
            if r.type != ANY and not (compatible(r.type, want) and
                                      (not is_enum(r.type) or set(enum_words(r.type)) <= set(enum_words(want)))):
                self.error(f"{what} must be {show(want)}, but this is {show(r.type)}", arg, category="type")
            out.append(r)
        return tuple(out)

    def _Call(self, n: ast.Call, scope: Scope) -> R.Expr:
        name, args, span = n.func, n.args, n.span
        if name in self.spec.functions:
            params = self.spec.functions[name].signature.params
            if len(args) != len(params):
                self.error(f"`{name}` takes {len(params)} argument{'s' * (len(params) != 1)}, "
                           f"not {len(args)}", n, category="arity")
            resolved = self.arguments(name, args, params, scope)
            fn = self.function(name)
            if fn is None or len(args) != len(params):
                return R.Invalid(span, ANY if fn is None else fn.type)
            if self._depth + fn.nesting > MAX_NESTING and not self._too_deep:
                self._too_deep = True
                self.error(f"this is nested more than {MAX_NESTING} deep, counting the functions it calls "
                           f"(`{name}` alone goes {fn.nesting} deep): write it in smaller parts", n, category="limit")
                return R.Invalid(span, fn.type)
            return R.UserCall(span, fn.type, name, resolved)
        tables = self.spec.value_tables
        if name in tables:            # `points(c)`: a named table of `values:` read like a function
            if len(args) != 1:
                self.error(f"`{name}` takes 1 argument, not {len(args)}", n, category="arity")
                for a in args:
                    self.expr(a, scope)
                return R.Invalid(span, INT)
            card = self.expect(args[0], scope, CARD, f"the argument of `{name}`")
            return R.BuiltinCall(span, INT, "value", (card, R.Const(span, STR, name)))
        sig = FUNCTIONS.get(name)
        if sig is None:
            self.error(f"unknown function `{name}`", n,
                       did_you_mean(name, set(FUNCTIONS) | set(self.spec.functions) | set(tables)), category="name")
            for a in args:
                self.expr(a, scope)
            return R.Invalid(span, ANY)
        if sig.needs == "patterns" and not self.spec.patterns:
            self.error(f"`{name}` needs `patterns:` (write them, or `import: [poker]`)", n, category="name")
        if sig.needs == "melds" and not self.spec.meld_kinds:
            self.error(f"`{name}` needs `melds:` kinds and a zone with `melds: true`", n)
        if sig.needs == "combos" and not self.spec.combo_kinds:
            self.error(f"`{name}` needs `combos:` kinds", n, category="name")
        if sig.several and len(args) >= 2:
            numbers = tuple(self.expect(a, scope, FRAC, f"each argument of `{name}`") for a in args)
            return R.BuiltinCall(span, number_of(*(a.type for a in numbers)), name, numbers)
        k, optional = len(sig.params), sig.optional
        if name == "value" and not self.spec.value_tables:
            k, optional = 1, 0        # a table's name is for files that name their tables
        if not k - optional <= len(args) <= k:
            takes = f"{k - optional} or {k} arguments" if optional == 1 else \
                f"{k - optional} to {k} arguments" if optional else f"{k} argument{'s' * (k != 1)}"
            self.error(f"`{name}` takes {takes}, not {len(args)}", n, category="arity")
            for a in args:
                self.expr(a, scope)
            return R.Invalid(span, sig.result)
        resolved_args = []
        for i, (arg, p) in enumerate(zip(args, sig.params)):
            if p.type == CARDS:
                r = self.expr(arg, scope)
                if r.type not in (ZONE, list_of(CARD), ANY) and not (is_list(r.type) and elem(r.type) == ANY):
                    self.error(f"`{name}` looks at cards: a zone or a list of cards, not {show(r.type)}", arg,
                               category="type")
            elif p.type in (CARD_ORDER, CARD_SUIT):
                r = self._card_function(arg, p, name)
            elif p.type == TRUMP and self._names_card_test(arg):
                # trumps that are not a suit: a test of a card
                r = self._card_function(arg, Param(TRUMP, p.what.replace("trump suit", "trump cards")), name)
            elif p.type == TRUMP:
                r = self.expect(arg, scope, SUIT, p.what)
            elif p.type == SEQUENCE:
                r = self.expr(arg, scope)
                if r.type != ANY and r.type != ZONE and not is_list(r.type):
                    self.error(f"`{name}` needs a list or a zone, not {show(r.type)}", arg, category="type")
                    return R.Invalid(span, sig.result)
                self._check_items(n, name, elem(r.type) if r.type != ANY else ANY)
            else:
                what = p.what or (f"the argument of `{name}`" if k == 1 else f"the {_ORDINALS[i]} argument of `{name}`")
                r = self.expect(arg, scope, p.type, what)
            resolved_args.append(r)
        if name == "value" and len(resolved_args) == 2:
            self._value_table(resolved_args[1])
        if name == "combos" and len(resolved_args) == 2:
            self.errors += combo_kind(resolved_args[1], [k.name for k in self.spec.combo_kinds])
        if name in ("combinations", "subsets"):       # lists of the items' own type
            items = resolved_args[0].type
            return R.BuiltinCall(span, list_of(list_of(CARD if items == ZONE else elem(items) if is_list(items)
                                                       else ANY)), name, tuple(resolved_args))
        return R.BuiltinCall(span, sig.result, name, tuple(resolved_args))

    def _card_function(self, arg: ast.Node, p: Param, func: str) -> R.Expr:
        """`power` in `winner(trick, trump, power)`: a function of one card named, not called. It
        resolves to a call of it on CARD_SLOT, the card the built-in is looking at."""
        want = INT if p.type == CARD_ORDER else BOOL if p.type == TRUMP else SUIT
        example = (f"`{func}(…, power)` with `define: power(card c): …`" if want == INT else
                   f"`{func}(trick, is_trump, power)` with `define: is_trump(card c): …`" if want == BOOL else
                   "`winner(trick, trump, power, suit_of)` with `define: suit_of(card c): …`")
        tables = self.spec.value_tables if want == INT else ()
        if not isinstance(arg, ast.Name):
            self.error(f"{p.what} names a function of one card"
                       + (" or a table of `values:`" if want == INT else "") + ", without brackets", arg,
                       f"as in {example}", category="type")
            self.expr(arg, {})
            return R.Invalid(arg.span, want)
        name, span = arg.name, arg.span
        card = R.Local(span, CARD, CARD_SLOT)
        if name in tables:
            return R.BuiltinCall(span, INT, "value", (card, R.Const(span, STR, name)))
        if name not in self.spec.functions:
            self.error(f"{p.what}: there is no function `{name}`", arg,
                       did_you_mean(name, set(self.spec.functions) | set(tables)) or f"write one, as in {example}",
                       category="name")
            return R.Invalid(span, want)
        params = self.spec.functions[name].signature.params
        fn = self.function(name)
        if len(params) != 1 or TYPE_NAMES.get(params[0].type) != CARD or (fn is not None and fn.type != want):
            self.error(f"{p.what}: `{name}` must take one card and give {show(want)}", arg, f"as in {example}",
                       category="type")
            return R.Invalid(span, want)
        if fn is None:
            return R.Invalid(span, want)
        return R.UserCall(span, want, name, (card,))

    def _names_card_test(self, arg: ast.Node) -> bool:
        """The trump of `winner` named as a `define:` function of one parameter (a suit is an expression,
        and a function of no parameters is called with brackets, so the name alone says which)."""
        return isinstance(arg, ast.Name) and arg.name in self.spec.functions \
            and len(self.spec.functions[arg.name].signature.params) == 1

    def _value_table(self, table: R.Expr) -> None:
        """`value(c, "order")`: the table is written out, and is one of `values:`'s named tables."""
        names = self.spec.value_tables
        if not isinstance(table, R.Const):
            if table.type == STR:
                self.error("the table of `value` is written out as a text, as in `value(c, \"order\")`", table,
                           category="type")
        elif table.value not in names:
            self.error(f"there is no value table `{table.value}`", table,
                       did_you_mean(str(table.value), names) or
                       ("tables: " + ", ".join(names) if names else "name tables in `values:`, as in "
                        "`values: {points: {A: 11}, order: {A: 14}}`"), category="name")

    def _check_items(self, n: ast.Node, func: str, t: str) -> None:
        """The items a reduction folds must suit it: numbers to add, true/false to test."""
        want = FUNCTIONS[func].element
        if want == BOOL and t not in (BOOL, ANY):
            self.error(f"`{func}` needs true/false values, not {show(t)}", n, category="type")
        elif want == INT and not is_number(t) and t != ANY:
            self.error(f"`{func}` needs numbers, not {show(t)}", n, category="type")

    def _comprehension(self, n: ast.Aggregate | ast.ListComp, scope: Scope) -> tuple[R.Expr, Scope, R.Expr | None]:
        iterable = self.expr(n.iterable, scope)
        t = iterable.type
        if not (t == ZONE or is_list(t) or t == ANY):
            self.error(f"`for` goes over a list or a zone, not {show(t)}", n.iterable, category="type")
        inner = {**scope, n.var: elem(t)}
        cond = self.expect(n.cond, inner, BOOL, "the `if` of a `for`") if n.cond is not None else None
        return iterable, inner, cond

    def _Aggregate(self, n: ast.Aggregate, scope: Scope) -> R.Expr:
        if n.func not in AGGREGATES:
            self.error(f"`{n.func}(... for ...)` is not an aggregate", n,
                       did_you_mean(n.func, AGGREGATES) or "use " + ", ".join(sorted(AGGREGATES)))
            return R.Invalid(n.span, ANY)
        iterable, inner, cond = self._comprehension(n, scope)
        item = self.expr(n.elem, inner)
        self._check_items(n, n.func, item.type)
        result = FUNCTIONS[n.func].result
        if result == INT and n.func != "count" and item.type == FRAC:     # a sum of fractions is one
            result = FRAC
        return R.Aggregate(n.span, result, n.func, item, n.var, iterable, cond)

    def _ListComp(self, n: ast.ListComp, scope: Scope) -> R.Expr:
        iterable, inner, cond = self._comprehension(n, scope)
        item = self.expr(n.elem, inner)
        return R.ListComp(n.span, list_of(item.type), item, n.var, iterable, cond)

    def _Flatten(self, n: ast.Flatten, scope: Scope) -> R.Expr:
        lists = self.expr(n.lists, scope)       # a comprehension of comprehensions, so a list of lists
        return R.Flatten(n.span, elem(lists.type) if lists.type != ANY else ANY, lists)

    # ------------------------------------------------------------ lists and operators
    def _Index(self, n: ast.Index, scope: Scope) -> R.Expr:
        obj = self.expr(n.obj, scope)
        index = self.expect(n.index, scope, INT, "a list index")
        if not is_list(obj.type) and obj.type != ANY:
            self.error(f"only lists can be indexed, not {show(obj.type)}", n.obj, category="type")
            return R.Invalid(n.span, ANY)
        return R.Index(n.span, elem(obj.type), obj, index)

    def _ListLit(self, n: ast.ListLit, scope: Scope) -> R.Expr:
        items = [self.expr(i, scope) for i in n.items]
        if any(i.type == RANK for i in items):    # `[A, 2, 3]`: numbers beside ranks are ranks
            items = [self.coerce_rank(syntax, i, RANK) for syntax, i in zip(n.items, items)]
        known = [i.type for i in items if i.type not in (ANY, NONE)]
        if known and all(is_number(t) for t in known):        # `[1, 1/2]`: a list of fractions
            known = [number_of(*known)]
        for item, syntax in zip(items, n.items):
            if known and item.type not in (ANY, NONE) and item.type != known[0] \
                    and not (known[0] == FRAC and item.type == INT):
                self.error(f"a list holds one kind of thing: {show(known[0])} and {show(item.type)}", syntax,
                           category="type")
        return R.ListLit(n.span, list_of(known[0] if known else ANY), tuple(items))

    def _Range(self, n: ast.Range, scope: Scope) -> R.Expr:
        low = self.expect(n.low, scope, INT, "the start of a range")
        high = self.expect(n.high, scope, INT, "the end of a range")
        first, last = fixed_int(low, {}, {}), fixed_int(high, {}, {})
        if first is not None and last is not None and last - first + 1 > MAX_WORK:
            # a range written with its ends is never made: it would pass the work of any run (work.py)
            self.error(f"this range holds {last - first + 1:,} numbers, more than one run of the rules may go "
                       f"through ({MAX_WORK:,})", n, "a list of numbers in a game is short: narrow the range",
                       category="limit")
        if n.step is None:
            return R.Range(n.span, list_of(INT), low, high)
        step = self.expect(n.step, scope, INT, "the step of a range")
        written = -step.operand.value if isinstance(step, R.Neg) and isinstance(step.operand, R.Const) \
            and isinstance(step.operand.value, int) else step.value if isinstance(step, R.Const) else None
        if isinstance(written, int) and written <= 0:
            self.error(f"a range goes up by a whole number above 0, not by {written}", n.step,
                       "write `by 5` for every fifth number; count down with a list such as "
                       "`[30 - k for k in 0..30]`", category="type")
        return R.Range(n.span, list_of(INT), low, high, step)
