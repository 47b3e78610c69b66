"""Effects of the resolved tree -> Python statements: procedures, loops and `check events`.

Each `_do_<Class>` writes what the effect does, with its messages, and spends the run's budget
(work.py), raising the located error past it. A procedure of the rules becomes a generated function of
its own, written once, whose parameters are its parameters: its `let`s are its own (the checker refused
recursion, so writing a procedure's body never comes back to it).
"""
from __future__ import annotations

from typing import Any

from koloda.dsl import resolved as R
from koloda.interpreter.codegen.gen_frag import Frag, Scope
from koloda.interpreter.codegen.gen_source import Function, Module
from koloda.interpreter.codegen.gen_talk import TalkGen


class ControlGen(TalkGen):
    def __init__(self, loaded: Any, module: Module):
        super().__init__(loaded, module)
        self._procedures: dict[str, str] = {}

    def spend_one(self, what: str, span: Any, indent: int) -> None:
        """One step of the budget (`s.work -= 1`, then the located error)."""
        self.fn.emit("s.work -= 1", indent)
        self.fn.emit("if s.work < 0:", indent)
        self.fn.emit(f"raise _too_much({self.m.literal(what)}, {self.m.const(span, 'span')})", indent + 1)

    # ------------------------------------------------------------ procedures
    def _do_Perform(self, e: R.Perform, scope: Scope, visible: set[str], indent: int) -> None:
        name = self.procedure(self.c.rules.procedures[e.name])
        self.spend_one(f"running `{e.name}`", e.span, indent)    # procedures running procedures twice each multiply
        args = [self.value(a, scope, indent) for a in e.args]
        self.fn.emit(f"{name}({', '.join(['s'] + args)})", indent)

    def procedure(self, proc: R.Procedure) -> str:
        """A procedure of the rules as a generated function (s, its parameters...), written once."""
        name = self._procedures.get(proc.name)
        if name is not None:
            return name
        name = self._procedures[proc.name] = self.m.name("proc")
        params = [self.m.local(p) for p in proc.params]
        saved = (self.fn, self.listing, self.hoisting, self.memo, self._inside_cell, self._root, self._in_iterable,
                 self._depth, self._blocks)
        self.fn = Function(self.m, name, ", ".join(["s"] + params), pure=False)
        self.listing = self.hoisting = self.memo = self._inside_cell = self._root = False
        self._in_iterable = self._depth = self._blocks = 0
        try:
            scope = {p: Frag(v, frozenset({v}), True) for p, v in zip(proc.params, params)}
            self.block(proc.body, scope, set(scope), 1)
            self.m.add(self.fn.text([f"    # the procedure {self.m.literal(proc.name)} of the rules"]))
        finally:
            (self.fn, self.listing, self.hoisting, self.memo, self._inside_cell, self._root, self._in_iterable,
             self._depth, self._blocks) = saved
        return name

    # ------------------------------------------------------------ loops
    def _do_Repeat(self, e: R.Repeat, scope: Scope, visible: set[str], indent: int) -> None:
        count = self.value(e.count, scope, indent)
        rounds = self.fn.temp()
        self.fn.emit(f"for {rounds} in range(_repeat(s, {count}, {e.limit}, {self.m.const(e.span, 'span')})):",
                     indent)
        self._blocks += 1
        self.block(e.body, scope, visible, indent + 1)
        self._blocks -= 1

    def _do_While(self, e: R.While, scope: Scope, visible: set[str], indent: int) -> None:
        emit = self.fn.emit
        rounds = self.fn.temp()
        emit(f"for {rounds} in range({e.limit}):", indent)
        self._blocks += 1
        holds = self.value(e.cond, scope, indent + 1)
        emit(f"if not {holds}:", indent + 1)
        emit("break", indent + 2)
        self.spend_one("`while:` running its `do:` once more", e.span, indent + 1)
        self.block(e.body, scope, visible, indent + 1)
        self._blocks -= 1
        emit("else:", indent)          # every round ran: the condition is asked once more
        holds = self.value(e.cond, scope, indent + 1)
        emit(f"if {holds}:", indent + 1)
        emit(self.fail(f"`while:` has run its `do:` {e.limit} times and its condition still holds, so the game "
                       "was stopped: its `do:` must make the condition false (or raise `limit:` if the rules mean "
                       "it)", e.span), indent + 2)

    # ------------------------------------------------------------ events
    def _do_CheckEvents(self, e: R.CheckEvents, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit(f"s.work -= {1 + len(self.c.rules.events)}", indent)
        self.fn.emit("if s.work < 0:", indent)
        self.fn.emit(f"raise _too_much('`check events`', {self.m.const(e.span, 'span')})", indent + 1)
        self.fn.emit("_check_events(s)", indent)
