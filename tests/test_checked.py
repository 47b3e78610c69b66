"""Checked generated code: a node's checked function is generated only when its fast function fails,
kept from then on, and raises the located error of the rules (koloda/interpreter/codegen/gen_checks.py)."""
from __future__ import annotations

import re

import pytest

import koloda
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.game import compile_expression
from koloda.interpreter.codegen.gen_checks import Checked

GAME = """\
game: checked
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  pile: {}
  hand: {each: player}
vars:
  n: {start: 0}
  m: {type: int}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      wait: {do: "n += 1"}
match: {ends: "true"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("checked") / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    return koloda.load(str(path))


def checked_of(f) -> list[Checked]:
    """The checked functions a generated function's module holds for its recovery."""
    return [v for v in f.__globals__.values() if isinstance(v, Checked)]


def test_the_checked_function_is_made_on_the_first_failure_and_kept(game):
    f, _ = compile_expression(game, "m > 5")
    s = game.new_initial_state(0)
    (recover,) = checked_of(f)
    assert recover.fn is None
    s.vars[game.layout.var_base["m"]] = 7
    assert f(s, {}) is True          # works on the fast path: nothing checked is made
    assert recover.fn is None
    s.vars[game.layout.var_base["m"]] = None
    with pytest.raises(RuleRuntimeError, match="`>` with none") as first:
        f(s, {})
    made = recover.fn
    assert made is not None and recover.make is None
    with pytest.raises(RuleRuntimeError, match="`>` with none") as second:
        f(s, {})
    assert recover.fn is made
    assert (first.value.span.line, first.value.span.col) == (second.value.span.line, second.value.span.col) == (1, 3)


@pytest.mark.parametrize("text,message", [
    ("m + 1", "`+` with none"),
    ("-m", "`-` of none"),
    ("[1, 2][5]", "index 5 is outside a list of 2"),
    ("7 // (n - n)", "division by zero"),
    ("1..5 by (n - n)", "a range goes up by a whole number above 0, not by 0"),
    ("max([value(c) for c in pile])", "`max` of nothing"),
    ("sum([m, 1])", "`sum` over a list that holds none"),
    ("abs(m)", "`abs` of no number"),
])
def test_the_checked_function_says_what_failed(game, text, message):
    f, _ = compile_expression(game, text)
    s = game.new_initial_state(0)
    with pytest.raises(RuleRuntimeError, match=re.escape(message)):
        f(s, {})


def test_a_condition_of_the_flow_fails_at_its_place(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("phases:", 'deal ends: "m > 2"\nphases:'), encoding="utf-8")
    with pytest.raises(koloda.RuleError, match="`>` with none") as info:
        koloda.load(str(path))          # the first deal at load asks it
    assert (info.value.span.line, info.value.span.col) == (12, 15)


LISTING = """\
game: listing
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
vars:
  m: {type: int}
  k: {start: 0}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      play: {with: "c in my hand", if: "GUARD", do: "k += 1"}
      wait: {do: "k += 1"}
match: {ends: "true"}
"""


@pytest.mark.parametrize("guard,message", [
    ("m > 2", "`>` with none"),                   # the part before the parameters fails again in the guard
    ("value(c) > m", "`>` with none"),
    ("[1, 2][m] == 1", "the `if:` of action `play` failed: '<=' not supported"),
])
def test_a_listing_that_fails_is_listed_again_checked(tmp_path, guard, message):
    path = tmp_path / "g.yaml"
    path.write_text(LISTING.replace("GUARD", guard), encoding="utf-8")
    game = koloda.load(str(path))
    s = game.new_initial_state(0)
    phase = game.flow.phases[0]
    (recover,) = phase.checked.values()
    with pytest.raises(RuleRuntimeError, match=re.escape(message)):
        s.legal_actions()
    assert recover.fn is not None


def test_a_listing_that_works_makes_nothing_checked(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(LISTING.replace("GUARD", "value(c) > k"), encoding="utf-8")
    game = koloda.load(str(path))
    s = game.new_initial_state(0)
    assert len(s.legal_actions()) == 4
    assert all(recover.fn is None for recover in game.flow.phases[0].checked.values())
