"""Typed, frozen AST of koloda's expressions and effects.

Every node carries the span of the text it came from, so the checker and the
engine can point at the exact place in the rule file.
"""
from __future__ import annotations

from dataclasses import dataclass

from koloda.dsl.errors import Span


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    span: Span


# ------------------------------------------------------------------ expressions
@dataclass(frozen=True, slots=True, eq=False)
class Number(Node):
    value: int


@dataclass(frozen=True, slots=True, eq=False)
class String(Node):
    value: str


@dataclass(frozen=True, slots=True, eq=False)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class My(Node):
    """`my hand`: an attribute of the player whose turn it is."""
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, slots=True, eq=False)
class Call(Node):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Aggregate(Node):
    """`sum(value(c) for c in my hand if ...)` and its kin."""
    func: str
    elem: Node
    var: str
    iterable: Node
    cond: Node | None


@dataclass(frozen=True, slots=True, eq=False)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class ListComp(Node):
    elem: Node
    var: str
    iterable: Node
    cond: Node | None


# The loop name of an aggregate over several `for` clauses: it goes over the list they make, and cannot
# be written, so it never hides a name of the file.
ITEM = "item of the for clauses"


@dataclass(frozen=True, slots=True, eq=False)
class Flatten(Node):
    """The lists of a list joined in order: what `[e for a in X for b in Y]` means (to_ast.py)."""
    lists: Node


@dataclass(frozen=True, slots=True, eq=False)
class Arith(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True, eq=False)
class Compare(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True, eq=False)
class In(Node):
    item: Node
    container: Node
    negated: bool


@dataclass(frozen=True, slots=True, eq=False)
class Range(Node):
    """`0..n`: the whole numbers from low to high, both included; `100..300 by 5`: every fifth."""
    low: Node
    high: Node
    step: Node | None = None


@dataclass(frozen=True, slots=True, eq=False)
class And(Node):
    left: Node
    right: Node


@dataclass(frozen=True, slots=True, eq=False)
class Or(Node):
    left: Node
    right: Node


@dataclass(frozen=True, slots=True, eq=False)
class Not(Node):
    operand: Node


@dataclass(frozen=True, slots=True, eq=False)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, slots=True, eq=False)
class IfElse(Node):
    then: Node
    cond: Node
    orelse: Node


# ------------------------------------------------------------------ effects
@dataclass(frozen=True, slots=True, eq=False)
class TargetVar(Node):
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class TargetAttr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class TargetItem(Node):
    """`xs[i]` set by an assignment: an item of a list variable (`obj` a TargetVar or TargetAttr)."""
    obj: Node
    index: Node


@dataclass(frozen=True, slots=True, eq=False)
class Move(Node):
    what: Node
    dest: Node
    face_down: bool = False
    under: bool = False          # `move X under stock`: to the bottom


@dataclass(frozen=True, slots=True, eq=False)
class Meld(Node):
    """`meld m`: carry out a plan — a new meld, a layoff or a joker swap."""
    plan: Node


@dataclass(frozen=True, slots=True, eq=False)
class Shuffle(Node):
    zone: Node


@dataclass(frozen=True, slots=True, eq=False)
class Deal(Node):
    count: Node
    family: str
    source: Node | None


@dataclass(frozen=True, slots=True, eq=False)
class Gather(Node):
    dest: Node


@dataclass(frozen=True, slots=True, eq=False)
class Assign(Node):
    target: Node
    op: str
    value: Node


@dataclass(frozen=True, slots=True, eq=False)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True, slots=True, eq=False)
class Goto(Node):
    step: str


@dataclass(frozen=True, slots=True, eq=False)
class TurnTo(Node):
    player: Node


@dataclass(frozen=True, slots=True, eq=False)
class Skip(Node):
    player: Node


@dataclass(frozen=True, slots=True, eq=False)
class Ask(Node):
    """`ask partner(me) to answer`: a decision taken out of turn, then play returns to the asker."""
    player: Node
    step: str


