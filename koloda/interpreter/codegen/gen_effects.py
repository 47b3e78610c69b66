"""Effects of the resolved tree -> Python statements (see generate.py).

One `_do_<Class>` method per effect class, each writing the statements that
do what the effect means, with its own checks and messages. Every effect is
wrapped so that a Python failure becomes "this effect failed" at its place in
the file. An expression that can fail is worked out inside a `try`; if it
fails, its checked function (generate.py `recovery`) works it out again and
raises the located error (the state has not changed in between: expressions
only read it). The local names of the rules are Python locals here, one
namespace for the whole list.
"""
from __future__ import annotations

from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import BOOL, INT, ZONE, is_list
from koloda.interpreter.base.work import MAX_VALUE
from koloda.interpreter.codegen.gen_attrs import read_as_code
from koloda.interpreter.codegen.gen_expr import ExprGen
from koloda.interpreter.codegen.gen_fixed import fixed
from koloda.interpreter.codegen.gen_frag import Frag, NotGenerated, Scope, UnknownNode, atom, is_none, seats
from koloda.interpreter.codegen.gen_source import Function
from koloda.interpreter.core.window import END_TURN

_UPDATE = {"+=": "+", "-=": "-", "*=": "*"}
MAX_BLOCKS = 16      # `try` and `for` inside one another in one function (Python allows 20): deeper, a new one


