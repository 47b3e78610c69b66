"""What a seat sees: the observation of a state, moves as text, values as text.

Like the Observer of OpenSpiel's Python games, this stands apart from the
state: it reads a state and the table's layout, and tells a player what
they may know of it and nothing more.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.types import (BOOL, CARD, COLOR, COLORS, COMBO, FRAC, PLAN, PLAYER, RANK, SIDE, SUIT, SUITS, ZONE, elem,
                              is_list)
from koloda.interpreter.base.exact import number_text
from koloda.interpreter.base.cards import CardTable, rank_name
from koloda.interpreter.core.codec import ActionCodec
from koloda.interpreter.runtime.knowledge import fact_text, facts_of, said_to
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.melds.melds import LAYOFF, SWAP, Plan, identity_parts
from koloda.interpreter.core.state import Moved, State

Fn = Callable[[Any, dict], Any]
# a computed field of a move's text: its compiled value, its type, and the parameters it reads
TextValue = tuple[Fn, str, frozenset[str]]
_FIELD = re.compile(r"\{([^{}]*)\}")
# cards a reader may not know, side by side in a move's text: said once with their number
_HIDDEN_RUN = re.compile(r"\ba card(?: a card)+\b")
_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _hidden_counted(m: re.Match) -> str:
    n = m.group(0).count("a card")
    return f"{_NUMBER_WORDS[n - 2] if n - 2 < len(_NUMBER_WORDS) else n} cards"


class View:
    def __init__(self, rules: R.Rules, layout: Layout, cards: CardTable, codec: ActionCodec,
                 show: dict[str, Fn], text_values: dict[int, dict[str, TextValue]] | None = None):
        spec = rules.spec
        self.name = spec.name
        self.title = spec.title
        self.layout = layout
        self.cards = cards
        self.codec = codec
        self.meld_kinds = [k.name for k in spec.meld_kinds]
        self.phase_names = [p.name for p in rules.phases]
        # (visible, per side, type) of each variable, by name
        self.var_view = {name: (v.visible, v.per_side, rules.var_types[name]) for name, v in spec.vars.items()}
        self.show = show
        self.show_types = {label: node.type for label, node in rules.show.items()}
        # values worked out for each player who looks (they read `viewer`): none for an onlooker
        self.per_viewer = {label for label, node in rules.show.items()
                           if any(isinstance(n, R.Local) and n.name == "viewer" for n in R.walk(node))}
        self.text_values = text_values or {}      # action index -> its text's computed fields

    # ------------------------------------------------------------ values
    def render(self, value: Any, t: str) -> str:
        if value is None:
            return "none"
        if t == CARD:
            return self.cards.labels[value]
        if t == SUIT:
            return self.cards.suit_names[value]
        if t == RANK:
            return rank_name(value)
        if t == PLAYER:
            return f"P{value + 1}"
        if t == COLOR:
            return COLORS[value]
        if t == ZONE:
            return self.layout.zone_label(value)
        if t == PLAN:
            return self.plan_text(value)
        if t == COMBO and self.codec.combos is not None:      # its values: the same whoever plays it
            return self.codec.combos.text(int(value))
        if t == SIDE:
            return self.layout.owner_label(value, True)
        if t == BOOL:
            return "yes" if value else "no"
        if is_list(t):          # a list variable, as the rules write a list: `[P2, P1]`, `[3, 1/2]`
            return "[" + ", ".join(self.render(v, elem(t)) for v in value) + "]"
        if t == FRAC:
            return number_text(value)
        return str(value)

    def plan_text(self, plan: Plan, hide: Callable[[int], bool] | None = None, plain: bool = False) -> str:
        """`7♠ 8♠ 9♠`, `K♠ K♥ 🃏=K♣`, `9♥ on meld 3`."""
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

    # ------------------------------------------------------------ moves
    def action_to_string(self, action_id: int, plain: bool = False, hide: Callable[[int], bool] | None = None) -> str:
        """`play Q♠` (plain=True: `play QS`, as typed at a keyboard).

        hide(card) -> True masks a card the reader may not know: `place a card on P2 square 5`; hidden
        cards side by side are counted: `discard two cards`, not `discard a card a card`."""
        text = self._action_text(action_id, plain, hide)
        return text if hide is None else _HIDDEN_RUN.sub(_hidden_counted, text)

    def _action_text(self, action_id: int, plain: bool, hide: Callable[[int], bool] | None) -> str:
        action, b = self.codec.decode(action_id)
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
            values = self.text_values.get(action.index)
            if values:
                return self._formatted(action.text, parts, values, b, plain, hide)
            try:
                return action.text.format(**parts)
            except (KeyError, IndexError, ValueError, AttributeError):
                pass
        return " ".join([action.name, *parts.values()])

    def _formatted(self, text: str, parts: dict[str, str], values: dict[str, TextValue], b: dict, plain: bool,
                   hide: Callable[[int], bool] | None) -> str:
        """`take 7♠ (7 points)`: a move's text with its parameters and computed values in place. A value
        that reads a card the reader may not know is not shown."""
        def field(m: re.Match) -> str:
            name = m.group(1)
            if name in parts:
                return parts[name]
            fn, t, reads = values[name]
            if hide is not None and any(isinstance(b.get(v), int) and hide(b[v]) for v in reads):
                return "?"
            value = fn(None, b)         # it reads the parameters, options and cards only (checked)
            if is_list(t):
                return " ".join(self._plain(x, elem(t), plain) for x in value)
            return self._plain(value, t, plain)
        return _FIELD.sub(field, text)

    def _plain(self, value: Any, t: str, plain: bool) -> str:
        return self.cards.names[value] if plain and t == CARD and value is not None else self.render(value, t)

    def describe(self, s: State, action: int, viewer: int | None) -> str:
        """A move as `viewer` saw it: cards they cannot place now (laid face down, say) are not named."""
        if viewer is None or viewer < 0:
            return self.action_to_string(action)
        bit = 1 << viewer
        return self.action_to_string(action, hide=lambda c: not s.known[c] & bit)

    # ------------------------------------------------------------ states
    def observe(self, s: State, player: int) -> dict:
        """What `player` may see, and nothing more."""
        layout = self.layout
        zones = []
        for zi, z in enumerate(layout.zones):
            cards = s.zones[zi]
            if z.slot is not None:
                if s.slot_kind[z.slot] is not None:
                    zones.append(self._observe_meld(s, zi, z.slot))
                continue
            entry: dict[str, Any] = {"zone": z.name, "owner": z.owner, "size": len(cards)}
            if z.by_side:
                entry["side"] = True
            if z.cell is not None:
                cell = z.cell
                entry["cell"] = {"grid": cell.grid, "row": cell.row, "column": cell.column,
                                 "rank": None if cell.rank is None else rank_name(cell.rank)}
            if z.visible == "all" or (z.visible == "owner" and layout.sees(player, z.owner, z.by_side)):
                # a face-down card shows its back to everyone
                entry["cards"] = [self.cards.names[c] if s.face[c] else None for c in cards]
                if layout.public[zi]:
                    by = [s.by[c] if s.face[c] else None for c in cards]
                    if any(p is not None for p in by):
                        entry["by"] = by       # who put each card there, all having watched
            elif z.visible == "top" and cards:
                entry["top"] = self.cards.names[cards[-1]] if s.face[cards[-1]] else None
            zones.append(entry)
        variables = []
        for vi, name in enumerate(layout.var_names):
            if not self.sees_var(player, vi):
                continue
            _, per_side, t = self.var_view[name]
            owner = layout.var_owner[vi]
            var: dict[str, Any] = {"var": name, "owner": owner, "value": self.render(s.vars[vi], t)}
            if per_side:
                var["side"] = True
            variables.append(var)
        seen = {
            "game": self.name, "player": player, "players": s.n, "current": None if s.terminal else s.current,
            "dealer": s.dealer, "deal": s.deal_number, "phase": self.phase_names[s.phase], "step": s.step,
            "terminal": s.terminal, "zones": zones, "vars": variables,
            "history": [(p, self.describe(s, a, player)) for p, a in s.history[-2 * s.n:]],
            "moved": self._observe_moves(s.moved),
            "show": {label: self._show(f(s, {"viewer": player}), self.show_types[label])
                     for label, f in self.show.items() if player >= 0 or label not in self.per_viewer},
        }
        if player >= 0:
            told = self.told(s, player)
            if told:
                seen.update(told)
        return seen

    def told(self, s: State, player: int) -> dict:
        """What the rules told `player` (knowledge.py): the messages of the last moves, and the facts
        they hold; nothing when there is none (the views of games that tell nothing are as they were)."""
        out: dict[str, Any] = {}
        said = said_to(s.said, player, s.moves - 2 * s.n)
        if said:
            out["said"] = said
        facts = facts_of(s.facts, player)
        if facts:
            out["facts"] = [fact_text(f, self.layout.zone_label, self.cards.suit_names) for f in facts]
        return out

    def sees_var(self, player: int, var: int) -> bool:
        """May `player` see the variable at index `var` (of layout.var_names)?"""
        visible, per_side, _ = self.var_view[self.layout.var_names[var]]
        return visible == "all" or (visible == "owner" and self.layout.sees(player, self.layout.var_owner[var], per_side))

    def _observe_moves(self, moved: tuple[Moved, ...]) -> list[dict]:
        """`whole`: one move took all the zone held, as a trick is taken; a zone emptied by several moves
        (a count whose cards go back to each player) is not taken whole by the last of them, so each of
        those moves is `shared` instead."""
        out = [self._observe_moved(m) for m in moved]
        for k, m in enumerate(moved):
            earlier = [j for j in range(k) if moved[j][0] == m[0]]
            if m[4] and earlier:
                out[k]["whole"] = False
                for j in (*earlier, k):
                    out[j]["shared"] = True
        return out

    def _observe_moved(self, m: Moved) -> dict:
        """Cards that left a public zone in the last action: seen by all, so told to all (a card
        lying face down there is not named, nor who put it there)."""
        layout = self.layout
        source, to, cards, players, whole = m
        dest = layout.zones[to]
        entry: dict[str, Any] = {"from": layout.zone_label(source), "to": dest.name, "owner": dest.owner,
                                 "cards": [None if c is None else self.cards.names[c] for c in cards],
                                 "by": list(players), "whole": whole}
        if dest.by_side:
            entry["side"] = True
        return entry

    def _observe_meld(self, s: State, zone: int, slot: int) -> dict:
        """A meld on the table: public, with each wild card's declared identity (`JK=QC`)."""
        cards = []
        for c in s.zones[zone]:
            name = self.cards.names[c]
            stands = s.stands[c]
            if stands is not None:
                rank, suit = identity_parts(stands)
                name += "=" + rank_name(rank) + ("" if suit is None else "CDHS"[suit])
            cards.append(name)
        kind = s.slot_kind[slot]
        entry: dict[str, Any] = {
            "zone": self.layout.zone_names[zone], "owner": s.slot_owner[slot], "size": len(cards), "cards": cards,
            "meld": {"number": slot + 1, "kind": None if kind is None else self.meld_kinds[kind]}}
        if self.layout.meld_by_side:
            entry["side"] = True
        return entry

    def value_text(self, value: Any, t: str) -> str:
        if isinstance(value, list):
            return " ".join(self.value_text(v, elem(t) if is_list(t) else t) for v in value)
        return self.render(value, t)

    def _show(self, value: Any, t: str) -> Any:
        if isinstance(value, list):
            return [self._show(v, elem(t) if is_list(t) else t) for v in value]
        return self.render(value, t)

    def render_text(self, s: State) -> str:
        lines = [f"{self.title}: deal {s.deal_number}, phase {self.phase_names[s.phase]}, "
                 f"{'over' if s.terminal else f'P{s.current + 1} to move'}"]
        for zi in range(len(self.layout.zones)):
            if zi in self.layout.zone_slot and not s.zones[zi]:
                continue
            cards = " ".join(self.cards.labels[c] if s.face[c] else "▒▒" for c in s.zones[zi])
            lines.append(f"  {self.layout.zone_label(zi)}: {cards}")
        return "\n".join(lines)
