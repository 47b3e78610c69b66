"""Klondike (pagat.com's and Aisleriot's rules): one scenario per rule of koloda/rules/klondike.yaml,
and koloda's legal moves checked against an independent model (tests/solitaire_models.py) on seeded
random games."""
from __future__ import annotations

import functools

import pytest

import koloda

from helpers import act, get_var, is_legal, legal, setup, zone_cards
from solitaire_models import compare

ALL = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]


@functools.lru_cache(maxsize=None)
def klondike(**options):
    return koloda.load("klondike", options, 1)


def position(piles=(), waste="", homes=("", "", "", ""), stock=None, vars=None, **options):
    """Piles 1 to 7 (bottom first, `~` face down), the waste and the four foundations (clubs,
    diamonds, hearts, spades) as given, tops last; the stock (face down) is `stock`, or every card not
    listed. Cards listed nowhere when the stock is given lie at the bottom of the waste."""
    s = klondike(**options).new_initial_state(0)
    piles = list(piles) + [""] * (7 - len(piles))
    zones = {f"pile{k + 1}": piles[k] for k in range(7)}
    zones.update({"clubs_home": homes[0], "diamonds_home": homes[1], "hearts_home": homes[2],
                  "spades_home": homes[3]})
    listed = set(" ".join(list(zones.values()) + [waste, stock or ""]).replace("~", "").split())
    rest = [c for c in ALL if c not in listed]
    if stock is None:
        stock, rest = " ".join(rest), []
    zones["waste"] = " ".join(rest + waste.split())
    zones["stock"] = " ".join("~" + c for c in stock.split())
    return setup(s, zones=zones, vars={"pass": 1, "played": 0, **(vars or {})})


def moves(s, word):
    return sorted(m for m in legal(s, plain=True) if m.startswith(word))


def test_seven_piles_of_one_to_seven_the_top_card_face_up_and_24_in_the_stock():
    s = klondike().new_initial_state(5)
    g = s.game
    for k in range(1, 8):
        pile = s.zones[g.layout.zone_base[f"pile{k}"]]
        assert len(pile) == k
        assert [s.face[c] for c in pile] == [False] * (k - 1) + [True]
    assert len(zone_cards(s, "stock")) == 24 and zone_cards(s, "waste") == []
    assert s.current_player() == 0 and s.game.num_players == 1


def test_a_draw_turns_one_card_or_three_onto_the_waste():
    s = position(["KS"], stock="2C 3C 4C 5C")
    before = zone_cards(s, "waste")
    act(s, "draw")
    assert zone_cards(s, "waste") == before + ["5C"]
    s = position(["KS"], stock="2C 3C 4C 5C", draw=3)
    act(s, "draw")
    assert zone_cards(s, "waste")[-3:] == ["5C", "4C", "3C"]      # the third card turned lies on top
    act(s, "draw")
    assert zone_cards(s, "waste")[-4:] == ["5C", "4C", "3C", "2C"] and zone_cards(s, "stock") == []


def test_only_the_waste_top_is_played():
    s = position(["8S", "8H"], waste="7D 7C", stock="")
    assert moves(s, "waste") == ["waste to pile2"]            # 7♣ on 8♥, not 7♦ on 8♠


def test_foundations_are_built_up_in_suit_from_the_ace():
    s = position(["AH", "2H", "3S"], homes=("", "", "", ""))
    assert moves(s, "home") == ["home AH"]
    act(s, "home AH")
    assert moves(s, "home") == ["home 2H"]
    act(s, "home 2H")
    assert zone_cards(s, "hearts_home") == ["AH", "2H"] and moves(s, "home") == []
    s = position(["4C"], waste="2D", homes=("A 2 3".replace(" ", "C ") + "C", "AD", "", ""))
    assert moves(s, "home") == ["home 2D", "home 4C"]


def test_piles_are_built_down_in_alternating_colours():
    s = position(["9S", "9H", "10D"], waste="8D")
    assert moves(s, "waste") == ["waste to pile1"]             # not on the red nine
    assert "move 1 from pile1 to pile3" in moves(s, "move") and "move 1 from pile2 to pile3" not in moves(s, "move")


def test_a_space_takes_only_a_king_or_a_sequence_headed_by_one():
    s = position(["", "QH", "KC QD", "9S", "9C", "3S", "3C"], waste="KH")
    assert moves(s, "waste") == ["waste to pile1"]
    assert "move 2 from pile3 to pile1" not in moves(s, "move")      # the whole pile to a space: no gain
    s = position(["", "~5C KC QD", "9S", "9C", "3S", "3C", "4S"], waste="QS")
    assert "move 2 from pile2 to pile1" in moves(s, "move")
    assert "move 1 from pile2 to pile1" not in moves(s, "move")       # a queen does not go on a space


