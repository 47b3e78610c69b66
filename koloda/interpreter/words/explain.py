"""Why a condition of the rules is false (or true), told in the rule file's own words.

A guard is split where the file splits it: at its top-level `and`s, through
`or`, `not` and the file's own functions (`define:`). Each part is worked out
for the binding at hand by generated code (generate.expressions), and the first part that
fails is quoted from the rule file, with the values that make it fail
(`c.suit == led()` is false: hearts == spades).

Only what the player may know is told. That the whole condition fails is
known (the move was refused), and so is what follows from it: every part of a
failing `or`, every part of a holding `and`. Any other part, a value shown,
and an example (`for c = 8♥`) are told only when every card they are worked
out from is one the player has seen, and every variable they read is one the
player may see.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from koloda.dsl import resolved as R
from koloda.dsl.builtins import STATIC_CARD_ATTRS
from koloda.dsl.errors import RuleError, spanned_text
from koloda.dsl.types import BOOL, CARD, GRID, PLAN, ZONE, elem, is_list
from koloda.interpreter.base.errors import PYTHON_FAILURES
from koloda.interpreter.codegen.generate import expressions
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.core.loaded import Fn, LoadedRules
from koloda.interpreter.words.view import View
from koloda.interpreter.core.watch import Watch

QUOTE_WIDTH = 90         # the most of a piece of rule text quoted in one place
LIST_SHOWN = 8           # items of a list value shown
MAX_DEPTH = 12           # how deep an explanation follows the rules' parts and functions
FAILURES = (RuleError, RecursionError, *PYTHON_FAILURES)    # a part of the rules that cannot be worked out
_ZONE_CARDS = ("top", "bottom", "cards")      # zone attributes that give cards lying in it


class Unknown(Exception):
    """A part of the rules that cannot be worked out here (it fails, or needs a name not bound)."""


@dataclass
class Finding:
    """One thing said about a condition, and the parts that say why."""
    text: str
    parts: list[Finding] = field(default_factory=list)
    group: bool = False      # a failing `or` (or a holding `and`): its parts all say the same

    def lines(self, indent: int = 0) -> list[str]:
        """One line while each finding has one part (`a` is false: `b` is false); a list when several."""
        text, parts = self.text, self.parts
        while len(parts) == 1:
            text += ": " + parts[0].text
            parts = parts[0].parts
        out = [" " * indent + ("- " if indent else "") + text + (":" if parts else "")]
        for p in parts:
            out.extend(p.lines(indent + 2))
        return out


@dataclass(frozen=True)
class Look:
    """Who is asking, about which state: what they may be told."""
    s: Any
    viewer: int


class Explainer:
    """Works out and quotes parts of one game's rules; the compiled parts are kept."""

    def __init__(self, loaded: LoadedRules, rules: R.Rules, view: View, layout: Layout):
        self.loaded = loaded
        self.functions = rules.functions
        self.view = view
        self.layout = layout
        self.var_view = view.var_view
        self._fns: dict[R.Expr, Fn] = {}
        self._seqs: dict[R.Expr, Fn] = {}
        self._quotes: dict[R.Expr, str] = {}
        # say examples and compared values in words (`you hold Q♦`, `31, more than 0`) rather than as the
        # rule file's operators (`(for d = Q♦)`, `31 <= 0`); a refusal sets it, a designer's view does not
        self.in_words = False

    # ------------------------------------------------------------ values
    def value(self, n: R.Expr, s: Any, b: dict) -> Any:
        f = self._fns.get(n)
        if f is None:
            f = self._fns[n] = expressions(self.loaded, Watch(), [n], "explained")[0]
        try:
            return f(s, dict(b))
        except FAILURES:
            raise Unknown() from None

    def items(self, n: R.Expr, s: Any, b: dict) -> list:
        """The items of a list or a zone."""
        f = self._seqs.get(n)
        if f is None:
            f = self._seqs[n] = _items(expressions(self.loaded, Watch(), [n], "explained")[0], n.type == ZONE)
        try:
            return list(f(s, dict(b)))
        except FAILURES:
            raise Unknown() from None

    def truth(self, n: R.Expr, s: Any, b: dict) -> bool | None:
        try:
            return bool(self.value(n, s, b))
        except Unknown:
            return None

    def render(self, value: Any, t: str) -> str:
        if value is None:
            return "none"
        if is_list(t) and isinstance(value, list):
            shown = [self.render(v, elem(t)) for v in value[:LIST_SHOWN]]
            return "[" + ", ".join(shown) + (", …" if len(value) > LIST_SHOWN else "") + "]"
        if t == PLAN:
            return self.view.plan_text(value)
        if t == ZONE and value in self.layout.zone_slot:
            return f"meld {self.layout.zone_slot[value] + 1}"     # as moves name it: `on meld 3`
        if t == GRID and isinstance(value, int) and 0 <= value < len(self.layout.grids):
            grid = self.layout.grids[value]
            owner = "" if grid.owner is None else self.layout.owner_label(grid.owner, grid.by_side) + " "
            return owner + grid.name
        try:
            return self.view.render(value, t)
        except (IndexError, KeyError, TypeError):
            return str(value)

    # ------------------------------------------------------------ the rule file's words
    def quote(self, n: R.Expr) -> str:
        """`the text` of a part as the rule file writes it (or where it is, if the file cannot be read)."""
        found = self._quotes.get(n)
        if found is None:
            found = self._quotes[n] = _quoted(n)
        return found

    # ------------------------------------------------------------ what the player may know
    def seen(self, look: Look, card: Any) -> bool:
        """Does the viewer know this card and where it is: they see it now, or saw it arrive there?"""
        s = look.s
        if card is None:
            return True
        if not isinstance(card, int) or not 0 <= card < len(s.known):
            return False
        if s.known[card] >> look.viewer & 1:
            return True
        zone = s.loc[card]
        if zone < 0 or not s.face[card]:
            return False
        z = self.layout.zones[zone]
        return (z.visible == "all" or (z.visible == "top" and s.zones[zone][-1] == card)
                or (z.visible == "owner" and self.layout.sees(look.viewer, z.owner, z.by_side)))

    def knowable(self, n: R.Expr, look: Look, b: dict, public: frozenset[str], depth: int = 0) -> bool:
        """Can the viewer work this value out from what they see? (Cautious: no when unsure.)"""
        if depth > 4 * MAX_DEPTH:
            return False
        if isinstance(n, R.Local):
            return n.name in public
        if n.type == CARD or (is_list(n.type) and elem(n.type) == CARD):
            try:
                v = self.value(n, look.s, b)
            except Unknown:
                # it needs a name bound further out (a loop's): judged by its parts, but cards read
                # off a zone cannot be judged so
                if isinstance(n, R.ZoneAttr) and n.name in _ZONE_CARDS:
                    return False
            else:
                if not all(self.seen(look, c) for c in (v if isinstance(v, list) else [v])):
                    return False
        if isinstance(n, R.VarRef):
            return self.var_view.get(n.name, ("nobody",))[0] == "all"
        if not self._where_seen(n, look, b):
            return False
        if isinstance(n, R.OwnedVar):
            return self._may_see_var(n, look, b, public, depth)
        if isinstance(n, (R.Aggregate, R.ListComp)):
            if not self.knowable(n.iterable, look, b, public, depth + 1):
                return False
            inner = public | {n.var} if self._items_seen(n.iterable, look, b) else public - {n.var}
            parts = [n.elem] + ([n.cond] if n.cond is not None else [])
            return all(self.knowable(p, look, b, inner, depth + 1) for p in parts)
        if isinstance(n, R.UserCall):
            fn = self.functions[n.name]
            if not all(self.knowable(a, look, b, public, depth + 1) for a in n.args):
                return False
            inner_b = {}
            for p, a in zip(fn.params, n.args):
                try:
                    inner_b[p] = self.value(a, look.s, b)
                except Unknown:
                    pass
            return self.knowable(fn.body, look, inner_b, frozenset(fn.params), depth + 1)
        return all(self.knowable(c, look, b, public, depth + 1) for c in R.children(n) if isinstance(c, R.Expr))

    def _where_seen(self, n: R.Expr, look: Look, b: dict) -> bool:
        """What a node reads of where cards lie: a card's place (`c in stock`, `c.by`), or the cards
        of a zone a built-in looks through (`melds_in(my hand)`), must be known to the viewer."""
        try:
            if isinstance(n, R.Contains) and n.container.type == ZONE:
                # known if the viewer sees all of the zone, or knows where the card is
                if self.zone_seen(self.value(n.container, look.s, b), look):
                    return True
                return self.seen(look, self.value(n.item, look.s, b))
            if isinstance(n, R.CardAttr) and n.name not in STATIC_CARD_ATTRS:
                return self.seen(look, self.value(n.obj, look.s, b))
            if isinstance(n, R.BuiltinCall):
                return all(self.zone_seen(self.value(a, look.s, b), look) for a in n.args if a.type == ZONE)
        except Unknown:
            return False
        return True

    def _may_see_var(self, n: R.OwnedVar, look: Look, b: dict, public: frozenset[str], depth: int) -> bool:
        visible = self.var_view.get(n.name, ("nobody",))[0]
        if visible == "all":
            return self.knowable(n.owner, look, b, public, depth + 1)
        if visible != "owner":
            return False
        try:
            owner = self.value(n.owner, look.s, b)
        except Unknown:
            return False
        if not isinstance(owner, int):
            return False
        if n.per_side and not n.by_side:
            owner = self.layout.side_of(owner)
        return self.layout.sees(look.viewer, owner, n.per_side)

    def _items_seen(self, iterable: R.Expr, look: Look, b: dict) -> bool:
        """Are the items a loop name takes ones the viewer may know? A list was judged as a value
        already (knowable); a zone is a place, and its cards must be ones the viewer knows."""
        if iterable.type != ZONE:
            return True
        try:
            return self.zone_seen(self.value(iterable, look.s, b), look)
        except Unknown:
            return False

    def zone_seen(self, zone: Any, look: Look) -> bool:
        """Does the viewer know every card in this zone?"""
        s = look.s
        return isinstance(zone, int) and 0 <= zone < len(s.zones) and all(self.seen(look, c) for c in s.zones[zone])

    # ------------------------------------------------------------ why
    def why(self, n: R.Expr, look: Look, b: dict, want: bool, public: frozenset[str] = frozenset(),
            implied: bool = True, depth: int = 0) -> Finding | None:
        """Why `n` is not `want` for the binding `b` (None if it is, or if nothing may be said).

        implied: the viewer knows `n` is not `want` already (it follows from the refusal)."""
        actual = self.truth(n, look.s, b)
        if actual is None or actual == want:
            return None
        if not implied and not self.knowable(n, look, b, public):
            return None
        verdict = f"{self.quote(n)} is {'true' if actual else 'false'}"
        if depth >= MAX_DEPTH:
            return Finding(verdict)
        if isinstance(n, R.Not):
            return self.why(n.operand, look, b, not want, public, True, depth + 1) or Finding(verdict)
        if isinstance(n, (R.And, R.Or)) and n.type == BOOL:
            return self._connective(n, look, b, want, public, implied, depth, verdict)
        if isinstance(n, R.IfElse) and n.type == BOOL and self.knowable(n.cond, look, b, public):
            # the branch taken says why (the viewer may know which one it is)
            branch = n.then if self.truth(n.cond, look.s, b) else n.orelse
            return self.why(branch, look, b, want, public, True, depth + 1) or Finding(verdict)
        if isinstance(n, R.UserCall) and n.type == BOOL:
            return self._call(n, look, b, want, public, depth, verdict)
        if isinstance(n, R.Aggregate) and n.func in ("any", "all"):
            return Finding(verdict + self._example(n, look, b, public))
        if isinstance(n, R.Compare):
            return Finding(verdict + self._sides(n, look, b, public))
        if isinstance(n, R.Contains) and not isinstance(n.item, R.Const):
            return Finding(verdict + self._shown_as(n.item, look, b, public))
        return Finding(verdict)

    def _connective(self, n: R.And | R.Or, look: Look, b: dict, want: bool, public: frozenset[str],
                    implied: bool, depth: int, verdict: str) -> Finding | None:
        parts = _chain(n, type(n))
        # a failing `and` (a holding `or`): one part decides; name the first the viewer may be told of
        one_decides = isinstance(n, R.And) == want
        if one_decides:
            for p in parts:
                found = self.why(p, look, b, want, public, False, depth + 1)
                if found is not None:
                    return found
            return Finding(verdict) if implied else None
        # a failing `or` (a holding `and`): every part says the same, and each follows from the whole
        told = [f for f in (self.why(p, look, b, want, public, True, depth + 1) for p in parts) if f is not None]
        return Finding(verdict, told, group=True)

    def _call(self, n: R.UserCall, look: Look, b: dict, want: bool, public: frozenset[str], depth: int,
              verdict: str) -> Finding:
        fn = self.functions[n.name]
        if isinstance(fn.body, R.Const):
            return Finding(verdict)            # `may_take(): true` says all there is
        inner_b: dict = {}
        inner_public = set()
        for p, a in zip(fn.params, n.args):
            try:
                inner_b[p] = self.value(a, look.s, b)
            except Unknown:
                return Finding(verdict)
            if self.knowable(a, look, b, public):
                inner_public.add(p)
        inner = self.why(fn.body, look, inner_b, want, frozenset(inner_public), True, depth + 1)
        if inner is None:
            return Finding(verdict)
        return Finding(verdict, inner.parts if inner.group else [inner])

    def _example(self, n: R.Aggregate, look: Look, b: dict, public: frozenset[str]) -> str:
        """`any(...)` that holds: for which item; `all(...)` that fails: for which not."""
        holds = self.truth(n, look.s, b)
        if holds != (n.func == "any") or not self.knowable(n, look, b, public):
            return ""
        try:
            items = self.items(n.iterable, look.s, b)
        except Unknown:
            return ""
        t = elem(n.iterable.type)
        for x in items:
            inner = dict(b)
            inner[n.var] = x
            if n.cond is not None and not self.truth(n.cond, look.s, inner):
                continue
            if self.truth(n.elem, look.s, inner) == (n.func == "any"):
                if self.in_words:
                    return ": " + self._where(x, t, n.iterable, look, b, n.func == "any")
                return f" (for {n.var} = {self.render(x, t)})" if n.func == "any" else \
                    f" (not for {n.var} = {self.render(x, t)})"
        return ""

    def _where(self, x: Any, t: str, iterable: R.Expr, look: Look, b: dict, holds: bool) -> str:
        """An example item in words, with the zone it lies in: `you hold Q♦`, `Q♦ in the pile`, `not for Q♦`."""
        shown = self.render(x, t)
        zone = None
        if iterable.type == ZONE:
            try:
                zone = self.value(iterable, look.s, b)
            except Unknown:
                zone = None
        if isinstance(zone, int) and 0 <= zone < len(self.layout.zones):
            z = self.layout.zones[zone]
            mine = z.owner is not None and z.owner == (self.layout.side_of(look.viewer) if z.by_side else look.viewer)
            if mine and z.name == "hand":
                return f"you hold {shown}" if holds else f"not so for {shown}, which you hold"
            place = "your " + z.name if mine else self.render(zone, ZONE)
            return f"{shown} in {place}" if holds else f"not so for {shown} in {place}"
        return f"for instance {shown}" if holds else f"not so for {shown}"

    def _sides(self, n: R.Compare, look: Look, b: dict, public: frozenset[str]) -> str:
        """The compared values: `: 31 <= 0`."""
        shown = []
        for side in (n.left, n.right):
            if isinstance(side, R.Const):
                shown.append(self.render(side.value, side.type))
                continue
            if not self.knowable(side, look, b, public):
                shown.append("…")
                continue
            try:
                shown.append(self.render(self.value(side, look.s, b), side.type))
            except Unknown:
                shown.append("…")
        told = [s for side, s in zip((n.left, n.right), shown) if not isinstance(side, R.Const) and s != "…"]
        if not told:
            return ""
        if self.in_words and n.op in _WANTED and "…" not in shown and self.truth(n, look.s, b) is False:
            # what the left side is, and what it would have to be
            return f": it is {shown[0]}, {_WANTED[n.op]} {shown[1]}"
        return f": {shown[0]} {n.op} {shown[1]}"

    def _shown_as(self, n: R.Expr, look: Look, b: dict, public: frozenset[str]) -> str:
        if not self.knowable(n, look, b, public):
            return ""
        try:
            text = self.render(self.value(n, look.s, b), n.type)
        except Unknown:
            return ""
        return "" if f"`{text}`" == self.quote(n) else f" ({self.quote(n)} is {text})"


