"""A step's legal moves as generated loops (see generate.py): every action's parameters as nested
loops over their values, its `if:` inline, the part of the guard that reads no parameter asked once
before them; and the same listing checked, each failure raising its located error.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from koloda.dsl import resolved as R
from koloda.dsl.types import CARD, ZONE
from koloda.interpreter.codegen.gen_attrs import read_as_code
from koloda.interpreter.codegen.gen_control import ControlGen
from koloda.interpreter.codegen.gen_expr import _logic
from koloda.interpreter.codegen.gen_frag import Frag, costly, truth
from koloda.interpreter.codegen.gen_kinds import kinds_let_through
from koloda.interpreter.codegen.gen_source import Function, Module
from koloda.interpreter.core.flow import Action
from koloda.interpreter.core.loaded import chain


class ListingGen(ControlGen):
    """The listing of one step's legal moves, written into a function (s, found, deadline)."""

    def __init__(self, loaded: Any, module: Module):
        super().__init__(loaded, module)
        self._copies: dict[int, tuple[bool, ...]] = {}

    def step_listing(self, actions: list[tuple[R.Action, Action]]) -> str:
        """A function (s, found, deadline) adding the legal action ids of one step to `found`, in the
        order of the actions, then of each parameter's values."""
        name = self.m.name("list")
        self.fn = Function(self.m, name, "s, found, deadline", pure=True)
        self.listing, self.hoisting, self.memo = True, True, False
        self.share = True
        self.loops: list[_Loop] = []
        for i, (ra, action) in enumerate(actions):
            self.fn.emit(f"# action {self.m.literal(ra.name)}", 1)
            (self.checked_action if self.checked else self.action)(i, ra, action)
        for loop in reversed(self.loops):       # from the end, so that the places of earlier lines hold
            self.answer_any(loop)
        self.m.add(self.fn.text())
        self.share = False
        return name

    def action(self, i: int, ra: R.Action, action: Action) -> None:
        emit = self.fn.emit
        indent = 1
        scope: dict[str, Frag] = {}
        lead, whole = self.lead(ra)
        if lead is not None:          # while the part before the parameters is false, nothing is listed
            emit(f"if {truth(lead)}:", indent)
            indent += 1
        # The deadline is looked at for each value of the first parameter where the values may be many
        # (a range) or each may cost much (more parameters, a guard that loops for each value); one zone's
        # cards under a guard that does not loop cost little however many there are: it is looked at once.
        each = len(ra.params) > 1 or (bool(ra.params) and ra.params[0].domain.type != ZONE) \
            or (ra.guard is not None and self.heavy_each(ra.guard))
        if ra.params and not each:
            emit("if _perf() > deadline:", indent)
            emit(f"raise _Slow({i})", indent + 1)
        combos = self.combo_kinds(ra)
        try:
            self._action_loops(i, ra, action, scope, indent, each, combos, whole)
        finally:
            self.coded = {}

    def _action_loops(self, i: int, ra: R.Action, action: Action, scope: dict[str, Frag], indent: int, each: bool,
                      combos: str | None, whole: bool) -> None:
        emit = self.fn.emit
        code: str | None = None
        for k, (rp, param) in enumerate(zip(ra.params, action.params)):
            in_zone = rp.domain.type == ZONE
            # a range, or the players, gives each whole number once, and never none
            counted = isinstance(rp.domain, R.Range) or (isinstance(rp.domain, R.StateValue)
                                                           and rp.domain.name == "players")
            if k == 0:          # worked out once
                self._inside_cell = self._root = True
            try:
                if isinstance(rp.domain, R.Range) and rp.domain.step is None:
                    low, high = self.gen(rp.domain.low, scope), self.gen(rp.domain.high, scope)
                    domain = Frag(f"_range(s, {low.text}, {high.text})", low.deps | high.deps)
                    listed = domain.text
                elif isinstance(rp.domain, R.BuiltinCall) and self.listed_as_codes(ra):
                    # a guard that reads only the combinations' attributes: their codes, none made a Combo (its
                    # attributes read from the table's lists), of only the kinds it lets through (gen_kinds.py)
                    local = self.m.local(rp.var)
                    domain, cards = self.combo_codes(rp.domain, scope, combos or "None")
                    combos = self.m.const(self.c.combos, "combos")
                    self.coded = {local: (f"{combos}.cards_listed({local}, {cards})", f"{combos}.pick({local}, {cards})")}
                    listed = f"_counted(s, {domain.text})"
                    domain = Frag(listed, domain.deps, domain.safe)
                elif combos is not None and isinstance(rp.domain, R.BuiltinCall):   # only the kinds the guard
                    domain = self.combos_listed(rp.domain, scope, combos)            # lets through (gen_kinds.py)
                    listed = f"_counted(s, {domain.text})"
                    domain = Frag(listed, domain.deps, domain.safe)
                else:       # the values of each parameter are the listing's work (work.py)
                    domain = self.sequence(rp.domain, scope)
                    if in_zone:         # a zone is a list: its length spent here, without a call
                        emit(f"_w{k} = {domain.text}", indent)
                        emit(f"s.work -= len(_w{k})", indent)
                        emit("if s.work < 0:", indent)
                        emit("_fail()", indent + 1)
                        # (the text a comprehension over the zone has, for answer_any to find)
                        listed = f"_counted(s, {domain.text})"
                        domain = Frag(f"_w{k}", domain.deps, domain.safe)
                    else:
                        listed = f"_counted(s, {domain.text})"
                        domain = Frag(listed, domain.deps, domain.safe)
            finally:
                self._inside_cell = self._root = False
            local = self.m.local(rp.var)
            seen = f"_seen{k}"
            # the plans a meld function lists are its own, each once, and never none; so are combinations
            plans = isinstance(rp.domain, R.BuiltinCall) and rp.domain.name in ("melds_in", "layoffs", "swaps",
                                                                                  "combos")
            unique = (in_zone and param.kind is None) or counted or plans     # a zone holds a card once; copies make one move
            if not unique:
                emit(f"{seen} = set()", indent)
            emit(f"for {local} in {domain.text}:", indent)
            indent += 1
            if not (in_zone or counted or plans):
                emit(f"if {local} is None:", indent)
                emit("continue", indent + 1)
            if k == 0 and each:
                emit("if _perf() > deadline:", indent)
                emit(f"raise _Slow({i})", indent + 1)
            if not unique:
                key = local
                inner = indent
                if param.kind is not None:
                    key = f"({self.m.const(param.kind, 'kind')}[{local}], {self.fn.state('_L')}[{local}], " \
                          f"{self.fn.state('_F')}[{local}])"
                    if in_zone:         # a card of a zone with no copy in the deck is one move by itself
                        emit(f"if {self.m.const(self._copied(param.kind), 'copied')}[{local}]:", indent)
                        inner += 1
                emit(f"_key = {key}", inner)
                emit(f"if _key in {seen}:", inner)
                emit("continue", inner + 1)
                emit(f"{seen}.add(_key)", inner)
            if in_zone and param.type == CARD and param.radix == self.c.cards.size:
                digit = local           # a card of a zone is an id of the deck
            elif param.words is not None:            # a word written as its place in its list
                digit = f"_d{k}"
                emit(f"{digit} = {self.m.const(param.words, 'words')}[{local}]", indent)
            elif param.low or param.step != 1:        # a number written as its place in its range
                digit = f"_d{k}"
                emit(f"{digit}, _off = divmod({local} - {param.low}, {param.step})", indent)
                emit(f"if _off or not 0 <= {digit} < {param.radix}:", indent)
                emit("_fail()", indent + 1)
            elif counted or plans:          # (a plan is the int of its code)
                digit = local
                emit(f"if not 0 <= {digit} < {param.radix}:", indent)
                emit("_fail()", indent + 1)
            else:
                digit = f"_d{k}"
                emit(f"{digit} = int({local})", indent)
                emit(f"if not 0 <= {digit} < {param.radix}:", indent)
                emit("_fail()", indent + 1)
            if code is None:
                code = digit
            else:
                emit(f"_c{k} = {code} * {param.radix} + {digit}", indent)
                code = f"_c{k}"
            scope[rp.var] = Frag(local, frozenset({local}), True, True)
        found = f"found.append({action.offset}{'' if code is None else f' + {code}'})"
        if ra.guard is None or whole:         # (a guard that reads no parameter is its lead: true here)
            emit(found, indent)
            return
        guard = self.root(ra.guard, scope) if not ra.params else self.gen(ra.guard, scope)
        if len(ra.params) == 1 and code == local and unique:       # one zone's cards, each once
            parts = chain(ra.guard, R.And)
            first = self.gen(parts[0], scope).text
            rest = _logic([self.gen(part, scope) for part in parts[1:]], "and").text if len(parts) > 1 else None
            self.loops.append(_Loop(len(self.fn.lines), indent, local, listed, first, rest, found))
        emit(f"if {truth(guard.text)}:", indent)
        emit(found, indent + 1)

    def checked_action(self, i: int, ra: R.Action, action: Action) -> None:
        """One action's moves listed as the rules list them, each failure raising its located error: the
        part of the guard before the parameters asked first (a failure in it is met again in the guard),
        each parameter's values spent from the budget, none passed over, copies listed once, a value
        outside the action's ids refused, and a Python failure anywhere the `if:`'s failure."""
        emit, at = self.fn.emit, self.m.const(action.span, "span")
        emit("try:", 1)
        indent = 2
        scope: dict[str, Frag] = {}
        parts = chain(ra.guard, R.And) if ra.guard is not None and ra.params else []
        k = 0
        while k < len(parts) and not self.c.free_locals(parts[k]):
            k += 1
        if k:
            emit("try:", indent)
            emit(f"_lead = {' and '.join(self.root(part, {}).text for part in parts[:k])}", indent + 1)
            emit("except (_RuleError,) + _FAILURES:", indent)
            emit("_lead = True", indent + 1)
            emit("if _lead:", indent)
            indent += 1
        code: str | None = None
        what = self.m.literal(f"listing the moves of `{action.name}`")
        for k, (rp, param) in enumerate(zip(ra.params, action.params)):
            if k == 0:          # worked out once
                self._inside_cell = self._root = True
            try:
                domain = self.sequence(rp.domain, scope)
            finally:
                self._inside_cell = self._root = False
            local = self.m.local(rp.var)
            emit(f"_w{k} = _ck_listed(s, {domain.text}, {what}, {at})", indent)
            emit(f"_seen{k} = set()", indent)
            emit(f"for {local} in _w{k}:", indent)
            indent += 1
            emit(f"if {local} is None:", indent)
            emit("continue", indent + 1)
            if k == 0:
                emit("if _perf() > deadline:", indent)
                emit(f"raise _Slow({i})", indent + 1)
            key = local if param.kind is None else \
                f"({self.m.const(param.kind, 'kind')}[{local}], {self.fn.state('_L')}[{local}], " \
                f"{self.fn.state('_F')}[{local}])"
            emit(f"_key = {key}", indent)
            emit(f"if _key in _seen{k}:", indent)
            emit("continue", indent + 1)
            emit(f"_seen{k}.add(_key)", indent)
            if param.words is not None:          # a word written as its place in its list
                emit(f"_d{k} = {self.m.const(param.words, 'words')}[{local}]", indent)
            else:
                emit(f"_d{k} = _ck_digit({local}, {param.low}, {param.step}, {param.radix}, "
                     f"{self.m.literal(rp.var)}, {self.m.literal(action.name)}, {at})", indent)
            if code is None:
                code = f"_d{k}"
            else:
                emit(f"_c{k} = {code} * {param.radix} + _d{k}", indent)
                code = f"_c{k}"
            scope[rp.var] = Frag(local, frozenset({local}), True, True)
        found = f"found.append({action.offset}{'' if code is None else f' + {code}'})"
        if ra.guard is None:
            emit(found, indent)
        else:
            guard = self.root(ra.guard, scope) if not ra.params else self.gen(ra.guard, scope)
            emit(f"if {truth(guard.text)}:", indent)
            emit(found, indent + 1)
        emit("except _RuleError:", 1)
        emit("raise", 2)
        emit("except _FAILURES as _e:", 1)
        emit(f"raise _ck_failed({self.m.literal(f'the `if:` of action `{action.name}` failed')}, _e, {at}) from None",
             2)

    def _copied(self, kind: Sequence[int]) -> tuple[bool, ...]:
        """For each card id, whether another card of the deck is of its kind (a copy of it)."""
        found = self._copies.get(id(kind))
        if found is None:
            counts = Counter(kind)
            found = self._copies[id(kind)] = tuple(counts[k] > 1 for k in kind)
        return found

    def answer_any(self, loop: "_Loop") -> None:
        """A listing that loops over a zone's cards with a guard `P(c) and ...` and asks, in another
        action's guard, `any(P(c) for c in` the same zone`)` (play a card that fits; draw if none
        fits) learns the answer from the loop: true at the first card for which P holds, false if
        the loop ends without one. The cell that keeps it is filled once, whichever comes first."""
        found = self.fn.cells.get(f"any({loop.first} for {loop.local} in {loop.domain})")
        if found is None or found[1]:
            return
        cell, pad = found[0], "    " * loop.indent
        lines = [f"{pad}if {truth(loop.first)}:", f"{pad}    if not {cell}:", f"{pad}        {cell}.append(True)"]
        if loop.rest is None:
            lines.append(f"{pad}    {loop.found}")
        else:
            lines += [f"{pad}    if {truth(loop.rest)}:", f"{pad}        {loop.found}"]
        after = "    " * (loop.indent - 1)
        lines += [f"{after}if not {cell}:", f"{after}    {cell}.append(False)"]
        self.fn.lines[loop.line:loop.line + 2] = lines

    def listed_as_codes(self, ra: R.Action) -> bool:
        """Whether an action's one parameter ranges over `combos(...)` and its guard reads only the
        combination's attributes (gen_attrs.read_as_code), so that its listing may go through codes."""
        if len(ra.params) != 1:
            return False
        domain = ra.params[0].domain
        return isinstance(domain, R.BuiltinCall) and domain.name == "combos" \
            and read_as_code(self.c, [ra.guard] if ra.guard is not None else [], ra.params[0].var, self.inlines)

    def combo_kinds(self, ra: R.Action) -> str | None:
        """For an action whose one parameter ranges over `combos(...)`: the text of the kinds its guard
        lets through (gen_kinds.py), None when it names none."""
        if len(ra.params) != 1 or ra.guard is None:
            return None
        domain = ra.params[0].domain
        if not (isinstance(domain, R.BuiltinCall) and domain.name == "combos"):
            return None
        local = self.m.local(ra.params[0].var)
        return kinds_let_through(self, ra.guard, {ra.params[0].var: Frag(local, frozenset({local}), True, True)},
                                 ra.params[0].var)

    def heavy_each(self, n: R.Node) -> bool:
        """Whether working a guard out for one value of the parameters may cost much: a loop or a costly
        built-in that reads a local name (one that reads none is worked out once per listing), or a call
        that is not inlined."""
        for x in R.walk(n):
            if isinstance(x, R.UserCall):
                if not self.inlines(x) or self.heavy_each(self.c.rules.functions[x.name].body):
                    return True
            elif costly(x) and self.c.free_locals(x):
                return True
        return False

    def lead(self, ra: R.Action) -> tuple[str | None, bool]:
        """The part of a guard before anything that reads the parameters: when it is false, the action
        is not listed at all. And whether that part is the whole guard."""
        if not ra.params or ra.guard is None:
            return None, False
        parts = chain(ra.guard, R.And)
        k = 0
        while k < len(parts) and not self.c.free_locals(parts[k]):
            k += 1
        if k == 0:
            return None, False
        texts = [self.root(part, {}).text for part in parts[:k]]
        return (texts[0] if k == 1 else f"({' and '.join(texts)})"), k == len(parts)


@dataclass
class _Loop:
    """A listing's loop over one zone's cards (ListingGen.answer_any): the line of its guard, that line's
    indent, the loop's name, the zone, the guard's first part and the rest (None: no more), and the
    line that lists the move."""
    line: int
    indent: int
    local: str
    domain: str
    first: str
    rest: str | None
    found: str