def test_a_sequence_moves_as_a_unit_and_the_card_uncovered_is_turned_up():
    s = position(["~4C ~7D 9S 8H 7C", "10H"])
    assert moves(s, "move") == ["move 3 from pile1 to pile2"]         # 9♠ 8♥ 7♣ on 10♥, together only
    act(s, "move 3 from pile1 to pile2")
    assert zone_cards(s, "pile2") == ["10H", "9S", "8H", "7C"]
    g = s.game
    pile1 = s.zones[g.layout.zone_base["pile1"]]
    assert [s.face[c] for c in pile1] == [False, True]               # 7♦ uncovered and turned up
    s = position(["~4C 9S 8H 8C", "10H"])
    assert not is_legal(s, "move 3 from pile1 to pile2")              # 8♣ on 8♥ is no sequence


def test_face_down_cards_do_not_move():
    s = position(["~9S 8H", "10H", "9C", "2C", "2S", "3C", "3S"])
    assert moves(s, "move") == ["move 1 from pile1 to pile3", "move 1 from pile3 to pile2"]   # not the 9♠ under 8♥


def test_redeal_turns_the_waste_over_while_passes_are_left():
    s = position(["KS"], waste="2C 3C 4C", stock="", vars={"played": 1})
    assert moves(s, "") == ["redeal"]
    act(s, "redeal")
    assert zone_cards(s, "stock")[:3] == ["4C", "3C", "2C"] and zone_cards(s, "waste") == []
    g = s.game
    assert not any(s.face[c] for c in s.zones[g.layout.zone_base["stock"]])
    assert get_var(s, "pass") == 2
    bottom = zone_cards(s, "stock")[-1]
    act(s, "draw")
    assert zone_cards(s, "waste") == [bottom]                       # the waste's bottom card comes first
    s = position(["KS"], waste="2C 3C 4C", stock="5D", vars={"played": 1}, passes=1)
    act(s, "draw")
    assert s.is_terminal()                                            # one pass: no redeal, no move
    s = position(["KS"], waste="2C 3C 4C", stock="", vars={"played": 1, "pass": 2}, passes=3)
    assert moves(s, "redeal") == ["redeal"]
    s = position(["KS"], waste="2C 3C 4C", stock="5D", vars={"played": 1, "pass": 3}, passes=3)
    act(s, "draw")
    assert s.is_terminal()


def test_a_pass_that_brought_no_play_is_not_repeated():
    s = position(["KS"], waste="2C 3C 4C", stock="5D", vars={"played": 0})
    act(s, "draw")
    assert s.is_terminal() and s.scores() == [0]
    s = position(["KS"], waste="2C 3C 4C", stock="5D", vars={"played": 1})
    act(s, "draw")
    assert legal(s, plain=True) == ["redeal"]


def test_a_card_may_come_back_from_a_foundation_by_the_table_rule():
    s = position(["8S"], homes=("", "", "AH 2H 3H 4H 5H 6H 7H", ""))
    assert moves(s, "back") == ["back from hearts_home to pile1"]
    act(s, "back from hearts_home to pile1")
    assert zone_cards(s, "pile1") == ["8S", "7H"]
    s = position(["8S"], homes=("", "", "AH 2H 3H 4H 5H 6H 7H", ""), from_home=False)
    assert moves(s, "back") == []


def test_the_score_is_the_cards_home_and_all_52_win():
    s = position(["KS"], homes=("AC 2C 3C", "AD", "", ""), waste="2S", stock="5D", vars={"played": 0})
    act(s, "draw")
    assert s.is_terminal() and s.scores() == [4] and s.returns() == [0.0]       # lost
    homes = [" ".join(r + u for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()) for u in "CDHS"]
    spades = homes[3].split()
    s = position([spades[-1]], homes=(homes[0], homes[1], homes[2], " ".join(spades[:-1])), stock="")
    act(s, "home KS")
    assert s.is_terminal() and s.scores() == [52] and s.returns() == [1.0]


def test_the_cap_ends_a_game_and_scores_it():
    g = klondike(cap=30)
    s = g.new_initial_state(1)
    moves_made = 0
    while not s.is_terminal():
        actions = s.legal_actions()
        s.apply_action(actions[moves_made % len(actions)])
        moves_made += 1
    assert moves_made <= 30 and s.scores()[0] >= 0


@pytest.mark.parametrize("options", [{}, {"draw": 3}, {"draw": 3, "passes": 3}, {"passes": 1, "from_home": False}])
def test_koloda_agrees_with_an_independent_move_generator(options):
    """Every position of 40 seeded random games (of at most 150 moves) per table: the same moves, and
    the cards lying alike after each (bench/solitaire_moves.py runs 1,000 and more)."""
    opts = {**options, "cap": 150}
    g = klondike(**opts)
    played = [compare(g, opts, seed) for seed in range(40)]
    assert sum(played) > 40 * 20