# a comparison that fails, in words: the left side's value is ... (`31, more than 0` for `x <= 0`)
_WANTED = {"==": "not", "!=": "and must not be", "<=": "more than", "<": "not less than", ">=": "less than",
           ">": "not more than"}


def _chain(n: R.Expr, kind: type) -> list[R.Expr]:
    """`a and b and c` as [a, b, c] (without recursion: a chain may be long)."""
    out: list[R.Expr] = []
    stack = [n]
    while stack:
        x = stack.pop()
        if type(x) is kind and isinstance(x, (R.And, R.Or)):
            stack.extend((x.right, x.left))
        else:
            out.append(x)
    return out


def _quoted(n: R.Expr) -> str:
    if isinstance(n, R.Const) and isinstance(n.value, bool):
        # YAML reads a bare `true` as no text, so it has no place of its own in the file
        return "`true`" if n.value else "`false`"
    text = spanned_text(n.span.file, (x.span for x in R.walk(n)))
    if not text:
        return f"the part at {n.span}"
    if len(text) > QUOTE_WIDTH:
        text = text[:QUOTE_WIDTH - 1] + "…"
    return f"`{text}`"


def _items(f: Fn, zone: bool) -> Fn:
    """The items of a list, or of a zone (its cards) when `f` gives a zone."""
    return (lambda s, b: s.zones[f(s, b)]) if zone else f
