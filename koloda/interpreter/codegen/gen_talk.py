"""Effects of the resolved tree -> Python statements: what the table is told, and the table itself.

`say`, `reveal`, `tell`, `score:` with parts, `turn X face up/down`, `reverse direction` and the open
window's `ask … until all pass`: each `_do_<Class>` writes what the effect does, with its messages
(the longer ones through small functions of gen_runtime.py). The generator's own rules (a failing
expression worked out again checked, every effect wrapped) are those of gen_effects.py.
"""
from __future__ import annotations

from koloda.dsl import resolved as R
from koloda.dsl.types import SUIT, ZONE, is_list
from koloda.interpreter.codegen.gen_effects import EffectGen
from koloda.interpreter.codegen.gen_frag import Scope, is_none
from koloda.interpreter.runtime.knowledge import RANK_FACT, SUIT_FACT
from koloda.interpreter.core.watch import ALL
from koloda.interpreter.core.window import Window


def _closed_later(s: object, b: dict) -> bool:
    raise AssertionError("the condition that closes a window is generated with the flow")


class TalkGen(EffectGen):
    def audience(self, to: R.Expr | None, scope: Scope, indent: int) -> str:
        """The players told, as bits (everyone when the rules name none)."""
        if to is None:
            return "((1 << s.n) - 1)"
        t = self.fn.temp()
        self.fn.emit(f"{t} = _audience({self.value(to, scope, indent)}, s.n)", indent)
        return t

    def _do_Say(self, e: R.Say, scope: Scope, visible: set[str], indent: int) -> None:
        emit = self.fn.emit
        mask = self.audience(e.to, scope, indent)
        emit(f"if {mask}:", indent)          # the values are worked out only for someone to hear them
        text = self.fn.temp()
        emit(f"{text} = {self.m.literal(e.parts[0])}", indent + 1)
        for value, part in zip(e.values, e.parts[1:]):
            v = self.value(value, scope, indent + 1)
            emit(f"{text} = {text} + _text(s, {v}, {self.m.literal(value.type)}) + {self.m.literal(part)}",
                 indent + 1)
        emit(f"_say(s, {mask}, {text})", indent + 1)

    def _do_Reveal(self, e: R.Reveal, scope: Scope, visible: set[str], indent: int) -> None:
        what = self.value(e.what, scope, indent)
        cards = f"list({self.fn.state('_Z')}[{what}])" if e.what.type == ZONE else f"_shown({what})"
        self.fn.emit(f"_cards = {cards}", indent)
        mask = self.audience(e.to, scope, indent)
        self.fn.emit(f"_reveal(s, _cards, {mask})", indent)

    def _do_Tell(self, e: R.Tell, scope: Scope, visible: set[str], indent: int) -> None:
        zone = self.value(e.zone, scope, indent)
        value = self.value(e.value, scope, indent)
        fact = f"{zone}, {SUIT_FACT if e.value.type == SUIT else RANK_FACT}, {value}, {e.holds}"
        self.fn.emit(f"_tell(s, {fact}, {self.m.const(e.span, 'span')})", indent)
        mask = self.audience(e.to, scope, indent)
        self.fn.emit(f"_told(s, {fact}, {mask})", indent)

    def _do_Score(self, e: R.Score, scope: Scope, visible: set[str], indent: int) -> None:
        index = self.index(e.target, scope, indent)
        parts = [self.value(v, scope, indent) for v in e.values]
        labels = self.m.const(e.labels, "labels")
        dirt = self.c.var_dirt.get(e.target.name, 0)
        self.fn.emit(f"_score(s, {index}, {labels}, [{', '.join(parts)}], {dirt}, {self.m.const(e.span, 'span')})",
                     indent)

    def _do_Flip(self, e: R.Flip, scope: Scope, visible: set[str], indent: int) -> None:
        emit = self.fn.emit
        what = self.value(e.what, scope, indent)
        if e.what.type == ZONE:
            emit(f"_cards = list({self.fn.state('_Z')}[{what}])", indent)
        elif is_list(e.what.type):
            emit(f"_cards = [_c for _c in {what} if _c is not None]", indent)
        else:
            emit(f"if {is_none(what)}:", indent)
            emit(self.fail("there is no card to turn over", e.span), indent + 1)
            emit(f"_cards = [{what}]", indent)
        emit(f"_turn_over(s, _cards, {e.face_up})", indent)

    def _do_ReverseDirection(self, e: R.ReverseDirection, scope: Scope, visible: set[str], indent: int) -> None:
        self.fn.emit("s.direction = -s.direction", indent)
        self.fn.emit(f"s.dirty = {ALL}", indent)      # rare: every condition asked again

    def _do_AskWindow(self, e: R.AskWindow, scope: Scope, visible: set[str], indent: int) -> None:
        players = self.value(e.players, scope, indent)
        self.fn.emit(f"if {is_none(players)}:", indent)
        self.fn.emit(self.fail("nobody to ask", e.span), indent + 1)
        self.fn.emit(f"s.asked = ([_p for _p in {players} if _p is not None], {self.m.literal(e.step)}, "
                     f"{self.window(e)})", indent)

    def window(self, e: R.AskWindow) -> int:
        """The index the flow knows this effect's window by, opened here the first time the effect is written
        (the condition that closes it is generated with the flow's, Generator.flow)."""
        for k, w in enumerate(self.c.windows):
            if w.source is e:
                return k
        self.c.windows.append(Window(e.passing, _closed_later if e.closes is not None else None, e))
        return len(self.c.windows) - 1
