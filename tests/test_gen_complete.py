"""The generator is complete for the built-in names: every attribute of every kind and every name of the
state of play is written as generated text (issue 33).

The compliance cases (tests/test_compliance.py) run every built-in function through generated code; here
each attribute and state name is generated on a shipped game that has what it reads (melds on the table,
a grid), and the fast function's value is its checked function's (gen_checks.py).
"""
from __future__ import annotations

import pytest

import koloda
from koloda.dsl import builtins as signatures
from koloda.dsl import resolved as R
from koloda.dsl.errors import NOWHERE
from koloda.dsl.types import CARD, COMBO, GRID, PLAN, PLAYER, SIDE, ZONE, list_of
from koloda.interpreter.codegen.gen_checks import Checked
from koloda.interpreter.codegen.generate import checked_function, expressions

_ATTRIBUTES = [(R.CardAttr, CARD, signatures.CARD_ATTRS), (R.ZoneAttr, ZONE, signatures.ZONE_ATTRS),
               (R.GridAttr, GRID, signatures.GRID_ATTRS), (R.PlanAttr, PLAN, signatures.PLAN_ATTRS),
               (R.ComboAttr, COMBO, signatures.COMBO_ATTRS),
               (R.PlayerAttr, PLAYER, signatures.PLAYER_ATTRS), (R.SideAttr, SIDE, signatures.SIDE_ATTRS),
               (R.ListAttr, list_of(CARD), signatures.LIST_ATTRS)]


def generated(game, node):
    """The fast function of an expression, reading its local names from the bindings."""
    return expressions(game.loaded, game.watch, [node], "test")[0]


def checked(game, node):
    """The same expression's checked function."""
    names = sorted(game.loaded.free_locals(node))
    return checked_function(game.loaded, game.watch, lambda gen: gen.asked(node, names))


def recovered(run) -> bool:
    """Whether the fast function failed and asked its checked function."""
    return any(isinstance(v, Checked) and v.fn is not None for v in run.__globals__.values())


# games with melds on the table, a grid, a deck per player (`c.deck`), none of those, and combinations
_GAMES = ["canasta", "leopard", "pony", "doudizhu"]


@pytest.mark.parametrize("game_name", _GAMES)
@pytest.mark.parametrize("cls, owner, table", _ATTRIBUTES, ids=[a[0].__name__ for a in _ATTRIBUTES])
def test_every_attribute_is_generated(game_name, cls, owner, table):
    game = koloda.load(game_name)
    for name, result in table.items():
        node = cls(NOWHERE, result, R.Local(NOWHERE, owner, "x"), name)
        generated(game, node)
        checked(game, node)


@pytest.mark.parametrize("game_name", _GAMES)
def test_every_name_of_the_state_of_play_is_generated_with_its_checked_value(game_name):
    game = koloda.load(game_name)
    s = game.new_initial_state()
    for name, result in signatures.STATE_NAMES.items():
        node = R.StateValue(NOWHERE, result, name)
        run = generated(game, node)
        assert run(s, {}) == checked(game, node)(s, {}), name
        assert not recovered(run), name


def test_a_zone_on_the_table_is_its_makers():
    """`z.owner` and `z.side` of a meld on the table: whoever made it, in fast and checked code alike."""
    game = koloda.load("canasta")
    s = game.new_initial_state()
    layout = game.loaded.layout
    zone = next(iter(layout.zone_slot))          # the first meld slot's zone, a meld made there by P2
    s.slot_kind[layout.zone_slot[zone]] = 0
    s.slot_owner[layout.zone_slot[zone]] = 1
    for name, result in (("owner", PLAYER), ("side", SIDE)):
        node = R.ZoneAttr(NOWHERE, result, R.Local(NOWHERE, ZONE, "z"), name)
        expected = checked(game, node)(s, {"z": zone})
        assert generated(game, node)(s, {"z": zone}) == expected, name
    assert expected == 1 % layout.num_sides        # (the side of P2)


@pytest.mark.parametrize("first, second, expected", [(None, [3, 4], [3, 4]), ([1], [3, 4], [1]), ([], None, [])])
def test_the_first_list_that_is_not_none_is_gone_through_in_generated_code(first, second, expected):
    # `[x for x in (a or b)]`: Python has no `:=` in a comprehension's list, where the generator keeps `a`
    ints = list_of("int")
    either = R.Or(NOWHERE, ints, R.Local(NOWHERE, ints, "a"), R.Local(NOWHERE, ints, "b"))
    node = R.ListComp(NOWHERE, ints, R.Local(NOWHERE, "int", "x"), "x", either, None)
    game = koloda.load("pony")
    run = generated(game, node)
    assert run(game.new_initial_state(), {"a": first, "b": second}) == expected
    assert not recovered(run)


def test_an_expression_nested_deeper_than_python_allows_is_generated_in_parts():
    # `x + -(x + -(x + …))` 100 deep, inside a comprehension over `x`: Python's parser takes brackets 200 deep
    x = R.Local(NOWHERE, "int", "x")
    deep: R.Expr = x
    for _ in range(100):
        deep = R.Arith(NOWHERE, "int", "+", x, R.Neg(NOWHERE, "int", deep))
    node = R.ListComp(NOWHERE, list_of("int"), deep, "x", R.Local(NOWHERE, list_of("int"), "xs"), None)
    game = koloda.load("pony")
    run = generated(game, node)
    s = game.new_initial_state()
    assert run(s, {"xs": [1, 2, 5]}) == checked(game, node)(s, {"xs": [1, 2, 5]}) == [1, 2, 5]
    assert not recovered(run)
