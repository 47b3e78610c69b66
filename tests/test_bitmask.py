"""Card sets as bit masks: ids to a mask and back, and sums over a mask's ids, for decks of any size."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from koloda.interpreter.melds.bitmask import ByteSums, bits, mask_of

ids = st.lists(st.integers(min_value=0, max_value=700), max_size=40)


@settings(max_examples=300, deadline=None)
@given(ids)
def test_the_ids_of_a_mask_are_the_ids_it_was_made_of_each_once_lowest_first(cards):
    once = sorted(set(cards))
    mask = mask_of(once)
    assert mask == sum(1 << c for c in once)
    assert bits(mask) == once


def test_a_mask_is_made_of_any_iterable_of_ids_and_of_none():
    assert mask_of(c for c in (3, 9, 200)) == (1 << 3) | (1 << 9) | (1 << 200)
    assert mask_of((5, 1)) == 0b100010 and mask_of(set()) == 0 and bits(0) == []


def test_ids_past_the_tables_made_so_far_grow_them():
    big = 5000          # past every table: bits and mask_of make more on the way
    assert bits(1 << big | 1) == [0, big]
    assert mask_of([big, 2]) == 1 << big | 4


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=1 << 40), min_size=1, max_size=120), st.data())
def test_a_byte_sum_is_the_sum_of_the_weights_of_the_ids_in_the_mask(weights, data):
    chosen = data.draw(st.lists(st.integers(min_value=0, max_value=len(weights) - 1), unique=True))
    sums = ByteSums(weights)
    assert sums.of(mask_of(chosen)) == sum(weights[c] for c in chosen)
    assert sums.of(0) == 0


def test_ids_past_the_weights_count_nothing():
    sums = ByteSums([1, 10, 100])
    assert sums.of(0b111) == 111 and sums.of(0b1111) == 111 and sums.of(1 << 30 | 0b10) == 10
