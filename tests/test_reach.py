"""The opening search (interpreter/melds/reach.py): a part of a hand lists the plays it would list on its
own, and the yes-or-no question `best_points…(…, need) >= need` gives the number's verdict."""
from __future__ import annotations

import random

import pytest

import koloda
from helpers import table_meld
from koloda.dsl import resolved as R
from koloda.dsl.nodes import same
from koloda.dsl.errors import Span
from koloda.interpreter.melds.meld_calls import asks_reach
from koloda.interpreter.melds.bitmask import mask_of


def _names(plays) -> set[tuple]:
    return {(p[0], p[1]) for p in plays}


@pytest.mark.parametrize("name", ["kunkin", "kunkin-big"])
def test_a_part_lists_the_plays_it_would_list_alone(name):
    reach = koloda.load(name).loaded.reach
    n = reach.rules.n
    rng = random.Random(3)
    for _ in range(150):
        whole = sorted(rng.sample(range(n), rng.randint(6, 16)))
        part = [c for c in whole if rng.random() < 0.75]
        within, mask = mask_of(whole), mask_of(part)
        fresh = type(reach)(reach.rules)            # its own caches: nothing listed before
        alone = _names(fresh.plays.of(mask))
        assert _names(reach.plays.of(mask, within)) == alone
        for room in (3, 5, len(part)):
            best = max((p[1] for p in fresh.plays.of(mask) if len(p[0]) <= room), default=0)
            assert type(reach)(reach.rules).plays.richest(mask, room, within) == best


def test_a_joker_takes_the_place_of_a_card_the_part_lost():
    """5♥ 6♥ 7♥ and a joker: without 6♥ the joker stands for it (5♥ 🃏 7♥, 18 points in Kun-kin)."""
    game = koloda.load("kunkin")
    reach = game.loaded.reach
    ids = {name: game.cards.parse(name)[0] for name in ("5H", "6H", "7H", "JK", "KS")}
    whole = mask_of(ids.values())
    part = whole & ~(1 << ids["6H"])
    assert max(p[1] for p in reach.plays.of(whole)) == 5 + 6 + 7 + 8      # 5♥ 6♥ 7♥ 🃏 (the joker as 8♥)
    assert 18 in {p[1] for p in reach.plays.of(part, whole)}
    assert reach.plays.richest(part, 3, whole) == 18


def test_yes_or_no_gives_the_verdict_of_the_number():
    game = koloda.load("kunkin")
    reach = game.loaded.reach
    rng = random.Random(11)
    n = reach.rules.n
    asked = reached = 0
    for _ in range(120):
        hand = sorted(rng.sample(range(n), rng.randint(4, 13)))
        for keep in (0, 1):
            for need in (-5, 0, 10, 25, 40, 60):
                number = type(reach)(reach.rules).best_points(hand, keep, need)
                assert reach.reaches(hand, keep, need) == (number >= need)
                asked += 1
                reached += number >= need and need > 0
    assert 0 < reached < asked


def test_only_the_same_need_on_both_sides_is_a_yes_or_no_question():
    def at(col: int) -> Span:
        return Span("rules.yaml", 3, col)

    def need(points: int, col: int):
        return R.Arith(at(col), "int", "-", R.Const(at(col), "int", 40), R.Const(at(col + 5), "int", points))
    cards = R.Local(at(1), "list", "left")
    call = R.BuiltinCall(at(1), "int", "best_points", (cards, R.Const(at(9), "int", 0), need(5, 12)))
    assert asks_reach(R.Compare(at(1), "bool", ">=", call, need(5, 30)))       # written elsewhere: the same
    assert not asks_reach(R.Compare(at(1), "bool", ">=", call, need(6, 30)))
    assert not asks_reach(R.Compare(at(1), "bool", ">", call, need(5, 30)))
    two = R.BuiltinCall(at(1), "int", "best_points", (cards, R.Const(at(9), "int", 0)))
    assert not asks_reach(R.Compare(at(1), "bool", ">=", two, R.Const(at(20), "int", 0)))
    assert same(need(5, 1), need(5, 40)) and not same(need(5, 1), cards)


def test_what_a_listing_kept_of_the_table_is_not_used_after_it():
    """Layoffs asked after a listing (as an effect would) see the melds put down since."""
    game = koloda.load("kunkin")
    s = game.new_initial_state(seed=2)
    s.legal_actions()
    assert s.listing <= 0          # no stamp of a listing is left on the state
    slot = table_meld(s, "5H 6H 7H", 1)
    eight = game.cards.parse("8H")[0]
    assert [p.target for p in game.melds.layoffs(s, [eight])] == [slot]


def test_the_table_is_kept_on_the_state_until_a_meld_changes():
    """The melds on the table are worked out once and kept while no meld changes: a play by the rules
    (a new meld, a layoff) makes them anew, and a clone keeps what the table was when it was made."""
    game = koloda.load("kunkin")
    s = game.new_initial_state(seed=2)
    melds = game.melds
    slot = table_meld(s, "5H 6H 7H", 1)
    first = melds.on_table(s)
    assert [(k, laid[1]) for k, laid, _ in first] == [(slot, (5, 6, 7))]
    s.legal_actions()
    assert melds.on_table(s) is first              # nothing changed: the same list
    before = s.clone()
    eight = game.cards.parse("8H")[0]
    (plan,) = melds.layoffs(s, [eight])
    s.meld(plan, 1)                                # as an effect does it: no forget()
    assert [laid[1] for _, laid, _ in melds.on_table(s)] == [(5, 6, 7, 8)]
    assert [laid[1] for _, laid, _ in melds.on_table(before)] == [(5, 6, 7)]
    nine = game.cards.parse("9H")[0]
    assert [p.cards for p in melds.layoffs(before, [eight, nine])] == [(eight,)]
    assert {p.cards for p in melds.layoffs(s, [eight, nine])} == {(nine,)}
