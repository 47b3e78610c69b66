"""Questions about resolved nodes that read the tree as a whole: every node under a part of the rules,
and whether two nodes say the same thing."""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from koloda.dsl import resolved as R


def nodes_in(value: Any) -> Iterator[R.Node]:
    """Every resolved node in a value of the rules, in order: nodes, and the tuples, lists, dicts and
    records (dataclasses) holding them."""
    if isinstance(value, R.Node):
        yield from R.walk(value)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from nodes_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from nodes_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from nodes_in(getattr(value, f.name))


def same(a: R.Node, b: R.Node) -> bool:
    """Whether two nodes say the same thing, wherever they are written: the same classes and values
    all the way down (their places in the file aside). Expressions have no side effects, so two
    such in one scope have the same value."""
    if type(a) is not type(b):
        return False
    for name in R.fields_of(type(a)):
        if name == "span":
            continue
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, R.Node):
            if not isinstance(y, R.Node) or not same(x, y):
                return False
        elif isinstance(x, tuple) and isinstance(y, tuple):
            if len(x) != len(y) or not all(same(p, q) if isinstance(p, R.Node) and isinstance(q, R.Node) else p == q
                                           for p, q in zip(x, y)):
                return False
        elif x != y:
            return False
    return True
