"""Expressions of the checked tree in words: one method per resolved expression class.

A construct without a method here (or one the phrase table has no words for) is quoted as the rule
file writes it, and counted in `fallbacks`, so that a test shows how much of the language is covered.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Callable

from koloda.dsl import resolved as R
from koloda.dsl.errors import spanned_text
from koloda.dsl.labels import label_text, readable
from koloda.dsl.types import BOOL, CARD, COLOR, COMBO, PLAN, PLAYER, RANK, SUIT, SUITS, COLORS, elem, is_list, rank_word
from koloda.rulebook.phrases import Ph, Phrases

OR, AND, NOT = 1, 2, 3      # how tightly a phrase binds: `a or b` loosest
# what an item of a list of this type is called (`a card c in your hand`)
NOUNS = {CARD: "noun.card", PLAYER: "noun.player", PLAN: "noun.plan", COMBO: "noun.combo", "zone": "noun.zone",
         "int": "noun.number",
         SUIT: "noun.suit", RANK: "noun.rank", "side": "noun.side"}


class Words:
    """Says the expressions of one rule file in one language, with the table's options bound."""

    def __init__(self, rules: R.Rules, phrases: Phrases, options: Mapping[str, object]):
        self.rules = rules
        self.spec = rules.spec
        self.say = phrases
        self.options = options
        self.fallbacks: Counter[str] = Counter()

    # ------------------------------------------------------------ entry points
    def __call__(self, n: R.Expr) -> Ph:
        method: Callable[[R.Expr], Ph | None] | None = getattr(self, "_" + type(n).__name__, None)
        found = method(n) if method is not None else None
        return found if found is not None else self.quoted(n)

    def text(self, n: R.Expr) -> str:
        return self(n).nom

    def quoted(self, n: R.Node) -> Ph:
        """The rule file's own text for a construct not said in words (and counted)."""
        self.fallbacks[type(n).__name__] += 1
        return Ph(f"`{source_of(n)}`")

    # ------------------------------------------------------------ names
    def zone_name(self, name: str) -> str:
        zone = self.spec.zones.get(name)
        return label_text(zone.label if zone else None, name, self.say.language)

    def var_name(self, name: str) -> str:
        var = self.spec.vars.get(name)
        return label_text(var.label if var else None, name, self.say.language)

    def _Const(self, n: R.Const) -> Ph | None:
        v = n.value
        if isinstance(v, bool):
            return self.say("const.true" if v else "const.false")
        if v is None:
            return self.say("const.none")
        if n.type == RANK and isinstance(v, int):
            return Ph(rank_word(v))
        if n.type == SUIT and isinstance(v, int) and 0 <= v < len(SUITS):
            return self.say("suit." + SUITS[v])
        if n.type == SUIT and isinstance(v, int):          # a suit of the deck's own: its name
            return Ph(next((s.name for s in self.spec.deck.own_suits().values() if s.code == v), str(v)))
        if n.type == COLOR and isinstance(v, int) and 0 <= v < len(COLORS):
            return self.say("color." + COLORS[v])
        if isinstance(v, str):
            return Ph(f"“{v}”")
        return Ph(str(v))

    def _Option(self, n: R.Option) -> Ph:
        value = self.options.get(n.name, "?")
        shown = self.say.word("const.true" if value else "const.false") if isinstance(value, bool) else value
        return self.say("option", name=readable(n.name), value=shown)

    def _Local(self, n: R.Local) -> Ph:
        key = NOUNS.get(n.type)
        if key is not None and n.type in (CARD, PLAYER, PLAN, COMBO):
            return self.say(key + ".named", name=n.name)
        return Ph(n.name)

    def _StateValue(self, n: R.StateValue) -> Ph:
        key = "state." + n.name
        return self.say(key) if self.say.has(key) else Ph(readable(n.name))

    def _ZoneRef(self, n: R.ZoneRef) -> Ph:
        return self.say("zone", name=self.zone_name(n.name))

    def _GridRef(self, n: R.GridRef) -> Ph:
        return self.say("grid" if self.say.has("grid") else "zone", name=self.zone_name(n.name))

    def _VarRef(self, n: R.VarRef) -> Ph:
        return self.say("var", name=self.var_name(n.name))

    def _owned(self, n: R.Owned, name: str, kind: str = "") -> Ph:
        """`kind`: `.zone` for a zone, whose words a language may give apart (a noun that takes the case
        a name in quotes cannot)."""
        mine = isinstance(n.owner, R.StateValue) and n.owner.name == "me"
        key = "owned.mine" if mine else "owned"
        key = key.replace("owned", "owned" + kind, 1) if self.say.has(key.replace("owned", "owned" + kind, 1)) else key
        return self.say(key, name=name) if mine else self.say(key, name=name, owner=self(n.owner))

    def _OwnedZone(self, n: R.OwnedZone) -> Ph:
        return self._owned(n, self.zone_name(n.name), ".zone")

    def _OwnedGrid(self, n: R.OwnedGrid) -> Ph:
        return self._owned(n, self.zone_name(n.name))

    def _OwnedVar(self, n: R.OwnedVar) -> Ph:
        return self._owned(n, self.var_name(n.name))

    def _MeldsOf(self, n: R.MeldsOf) -> Ph:
        if n.owner is None:
            return self.say("melds.all")
        return self.say("melds.of", owner=self(n.owner))

    # ------------------------------------------------------------ attributes, calls
    def _attribute(self, n: R.Attribute, kind: str) -> Ph:
        key = f"attr.{kind}.{n.name}"
        if not self.say.has(key):
            key = "attr"
        return self.say(key, obj=self(n.obj), name=readable(n.name))

    def _CardAttr(self, n: R.CardAttr) -> Ph:
        return self._attribute(n, "card")

    def _ZoneAttr(self, n: R.ZoneAttr) -> Ph:
        return self._attribute(n, "zone")

    def _GridAttr(self, n: R.GridAttr) -> Ph:
        return self._attribute(n, "grid")

    def _PlanAttr(self, n: R.PlanAttr) -> Ph:
        return self._attribute(n, "plan")

    def _ComboAttr(self, n: R.ComboAttr) -> Ph:
        return self._attribute(n, "combo")

    def _PlayerAttr(self, n: R.PlayerAttr) -> Ph:
        return self._attribute(n, "player")

    def _SideAttr(self, n: R.SideAttr) -> Ph:
        return self._attribute(n, "side")

    def _ListAttr(self, n: R.ListAttr) -> Ph:
        return self._attribute(n, "list")

    def _Index(self, n: R.Index) -> Ph:
        return self.say("index", obj=self(n.obj), index=self(n.index))

    def _BuiltinCall(self, n: R.BuiltinCall) -> Ph | None:
        key = f"call.{n.name}.{len(n.args)}"
        if not self.say.has(key):
            return None
        parts: dict[str, Any] = {f"a{i}": self(a) for i, a in enumerate(n.args)}
        return self.say(key, **parts)

    def _UserCall(self, n: R.UserCall) -> Ph:
        name = readable(n.name)
        if not n.args:
            return self.say("usercall.0", name=name)
        args = [self(a) for a in n.args]
        return self.say("usercall", name=name, args=Ph(", ".join(a.nom for a in args), ", ".join(a.gen for a in args)))

    # ------------------------------------------------------------ lists and reductions
    def noun(self, t: str) -> str:
        key = NOUNS.get(elem(t) if is_list(t) or t == "zone" else t)
        return self.say.word(key) if key else ""

    def over(self, var: str, iterable: R.Expr) -> Ph:
        """`card x in your hand`: a name bound to each item of a list in turn."""
        who = f"{self.noun(iterable.type)} {var}".strip()
        return self.say("over", who=who, var=var, iterable=self(iterable))

    def _Aggregate(self, n: R.Aggregate, negated: bool = False) -> Ph | None:
        over = self.over(n.var, n.iterable)
        cond = self(n.cond).bracketed(AND) if n.cond is not None else None
        body = self(n.elem)
        if n.func in ("any", "all"):
            if cond is not None:
                body = self.say("and", left=cond, right=body.bracketed(AND), prec=AND)
            key = f"agg.{'no' if negated else n.func}"
            return self.say(key, over=over, body=body, prec=AND)
        key = f"agg.{n.func}{'.if' if cond is not None else ''}"
        if not self.say.has(key):
            return None
        return self.say(key, over=over, body=body, cond=cond)

    def _ListComp(self, n: R.ListComp) -> Ph:
        over = self.over(n.var, n.iterable)
        cond = self(n.cond) if n.cond is not None else None
        plain = isinstance(n.elem, R.Local) and n.elem.name == n.var
        key = "list.those" if plain else "list.each"
        if cond is not None:
            key += ".if"
        return self.say(key, over=over, body=self(n.elem), cond=cond)

    def _ListLit(self, n: R.ListLit) -> Ph:
        if not n.items:
            return self.say("list.empty")
        return Ph("[" + ", ".join(self.text(i) for i in n.items) + "]")

    def _Range(self, n: R.Range) -> Ph:
        return self.say("range", low=self(n.low), high=self(n.high))

    def _SeatOrder(self, n: R.SeatOrder) -> Ph:
        return self.say("seats.others" if n.others else "seats.all", start=self(n.start))

    # ------------------------------------------------------------ operators
    def _Arith(self, n: R.Arith) -> Ph:
        key = "arith." + n.op
        left, right = self(n.left).bracketed(9), self(n.right).bracketed(9)
        if not self.say.has(key):
            return Ph(f"{left} {n.op} {right}", prec=4)
        return self.say(key, left=left, right=right, prec=4)

    def _Neg(self, n: R.Neg) -> Ph:
        return Ph(f"−{self(n.operand).bracketed(9)}", prec=4)

    def _Compare(self, n: R.Compare) -> Ph:
        left, right = self(n.left).bracketed(4), self(n.right).bracketed(4)
        if n.left.type == BOOL and isinstance(n.right, R.Const) and isinstance(n.right.value, bool):
            return self.say("is.true" if (n.op == "==") == n.right.value else "is.false", x=left, prec=NOT)
        if isinstance(n.right, R.Const) and n.right.value is None and n.op in ("==", "!="):
            return self.say("is.none" if n.op == "==" else "is.some", x=left, prec=NOT)
        key = f"cmp.{'rank.' if n.left.type == RANK and n.op not in ('==', '!=') else ''}{n.op}"
        return self.say(key, left=left, right=right, prec=NOT)

    def _Contains(self, n: R.Contains) -> Ph:
        key = "in.not" if n.negated else "in"
        return self.say(key, item=self(n.item).bracketed(4), container=self(n.container).bracketed(4), prec=NOT)

    def clause(self, n: R.Expr) -> Ph:
        """A condition said as a sentence: a true/false variable as `your “opened” is true`."""
        if n.type == BOOL and isinstance(n, (R.VarRef, R.OwnedVar)):
            return self.say("is.true", x=self(n), prec=NOT)
        return self(n)

    def _And(self, n: R.And) -> Ph:
        return self.say("and", left=self.clause(n.left).bracketed(AND), right=self.clause(n.right).bracketed(AND),
                        prec=AND)

    def _Or(self, n: R.Or) -> Ph:
        if n.type != BOOL:
            return self.say("or.else", left=self(n.left).bracketed(AND), right=self(n.right).bracketed(AND), prec=OR)
        return self.say("or", left=self.clause(n.left).bracketed(OR), right=self.clause(n.right).bracketed(OR),
                        prec=OR)

    def _Not(self, n: R.Not) -> Ph:
        inner = n.operand
        if isinstance(inner, R.Aggregate) and inner.func == "any":
            found = self._Aggregate(inner, negated=True)
            if found is not None:
                return found
        if isinstance(inner, (R.VarRef, R.OwnedVar, R.UserCall, R.Local)) or isinstance(inner, R.Attribute):
            return self.say("is.false", x=self(inner), prec=NOT)
        if isinstance(inner, R.Contains):
            return self._Contains(R.Contains(inner.span, inner.type, inner.item, inner.container, not inner.negated))
        return self.say("not", x=self(inner).bracketed(NOT), prec=NOT)

    def _IfElse(self, n: R.IfElse) -> Ph:
        return self.say("ifelse", then=self(n.then).bracketed(AND), cond=self(n.cond).bracketed(AND),
                        orelse=self(n.orelse).bracketed(AND), prec=OR)


def source_of(n: R.Node) -> str:
    """The rule file's text of a node: from its first to its last position (its places in the file)."""
    if isinstance(n, R.Const) and isinstance(n.value, bool):
        return "true" if n.value else "false"
    return spanned_text(n.span.file, (x.span for x in R.walk(n))) or type(n).__name__
