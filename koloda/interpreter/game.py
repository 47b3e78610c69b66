"""A loaded game: the checked rules assembled for one table (options, number of players).

The order is explicit: the deck, then the layout, then the wild cards (which
the meld rules need), then the meld and pattern rules, the action ids, the
compiled flow, and the view.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl import nomoves
from koloda.dsl.check import Checker
from koloda.dsl.decklist import work_out_ranks
from koloda.dsl.errors import RuleError, RuleErrors, Span
from koloda.dsl.model import DeckSpec, Spec
from koloda.dsl.to_ast import parse
from koloda.dsl.types import CARD, DECKS
from koloda.interpreter.words.arrange import opening_orders
from koloda.interpreter.base.cards import CardTable, build_deck, build_listed, card_value, joined
from koloda.interpreter.words.cardtext import Given, givens, named_decks, orders_from, parse_deck, parse_hands
from koloda.interpreter.core.codec import ActionCode, ActionCodec
from koloda.interpreter.base.errors import PositionError
from koloda.interpreter.core.flow import Action, Event, Flow, Param, Phase
from koloda.interpreter.core.varstarts import VarStarts
from koloda.interpreter.codegen.generate import expressions, generate
from koloda.interpreter.base.layout import Grid, Layout
from koloda.interpreter.core.loaded import Fn, LoadedRules
from koloda.interpreter.melds.melds import MeldRules, Plan
from koloda.interpreter.melds.combos import ComboTable
from koloda.interpreter.melds.patterns import PatternRules
from koloda.interpreter.core.state import State
from koloda.interpreter.words.view import TextValue, View
from koloda.interpreter.core.watch import Watch, watch

__all__ = ["Game", "Grid", "compile_expression"]

# cards for zones: `{"P1 hand": "AS KS", "trump_card": ["7H"]}`, or as read by `Game.parse_hands`
Hands = Mapping[str, str | Sequence[str]] | Sequence[Given]


class Game:
    def __init__(self, rules: R.Rules, options: dict, players: int):
        spec = rules.spec
        self.rules = rules
        self.spec = spec
        self.name = spec.name
        self.title = spec.title
        self.options = options
        self.num_players = players
        self.fingerprint = spec.fingerprint
        self.cards, self.card_deck = _deck(spec.deck, spec, options, players)
        # what `c.deck` is: the owner of the card's deck (`each: player`), or with named decks its name
        self.deck_of_card: Sequence[int | str] | None = \
            [spec.deck.names[i] for i in self.card_deck] if spec.deck.named and self.card_deck else self.card_deck
        self.layout = Layout(spec, rules.var_types, players, self.cards.size)
        self.wild_cards = self._wild_cards()
        self.melds = _meld_rules(spec, self.cards, self.wild_cards, self.layout, options)
        self.patterns = PatternRules(spec.patterns, self.cards) if spec.patterns else None
        self.combos = ComboTable(spec.combo_kinds, self.cards) if spec.combo_kinds else None
        self.codec = ActionCodec(rules, self.layout, self.cards, self.melds, options, self.combos)
        self.num_distinct_actions = self.codec.num_distinct_actions
        self.loaded = loaded = LoadedRules(self.layout, self.cards, options, rules, self.melds, self.patterns,
                                            self.deck_of_card, self.combos)
        self.watch = watch(rules, self.layout)
        if self.melds is not None:
            self.melds.table_bit = self.watch.table_bit
        loaded.var_dirt = self.watch.var_dirt
        self.flow = _flow(loaded, rules, self.codec, self.layout, self.cards, self.watch)
        # `count:`, `show:` and the move texts' fields, generated in the flow's module
        texts = _text_nodes(rules)
        nodes = list(rules.counters.values()) + list(rules.show.values()) \
            + [node for fields in texts.values() for node in fields.values()] \
            + ([rules.match_won] if rules.match_won is not None else [])
        values: list[Fn] = [_unset] * len(nodes)
        self.generated = generate(self.flow, loaded, rules, self.watch, spec.name, nodes, values)
        self.heuristic = self.flow.heuristic
        # each phase's `playout:` (for the searching bots), by phase index
        playout = {ph.name: ph.playout for ph in spec.phases}
        self.playouts: tuple[int | None, ...] = tuple(playout.get(ph.name) for ph in rules.phases)
        # `count:` conditions, asked at the end of each deal by whoever watches (simulation reports)
        fns = iter(values)
        self.counters = {name: next(fns) for name in rules.counters}
        show = {label: next(fns) for label in rules.show}
        text_values: dict[int, dict[str, TextValue]] = {
            index: {field: (next(fns), node.type, frozenset(n.name for n in R.walk(node) if isinstance(n, R.Local)))
                    for field, node in fields.items()}
            for index, fields in texts.items()}
        # `match: won`, the goal the returns follow (flow.py), asked once a match is over
        self.flow.won = next(fns) if rules.match_won is not None else None
        self.view = View(rules, self.layout, self.cards, self.codec, show, text_values)
        self._unstarted: State | None = None        # see _before_match

    def _wild_cards(self) -> set[int]:
        """The cards that are wild: `wild:` as a condition on each card, or the jokers.

        The checker made sure `wild:` reads the card alone, so it needs no state."""
        if self.rules.wild is None:
            return {c for c in range(self.cards.size) if self.cards.ranks[c] == 0}
        c = LoadedRules(self.layout, self.cards, self.options, self.rules, card_deck=self.deck_of_card)
        test = expressions(c, Watch(), [self.rules.wild], f"{self.name} wild")[0]
        return {c for c in range(self.cards.size) if test(None, {"c": c})}

    # ------------------------------------------------------------ the table
    @property
    def num_sides(self) -> int:
        return self.layout.num_sides

    def side_of(self, player: int) -> int:
        return self.layout.side_of(player)

    def sees(self, player: int, owner: int | None, by_side: bool) -> bool:
        return self.layout.sees(player, owner, by_side)

    def on_deal_scored(self, listener: Callable[[State], None]) -> Callable[[], None]:
        """Call `listener(state)` each time a deal has been scored, before the next deal starts.
        Returns a function that stops it."""
        self.flow.deal_listeners.append(listener)
        return lambda: self.flow.deal_listeners.remove(listener)

    # ------------------------------------------------------------ states
    def new_initial_state(self, seed: int = 0, deck: Sequence[Sequence[int | str] | str] | None = None,
                          dealer: int | None = None, hands: Hands | None = None) -> State:
        """A new match, decided by `seed` unless a known position is asked for:

        dealer: the first dealer, counted from 0 (P1), instead of the rules' choice;
        hands:  cards for zones after the first deal, top card first:
                `{"P1 hand": "AS KS QS", "trump_card": "7H"}`; the other cards lie as the seed shuffles them;
        deck:   card orders (ids or names, top first) for the shuffles in turn instead of the seed;
                with `hands`, for the shuffles after the first deal.
        Raises PositionError (a ValueError) for a position that cannot be dealt."""
        s = self._before_match()
        s.seed = seed
        if deck or dealer is not None or hands is not None:       # a known position, not a random one
            orders = orders_from(self.cards, deck or [], named_decks(self.spec, self.card_deck))
            dealer = self._dealer(dealer)
            if hands is not None:
                orders = self.opening_orders(seed, hands, dealer) + orders
            s.orders = [list(o) for o in orders]
        self.flow.start(s, dealer)
        return s

    def _before_match(self) -> State:
        """A state before its match starts, its variables at their starts: a copy of one made once,
        since a small game's match costs little more than making a state (the starts read only the
        game: the zones are empty, and no seed has been drawn from yet)."""
        made = self._unstarted
        if made is None:
            made = State(self, self.num_players, 0)
            try:
                self.flow.var_starts(made)
            except Exception:       # Flow.start reports it, at its place in the rules, for each match
                return State(self, self.num_players, 0)
            self._unstarted = made
        return made.clone()

    def opening_orders(self, seed: int, hands: Hands, dealer: int | None = None) -> list[list[int]]:
        """The deck orders for the first deal's shuffles that deal `hands` (see new_initial_state)."""
        return opening_orders(self, seed, self._dealer(dealer), givens(hands))

    def _dealer(self, dealer: int | None) -> int | None:
        n = self.num_players
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n):
            raise PositionError(f"there is no player {dealer!r} to deal: the players are 0..{n - 1} (P1..P{n})")
        return dealer

    def state_from_json(self, data: dict) -> State:
        return State.from_json(self, data)

    def parse_deck(self, text: str, file: str = "<deck>") -> list[list[int]]:
        """Deck orders from text: card names top first; a blank line starts the next shuffle's order.
        Raises PositionError at the file:line:col of a card that is unknown or given too often."""
        return parse_deck(self.cards, text, file, named_decks(self.spec, self.card_deck))

    def parse_hands(self, text: str, file: str = "<hands>") -> list[Given]:
        """Hands from text, one zone a line: `P1 hand: AS KS QS`. The zones and cards are checked
        when the hands are dealt, and a mistake is reported at its file:line:col."""
        return parse_hands(text, file)

    # ------------------------------------------------------------ actions and views
    def decode(self, action_id: int, state: State | None = None) -> tuple[ActionCode, dict]:
        return self.codec.decode(action_id, state)

    def action_to_string(self, action_id: int, plain: bool = False, hide: Callable[[int], bool] | None = None) -> str:
        return self.view.action_to_string(action_id, plain, hide)

    def describe(self, s: State, action: int, viewer: int | None) -> str:
        return self.view.describe(s, action, viewer)

    def plan_text(self, plan: Plan, hide: Callable[[int], bool] | None = None, plain: bool = False) -> str:
        return self.view.plan_text(plan, hide, plain)

    def render(self, value: Any, t: str) -> str:
        return self.view.render(value, t)

    def observe(self, s: State, player: int) -> dict:
        return self.view.observe(s, player)

    def render_text(self, s: State) -> str:
        return self.view.render_text(s)

    def value_text(self, value: Any, t: str) -> str:
        """A value as the table writes it (`Q♠`, `P2`, `hearts`); a list, its items with spaces."""
        return self.view.value_text(value, t)

    def zone_label(self, zone: int) -> str:
        return self.layout.zone_label(zone)

    def owner_label(self, owner: int, by_side: bool) -> str:
        return self.layout.owner_label(owner, by_side)


