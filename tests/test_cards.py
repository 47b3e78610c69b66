"""koloda.interpreter.base.cards: decks, copies, jokers, names, values, rank order."""
from __future__ import annotations

import pytest

from koloda.interpreter.base.cards import build_deck, normalize_card_name, rank_name


@pytest.mark.parametrize("base,size,low", [("standard52", 52, 2), ("russian36", 36, 6), ("piquet32", 32, 7)])
def test_deck_sizes(base, size, low):
    t = build_deck(base, 1, 0, {})
    assert t.size == size
    assert t.deck_ranks == tuple(range(low, 15))
    assert len(set(t.names)) == size, "every card of one copy has its own name"
    assert sorted(set(t.suits)) == [0, 1, 2, 3]
    for suit in range(4):
        assert sum(1 for s in t.suits if s == suit) == size // 4


def test_copies():
    t = build_deck("piquet32", 2, 0, {})
    assert t.size == 64
    assert len(t.parse("QS")) == 2
    a, b = t.parse("QS")
    assert a != b and t.ranks[a] == t.ranks[b] == 12 and t.suits[a] == t.suits[b] == 3


def test_jokers():
    t = build_deck("standard52", 1, 2, {"JK": 50})
    assert t.size == 54
    jokers = t.parse("JK")
    assert len(jokers) == 2
    for j in jokers:
        assert t.ranks[j] == 0 and t.suits[j] is None and t.colors[j] is None
        assert t.values[j] == 50 and t.labels[j] == "🃏"
    assert t.parse("joker") == jokers and t.parse("🃏") == jokers


def test_joker_default_value_is_zero():
    t = build_deck("standard52", 1, 1, {})
    assert t.values[t.parse("JK")[0]] == 0


@pytest.mark.parametrize("text,name", [
    ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("10h", "10H"), ("Q♠", "QS"), ("q♠", "QS"), ("A♥", "AH"),
    ("K♦", "KD"), ("2♣", "2C"), (" QS ", "QS"), ("jk", "JK"), ("Joker", "JK"),
])
def test_name_parsing(text, name):
    assert normalize_card_name(text) == name
    t = build_deck("standard52", 1, 1, {})
    ids = t.parse(text)
    assert len(ids) == 1 and t.names[ids[0]] == name


def test_unknown_names():
    t = build_deck("piquet32", 1, 0, {})
    assert t.parse("2C") == [], "a piquet deck has no twos"
    assert t.parse("XS") == [] and t.parse("") == [] and t.parse("11H") == []


def test_names_and_labels():
    t = build_deck("standard52", 1, 0, {})
    ten = t.parse("10H")[0]
    assert t.names[ten] == "10H" and t.labels[ten] == "10♥"
    queen = t.parse("QS")[0]
    assert t.labels[queen] == "Q♠"
    assert [rank_name(r) for r in (2, 10, 11, 12, 13, 14, 0)] == ["2", "10", "J", "Q", "K", "A", "JK"]


def test_colors():
    t = build_deck("standard52", 1, 0, {})
    red, black = 0, 1
    for name, color in (("AH", red), ("AD", red), ("AS", black), ("AC", black)):
        assert t.colors[t.parse(name)[0]] == color


def test_default_values():
    t = build_deck("standard52", 1, 0, {})
    v = {n: t.values[t.parse(n)[0]] for n in ("2S", "9S", "10S", "JS", "QS", "KS")}
    assert v == {"2S": 2, "9S": 9, "10S": 10, "JS": 10, "QS": 10, "KS": 10}


def test_values_table_overrides():
    t = build_deck("piquet32", 1, 0, {"A": 11, "K": 4, "Q": 3, "J": 2, "7": 0})
    v = {n: t.values[t.parse(n)[0]] for n in ("AH", "KH", "QH", "JH", "10H", "7H")}
    assert v == {"AH": 11, "KH": 4, "QH": 3, "JH": 2, "10H": 10, "7H": 0}


def test_ace_high_order():
    t = build_deck("standard52", 1, 0, {})
    assert t.order[14] > t.order[13] > t.order[12] > t.order[11] > t.order[10] > t.order[2]


def test_ace_low_order():
    t = build_deck("standard52", 1, 0, {}, ace="low")
    assert t.order[14] < t.order[2] < t.order[13]
    ranks_by_strength = sorted(range(2, 15), key=lambda r: t.order[r])
    assert ranks_by_strength[0] == 14 and ranks_by_strength[-1] == 13


def test_ids_are_dense_and_ordered_by_suit_then_rank():
    t = build_deck("piquet32", 1, 0, {})
    assert t.names[:8] == ("7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC")
    assert t.names[8] == "7D"