class EffectGen(ExprGen):
    # the checked function `write` writes, made when first asked (generate.py Generator.recovery)
    recovery: Callable[[Callable[[Any], str]], Any]
    _blocks = 0          # `try` and `for` blocks around the statement being written
    def effects_function(self, nodes: tuple[R.Effect, ...], names: list[str] | None = None,
                         picks: dict[str, R.Expr] | None = None) -> str:
        """A function (s, b) that runs a list of effects, the values of its local `names` (an action's
        parameters, as the codec decodes them: never none) read from `b`. A combination parameter (`picks`:
        the cards its `combos` was given) takes its cards from those cards as they are now."""
        name = self.m.name("run")
        self.fn = Function(self.m, name, "s, b", pure=False)
        self.listing = self.hoisting = self.memo = False
        scope: Scope = {}
        for param in names or ():
            local = self.m.local(param)
            self.fn.emit(f"{local} = b[{self.m.literal(param)}]", 1)
            if picks and param in picks:
                cards = self.sequence(picks[param], scope)
                combos = self.m.const(self.c.combos, "combos")
                self.fn.emit(f"{local} = {combos}.pick({local}, {cards.text})", 1)
            scope[param] = Frag(local, frozenset({local}), True, True)
        self.block(nodes, scope, set(scope), 1)
        self.m.add(self.fn.text())
        return name

    def combo_function(self, nodes: tuple[R.Effect, ...], var: str, low: int, cards: R.Expr) -> str:
        """A function (s, code) that runs the effects of an action whose one parameter `var` is a combination
        of `combos(cards)`: its code is `low` + `code`, its cards taken from those cards as they are now
        (as `effects_function` takes them, with no decoding by the codec)."""
        name = self.m.name("run")
        self.fn = Function(self.m, name, "s, code", pure=False)
        self.listing = self.hoisting = self.memo = False
        local = self.m.local(var)
        held = self.sequence(cards, {})
        combos = self.m.const(self.c.combos, "combos")
        code = f"{low} + code" if low else "code"
        if read_as_code(self.c, nodes, var, self.inlines):
            # only its attributes are read: kept as its code, its cards taken now (as `pick` takes them)
            picked = self.fn.temp()
            self.fn.emit(f"{local} = {code}", 1)
            self.fn.emit(f"{picked} = {combos}.cards_picked({local}, {held.text})", 1)
            self.coded = {local: (f"list({picked})", f"{combos}.pick({local}, {picked})")}
        else:
            self.fn.emit(f"{local} = {combos}.pick({code}, {held.text})", 1)
        scope: Scope = {var: Frag(local, frozenset({local}), True, True)}
        try:
            self.block(nodes, scope, set(scope), 1)
        finally:
            self.coded = {}
        self.m.add(self.fn.text())
        return name

    def action_function(self, nodes: tuple[R.Effect, ...], params: list[tuple[str, str, int, int, int]]) -> str:
        """A function (s, code) that runs an action's effects: `code` is the action's id less its offset, its
        parameters' (name, type, radix, low, step) written as digits (codec.py), decoded here as the codec does."""
        return self._effects(nodes, params)

    def _effects(self, nodes: tuple[R.Effect, ...], params: list[tuple[str, str, int, int, int]]) -> str:
        name = self.m.name("run")
        self.fn = Function(self.m, name, "s, code" if params else "s, b", pure=False)
        self.listing = self.hoisting = self.memo = False
        scope: Scope = {}
        for k in reversed(range(len(params))):
            param, kind, radix, low, step = params[k]
            local = self.m.local(param)
            if k:
                self.fn.emit(f"code, _d{k} = divmod(code, {radix})", 1)
            digit = f"_d{k}" if k else "code"
            if low or step != 1:                 # a number written as its place in its range
                digit = f"{low} + {digit} * {step}"
            self.fn.emit(f"{local} = {f'bool({digit})' if kind == BOOL else digit}", 1)
            scope[param] = Frag(local, frozenset({local}), True, True)
        self.block(nodes, scope, set(scope), 1)
        self.m.add(self.fn.text())
        return name

    def block(self, nodes: tuple[R.Effect, ...], scope: Scope, visible: set[str], indent: int) -> None:
        scope, visible = dict(scope), set(visible)     # a `let` is seen by the effects after it only
        if not nodes:
            self.fn.emit("pass", indent)
        elif self._blocks + 3 > MAX_BLOCKS:            # an effect's `try`, and two more inside it
            self.deep(nodes, scope, visible, indent)
            return
        for e in nodes:
            self.effect(e, scope, visible, indent)

    def deep(self, nodes: tuple[R.Effect, ...], scope: Scope, visible: set[str], indent: int) -> None:
        """A list of effects nested too deep for one Python function, written as a function of its own
        called here with the local names in scope (its `let`s are the list's own, as in any block)."""
        name = self.m.name("deep")
        names = sorted(scope)
        params = [self.m.local(k) for k in names]
        self.fn.emit(f"{name}({', '.join(['s'] + [self.passed(scope[k].text) for k in names])})", indent)
        saved = self.fn, self._blocks, self.coded
        self.fn = Function(self.m, name, ", ".join(["s"] + params), pure=False)
        self._blocks, self.coded = 0, {}          # (a code is passed on as its Combo)
        try:
            inner = {k: Frag(p, frozenset({p}), scope[k].safe, scope[k].nonnull) for k, p in zip(names, params)}
            self.block(nodes, inner, visible, 1)
            self.m.add(self.fn.text())
        finally:
            self.fn, self._blocks, self.coded = saved

    def effect(self, e: R.Effect, scope: Scope, visible: set[str], indent: int) -> None:
        emit = self.fn.emit
        method: Callable[..., None] | None = getattr(self, "_do_" + type(e).__name__, None)
        emit("try:", indent)
        mark = len(self.fn.lines)
        self._blocks += 1
        try:
            if method is None:
                raise NotGenerated
            method(e, scope, visible, indent + 1)
        except NotGenerated:
            raise UnknownNode(f"the generator has no method for {type(e).__name__} at {e.span}") from None
        finally:
            self._blocks -= 1
        emit("except _RuleError:", indent)
        emit("raise", indent + 1)
        emit("except _FAILURES as _e:", indent)
        emit(f"raise _located(_e, {self.m.const(e.span, 'span')}) from None", indent + 1)

    def value(self, n: R.Expr, scope: Scope, indent: int, zone_items: bool = False) -> str:
        """An expression worked out now, as an atom to use; its checked function tells what failed, if it fails.
        Parts of it that read no local name are worked out once for it (its cells are made just before)."""
        # a costly part asked for twice (a function of the rules used twice in it) is worked out once
        self.hoisting, self._inside_cell, self._root = True, True, True
        self.share = self.share_inner = not self.checked
        try:
            f = self.gen(n, scope)
        finally:
            self.hoisting, self._inside_cell, self._root = False, False, False
            self.share = self.share_inner = False
        text = self.fn.fold_single(f.text)
        for line in self.fn.cell_lines():
            self.fn.emit(line, indent)
        self.fn.clear_cells()
        if not f.safe and self.checked:
            t = self.fn.temp()
            self.fn.emit(f"{t} = {text}", indent)
            text = t
        elif not f.safe:        # if it fails, its checked function works it out again (and says what failed)
            t = self.fn.temp()
            names = [k for k in sorted(self.c.free_locals(n)) if k in scope]
            recover = self.m.const(self.recovery(lambda gen: gen.asked(n, names)), "checked")
            pairs = ", ".join(f"{self.m.literal(k)}: {self.passed(scope[k].text)}" for k in names)
            self.fn.emit("try:", indent)
            self.fn.emit(f"{t} = {text}", indent + 1)
            self.fn.emit("except Exception:", indent)
            self.fn.emit(f"{t} = {recover}(s, {{{pairs}}})", indent + 1)
            text = t
        elif not atom(text):
            t = self.fn.temp()
            self.fn.emit(f"{t} = {text}", indent)
            text = t
        if zone_items:
            return f"{self.fn.state('_Z')}[{text}]"
        return text

    def once(self, n: R.Expr, scope: Scope, indent: int) -> str:
        """A value worked out now, or if it reads nothing of the play (gen_fixed.py) the first time it is
        asked only, then kept with the generated code for every state of the game. Its users only read it."""
        if self.checked or not fixed(n, self.c.rules.functions):
            return self.value(n, scope, indent)
        kept = self.m.const([], "once")
        self.fn.emit(f"if not {kept}:", indent)
        self.fn.emit(f"{kept}.append({self.value(n, scope, indent + 1)})", indent + 1)
        return f"{kept}[0]"

    def fail(self, message: str, span: Any) -> str:
        return f"raise _RRE({self.m.literal(message)}, {self.m.const(span, 'span')})"

    # ------------------------------------------------------------ cards
    def _do_Move(self, e: R.Move, scope: Scope, visible: set[str], indent: int) -> None:
        emit = self.fn.emit
        dest = self.value(e.dest, scope, indent)
        kind = e.what.type
        what = self.once(e.what, scope, indent) if is_list(kind) else self.value(e.what, scope, indent)
        flags = f"{not e.face_down}, {e.under}"
        if kind == ZONE:
            emit(f"s.move_zone({what}, {dest}, s.actor, {flags})", indent)
            return
        if is_list(kind):       # one call for the list (core/cardmoves.py)
            emit(f"_move_cards(s, {what}, {dest}, s.actor, {flags})", indent)
            return
        emit(f"if {is_none(what)}:", indent)
        emit(self.fail("there is no card to move", e.span), indent + 1)
        emit(f"_move_card(s, {what}, {dest}, s.actor, {flags})", indent)

    def _do_Meld(self, e: R.Meld, scope: Scope, visible: set[str], indent: int) -> None:
        plan = self.value(e.plan, scope, indent)
        self.fn.emit(f"if {is_none(plan)}:", indent)
        self.fn.emit(self.fail("nothing to meld", e.span), indent + 1)
        self.fn.emit(f"s.meld({plan}, s.actor)", indent)

    def _do_Shuffle(self, e: R.Shuffle, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.shuffle({self.value(e.zone, scope, indent)})", indent)

    def _do_Gather(self, e: R.Gather, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.gather({self.value(e.dest, scope, indent)})", indent)

    def _do_Deal(self, e: R.Deal, scope: Scope, visible: set[str], indent: int) -> None:
        count = self.value(e.count, scope, indent)
        source = self.value(e.source, scope, indent)
        base = self.c.layout.zone_base[e.family]
        self.fn.emit(f"s.deal({count}, {base}, {source}, {self.m.const(e.span, 'span')})", indent)

    # ------------------------------------------------------------ variables
    def _do_Assign(self, e: R.Assign, scope: Scope, visible: set[str], indent: int) -> None:
        emit = self.fn.emit
        V = self.fn.state("_V")
        dirt = self.c.var_dirt.get(e.target.name, 0)
        # a whole number set is bounded (work.py)
        bounded = (e.value.type == INT or e.op != "=") and not _small_literal(e.value)
        what, span = self.m.literal(f"`{e.target.name} {e.op}`"), self.m.const(e.span, "span")
        if e.op in ("append", "remove") or e.index is not None:
            self.list_change(e, scope, indent)
        elif e.op == "=":
            value = self.value(e.value, scope, indent)      # Python works out the value before the place
            index = self.index(e.target, scope, indent)
            emit(f"{V}[{index}] = " + (f"_number({value}, {what}, {span})" if bounded else value), indent)
        else:
            index = self.index(e.target, scope, indent)
            emit(f"_old = {V}[{index}]", indent)
            value = self.value(e.value, scope, indent)
            emit(f"if _old is None:" if isinstance(e.value, R.Const) and e.value.value is not None
                 else f"if _old is None or {is_none(value)}:", indent)
            emit(self.fail(f"`{e.op}` with none", e.span), indent + 1)
            emit(f"{V}[{index}] = _number(_old {_UPDATE[e.op]} {value}, {what}, {span})", indent)
        if dirt:
            emit(f"s.dirty |= {dirt}", indent)

    def list_change(self, e: R.Assign, scope: Scope, indent: int) -> None:
        """`append`, `remove`, `xs[i] = v`: the variable gets a new list, never changed in place, so
        that a clone sharing the old one (state_fields.py: a clone copies the variables, not their
        lists) keeps it."""
        emit, V = self.fn.emit, self.fn.state("_V")
        name = e.target.name
        value = self.value(e.value, scope, indent)
        at = self.index(e.target, scope, indent)
        emit(f"_old = {V}[{at}]", indent)
        emit("if _old is None:", indent)
        emit(self.fail(f"`{e.op if e.index is None else name + '[...]'}` of `{name}`, which is none", e.span),
             indent + 1)
        if e.op == "append":
            emit(f"{V}[{at}] = _old + [{value}]", indent)
            return
        if e.op == "remove":
            emit(f"if {value} not in _old:", indent)
            emit(self.fail(f"`remove`: that is not in `{name}`", e.span), indent + 1)
            emit("_old = _old[:]", indent)
            emit(f"_old.remove({value})", indent)
            emit(f"{V}[{at}] = _old", indent)
            return
        assert e.index is not None
        k = self.value(e.index, scope, indent)
        emit(f"if {is_none(k)} or not -len(_old) <= {k} < len(_old):", indent)
        emit(self.fail(f"`{name}[...]`: the index is outside the list", e.span), indent + 1)
        emit("_old = _old[:]", indent)
        if e.op == "=":
            emit(f"_old[{k}] = {value}", indent)
        else:
            emit(f"if _old[{k}] is None or {is_none(value)}:", indent)
            emit(self.fail(f"`{e.op}` with none", e.span), indent + 1)
            what, span = self.m.literal(f"`{name}[...] {e.op}`"), self.m.const(e.span, "span")
            emit(f"_old[{k}] = _number(_old[{k}] {_UPDATE[e.op]} {value}, {what}, {span})", indent)
        emit(f"{V}[{at}] = _old", indent)

    def index(self, target: R.VarRef | R.OwnedVar, scope: Scope, indent: int) -> str:
        """Where the variable sits (an owner that is none fails with the rules' message)."""
        layout = self.c.layout
        base = layout.var_base[target.name]
        if isinstance(target, R.VarRef):
            return repr(base)
        owner = self.value(target.owner, scope, indent)
        named = scope.get(target.owner.name) if isinstance(target.owner, R.Local) else None
        if owner != "s.current" and not (named is not None and named.nonnull):     # a seat of a loop is never none
            who = "side" if target.by_side else "player"
            self.fn.emit(f"if {is_none(owner)}:", indent)
            self.fn.emit(self.fail(f"`{target.name}` of no {who}", target.span), indent + 1)
        nsides = layout.num_sides if target.per_side and not target.by_side else 0
        index = f"{base} + {owner} % {nsides}" if nsides else f"{base} + {owner}"
        t = self.fn.temp()
        self.fn.emit(f"{t} = {index}", indent)
        return t

    def _do_Let(self, e: R.Let, scope: Scope, visible: set[str], indent: int) -> None:
        value = self.value(e.value, scope, indent)
        local = self.m.local(e.name)
        self.fn.emit(f"{local} = {value}", indent)
        scope[e.name] = Frag(local, frozenset({local}), True)
        visible.add(e.name)

    # ------------------------------------------------------------ the turn
    def _do_Goto(self, e: R.Goto, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.goto = {self.m.literal(e.step)}", indent)

    def _do_TurnTo(self, e: R.TurnTo, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.next_player = {self.value(e.player, scope, indent)}", indent)

    def _do_Skip(self, e: R.Skip, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.skips[{self.value(e.player, scope, indent)}] += 1", indent)

    def _do_Ask(self, e: R.Ask, scope: Scope, visible: set[str], indent: int) -> None:
        player = self.value(e.player, scope, indent)
        self.fn.emit(f"if {is_none(player)}:", indent)
        self.fn.emit(self.fail("nobody to ask", e.span), indent + 1)
        asked = f"[_p for _p in {player} if _p is not None]" if is_list(e.player.type) else f"[{player}]"
        self.fn.emit(f"s.asked = ({asked}, {self.m.literal(e.step)})", indent)

    def _do_EndDeal(self, e: R.EndDeal, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit("s.deal_over = True", indent)

    def _do_EndTurn(self, e: R.EndTurn, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.goto = {self.m.literal(END_TURN)}", indent)

    # ------------------------------------------------------------ control
    def _do_If(self, e: R.If, scope: Scope, visible: set[str], indent: int) -> None:
        cond = self.value(e.cond, scope, indent)
        self.fn.emit(f"if {cond}:", indent)
        self.block(e.then, scope, visible, indent + 1)
        if e.orelse:
            self.fn.emit("else:", indent)
            self.block(e.orelse, scope, visible, indent + 1)

    def _do_For(self, e: R.For, scope: Scope, visible: set[str], indent: int) -> None:
        items = self.value(e.iterable, scope, indent, zone_items=e.iterable.type == ZONE)
        local = self.m.local(e.var)
        saved = None
        if e.var in visible:          # a name seen before the loop is seen again after it
            saved = self.fn.temp()
            self.fn.emit(f"{saved} = {local}", indent)
        # the seats are a new list each time; a zone's or a variable's list may change in the loop
        fresh = seats(e.iterable)
        listed = items if fresh else f"list({items})"
        self.fn.emit(f"for {local} in _counted_at(s, {listed}, {self.m.const(e.span, 'span')}):", indent)
        self._blocks += 1
        nonnull = e.iterable.type == ZONE or fresh
        inner = dict(scope)
        inner[e.var] = Frag(local, frozenset({local}), True, nonnull)
        self.block(e.body, inner, visible | {e.var}, indent + 1)
        self._blocks -= 1
        if saved is not None:
            self.fn.emit(f"{local} = {saved}", indent)


def _small_literal(value: R.Expr) -> bool:
    """A whole number written in the rules, within the bounds of numbers in play: setting it needs no
    check (a small game sets a few of them every deal)."""
    return isinstance(value, R.Const) and type(value.value) is int and -MAX_VALUE <= value.value <= MAX_VALUE
