"""The checked, resolved tree: what the checker hands to the compiler.

The syntax tree (`ast.py`) says how a rule was written; this tree says what
it means. Every name and attribute has become the node for what it refers to
(a local name, a shared zone, a zone a player owns, a card attribute, a
built-in call ...), and every expression carries its type. The compiler has
one method per class here and needs no tables on the side.

Nodes are frozen and compared by identity, like the syntax nodes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from koloda.dsl.errors import RuleError, Span
from koloda.dsl.model import Spec


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    span: Span


# ------------------------------------------------------------------ expressions
@dataclass(frozen=True, slots=True, eq=False)
class Expr(Node):
    type: str


@dataclass(frozen=True, slots=True, eq=False)
class Invalid(Expr):
    """Where the checker found an error: never compiled, since errors stop the load."""

@dataclass(frozen=True, slots=True, eq=False)
class Const(Expr):
    """A literal or a named constant: `7`, `"text"`, `hearts`, `Q`, `none`."""
    value: object


@dataclass(frozen=True, slots=True, eq=False)
class Option(Expr):
    """`option.hand`: fixed for a table, so a constant once the options are bound."""
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Local(Expr):
    """An action's parameter, a loop name, a `let`, or a function's parameter."""
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class StateValue(Expr):
    """A name whose value comes from the state of play: `me`, `dealer`, `players` ..."""
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class ZoneRef(Expr):
    """A zone shared by the table: `stock`, `pile`."""
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class GridRef(Expr):
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class VarRef(Expr):
    """A variable of the table as a whole: `trump`."""
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Owned(Expr):
    """Something each player (or each side) has: `my hand`, `p.score`, `s.square`.

    `owner` gives a player, or a side when `by_side`; `per_side` says the thing
    itself belongs to sides (partners share it), so a player reaches it through
    their side."""
    name: str
    owner: Expr
    by_side: bool
    per_side: bool


@dataclass(frozen=True, slots=True, eq=False)
class OwnedZone(Owned):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class OwnedGrid(Owned):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class OwnedVar(Owned):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class MeldsOf(Expr):
    """The melds on the table in the order made: all of them (no owner), or one player's or side's."""
    owner: Expr | None
    by_side: bool


@dataclass(frozen=True, slots=True, eq=False)
class Attribute(Expr):
    """A built-in attribute; the subclass says of what, and the name keys its table in builtins."""
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class CardAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class ZoneAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class GridAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class PlanAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class ComboAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class PlayerAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class SideAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class ListAttr(Attribute):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True, eq=False)
class BuiltinCall(Expr):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class UserCall(Expr):
    """A call of a rule file's own function (`define:`)."""
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Aggregate(Expr):
    """`sum(value(c) for c in my hand if ...)` and its kin."""
    func: str
    elem: Expr
    var: str
    iterable: Expr
    cond: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class ListComp(Expr):
    elem: Expr
    var: str
    iterable: Expr
    cond: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class Flatten(Expr):
    """A list of lists joined in order: the comprehension with several `for` clauses."""
    lists: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Range(Expr):
    low: Expr
    high: Expr
    step: Expr | None = None       # `by 5`; none: 1