# ------------------------------------------------------------------ building steps
def _deck(d: DeckSpec, spec: Spec, options: dict, players: int) -> tuple[CardTable, list[int] | None]:
    """The cards, and with `each: player` the owner of every card's deck."""
    try:
        base, raw_copies, raw_jokers = d.bound(options, players)
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    copies, jokers = int(str(raw_copies)), int(str(raw_jokers))
    if base not in DECKS:
        raise RuleErrors([RuleError(f"unknown deck `{base}`", d.span)])
    if d.named:
        return _named_decks(d, spec, options, players)
    try:
        listed = (d.ranks_at(options, players), d.suits)
        suits = [(s, work_out_ranks(s.ranks, options, players, s.span)) for s in d.suit_list]
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    if d.listed:
        table = build_listed(suits, d.extras, list(spec.deck.own_suits().values()), copies, jokers, spec.values,
                             spec.ace, spec.value_tables)
        _one_card_a_name(table, d, players)
        return table, None
    if not d.per_player:
        return build_deck(base, copies, jokers, spec.values, spec.ace, spec.value_tables, listed), None
    # one deck each: the copies of the pack, in seat order, belong to the players
    table = build_deck(base, copies * players, jokers * players, spec.values, spec.ace, spec.value_tables, listed)
    naturals = (table.size - jokers * players) // players          # natural cards in one player's deck
    owners = [i // naturals if i < naturals * players else (i - naturals * players) // jokers
              for i in range(table.size)]
    return table, owners


