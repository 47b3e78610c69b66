"""A deck's number of copies or jokers written as an expression over the table: `2 if player_count > 5
else 1`. It is worked out once per table, before any card exists, so it may read only numbers,
`player_count` and options; this module checks that and works it out."""
from __future__ import annotations

import operator

from typing import Any

from koloda.dsl import ast
from koloda.dsl.errors import RuleError

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
_READS = "numbers, `player_count`, `option.NAME`, arithmetic, comparisons, `and`/`or`/`not` and `A if C else B`"


def problems(node: ast.Node, options: dict, what: str) -> list[RuleError]:
    """What in a deck's expression cannot be worked out before the cards exist."""
    found: list[RuleError] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name) and n.obj.name == "option":
            if n.name not in options:
                found.append(RuleError(f"unknown option `{n.name}`", n.span, category="name"))
            continue
        if isinstance(n, ast.Arith) and n.op == "/":
            found.append(RuleError(f"{what} is a whole number, and `/` may give a fraction", n.span,
                                   "divide with `//`, which rounds down", category="type"))
        if isinstance(n, (ast.Arith, ast.Compare, ast.And, ast.Or)):
            stack += [n.left, n.right]
        elif isinstance(n, (ast.Not, ast.Neg)):
            stack.append(n.operand)
        elif isinstance(n, ast.IfElse):
            stack += [n.then, n.cond, n.orelse]
        elif not isinstance(n, ast.Number) and not (isinstance(n, ast.Name) and n.name == "player_count"):
            found.append(RuleError(f"{what} is worked out before the cards exist: it may read only {_READS}",
                                   n.span, category="type"))
    return found


def work_out(node: ast.Node, options: dict, players: int) -> object:
    """The expression's value at a table with these options and players."""
    def value(n: ast.Node) -> Any:
        if isinstance(n, ast.Number):
            return n.value
        if isinstance(n, ast.Name):
            return players
        if isinstance(n, ast.Attr):
            return options.get(n.name)
        if isinstance(n, ast.Arith):
            right = value(n.right)
            if n.op in ("//", "%") and right == 0:
                raise RuleError("a deck's count divides by zero", n.span, category="runtime")
            return _ARITH[n.op](value(n.left), right)
        if isinstance(n, ast.Compare):
            return _COMPARE[n.op](value(n.left), value(n.right))
        if isinstance(n, ast.And):
            return bool(value(n.left)) and bool(value(n.right))
        if isinstance(n, ast.Or):
            return bool(value(n.left)) or bool(value(n.right))
        if isinstance(n, ast.Not):
            return not value(n.operand)
        if isinstance(n, ast.Neg):
            return -value(n.operand)
        assert isinstance(n, ast.IfElse), "problems() lets only these through"
        return value(n.then) if value(n.cond) else value(n.orelse)
    return value(node)
