"""A loaded game: the checked rule file compiled for one table (options, players)."""
from __future__ import annotations

import re
from bisect import bisect_right

from koloda.dsl import ast
from koloda.dsl.check import DECKS, Checked
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.model import Spec
from koloda.dsl.types import BOOL, CARD, COLOR, COLORS, INT, PLAYER, RANK, SUIT, SUITS, ZONE
from koloda.interpreter.cards import CardTable, build_deck, rank_name
from koloda.interpreter.compile import Compiler
from koloda.interpreter.flow import Action, Event, Flow, Param, Phase
from koloda.interpreter.state import State


class Game:
    def __init__(self, spec: Spec, checked: Checked, options: dict, players: int):
        self.spec = spec
        self.name = spec.name
        self.title = spec.title
        self.options = options
        self.num_players = players
        self.fingerprint = spec.fingerprint
        self.cards: CardTable = self._build_deck()
        self._layout()
        compiler = Compiler(self, checked)
        self.flow = self._build_flow(compiler, checked)

    # ------------------------------------------------------------ set-up
    def _option_value(self, value):
        if isinstance(value, str) and value.startswith("option."):
            return self.options[value[len("option."):]]
        return value

    def _build_deck(self) -> CardTable:
        d = self.spec.deck
        base = self._option_value(d.base)
        copies = int(self._option_value(d.copies))
        jokers = int(self._option_value(d.jokers))
        if base not in DECKS:
            raise RuleErrors([RuleError(f"unknown deck `{base}`", d.span)])
        return build_deck(base, copies, jokers, self.spec.values, self.spec.ace)

    def _layout(self) -> None:
        n = self.num_players
        self.zone_base: dict[str, int] = {}
        self.zone_names: list[str] = []
        self.zone_owner: list[int | None] = []
        self.zone_visible: list[str] = []
        for name, z in self.spec.zones.items():
            self.zone_base[name] = len(self.zone_names)
            for p in (range(n) if z.each_player else [None]):
                self.zone_names.append(name)
                self.zone_owner.append(p)
                self.zone_visible.append(z.visible)
        self.var_base: dict[str, int] = {}
        self.var_names: list[str] = []
        self.var_owner: list[int | None] = []
        for name, v in self.spec.vars.items():
            self.var_base[name] = len(self.var_names)
            for p in (range(n) if v.each_player else [None]):
                self.var_names.append(name)
                self.var_owner.append(p)

    def zone_count(self, n: int) -> int:
        return len(self.zone_names)

    def _radix(self, t: str) -> int:
        return {CARD: self.cards.size, SUIT: 4, RANK: 15, PLAYER: self.num_players, INT: self.cards.size + 1,
                BOOL: 2, COLOR: 2}.get(t, 1)

    def _build_flow(self, c: Compiler, checked: Checked) -> Flow:
        spec = self.spec
        offset = 0
        self.actions: list[Action] = []
        phases = []
        for index, ph in enumerate(spec.phases):
            by_name = {}
            for a in ph.actions.values():
                params = []
                for binding in a.params:
                    t = checked.types.get(id(binding), "any")
                    params.append(Param(binding.var, t, c.sequence(binding.domain), self._radix(t)))
                action = Action(a.name, offset, params, c.expr(a.guard) if a.guard is not None else None,
                                c.effects(a.effects), a.text, index)
                offset += action.size
                self.actions.append(action)
                by_name[a.name] = action
            steps = {step: [by_name[name] for name, _ in listed] for step, listed in ph.steps.items()}
            phases.append(Phase(ph.name, c.expr(ph.first) if ph.first else None, ph.once,
                                c.expr(ph.ends) if ph.ends else None, c.effects(ph.start), c.effects(ph.after_turn),
                                steps, next(iter(steps))))
        self.num_distinct_actions = offset
        self._offsets = [a.offset for a in self.actions]
        events = [Event(e.name, c.expr(e.when), c.effects(e.effects)) for e in spec.events]
        starts = [(self.var_base[name], v.each_player, c.expr(v.start) if v.start is not None else None)
                  for name, v in spec.vars.items()]

        def var_starts(s: State) -> list:
            values = [None] * len(self.var_names)
            for base, each, start in starts:
                for k in range(s.n if each else 1):
                    values[base + k] = start(s, {}) if start is not None else None
            return values

        m = spec.match
        return Flow(phases=phases, events=events, setup=c.effects(spec.setup), deal=c.effects(spec.deal),
                    deal_ends=c.expr(spec.deal_ends) if spec.deal_ends else None, scoring=c.effects(spec.scoring),
                    match_ends=c.expr(m.ends) if m.ends else None, score=c.expr(m.score) if m.score else None,
                    lowest_wins=m.winner == "lowest",
                    first_dealer=c.expr(m.first_dealer) if m.first_dealer else None,
                    rotate=m.rotate, var_starts=var_starts)

    # ------------------------------------------------------------ states
    def new_initial_state(self, seed: int = 0, deck: list[list[int]] | None = None) -> State:
        """A new match. `deck`: card orders (top first) used by the first shuffles instead of the seed."""
        s = State(self, self.num_players, seed, deck)
        self.flow.start(s)
        return s

    def state_from_json(self, data: dict) -> State:
        return State.from_json(self, data)

    def parse_deck(self, text: str) -> list[list[int]]:
        """Deck orders from text: card names top first; a blank line starts the next shuffle's order."""
        orders = []
        for block in re.split(r"\n\s*\n", text.strip()):
            names = [t for t in re.split(r"[\s,]+", block) if t and not t.startswith("#")]
            used: set[int] = set()
            order = []
            for name in names:
                ids = [i for i in self.cards.parse(name) if i not in used]
                if not ids:
                    known = self.cards.parse(name)
                    raise ValueError(f"`{name}` is not a card of this deck" if not known
                                     else f"`{name}` appears more often than the deck holds it")
                used.add(ids[0])
                order.append(ids[0])
            if order:
                orders.append(order)
        return orders

    # ------------------------------------------------------------ actions
    def decode(self, action_id: int) -> tuple[Action, dict]:
        action = self.actions[bisect_right(self._offsets, action_id) - 1]
        code = action_id - action.offset
        b = {}
        for p in reversed(action.params):
            code, digit = divmod(code, p.radix)
            b[p.var] = digit if p.type != BOOL else bool(digit)
        return action, b

    def render(self, value, t: str) -> str:
        if value is None:
            return "none"
        if t == CARD:
            return self.cards.labels[value]
        if t == SUIT:
            return SUITS[value]
        if t == RANK:
            return rank_name(value)
        if t == PLAYER:
            return f"P{value + 1}"
        if t == COLOR:
            return COLORS[value]
        if t == BOOL:
            return "yes" if value else "no"
        return str(value)

    def action_to_string(self, action_id: int, plain: bool = False) -> str:
        """`play Q♠` (plain=True: `play QS`, as typed at a keyboard)."""
        action, b = self.decode(action_id)
        parts = {}
        for p in action.params:
            v = b[p.var]
            parts[p.var] = self.cards.names[v] if plain and p.type == CARD else self.render(v, p.type)
        if action.text:
            try:
                return action.text.format(**parts)
            except (KeyError, IndexError, ValueError):
                pass
        return " ".join([action.name, *parts.values()])

    # ------------------------------------------------------------ views
    def observe(self, s: State, player: int) -> dict:
        """What `player` may see, and nothing more."""
        zones = []
        for zi, name in enumerate(self.zone_names):
            owner, vis, cards = self.zone_owner[zi], self.zone_visible[zi], s.zones[zi]
            entry = {"zone": name, "owner": owner, "size": len(cards)}
            if vis == "all" or (vis == "owner" and owner == player):
                entry["cards"] = [self.cards.names[c] for c in cards]
            elif vis == "top" and cards:
                entry["top"] = self.cards.names[cards[-1]]
            zones.append(entry)
        variables = []
        for vi, name in enumerate(self.var_names):
            spec = self.spec.vars[name]
            owner = self.var_owner[vi]
            if spec.visible == "nobody" or (spec.visible == "owner" and owner != player):
                continue
            variables.append({"var": name, "owner": owner, "value": self.render(s.vars[vi], spec.type)})
        return {
            "game": self.name, "player": player, "players": s.n, "current": None if s.terminal else s.current,
            "dealer": s.dealer, "deal": s.deal_number, "phase": self.flow.phases[s.phase].name, "step": s.step,
            "terminal": s.terminal, "zones": zones, "vars": variables,
            "history": [(p, self.action_to_string(a)) for p, a in s.history[-2 * s.n:]],
        }

    def render_text(self, s: State) -> str:
        lines = [f"{self.title}: deal {s.deal_number}, phase {self.flow.phases[s.phase].name}, "
                 f"{'over' if s.terminal else f'P{s.current + 1} to move'}"]
        for zi, name in enumerate(self.zone_names):
            owner = self.zone_owner[zi]
            label = name if owner is None else f"P{owner + 1} {name}"
            lines.append(f"  {label}: " + " ".join(self.cards.labels[c] for c in s.zones[zi]))
        return "\n".join(lines)


def compile_expression(game: Game, text: str, scope: dict[str, str] | None = None):
    """Check and compile one expression against a loaded game (for tests, tools and the REPL).

    Returns (closure, type). Raises RuleErrors with every problem found.
    """
    from koloda.dsl.check import Checker
    from koloda.dsl.errors import NOWHERE, Span
    from koloda.dsl.to_ast import parse
    from koloda.interpreter.compile import Compiler

    try:
        node = parse(text, "expr_start", Span("<expression>", 1, 1))
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    checker = Checker(game.spec)
    checker.errors = []
    t = checker.expr(node, dict(scope or {}))
    if checker.errors:
        raise RuleErrors(checker.errors)
    return Compiler(game, checker.out).expr(node), t
