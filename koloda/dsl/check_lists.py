"""The checker's part for what changes a list variable: `append x to xs`, `remove x from xs`, `xs[i] = x`.

A mixin of the Checker (check.py), kept apart so that each part stays small. Each gives an `R.Assign`
whose op says what is done (`append`, `remove`, or `=`/`+=`/... with an `index`): a list variable is
set whole, never changed in place, so a clone that shares the old list keeps it (state_fields.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from koloda.dsl import ast
from koloda.dsl import resolved as R
from koloda.dsl.types import ANY, FRAC, INT, assignable, elem, is_list, is_number, list_of, show


if TYPE_CHECKING:                 # the class this part is mixed into (parts.py)
    from koloda.dsl.parts import Checking as _Whole
else:
    _Whole = object

Scope = dict[str, str]


class ListChecks(_Whole):
    def list_target(self, t: ast.Node, scope: Scope, what: str) -> R.Expr:
        """The list variable an effect changes; its item type is `elem` of the result's type."""
        target = self.target(t, scope)
        if target.type != ANY and not is_list(target.type):
            self.error(f"{what} changes a list variable, and this is {show(target.type)}", t,
                       "declare it with `type: list of int` (or of players, words, ...)", category="type")
            return R.Invalid(target.span, ANY)
        return target

    def item_value(self, node: ast.Node, scope: Scope, item: str) -> R.Expr:
        """A value put in a list whose items are of type `item` (a word written bare is one of its words)."""
        if item == ANY:
            return self.expect(node, scope, ANY, "the item")
        value = self.coerce_rank(node, self.word_for(node, scope, item), item)
        self.check_word(value, item)
        if value.type != ANY and not assignable(item, value.type):
            if item == INT and value.type == FRAC:
                self.error("this may be a fraction, and the list holds whole numbers", node,
                           "declare it `type: list of fraction`, or round with `//`", category="type")
            else:
                self.error(f"cannot put {show(value.type)} in {show(list_of(item))}", node, category="type")
        return value

    def list_change(self, e: ast.Assign, scope: Scope) -> R.Effect | None:
        if e.op in ("append", "remove"):
            target = self.list_target(e.target, scope, f"`{e.op}`")
            item = elem(target.type) if target.type != ANY else ANY
            value = self.item_value(e.value, scope, item)
            if not isinstance(target, (R.VarRef, R.OwnedVar)):
                return None
            return R.Assign(e.span, target, e.op, value)
        assert isinstance(e.target, ast.TargetItem)
        if not isinstance(e.target.obj, (ast.TargetVar, ast.TargetAttr)):
            self.error("only an item of a list variable can be set (`xs[0] = 3`, `my seen[i] = true`)", e.target)
            return None
        target = self.list_target(e.target.obj, scope, "setting an item")
        index = self.expect(e.target.index, scope, INT, "a list index")
        item = elem(target.type) if target.type != ANY else ANY
        if e.op != "=" and item != ANY and not is_number(item):
            self.error(f"`{e.op}` needs a number, but this is {show(item)}", e.target, category="type")
        value = self.item_value(e.value, scope, item)
        if not isinstance(target, (R.VarRef, R.OwnedVar)):
            return None
        return R.Assign(e.span, target, e.op, value, index)
