"""What a `turns: together` phase may hold: one choice each, made at the same time.

Play stays sequential underneath (each player in turn), so a choice is as good as simultaneous
only if nobody can learn of it before choosing: this module refuses, where they are written, the
effects of such a phase's actions (and of its `after turn:`) that would tell the others, change
who plays, or make a turn more than one move (docs/language.md §8.7).
"""
from __future__ import annotations

from typing import Callable

from koloda.dsl import resolved as R
from koloda.dsl.errors import Span
from koloda.dsl.model import PhaseSpec, Spec

Report = Callable[[str, "R.Node | Span", "str | None"], None]

# effects that change who plays next, or give a player a second decision in the round
_TURNS = {R.Goto: "`goto`", R.Ask: "`ask`", R.AskWindow: "`ask … until`", R.TurnTo: "`next turn`",
          R.Skip: "`skip`", R.ReverseDirection: "`reverse direction`", R.EndDeal: "`end deal`"}
# effects that tell the others something
_TELLS = {R.Say: "`say`", R.Reveal: "`reveal`", R.Tell: "`tell`", R.Flip: "`turn … face`", R.Meld: "`meld`"}
HINT = "make the choice into a zone only its owner sees (`visible: owner`), and reveal the choices " \
       "after the phase (in the next phase's `start:` or in `scoring:`)"


def check_together(spec: Spec, rules: R.Rules, report: Report) -> None:
    for phase, written in zip(rules.phases, spec.phases):
        if written.together:
            _Together(spec, rules, written, report).check(phase)


class _Together:
    def __init__(self, spec: Spec, rules: R.Rules, written: PhaseSpec, report: Report):
        self.spec, self.rules, self.written, self.report = spec, rules, written, report
        self.seen: set[str] = set()

    def check(self, phase: R.Phase) -> None:
        name = phase.name
        if phase.ends is not None:
            self.report(f"phase `{name}` has `turns: together`, so it ends when every player has chosen: "
                        "it takes no `ends:`", phase.ends, "leave `ends:` out")
        if len(phase.steps) > 1:
            self.report(f"phase `{name}` has `turns: together`: each player makes one choice, so it has no "
                        "`steps:`", self.written.span, "offer every action in one step (leave `steps:` out)")
        for action in phase.actions.values():
            if len(action.params) > 1:
                self.report(f"action `{action.name}` of phase `{name}` (`turns: together`) takes "
                            f"{len(action.params)} parameters: a choice made at the same time takes at most one",
                            action.span, "make the choice one parameter, or choose in a phase of its own")
            self.effects(action.effects, name)
        self.effects(phase.after_turn, name)

    def effects(self, effects: tuple[R.Effect, ...], phase: str) -> None:
        for effect in effects:
            for node in R.walk(effect):
                if isinstance(node, R.Effect):
                    self.effect(node, phase)

    def effect(self, e: R.Effect, phase: str) -> None:
        where = f"in phase `{phase}` (`turns: together`)"
        kind = type(e)
        if kind in _TURNS:
            self.report(f"{_TURNS[kind]} cannot be {where}: every player has one turn and one choice, "
                        "in turn order", e, None)
        elif kind in _TELLS:
            self.report(f"{_TELLS[kind]} cannot be {where}: it would tell the others a choice before "
                        "they make theirs", e, HINT)
        elif isinstance(e, (R.Move, R.Gather, R.Deal)):
            dest = e.dest if isinstance(e, (R.Move, R.Gather)) else None
            if dest is not None and not self._hidden_zone(dest):
                self.report(f"this move {where} puts a card where the other players see it, so they would "
                            "know the choice before making theirs", dest, HINT)
        elif isinstance(e, (R.Assign, R.Score)) and not self._hidden_var(e.target):
            self.report(f"this changes a variable the other players see, {where}: they would know the choice "
                        "before making theirs", e.target, "give the variable `visible: owner` (or `nobody`)")
        elif isinstance(e, R.Perform) and e.name not in self.seen:
            self.seen.add(e.name)
            procedure = self.rules.procedures.get(e.name)
            if procedure is not None:
                self.effects(procedure.body, phase)

    def _hidden_zone(self, dest: R.Expr) -> bool:
        if isinstance(dest, R.ZoneRef):
            zone = self.spec.zones.get(dest.name)
            return zone is not None and zone.visible == "nobody"
        if isinstance(dest, R.OwnedZone):
            zone = self.spec.zones.get(dest.name)
            return zone is not None and (zone.visible == "nobody" or zone.visible == "owner" and _mine(dest))
        return False

    def _hidden_var(self, target: R.Expr) -> bool:
        name = target.name if isinstance(target, (R.VarRef, R.OwnedVar)) else None
        var = self.spec.vars.get(name) if name is not None else None
        if var is None:
            return False
        return var.visible == "nobody" or (var.visible == "owner" and isinstance(target, R.OwnedVar)
                                           and _mine(target))


def _mine(owned: R.Owned) -> bool:
    """`my …`: the player choosing's own (a partner's or a side's would be seen by the partner)."""
    return isinstance(owned.owner, R.StateValue) and owned.owner.name == "me" and not owned.per_side
