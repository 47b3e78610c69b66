"""FreeCell (Paul Alfille's rules, as pagat.com and Freecell Solver give them): one scenario per rule
of koloda/rules/freecell.yaml, and koloda's legal moves checked against an independent model
(tests/solitaire_models.py) on seeded random games."""
from __future__ import annotations

import functools

import pytest

import koloda

from helpers import act, is_legal, legal, setup, zone_cards
from solitaire_models import compare

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
ALL = [r + s for s in "CDHS" for r in RANKS]


@functools.lru_cache(maxsize=None)
def freecell(**options):
    return koloda.load("freecell", options, 1)


def position(cascades=(), free=("", "", "", ""), homes=(None, None, None, None), **options):
    """Cascades 1 to 8 (bottom first) and the free cells as given; every card not listed lies in the
    foundations, each suit from the ace up as far as it goes unbroken, the rest at the bottom of
    cascade 8, unless `homes` gives a foundation (clubs, diamonds, hearts, spades; "" for an empty one)."""
    s = freecell(**options).new_initial_state(0)
    cascades = list(cascades) + [""] * (8 - len(cascades))
    zones = {f"col{k + 1}": cascades[k] for k in range(8)}
    zones.update({f"cell{k + 1}": free[k] for k in range(4)})
    listed = set(" ".join(list(zones.values()) + [h for h in homes if h]).split())
    homes = list(homes)
    for k, suit in enumerate("CDHS"):
        if homes[k] is None:
            run = []
            for r in RANKS:
                if r + suit in listed:
                    break
                run.append(r + suit)
            homes[k] = " ".join(run)
    listed |= set(" ".join(homes).split())
    rest = [c for c in ALL if c not in listed]
    zones["col8"] = " ".join(rest + zones["col8"].split())
    zones.update({"clubs_home": homes[0], "diamonds_home": homes[1], "hearts_home": homes[2],
                  "spades_home": homes[3]})
    return setup(s, zones=zones)


def moves(s, word):
    return sorted(m for m in legal(s, plain=True) if m.startswith(word))


def test_all_52_face_up_in_eight_cascades_of_seven_and_six():
    s = freecell().new_initial_state(2)
    g = s.game
    sizes = [len(s.zones[g.layout.zone_base[f"col{k}"]]) for k in range(1, 9)]
    assert sizes == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(s.face[c] for c in range(52))
    assert all(zone_cards(s, f"cell{k}") == [] for k in range(1, 5))


def test_foundations_are_built_up_in_suit_from_the_ace():
    s = position(["AH 2S", "3S", "2H"], homes=("AC", "", "", "AS"))
    assert moves(s, "home") == ["home 2S"]
    act(s, "home 2S")
    assert moves(s, "home") == ["home 3S", "home AH"]


def test_a_cascade_top_goes_to_the_first_empty_free_cell_and_back():
    s = position(["9C 5D", "6S", "6H", "2C", "2S", "3C", "3S", "4C"], free=("KD", "", "", ""))
    assert "col1 to a cell" in moves(s, "col")
    act(s, "col1 to a cell")
    assert zone_cards(s, "cell2") == ["5D"] and zone_cards(s, "col1") == ["9C"]
    assert moves(s, "cell") == ["cell2 to col2"]            # 5♦ on 6♠; K♦ has no space to go to
    s = position(["9C 5D", "6S", "6H"], free=("KD", "QS", "JD", "10C"))
    assert moves(s, "col") == []                                # every cell holds a card


def test_the_cascades_are_built_down_in_alternating_colours_and_a_space_takes_any_card():
    s = position(["9C 5D", "6S", "6H", ""])
    cascades_moves = moves(s, "move")
    assert "move 1 from col1 to col2" in cascades_moves and "move 1 from col1 to col3" not in cascades_moves
    assert "move 1 from col1 to col4" in cascades_moves         # a space takes the five
    s = position(["9C 5D", "6S", "6H", ""], free=("QH", "", "", ""))
    assert "cell1 to col4" in moves(s, "cell") and "cell1 to col2" not in moves(s, "cell")


