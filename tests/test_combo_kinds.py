"""A listing over `combos(...)` makes only the kinds of combination its `if:` lets through
(koloda/interpreter/codegen/gen_kinds.py), and lists the same moves as the checked listing, which makes
every kind and asks the guard of each."""
from __future__ import annotations

import random

import pytest

import koloda
from koloda.interpreter.core.flow import MAX_WORK

GAME = """\
game: kinds
players: 2
deck: standard52
values: {2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 11, Q: 12, K: 13, A: 14}
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
  pile: {}
combos:
  solo: {}
  pair: {same: 2}
  trio: {same: 3}
  chain: {run: 3..5}
vars:
  last: {type: [solo, pair, trio, chain], start: none}
deal: [gather into stock, shuffle stock, deal 10 to each hand]
phases:
  main:
    actions:
      follow:
        with: m in combos(my hand)
        if: last == none or m.kind == last or (m.kind == trio and m.low > 9)
        do: [move m.cards to pile, last = m.kind]
      named:
        with: m in combos(my hand)
        if: (m.kind == pair and m.low > 5) or m.kind in ["chain", "solo"]
        do: move m.cards to pile
      unread:
        with: m in combos(my hand)
        if: m.kind != solo
        do: move m.cards to pile
      branch:
        with: m in combos(my hand)
        if: m.kind == pair or m.length > 3
        do: move m.cards to pile
match: {ends: "true"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("kinds") / "kinds.yaml"
    path.write_text(GAME, encoding="utf-8")
    return koloda.load(str(path))


def asked(game, state) -> list:
    """The kinds each `combos(...)` of one listing was asked for, in the order of the actions."""
    table, seen = game.combos, []
    held = table.held_codes          # (a guard that reads only a combination's attributes lists codes)

    def record(cards, kind=None, kinds=None):
        seen.append(None if kinds is None else sorted(str(k) for k in kinds))
        return held(cards, kind, kinds)

    table.held_codes = record
    try:
        listed(game, state, fast=True)
    finally:
        del table.held_codes
    return seen


def test_only_the_kinds_the_guard_names_are_made(game):
    s = game.new_initial_state(seed=1)
    lead = asked(game, s)
    # `last == none` holds: any kind may follow; the other guards name their kinds or cannot be read
    assert lead == [None, ["chain", "pair", "solo"], None, None]
    s.vars[game.layout.var_base["last"]] = "pair"
    assert asked(game, s)[0] == ["pair", "trio"]


def test_the_listing_is_the_checked_listing_of_every_kind(game):
    s = game.new_initial_state(seed=2)
    for last in (None, "solo", "pair", "trio", "chain"):
        s.vars[game.layout.var_base["last"]] = last
        assert listed(game, s, fast=True) == listed(game, s, fast=False)


def listed(game, s, fast: bool) -> list[int]:
    phase = game.flow.phases[s.phase]
    listing = (phase.listings if fast else phase.checked)[s.step]
    found: list[int] = []
    s.work = MAX_WORK
    listing(s, found, float("inf"))
    return sorted(found)


@pytest.mark.parametrize("openspiel", [False, True])
def test_dou_dizhu_lists_what_its_checked_listing_lists(openspiel):
    game = koloda.load("doudizhu", options={"openspiel": openspiel})
    for seed in range(15):
        rng, s = random.Random(seed), game.new_initial_state(seed=seed)
        while not s.is_terminal():
            assert listed(game, s, fast=True) == listed(game, s, fast=False)
            s.apply_action(rng.choice(s.legal_actions()))