@dataclass(frozen=True, slots=True, eq=False)
class AskWindow(Node):
    """`ask attackers to throw until all pass`: an open window; every player of the list may act, in turn,
    until each has passed (chosen the action `passing`) since the last one acted, or `closes` holds."""
    players: Node
    step: str
    passing: str
    passing_span: Span
    closes: Node | None


@dataclass(frozen=True, slots=True, eq=False)
class EndDeal(Node):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class EndTurn(Node):
    pass


@dataclass(frozen=True, slots=True, eq=False)
class Score(Node):
    """`{score: t.score, parts: {melds: ..., going out: ...}}`: the parts added to a number, each
    named, so that the table can tell how the total was made."""
    target: Node
    labels: tuple[str, ...]
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Say(Node):
    """`say "P{n} has no {r}s" to all`: a message for the players named (`to` None: everyone).
    `parts` alternate the text between values and the values written in braces."""
    parts: tuple[str, ...]
    values: tuple[Node, ...]
    to: Node | None


@dataclass(frozen=True, slots=True, eq=False)
class Reveal(Node):
    """`reveal c to asker`: the players named are shown cards (`to` None: everyone)."""
    what: Node
    to: Node | None


@dataclass(frozen=True, slots=True, eq=False)
class Tell(Node):
    """`tell all that p.hand holds no r`: a fact about the cards of a zone, told to players."""
    to: Node | None
    zone: Node
    holds: bool
    value: Node


@dataclass(frozen=True, slots=True, eq=False)
class ReverseDirection(Node):
    """`reverse direction`: play goes the other way round the table."""


@dataclass(frozen=True, slots=True, eq=False)
class SeatOrder(Node):
    """`players from X`, `others from X`: the table in the order of play, starting at X (or after X)."""
    base: str
    start: Node


@dataclass(frozen=True, slots=True, eq=False)
class If(Node):
    """`{if: cond, then: [...], else: [...]}` in the YAML."""
    cond: Node
    then: tuple[Node, ...]
    orelse: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class For(Node):
    """`{for: p in players, do: [...]}` in the YAML."""
    var: str
    iterable: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Perform(Node):
    """`refill(me)`: run a procedure of the rule file (`procedures:`) with these arguments."""
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Flip(Node):
    """`turn c face up`: a card, or each card of a list or zone, turned over where it lies."""
    what: Node
    face_up: bool


@dataclass(frozen=True, slots=True, eq=False)
class CheckEvents(Node):
    """`check events`: the events are checked here, in the middle of an effect list."""


@dataclass(frozen=True, slots=True, eq=False)
class Repeat(Node):
    """`{repeat: N, do: [...]}`: the effects N times; N is at most `limit`."""
    count: Node
    body: tuple[Node, ...]
    limit: int


@dataclass(frozen=True, slots=True, eq=False)
class While(Node):
    """`{while: COND, do: [...]}`: the effects while the condition holds, at most `limit` times."""
    cond: Node
    body: tuple[Node, ...]
    limit: int


# ------------------------------------------------------------------ other forms
@dataclass(frozen=True, slots=True, eq=False)
class Binding(Node):
    """`c in my hand`: an action parameter and the values it ranges over."""
    var: str
    domain: Node


@dataclass(frozen=True, slots=True, eq=False)
class Param(Node):
    name: str
    type: str


@dataclass(frozen=True, slots=True, eq=False)
class Signature(Node):
    """`playable(card c)`: the head of a rule file's own function."""
    name: str
    params: tuple[Param, ...]


def as_target(node: Node) -> TargetVar | TargetAttr | None:
    """What an expression names when it is written where a value is set: `score`, `my score` and
    `t.score` as the variables they are; None for an expression that names no variable."""
    if isinstance(node, Name):
        return TargetVar(node.span, node.name)
    if isinstance(node, My):
        return TargetAttr(node.span, Name(node.span, "me"), node.name)
    if isinstance(node, Attr):
        return TargetAttr(node.span, node.obj, node.name)
    return None