def _named_decks(d: DeckSpec, spec: Spec, options: dict, players: int) -> tuple[CardTable, list[int]]:
    """Several named decks: their cards one deck after the other, and each card's deck by its place among them."""
    tables, decks = [], []
    for index, (_, part) in enumerate(d.named):
        table, _ = _deck(part, spec, options, players)
        tables.append(table)
        decks += [index] * table.size
    table = joined(tables)
    _one_card_a_name(table, d, players)      # two decks' cards of one name are copies of one card
    return table, decks


def _one_card_a_name(table: CardTable, d: DeckSpec, players: int) -> None:
    """Refuse a deck where two different cards share a name (a move names a card by it)."""
    seen: dict[str, tuple] = {}
    for card in zip(table.names, table.ranks, table.suits, table.colors):
        if seen.setdefault(card[0], card) != card:
            raise RuleErrors([RuleError(f"two different cards of this game are named {card[0]} with {players} "
                                        "players", d.span, "give a card of `cards:` another name, or a suit "
                                        "another `letter:`", category="runtime")])


def _text_nodes(rules: R.Rules) -> dict[int, dict[str, R.Expr]]:
    """The computed fields of each action's move text (`{value(c)}`), by the action's index among the ids."""
    actions = [a for phase in rules.phases for a in phase.actions.values()]      # in the codec's order
    return {index: dict(action.text_values) for index, action in enumerate(actions) if action.text_values}