def test_a_sequence_moves_as_far_as_the_free_cells_and_spaces_allow():
    seq = "KC 9S 8H 7C 6D 5S"             # five cards in sequence on a king
    # four free cells and no space: (4 + 1) * 1 = 5
    s = position([seq, "10D", "3C", "3S", "4C", "4S", "9H", "9D"])
    assert "move 5 from col1 to col2" in moves(s, "move")
    act(s, "move 5 from col1 to col2")
    assert zone_cards(s, "col2") == "10D 9S 8H 7C 6D 5S".split()
    # one free cell and no space: 2 cards at most
    s = position([seq, "10D", "3C", "3S", "4C", "4S", "9H", "9D"], free=("QH", "QD", "JC", ""))
    m = moves(s, "move")
    assert "move 2 from col1 to col2" not in m and "move 5 from col1 to col2" not in m
    s = position([seq, "6C", "3C", "3S", "4C", "4S", "9H", "9D"], free=("QH", "QD", "JC", ""))
    assert "move 2 from col1 to col2" not in moves(s, "move")   # 6♣ takes 5♠ only
    s = position([seq, "7S", "3C", "3S", "4C", "4S", "9H", "9D"], free=("QH", "QD", "JC", ""))
    assert "move 2 from col1 to col2" in moves(s, "move")        # 6♦ 5♠ on 7♠: two, with one cell
    assert not is_legal(s, "move 3 from col1 to col2")
    # one free cell and one space: (1 + 1) * 2 = 4 onto a card, 2 onto the space itself
    s = position([seq, "10D", "", "3S", "4C", "4S", "9H", "9D"], free=("QH", "QD", "JC", ""))
    m = moves(s, "move")
    assert "move 4 from col1 to col2" not in m                   # 9♠ heads five cards, not four
    s = position([seq, "9C", "", "3S", "4C", "4S", "9H", "JD"], free=("QH", "QD", "JC", ""))
    m = moves(s, "move")
    assert "move 4 from col1 to col2" in m and "move 5 from col1 to col2" not in m
    assert "move 2 from col1 to col3" in m and "move 3 from col1 to col3" not in m


def test_fewer_free_cells_by_the_table_rule():
    s = position(["9C 5D", "6S", "6H"], cells=1)
    act(s, "col1 to a cell")
    assert zone_cards(s, "cell1") == ["5D"]
    assert not any(m.endswith("to a cell") for m in legal(s, plain=True))    # one cell, now full
    seq = "KC 9S 8H 7C 6D 5S"
    s = position([seq, "7S", "3C", "3S", "4C", "4S", "9H", "9D"], cells=2)
    assert "move 2 from col1 to col2" in moves(s, "move")                   # (2 + 1) * 1 = 3 at most
    s = position([seq, "10D", "3C", "3S", "4C", "4S", "9H", "9D"], cells=2)
    assert "move 5 from col1 to col2" not in moves(s, "move")


def test_the_score_is_the_cards_home_and_all_52_win():
    homes = [" ".join(r + u for r in RANKS) for u in "CDHS"]
    s = position(["KS"], homes=(homes[0], homes[1], homes[2], " ".join(homes[3].split()[:-1])))
    act(s, "home KS")
    assert s.is_terminal() and s.scores() == [52] and s.returns() == [1.0]


def test_the_game_ends_when_no_move_is_left():
    # black tops, red cards in the cells that go on none of them, no ace on top, no space
    s = position(["3C 5D", "KS", "KC", "10S", "10C", "7S", "7C", "2S"], free=("JD", "JH", "8D", ""),
                 homes=("", "", "", ""))
    assert sorted(legal(s, plain=True)) == [f"col{k} to a cell" for k in range(1, 9)]
    act(s, "col1 to a cell")
    assert s.is_terminal() and s.scores() == [0] and s.returns() == [0.0]       # lost


@pytest.mark.parametrize("options", [{}, {"cells": 2}, {"cells": 1}])
def test_koloda_agrees_with_an_independent_move_generator(options):
    """Every position of 40 seeded random games (of at most 150 moves) per table: the same moves, and
    the cards lying alike after each (bench/solitaire_moves.py runs 1,000 and more)."""
    opts = {**options, "cap": 150}
    g = freecell(**opts)
    played = [compare(g, opts, seed) for seed in range(40)]
    assert sum(played) > 40 * 5
