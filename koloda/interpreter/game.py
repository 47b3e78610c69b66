"""A loaded game: the checked rule file compiled for one table (options, players)."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from koloda.dsl.check import DECKS, Checked
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.model import Spec
from koloda.dsl.types import BOOL, CARD, COLOR, COLORS, INT, PLAN, PLAYER, RANK, SIDE, SUIT, SUITS, ZONE
from koloda.interpreter.cards import CardTable, build_deck, rank_name
from koloda.interpreter.compile import Compiler
from koloda.interpreter.flow import Action, Event, Flow, Param, Phase
from koloda.interpreter.state import State


@dataclass(frozen=True)
class Grid:
    """A player's or side's square of cells; each cell is a zone holding a stack."""
    name: str
    owner: int | None
    by_side: bool
    rows: list[list[int]]
    line_kinds: tuple[str, ...]

    @property
    def cells(self) -> list[int]:
        return [z for row in self.rows for z in row]

    @property
    def columns(self) -> list[list[int]]:
        return [list(col) for col in zip(*self.rows)]

    @property
    def diagonals(self) -> list[list[int]]:
        size = len(self.rows)
        if any(len(row) != size for row in self.rows):
            return []
        return [[self.rows[i][i] for i in range(size)], [self.rows[i][size - 1 - i] for i in range(size)]]

    @property
    def lines(self) -> list[list[int]]:
        found = {"rows": self.rows, "columns": self.columns, "diagonals": self.diagonals}
        return [line for kind in self.line_kinds for line in found[kind]]


class Game:
    def __init__(self, spec: Spec, checked: Checked, options: dict, players: int):
        self.spec = spec
        self.name = spec.name
        self.title = spec.title
        self.options = options
        self.num_players = players
        self.fingerprint = spec.fingerprint
        self.cards: CardTable = self._build_deck()
        self.deal_end_hook = None        # called with the state when a deal has been scored (the table uses it)
        self._layout()
        names = self.cards.names
        # card id -> the first id of its name, when the deck holds copies; else no merging is needed
        first = {}
        self._card_kinds = tuple(first.setdefault(name, i) for i, name in enumerate(names)) \
            if len(set(names)) < len(names) else None
        compiler = Compiler(self, checked)
        self.wild_cards = self._wild_cards(compiler, checked)
        self.melds = self._meld_rules()
        from koloda.interpreter.patterns import PatternRules
        self.patterns = PatternRules(self.spec.patterns, self.cards) if self.spec.patterns else None
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
        if d.per_player:
            # one deck each: the copies of the pack, in seat order, belong to the players
            n = self.num_players
            table = build_deck(base, copies * n, jokers * n, self.spec.values, self.spec.ace)
            naturals = (table.size - jokers * n) // n          # natural cards in one player's deck
            self.card_deck = [i // naturals if i < naturals * n else (i - naturals * n) // jokers
                              for i in range(table.size)]
            return table
        self.card_deck = None
        return build_deck(base, copies, jokers, self.spec.values, self.spec.ace)

    def _owners(self, item) -> range | list:
        if not item.each_player:
            return [None]
        return range(self.num_sides) if item.per_side else range(self.num_players)

    def _layout(self) -> None:
        """Zones and variables as flat lists; what a player or side owns sits at base + owner."""
        n = self.num_players
        sides = self.spec.sides
        if isinstance(sides, dict):       # sides by player count; other counts play each for themselves
            sides = {int(k): int(v) for k, v in sides.items()}.get(n, n)
        self.num_sides = sides or n
        if n % self.num_sides:
            raise RuleErrors([RuleError(f"{n} players cannot sit in {self.num_sides} equal sides", self.spec.span)])
        self.zone_base: dict[str, int] = {}
        self.zone_names: list[str] = []
        self.zone_owner: list[int | None] = []
        self.zone_by_side: list[bool] = []
        self.zone_visible: list[str] = []
        self.zone_cell: list[tuple | None] = []     # (grid, row, column, rank) of a grid's cell
        self.grid_base: dict[str, int] = {}
        self.grids: list[Grid] = []

        def add_zone(name: str, owner, z, cell=None) -> int:
            self.zone_names.append(name)
            self.zone_owner.append(owner)
            self.zone_by_side.append(z.per_side)
            self.zone_visible.append(z.visible)
            self.zone_cell.append(cell)
            return len(self.zone_names) - 1

        self.slot_zone: list[int] = []          # meld slot -> its zone
        self.zone_slot: dict[int, int] = {}     # zone -> meld slot
        self.meld_area: str | None = None
        self.meld_by_side = False
        for name, z in self.spec.zones.items():
            if z.melds:
                # a pool of slots, each a zone holding one meld; who owns a meld is part of the state
                self.meld_area, self.meld_by_side = name, z.per_side
                smallest = min((k.min for k in self.spec.meld_kinds), default=3)
                self.zone_base[name] = len(self.zone_names)
                for slot in range(max(1, self.cards.size // max(smallest, 1))):
                    zi = add_zone(name, None, z)
                    self.zone_slot[zi] = slot
                    self.slot_zone.append(zi)
                continue
            if z.grid is None:
                self.zone_base[name] = len(self.zone_names)
                for owner in self._owners(z):
                    add_zone(name, owner, z)
                continue
            self.grid_base[name] = len(self.grids)
            for owner in self._owners(z):
                gid = len(self.grids)
                rows = [[add_zone(name, owner, z, (gid, r, c, rank)) for c, rank in enumerate(row)]
                        for r, row in enumerate(z.grid)]
                self.grids.append(Grid(name, owner, z.per_side, rows, z.lines))
        self.zone_watchers = self.watchers(n)
        self.var_base: dict[str, int] = {}
        self.var_names: list[str] = []
        self.var_owner: list[int | None] = []
        self.card_vars: list[int] = []       # variables that hold a card (renamed when bots sample)
        for name, v in self.spec.vars.items():
            self.var_base[name] = len(self.var_names)
            for owner in self._owners(v):
                if v.type == CARD:
                    self.card_vars.append(len(self.var_names))
                self.var_names.append(name)
                self.var_owner.append(owner)

    def watchers(self, n: int) -> list[int]:
        """For each zone, the players (as bits) who see a face-up card in it."""
        everyone = (1 << n) - 1
        masks = []
        for zi, vis in enumerate(self.zone_visible):
            owner = self.zone_owner[zi]
            if vis in ("all", "top"):
                masks.append(everyone)
            elif vis == "owner" and owner is not None:
                masks.append(sum(1 << p for p in range(n) if self.sees(p, owner, self.zone_by_side[zi])))
            else:
                masks.append(0)
        return masks

    def side_of(self, player: int) -> int:
        return player % self.num_sides

    def zone_label(self, zone: int) -> str:
        """`P2 square 7`, `stock`: a zone as players name it."""
        owner, name = self.zone_owner[zone], self.zone_names[zone]
        text = name if owner is None else f"{self.owner_label(owner, self.zone_by_side[zone])} {name}"
        cell = self.zone_cell[zone]
        if cell is not None:
            gid, r, c, rank = cell
            unique = rank is not None and sum(1 for z in self.grids[gid].cells if self.zone_cell[z][3] == rank) == 1
            text += f" {rank_name(rank)}" if unique else f" {r + 1},{c + 1}"
        return text

    def owner_label(self, owner: int, by_side: bool) -> str:
        if not by_side or self.num_sides == self.num_players:
            return f"P{owner + 1}"
        return "+".join(f"P{p + 1}" for p in range(self.num_players) if p % self.num_sides == owner)

    def sees(self, player: int, owner: int | None, by_side: bool) -> bool:
        """Does `player` own this (alone or with their side)?"""
        if owner is None:
            return False
        return (player % self.num_sides == owner) if by_side else player == owner

    def _wild_cards(self, compiler, checked) -> set[int]:
        """The cards that are wild: `wild:` as a condition on each card, or the jokers."""
        if self.spec.wild is None:
            return {c for c in range(self.cards.size) if self.cards.ranks[c] == 0}
        test = compiler.expr(self.spec.wild)
        probe = State(self, self.num_players, 0)
        return {c for c in range(self.cards.size) if test(probe, {"c": c})}

    def zone_count(self, n: int) -> int:
        return len(self.zone_names)

    def meld_owner_of(self, player: int) -> int:
        """The owner index of `player`'s melds: the player, or their side."""
        return player % self.num_sides if self.meld_by_side else player

    def _meld_rules(self):
        from koloda.interpreter.melds import MeldRules
        if not self.spec.meld_kinds:
            return None
        rank_value = [0] * 15
        for rank in range(2, 15):
            name = rank_name(rank)
            rank_value[rank] = self.spec.values.get(name, rank if rank <= 10 else 10)
        owners = self.num_sides if self.meld_by_side else self.num_players
        return MeldRules(self.spec.meld_kinds, self.cards, self.wild_cards, len(self.slot_zone), owners, rank_value)

    def _radix(self, t: str) -> int:
        if t == PLAN:
            return self.melds.radix
        return {CARD: self.cards.size, SUIT: 4, RANK: 15, PLAYER: self.num_players, INT: self.cards.size + 1,
                BOOL: 2, COLOR: 2, ZONE: len(self.zone_names), SIDE: self.num_sides}.get(t, 1)

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
                    params.append(Param(binding.var, t, c.sequence(binding.domain), self._radix(t),
                                        self._card_kinds if t == CARD else None))
                action = Action(a.name, offset, params, c.guard(a.guard) if a.guard is not None else None,
                                c.effects(a.effects), a.text, index, a.span)
                offset += action.size
                self.actions.append(action)
                by_name[a.name] = action
            steps = {step: [by_name[name] for name, _ in listed] for step, listed in ph.steps.items()}
            phases.append(Phase(ph.name, c.expr(ph.first) if ph.first else None, ph.once,
                                c.expr(ph.ends) if ph.ends else None, c.effects(ph.start), c.effects(ph.after_turn),
                                steps, next(iter(steps))))
        self.num_distinct_actions = offset
        self.epoch = c.epoch
        self._offsets = [a.offset for a in self.actions]
        events = [Event(e.name, c.expr(e.when), c.effects(e.effects)) for e in spec.events]
        starts = [(self.var_base[name], len(self._owners(v)), c.expr(v.start) if v.start is not None else None)
                  for name, v in spec.vars.items()]

        def var_starts(s: State) -> list:
            values = [None] * len(self.var_names)
            for base, owners, start in starts:
                for k in range(owners):
                    values[base + k] = start(s, {}) if start is not None else None
            return values

        self.show = {label: c.expr(node) for label, node in spec.show.items()}
        self.heuristic = c.expr(spec.heuristic) if spec.heuristic is not None else None
        self.show_types = {label: checked.types.get(id(node), "any") for label, node in spec.show.items()}
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
            block = re.sub(r"#[^\n]*", "", block)      # comments run to the end of the line
            names = [t for t in re.split(r"[\s,]+", block) if t]
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
    def decode(self, action_id: int, state: State | None = None) -> tuple[Action, dict]:
        action = self.actions[bisect_right(self._offsets, action_id) - 1]
        code = action_id - action.offset
        b = {}
        for p in reversed(action.params):
            code, digit = divmod(code, p.radix)
            if p.type == PLAN:
                b[p.var] = self.melds.decode(digit, state)
            else:
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
        if t == ZONE:
            return self.zone_label(value)
        if t == PLAN:
            return self.plan_text(value)
        if t == SIDE:
            return self.owner_label(value, True)
        if t == BOOL:
            return "yes" if value else "no"
        return str(value)

    def action_to_string(self, action_id: int, plain: bool = False, hide=None) -> str:
        """`play Q♠` (plain=True: `play QS`, as typed at a keyboard).

        hide(card) -> True masks a card the reader may not know: `place a card on P2 square 5`."""
        action, b = self.decode(action_id)
        parts = {}
        for p in action.params:
            v = b[p.var]
            if p.type == PLAN:
                parts[p.var] = self.plan_text(v, hide, plain)
            elif p.type == CARD and hide is not None and hide(v):
                parts[p.var] = "a card"
            else:
                parts[p.var] = self.cards.names[v] if plain and p.type == CARD else self.render(v, p.type)
        if action.text:
            try:
                return action.text.format(**parts)
            except (KeyError, IndexError, ValueError, AttributeError):
                pass
        return " ".join([action.name, *parts.values()])

    # ------------------------------------------------------------ views
    def observe(self, s: State, player: int) -> dict:
        """What `player` may see, and nothing more."""
        zones = []
        for zi, name in enumerate(self.zone_names):
            owner, vis, cards = self.zone_owner[zi], self.zone_visible[zi], s.zones[zi]
            slot = self.zone_slot.get(zi)
            if slot is not None:
                if s.slot_kind[slot] is not None:
                    zones.append(self._observe_meld(s, zi, slot))
                continue
            entry = {"zone": name, "owner": owner, "size": len(cards)}
            if self.zone_by_side[zi]:
                entry["side"] = True
            if self.zone_cell[zi] is not None:
                gid, r, c, rank = self.zone_cell[zi]
                entry["cell"] = {"grid": gid, "row": r, "column": c, "rank": None if rank is None else rank_name(rank)}
            if vis == "all" or (vis == "owner" and self.sees(player, owner, self.zone_by_side[zi])):
                # a face-down card shows its back to everyone
                entry["cards"] = [self.cards.names[c] if s.face[c] else None for c in cards]
            elif vis == "top" and cards:
                entry["top"] = self.cards.names[cards[-1]] if s.face[cards[-1]] else None
            zones.append(entry)
        variables = []
        for vi, name in enumerate(self.var_names):
            spec = self.spec.vars[name]
            owner = self.var_owner[vi]
            if spec.visible == "nobody" or (spec.visible == "owner" and not self.sees(player, owner, spec.per_side)):
                continue
            entry = {"var": name, "owner": owner, "value": self.render(s.vars[vi], spec.type)}
            if spec.per_side:
                entry["side"] = True
            variables.append(entry)
        return {
            "game": self.name, "player": player, "players": s.n, "current": None if s.terminal else s.current,
            "dealer": s.dealer, "deal": s.deal_number, "phase": self.flow.phases[s.phase].name, "step": s.step,
            "terminal": s.terminal, "zones": zones, "vars": variables,
            "history": [(p, self.describe(s, a, player)) for p, a in s.history[-2 * s.n:]],
            "show": {label: self._show(f(s, {}), self.show_types[label]) for label, f in self.show.items()},
        }

    def plan_text(self, plan, hide=None, plain: bool = False) -> str:
        """`7♠ 8♠ 9♠`, `K♠ K♥ 🃏=K♣`, `9♥ on meld 3`."""
        from koloda.interpreter.melds import LAYOFF, SWAP, identity_parts
        stands = dict(plan.wild)
        words = []
        for c in plan.cards:
            text = "a card" if hide is not None and hide(c) else (self.cards.names if plain else self.cards.labels)[c]
            if c in stands:
                rank, suit = identity_parts(stands[c])
                text += "=" + rank_name(rank) + ("" if suit is None else ("CDHS" if plain else "♣♦♥♠")[suit])
            words.append(text)
        text = " ".join(words)
        if plan.type == LAYOFF:
            text += f" on meld {plan.target + 1}" + (" (low end)" if plan.at_start else "")
        elif plan.type == SWAP:
            text += f" for the joker in meld {plan.target + 1}"
        return text

    def describe(self, s: State, action: int, viewer: int | None) -> str:
        """A move as `viewer` saw it: cards they cannot place now (laid face down, say) are not named."""
        if viewer is None or viewer < 0:
            return self.action_to_string(action)
        bit = 1 << viewer
        return self.action_to_string(action, hide=lambda c: not s.known[c] & bit)

    def _observe_meld(self, s: State, zone: int, slot: int) -> dict:
        """A meld on the table: public, with each wild card's declared identity (`JK=QC`)."""
        from koloda.interpreter.melds import identity_parts
        cards = []
        for c in s.zones[zone]:
            name = self.cards.names[c]
            if s.stands[c] is not None:
                rank, suit = identity_parts(s.stands[c])
                name += "=" + rank_name(rank) + ("" if suit is None else "CDHS"[suit])
            cards.append(name)
        entry = {"zone": self.zone_names[zone], "owner": s.slot_owner[slot], "size": len(cards), "cards": cards,
                 "meld": {"number": slot + 1, "kind": self.spec.meld_kinds[s.slot_kind[slot]].name}}
        if self.meld_by_side:
            entry["side"] = True
        return entry

    def _show(self, value, t: str):
        if isinstance(value, list):
            return [self._show(v, t[5:] if t.startswith("list:") else t) for v in value]
        return self.render(value, t)

    def render_text(self, s: State) -> str:
        lines = [f"{self.title}: deal {s.deal_number}, phase {self.flow.phases[s.phase].name}, "
                 f"{'over' if s.terminal else f'P{s.current + 1} to move'}"]
        for zi in range(len(self.zone_names)):
            if zi in self.zone_slot and not s.zones[zi]:
                continue
            cards = " ".join(self.cards.labels[c] if s.face[c] else "▒▒" for c in s.zones[zi])
            lines.append(f"  {self.zone_label(zi)}: {cards}")
        return "\n".join(lines)


def compile_expression(game: Game, text: str, scope: dict[str, str] | None = None):
    """Check and compile one expression against a loaded game (for tests, tools and the REPL).

    Returns (closure, type). Raises RuleErrors with every problem found.
    """
    from koloda.dsl.check import Checker
    from koloda.dsl.errors import Span
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
