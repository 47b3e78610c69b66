"""The combinations of `combos:` (interpreter/melds/combos.py): every one the deck allows numbered once,
those a hand makes found from its values, their cards, their text, and the bound on how many a deck makes."""
from __future__ import annotations

import random

import pytest

import koloda
from koloda.dsl.combokinds import ComboKind
from koloda.dsl.errors import RuleErrors
from koloda.interpreter.melds import combos
from koloda.interpreter.melds.combos import MOST_COMBOS, ComboTable, Hand, Kind, held_shapes, shapes

from helpers import cards


@pytest.fixture(scope="module")
def game():
    return koloda.load("doudizhu")


def test_every_shape_the_deck_allows_has_one_code(game):
    table = game.combos
    assert len(table.codes) == table.size == len(table.entries)
    assert [table.codes[entry] for entry in table.entries] == list(range(table.size))
    first, count = table.kind_span("solo")
    assert (first, count) == (0, 15)                  # thirteen ranks and two jokers
    assert table.kind_span("pair")[1] == 13 and table.kind_span("bomb")[1] == 13
    assert table.kind_span("rocket")[1] == 1
    assert table.kind_span("chain")[1] == sum(13 - n for n in range(5, 13))     # as OpenSpiel counts them: 36
    assert table.kind_span("trio_solo")[1] == 13 * 14 and table.kind_span("trio_pair")[1] == 13 * 12
    assert table.kind_span(None) == (0, table.size)


def test_the_codes_are_the_same_at_every_load(game):
    again = koloda.load("doudizhu")
    assert again.combos.entries == game.combos.entries
    assert again.num_distinct_actions == game.num_distinct_actions


def test_a_hand_makes_its_combinations_from_its_values_and_takes_the_first_cards(game):
    table = game.combos
    hand = cards(game, "3H 3S 3D 4C 9H".split())
    found = table.held(hand, "pair")
    assert [table.text(c) for c in found] == ["3 3"]
    assert [game.cards.names[c] for c in found[0].cards] == ["3H", "3S"]
    (trio,) = [c for c in table.held(hand, "trio_solo") if table.text(c) == "3 3 3 with 9"]
    assert (trio.kind, trio.low, trio.high, trio.length) == ("trio_solo", 3, 3, 1)
    assert dict(trio.counts) == {3: 3, 9: 1}
    assert table.held(hand, "pair") is found          # a hand asked again is remembered


def test_a_decoded_combination_takes_its_cards_where_it_is_played(game):
    table = game.combos
    code = int(table.held(cards(game, ["3S", "3C"]), "pair")[0])
    decoded = table.decode(code)
    assert int(decoded) == code and len(decoded.cards) == 2
    picked = table.pick(decoded, cards(game, ["9H", "3C", "3D"]))
    assert sorted(game.cards.names[c] for c in picked.cards) == ["3C", "3D"]


def test_wings_take_no_value_of_the_groups_and_share_a_value_only_as_allowed():
    kind = ComboKind("plane", same=3, run_min=2, run_max=2, low=3, high=14, wings=1, wing_most=2)
    have = {3: 3, 4: 4, 5: 3, 16: 1, 17: 1}
    found = set(shapes(Kind(kind), have))
    assert (3, 2, (5, 5)) in found and (4, 2, (3, 3)) in found
    assert (3, 2, (4, 4)) not in found                # a wing is never a card of the groups' values
    assert not any(w.count(5) > 2 for _, _, w in found)
    assert (3, 2, (16, 17)) in found                  # (the rule file forbids the rocket as wings itself)


def test_too_many_combinations_are_refused_where_the_kind_is_written(game, monkeypatch):
    assert game.combos.size <= MOST_COMBOS
    monkeypatch.setattr(combos, "MOST_COMBOS", 1000)        # Dou Dizhu's airplanes with wings pass it
    with pytest.raises(RuleErrors) as refused:
        ComboTable(game.spec.combo_kinds, game.cards)
    (error,) = refused.value.errors
    assert "more than 1,000 moves of this deck (at `airplane_solo`)" in error.message
    assert error.span.line == next(k.span.line for k in game.spec.combo_kinds if k.name == "airplane_solo")


def test_a_hand_finds_the_shapes_the_load_numbers(game):
    """A hand's shapes are found another way than the load's (lists and itertools, then put in code
    order): the same shapes, each once, for any cards."""
    rng, table = random.Random(5), game.combos
    kinds = table.kinds + [Kind(ComboKind("plane", same=3, run_min=2, run_max=3, low=3, high=14, wings=2,
                                          wing_most=4))]
    for _ in range(300):
        hand = Hand(rng.sample(range(len(table.card_values)), rng.randint(0, 20)), table)
        for kind in kinds:
            found = held_shapes(kind, hand)
            assert len(set(found)) == len(found) and sorted(found) == sorted(shapes(kind, hand.held()))


def test_a_card_named_twice_is_one_card_and_a_none_is_none(game):
    """A hand is counted by its cards: a card named twice counts once, a none not at all, and such a
    hand's cards are not taken as `pick` reads them (not plain)."""
    table = game.combos
    three = cards(game, "3H 3S")
    twice = Hand(three + [three[0], None], table)
    once = Hand(three, table)
    assert twice.counts == once.counts and twice.values == once.values == [3]
    assert twice.pool() == once.pool() == {3: three}
    assert once.plain and not twice.plain
    assert twice.at_least(2) == [3] and twice.held() == {3: 2}
    assert table.held_codes(three + [three[0], None], "pair") == table.held_codes(three, "pair")
