"""Effects of the checked tree in words: one method per resolved effect class, each giving lines (a line
that opens a block, `if …:`, is followed by its block's lines, indented)."""
from __future__ import annotations

from typing import Callable

from koloda.dsl import resolved as R
from koloda.dsl.labels import readable
from koloda.rulebook.phrases import Ph
from koloda.rulebook.words import Words

Lines = list[tuple[int, str]]      # (depth, text)


class Deeds:
    """Says the effects of one rule file, with its Words for the expressions in them."""

    def __init__(self, words: Words):
        self.w = words
        self.say = words.say

    def __call__(self, effects: tuple[R.Effect, ...], depth: int = 0) -> Lines:
        out: Lines = []
        for e in effects:
            method: Callable[[R.Effect, int], Lines | None] | None = getattr(self, "_" + type(e).__name__, None)
            found = method(e, depth) if method is not None else None
            out.extend(found if found is not None else [(depth, self.w.quoted(e).nom)])
        return out

    def one(self, depth: int, key: str, **parts: object) -> Lines:
        return [(depth, self.say.word(key, **parts))]

    def _to(self, to: R.Expr | None) -> Ph:
        return self.say("everyone") if to is None else self.w(to)

    def _Move(self, e: R.Move, depth: int) -> Lines:
        key = "fx.move" + (".under" if e.under else "") + (".down" if e.face_down else "")
        return self.one(depth, key, what=self.w(e.what), dest=self.w(e.dest))

    def _Meld(self, e: R.Meld, depth: int) -> Lines:
        return self.one(depth, "fx.meld", plan=self.w(e.plan))

    def _Shuffle(self, e: R.Shuffle, depth: int) -> Lines:
        return self.one(depth, "fx.shuffle", zone=self.w(e.zone))

    def _Gather(self, e: R.Gather, depth: int) -> Lines:
        return self.one(depth, "fx.gather", dest=self.w(e.dest))

    def _Deal(self, e: R.Deal, depth: int) -> Lines:
        return self.one(depth, "fx.deal", count=self.w(e.count), source=self.w(e.source),
                        family=self.w.zone_name(e.family))

    def _Assign(self, e: R.Assign, depth: int) -> Lines:
        key = {"=": "fx.set", "+=": "fx.add", "-=": "fx.sub", "append": "fx.append", "remove": "fx.remove"}.get(
            e.op, "fx.op")
        target = self.w(e.target) if e.index is None else f"{self.w(e.target)}[{self.w(e.index)}]"
        return self.one(depth, key, target=target, value=self.w(e.value), op=e.op)

    def _Score(self, e: R.Score, depth: int) -> Lines:
        out = self.one(depth, "fx.score", target=self.w(e.target))
        for label, value in zip(e.labels, e.values):
            out += self.one(depth + 1, "fx.score.part", label=label, value=self.w(value))
        return out

    def _Let(self, e: R.Let, depth: int) -> Lines:
        return self.one(depth, "fx.let", name=e.name, value=self.w(e.value))

    def _Goto(self, e: R.Goto, depth: int) -> Lines:
        return self.one(depth, "fx.goto", step=readable(e.step))

    def _TurnTo(self, e: R.TurnTo, depth: int) -> Lines:
        return self.one(depth, "fx.turn", player=self.w(e.player))

    def _Skip(self, e: R.Skip, depth: int) -> Lines:
        return self.one(depth, "fx.skip", player=self.w(e.player))

    def _Ask(self, e: R.Ask, depth: int) -> Lines:
        return self.one(depth, "fx.ask", player=self.w(e.player), step=readable(e.step))

    def _AskWindow(self, e: R.AskWindow, depth: int) -> Lines:
        key = "fx.window.closes" if e.closes is not None else "fx.window"
        return self.one(depth, key, players=self.w(e.players), step=readable(e.step), passing=readable(e.passing),
                        closes=self.w(e.closes) if e.closes is not None else "")

    def _EndDeal(self, e: R.EndDeal, depth: int) -> Lines:
        return self.one(depth, "fx.end_deal")

    def _EndTurn(self, e: R.EndTurn, depth: int) -> Lines:
        return self.one(depth, "fx.end_turn")

    def _Say(self, e: R.Say, depth: int) -> Lines:
        text = e.parts[0]
        for value, part in zip(e.values, e.parts[1:]):
            text += "{" + self.w.text(value) + "}" + part
        key = "fx.say.to" if e.to is not None else "fx.say"
        return self.one(depth, key, text=text, to=self._to(e.to))

    def _Reveal(self, e: R.Reveal, depth: int) -> Lines:
        key = "fx.reveal.to" if e.to is not None else "fx.reveal"
        return self.one(depth, key, what=self.w(e.what), to=self._to(e.to))

    def _Tell(self, e: R.Tell, depth: int) -> Lines:
        key = "fx.tell.holds" if e.holds else "fx.tell.none"
        return self.one(depth, key, to=self._to(e.to), zone=self.w(e.zone), value=self.w(e.value))

    def _ReverseDirection(self, e: R.ReverseDirection, depth: int) -> Lines:
        return self.one(depth, "fx.reverse")

    def _If(self, e: R.If, depth: int) -> Lines:
        out = self.one(depth, "fx.if", cond=self.w.clause(e.cond)) + self(e.then, depth + 1)
        if e.orelse:
            out += self.one(depth, "fx.else") + self(e.orelse, depth + 1)
        return out

    def _For(self, e: R.For, depth: int) -> Lines:
        return self.one(depth, "fx.for", over=self.w.over(e.var, e.iterable)) + self(e.body, depth + 1)

    def _Perform(self, e: R.Perform, depth: int) -> Lines:
        if not e.args:
            return self.one(depth, "fx.perform", name=readable(e.name))
        return self.one(depth, "fx.perform.args", name=readable(e.name), args=", ".join(self.w.text(a) for a in e.args))

    def _Flip(self, e: R.Flip, depth: int) -> Lines:
        return self.one(depth, "fx.flip.up" if e.face_up else "fx.flip.down", what=self.w(e.what))

    def _CheckEvents(self, e: R.CheckEvents, depth: int) -> Lines:
        return self.one(depth, "fx.check_events")

    def _Repeat(self, e: R.Repeat, depth: int) -> Lines:
        return self.one(depth, "fx.repeat", count=self.w(e.count)) + self(e.body, depth + 1)

    def _While(self, e: R.While, depth: int) -> Lines:
        return self.one(depth, "fx.while", cond=self.w(e.cond), limit=e.limit) + self(e.body, depth + 1)