@dataclass(frozen=True, slots=True, eq=False)
class Arith(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Compare(Expr):
    """`<`, `>=` ... compare ranks by the deck's order when the left side is a rank."""
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Contains(Expr):
    """`x in zone` asks where the card lies; `x in list` looks through the list."""
    item: Expr
    container: Expr
    negated: bool


@dataclass(frozen=True, slots=True, eq=False)
class And(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Or(Expr):
    """Either side true (when typed true/false), else the first that is not none."""
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True, eq=False)
class IfElse(Expr):
    then: Expr
    cond: Expr
    orelse: Expr


@dataclass(frozen=True, slots=True, eq=False)
class SeatOrder(Expr):
    """`players from X` (X first) or `others from X` (X left out): in the current direction of play."""
    others: bool
    start: Expr


# ------------------------------------------------------------------ effects
@dataclass(frozen=True, slots=True, eq=False)
class Effect(Node):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class Move(Effect):
    what: Expr                 # a card, a list of cards or a zone (by its type)
    dest: Expr
    face_down: bool
    under: bool


@dataclass(frozen=True, slots=True, eq=False)
class Meld(Effect):
    plan: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Shuffle(Effect):
    zone: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Gather(Effect):
    dest: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Deal(Effect):
    count: Expr
    family: str                # the each-player zone dealt to
    source: Expr               # `stock` when the file names none


@dataclass(frozen=True, slots=True, eq=False)
class Assign(Effect):
    """`=`, `+=`, `-=`, `*=`; for a list variable also `append` and `remove` (of `value`), and an item set
    (`index`: `xs[i] = value`, `xs[i] += value`)."""
    target: VarRef | OwnedVar
    op: str
    value: Expr
    index: Expr | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Let(Effect):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Goto(Effect):
    step: str


@dataclass(frozen=True, slots=True, eq=False)
class TurnTo(Effect):
    player: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Skip(Effect):
    player: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Ask(Effect):
    player: Expr               # a player, or a list of players asked in turn
    step: str


@dataclass(frozen=True, slots=True, eq=False)
class AskWindow(Effect):
    """An open window: the players of the list answer in turn, again and again, until each has passed
    (chosen the action `passing` of `step`) since anyone last acted, or `closes` holds."""
    players: Expr
    step: str
    passing: str
    closes: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class EndDeal(Effect):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class EndTurn(Effect):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class Score(Effect):
    """Named parts added to a number (`score:` with `parts:`); the table tells each part."""
    target: VarRef | OwnedVar
    labels: tuple[str, ...]
    values: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Say(Effect):
    """A message for some players: text parts alternating with values (parts has one more)."""
    parts: tuple[str, ...]
    values: tuple[Expr, ...]
    to: Expr | None            # a player or a list of players; None: everyone


@dataclass(frozen=True, slots=True, eq=False)
class Reveal(Effect):
    what: Expr                 # a card, a list of cards or a zone (by its type)
    to: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class Tell(Effect):
    """A fact about a zone's cards: it holds at least one card of a rank or suit, or none."""
    to: Expr | None
    zone: Expr
    holds: bool
    value: Expr                # a rank or a suit (by its type)


@dataclass(frozen=True, slots=True, eq=False)
class ReverseDirection(Effect):
    """`reverse direction`: turn passing, `next`, dealing and `others` go the other way round."""


@dataclass(frozen=True, slots=True, eq=False)
class If(Effect):
    cond: Expr
    then: tuple[Effect, ...]
    orelse: tuple[Effect, ...]


@dataclass(frozen=True, slots=True, eq=False)
class For(Effect):
    var: str
    iterable: Expr
    body: tuple[Effect, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Perform(Effect):
    """`refill(me)`: a procedure of the rule file run with these arguments (its body: Rules.procedures)."""
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Flip(Effect):
    """`turn X face up`: a card, a list of cards or a zone's cards turned over where they lie."""
    what: Expr
    face_up: bool


@dataclass(frozen=True, slots=True, eq=False)
class CheckEvents(Effect):
    """`check events`: the events loop, run in the middle of an effect list."""


@dataclass(frozen=True, slots=True, eq=False)
class Repeat(Effect):
    count: Expr
    body: tuple[Effect, ...]
    limit: int


@dataclass(frozen=True, slots=True, eq=False)
class While(Effect):
    cond: Expr
    body: tuple[Effect, ...]
    limit: int


# ------------------------------------------------------------------ the whole file
@dataclass(frozen=True, slots=True, eq=False)
class Function:
    """A rule file's own function, its body resolved in the scope of its parameters."""
    name: str
    params: tuple[str, ...]
    param_types: tuple[str, ...]
    body: Expr
    type: str
    nesting: int = 0           # how deep its body goes, counting the functions it calls


@dataclass(frozen=True, slots=True, eq=False)
class Procedure:
    """A rule file's own procedure: effects resolved in the scope of its parameters."""
    name: str
    params: tuple[str, ...]
    param_types: tuple[str, ...]
    body: tuple[Effect, ...]
    steps: tuple[tuple[str, Span], ...] = ()    # the steps its `goto`s and `ask`s name (and those it runs)
    depth: int = 1                               # procedures inside one another, itself included
    checks_events: bool = False                  # it, or a procedure it runs, says `check events`


@dataclass(frozen=True, slots=True, eq=False)
class Param:
    """An action's parameter: `c in my hand`."""
    var: str
    type: str
    domain: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    name: str
    params: tuple[Param, ...]
    guard: Expr | None      # with `conditions`, an `if:` list (all of them, each with its `help:`, "" if none)
    effects: tuple[Effect, ...]
    text: str | None
    span: Span
    conditions: tuple[tuple[Expr, str], ...] = ()
    # the field as written -> its value: `text:` fields that are expressions (not a parameter's name), and
    # the `{…}` fields of the action's and its conditions' help texts
    text_values: dict[str, Expr] = field(default_factory=dict)
    help_values: dict[str, Expr] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, eq=False)
class Phase:
    name: str
    first: Expr | None
    once: bool
    ends: Expr | None
    start: tuple[Effect, ...]
    after_turn: tuple[Effect, ...]
    actions: dict[str, Action]
    steps: dict[str, tuple[str, ...]]      # step -> the actions offered in it, in order
    when: Expr | None = None               # `if:` asked when the phase would begin
    together: bool = False                 # `turns: together`: the choices are made at the same time


@dataclass(frozen=True, slots=True, eq=False)
class Event:
    name: str
    when: Expr
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """A checked rule file: the Spec's structure, with every expression and effect resolved."""
    spec: Spec
    var_types: dict[str, str]
    var_starts: dict[str, Expr | None]
    functions: dict[str, Function]
    setup: tuple[Effect, ...]
    deal: tuple[Effect, ...]
    events: tuple[Event, ...]
    phases: tuple[Phase, ...]
    deal_ends: Expr | None
    scoring: tuple[Effect, ...]
    show: dict[str, Expr] = field(default_factory=dict)
    heuristic: Expr | None = None
    counters: dict[str, Expr] = field(default_factory=dict)
    match_ends: Expr | None = None
    match_score: Expr | None = None
    match_won: Expr | None = None         # `match: won`, with `p` the player
    first_dealer: Expr | None = None
    wild: Expr | None = None
    next_dealer: Expr | None = None
    turn_cap: Expr | None = None
    house_score: Expr | None = None      # `match: house score:` (with a `house:`)
    warnings: list[RuleError] = field(default_factory=list)    # what may be a mistake, not an error
    procedures: dict[str, Procedure] = field(default_factory=dict)


def children(n: Node) -> list[Node]:
    """The nodes directly under `n`, for walks that look at every node (free names, binders)."""
    out: list[Node] = []
    for name in fields_of(type(n)):
        value = getattr(n, name)
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, Node))
    return out


_FIELD_CACHE: dict[type, tuple[str, ...]] = {}


def fields_of(cls: type) -> tuple[str, ...]:
    if cls not in _FIELD_CACHE:
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            names.extend(s for s in getattr(klass, "__slots__", ()) if s not in names)
        _FIELD_CACHE[cls] = tuple(names)
    return _FIELD_CACHE[cls]


def nesting(n: Node, functions: dict[str, Function]) -> int:
    """How deep a resolved tree goes; a call of a rule file's function adds that function's depth."""
    below = max((nesting(c, functions) for c in children(n)), default=0)
    if isinstance(n, UserCall) and n.name in functions:
        below = max(below, functions[n.name].nesting)
    return 1 + below


def walk(n: Node):
    yield n
    for child in children(n):
        yield from walk(child)