def _meld_rules(spec: Spec, cards: CardTable, wild: set[int], layout: Layout, options: dict) -> MeldRules | None:
    if not spec.meld_kinds:
        return None
    rank_value = [0] * cards.rank_radix
    for rank in range(1 if cards.rank_radix > 15 or 1 in cards.deck_ranks else 2, cards.rank_radix):
        rank_value[rank] = card_value(rank, spec.values)
    owners = layout.num_sides if layout.meld_by_side else layout.num_players
    kinds = [kind.bound(options) for kind in spec.meld_kinds]     # `max: option.NAME`: this table's value
    return MeldRules(kinds, cards, wild, len(layout.slot_zone), owners, rank_value)


def _unset(*args: Any) -> Any:
    raise AssertionError("a part of the flow the generator did not write")


def _flow(c: LoadedRules, rules: R.Rules, codec: ActionCodec, layout: Layout, cards: CardTable, w: Watch) -> Flow:
    """The flow's frame: its phases, actions and events, each part the rules give waiting for its generated
    function (generate.py puts them all in)."""
    # Cards that are copies of each other make the same move: the first id of each card's name.
    names = cards.names
    first: dict[str, int] = {}
    copies = tuple(first.setdefault(name, i) for i, name in enumerate(names)) if len(set(names)) < len(names) else None

    def optional(node: R.Expr | None) -> Fn | None:
        return _unset if node is not None else None
    actions: list[Action] = []
    phases = []
    for index, ph in enumerate(rules.phases):
        by_name = {}
        for a in ph.actions.values():
            code = codec.actions[len(actions)]
            params = [Param(p.var, p.type, pc.radix, copies if p.type == CARD else None, pc.low, pc.step,
                            pc.word_digits)
                      for p, pc in zip(a.params, code.params)]
            action = Action(code, params, _unset)
            actions.append(action)
            by_name[a.name] = action
        steps = {step: [by_name[name] for name in listed] for step, listed in ph.steps.items()}
        phases.append(Phase(ph.name, optional(ph.first), ph.once, optional(ph.ends), _unset, _unset, steps,
                            next(iter(steps)), when=optional(ph.when)))
    events = [Event(e.name, _unset, _unset, w.bits.get(e.when, 0)) for e in rules.events]
    starts = [(layout.var_base[name], len(layout.owners(v)), optional(start))
              for (name, v), start in zip(rules.spec.vars.items(), rules.var_starts.values())]
    var_starts = VarStarts(len(layout.var_names), starts)
    flow = Flow(phases=phases, events=events, setup=_unset, deal=_unset, deal_ends=optional(rules.deal_ends),
                scoring=_unset, match_ends=optional(rules.match_ends), score=optional(rules.match_score),
                lowest_wins=rules.spec.match.winner == "lowest", first_dealer=optional(rules.first_dealer),
                rotate=rules.spec.match.rotate, var_starts=var_starts, codec=codec, actions=actions,
                side_of=layout.side_of, next_dealer=optional(rules.next_dealer), turn_cap=optional(rules.turn_cap),
                cap_ends_match=rules.spec.cap_ends == "match")
    flow.heuristic = optional(rules.heuristic)
    flow.asks_moves = nomoves.asked(rules)
    flow.zone_dirt = w.zone_dirt
    flow.house_score = optional(rules.house_score)
    flow.windows = c.windows          # the open windows, as the generator opens them writing their effects
    return flow


def compile_expression(game: Game, text: str, scope: dict[str, str] | None = None) -> tuple[Fn, str]:
    """Check and compile one expression against a loaded game (for tests, tools and the REPL).

    Returns (a generated function (s, b), type). Raises RuleErrors with every problem found.
    """
    try:
        node = parse(text, "expr_start", Span("<expression>", 1, 1))
    except RuleError as exc:
        raise RuleErrors([exc]) from None
    checker = Checker(game.spec, game.rules.var_types, game.rules.functions)
    checker.errors = []
    resolved = checker.expr(node, dict(scope or {}))
    if checker.errors:
        raise RuleErrors(checker.errors)
    return expressions(game.loaded, game.watch, [resolved], f"{game.name} expression")[0], resolved.type
