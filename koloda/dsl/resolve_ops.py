"""The resolver's part for operators: arithmetic (whole numbers and fractions), comparisons, `in`,
`and`/`or`/`not`, `-`, seat orders and the conditional value.

A mixin of the Resolver (resolve.py), kept apart so that each part stays small: one `_<Class>` method
per syntax class here, as there.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from koloda.dsl import ast
from koloda.dsl import resolved as R
from koloda.dsl.types import (ANY, BOOL, FRAC, INT, NONE, PLAYER, RANK, ZONE, compatible, elem, is_list, is_number,
                              list_of, number_of, show)


if TYPE_CHECKING:                 # the class this part is mixed into (parts.py)
    from koloda.dsl.parts import Resolving as _Whole
else:
    _Whole = object

Scope = dict[str, str]


class Operators(_Whole):
    def _Arith(self, n: ast.Arith, scope: Scope) -> R.Expr:
        left, right = self.expr(n.left, scope), self.expr(n.right, scope)
        if n.op == "+" and is_list(left.type) and is_list(right.type):
            if not compatible(left.type, right.type):
                self.error(f"cannot join {show(left.type)} and {show(right.type)}", n, category="type")
            return R.Arith(n.span, left.type if elem(left.type) != ANY else right.type, n.op, left, right)
        for side, r in ((n.left, left), (n.right, right)):
            if not is_number(r.type) and r.type != ANY:
                self.error(f"`{n.op}` needs numbers, but this is {show(r.type)}", side, category="type")
        if n.op == "/":         # exact: `7 / 2` is 7/2, never rounded
            return R.Arith(n.span, FRAC, n.op, left, right)
        if n.op == "//":        # rounds down to a whole number, of fractions too
            return R.Arith(n.span, INT, n.op, left, right)
        return R.Arith(n.span, number_of(left.type, right.type), n.op, left, right)

    def _Compare(self, n: ast.Compare, scope: Scope) -> R.Expr:
        left = self.expr(n.left, scope)
        right = self.word_for(n.right, scope, left.type)
        self.check_word(left, right.type)
        left, right = self.coerce_rank(n.left, left, right.type), self.coerce_rank(n.right, right, left.type)
        lt, rt = left.type, right.type
        if not compatible(lt, rt):
            self.error(f"cannot compare {show(lt)} with {show(rt)}", n, category="type")
        elif n.op not in ("==", "!=") and not ({lt, rt} <= {INT, FRAC, ANY} or {lt, rt} <= {RANK, ANY}):
            self.error(f"`{n.op}` compares numbers or ranks, not {show(lt)}", n, category="type")
        return R.Compare(n.span, BOOL, n.op, left, right)

    def _In(self, n: ast.In, scope: Scope) -> R.Expr:
        item, container = self.expr(n.item, scope), self.expr(n.container, scope)
        if item.type == RANK:
            container = self.coerce_rank(n.container, container, list_of(RANK))
        self.check_word(container, item.type)
        ct = container.type
        if ct == ZONE or is_list(ct):
            if not compatible(item.type, elem(ct)):
                self.error(f"{show(item.type)} can never be in {show(ct)}", n, category="type")
        elif ct != ANY:
            self.error(f"`in` looks into a list or a zone, not {show(ct)}", n.container, category="type")
        return R.Contains(n.span, BOOL, item, container, n.negated)

    def _And(self, n: ast.And, scope: Scope) -> R.Expr:
        left = self.expect(n.left, scope, BOOL, "each side of `and`")
        right = self.expect(n.right, scope, BOOL, "each side of `and`")
        return R.And(n.span, BOOL, left, right)

    def _Or(self, n: ast.Or, scope: Scope) -> R.Expr:
        left, right = self.expr(n.left, scope), self.expr(n.right, scope)
        if left.type == BOOL or right.type == BOOL:
            for side, r in ((n.left, left), (n.right, right)):
                if r.type not in (BOOL, ANY):
                    self.error(f"each side of `or` must be true/false here, but this is {show(r.type)}", side,
                               category="type")
            return R.Or(n.span, BOOL, left, right)
        if not compatible(left.type, right.type):
            self.error(f"`or` picks between two values of one kind, not {show(left.type)} and {show(right.type)}",
                       n, category="type")
        return R.Or(n.span, left.type if left.type not in (NONE, ANY) else right.type, left, right)

    def _Not(self, n: ast.Not, scope: Scope) -> R.Expr:
        return R.Not(n.span, BOOL, self.expect(n.operand, scope, BOOL, "what `not` negates"))

    def _Neg(self, n: ast.Neg, scope: Scope) -> R.Expr:
        operand = self.expect(n.operand, scope, FRAC, "what `-` negates")
        return R.Neg(n.span, number_of(operand.type), operand)

    def _SeatOrder(self, n: ast.SeatOrder, scope: Scope) -> R.Expr:
        start = self.expect(n.start, scope, PLAYER, f"what `{n.base} from` starts at")
        return R.SeatOrder(n.span, list_of(PLAYER), n.base == "others", start)

    def _IfElse(self, n: ast.IfElse, scope: Scope) -> R.Expr:
        cond = self.expect(n.cond, scope, BOOL, "the condition after `if`")
        a, b = self.expr(n.then, scope), self.expr(n.orelse, scope)
        if not compatible(a.type, b.type):
            self.error(f"both branches must be of one kind, not {show(a.type)} and {show(b.type)}", n,
                       category="type")
        t = number_of(a.type, b.type) if is_number(a.type) and is_number(b.type) else \
            a.type if a.type not in (NONE, ANY) else b.type
        return R.IfElse(n.span, t, a, cond, b)
