"""examples/klondike-by-card.yaml: Klondike written with a row of zones (`pile: {count: 7}`), cards
that know where they lie (`c.zone`, `c.depth`) and `no_moves()`. It must play as the shipped
klondike.yaml does: on seeded games, every position offers moves that lead to the same positions in
both files, and each game ends where the other does. Scenarios show what the new writing changes: a
sequence chosen by the card that heads it, and the row's zones named `pile 1` … `pile 7`."""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

import koloda

from helpers import act, is_legal, legal, setup, zone_cards
from koloda.cli.main import main

FILE = Path(__file__).parent.parent / "examples" / "klondike-by-card.yaml"
ALL = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]


@functools.lru_cache(maxsize=None)
def by_card(**options):
    return koloda.load(str(FILE), options, 1)


@functools.lru_cache(maxsize=None)
def shipped(**options):
    return koloda.load("klondike", options, 1)


def position(piles=(), waste="", stock=None, rest="stock", **options):
    """Piles 1 to 7 bottom first (`~` face down); the rest of the pack in the stock, face down (or in
    `rest` when the stock is given)."""
    s = by_card(**options).new_initial_state(0)
    piles = list(piles) + [""] * (7 - len(piles))
    zones = {f"pile {k + 1}": piles[k] for k in range(7)}
    listed = set(" ".join(list(zones.values()) + [waste]).replace("~", "").split())
    zones["waste"] = waste
    zones["stock"] = " ".join("~" + c for c in ALL if c not in listed) if stock is None else stock
    return setup(s, zones=zones, vars={"pass": 1, "played": 0}, rest=rest)


def moves(s, word):
    return sorted(m for m in legal(s, plain=True) if m.startswith(word))


def test_the_row_is_seven_zones_named_by_the_row_and_their_number():
    g = by_card()
    names = [z.name for z in g.layout.zones]
    assert names[-7:] == [f"pile {k}" for k in range(1, 8)]
    assert [g.zone_label(g.layout.zone_base[f"pile {k}"]) for k in (1, 7)] == ["pile 1", "pile 7"]
    assert g.spec.zones["pile 3"].label.text("ru") == "стопка 3"
    s = g.new_initial_state(5)
    assert [len(zone_cards(s, f"pile {k}")) for k in range(1, 8)] == [1, 2, 3, 4, 5, 6, 7]


def test_a_sequence_is_moved_by_the_card_that_heads_it():
    s = position(["~3C 9S 8H 7C", "10H", "", "KD"])
    # 9♠ heads 9♠ 8♥ 7♣, which goes onto 10♥; 8♥ heads 8♥ 7♣, which has nowhere to go (nor K♦, a
    # whole pile, to the space)
    assert moves(s, "move") == ["move 9S to pile 2"]
    act(s, "move 9S to pile 2")
    assert zone_cards(s, "pile 2") == ["10H", "9S", "8H", "7C"]
    assert zone_cards(s, "pile 1") == ["3C"]          # uncovered, and turned up by the event


def test_a_card_under_a_card_that_does_not_build_on_it_heads_no_sequence():
    s = position(["9S 7H 6C", "10H", "8S"])
    assert not is_legal(s, "move 9S to pile 2")       # 7♥ does not build on 9♠
    assert is_legal(s, "move 7H to pile 3")


def test_a_face_down_card_heads_no_sequence_and_a_space_takes_a_king_only():
    s = position(["~KS QH", "", "~2C QD"])
    assert moves(s, "move") == []                     # Q♥ to the space: only a king; K♠ is face down
    s = position(["5C KS QH", "JC", "AS", "3D", "3H", "8D", "8H"])
    assert moves(s, "move") == ["move JC to pile 1"]
    act(s, "home AS")
    assert moves(s, "move") == ["move JC to pile 1", "move KS to pile 3"]
    s = position(["KS QH", ""])
    assert moves(s, "move") == []                     # a whole pile to a space gains nothing


def test_the_game_ends_when_no_move_is_left():
    s = position(["KS", "QH"], stock="", rest="clubs_home", from_home=False)
    act(s, "move QH to pile 1")
    assert s.is_terminal() and s.returns() == [0.0]
    # the stock turned through, and the pass brought no play: a redeal would repeat it
    s = position(["2S"], stock="~5D", rest="clubs_home", from_home=False)
    assert legal(s, plain=True) == ["draw"]
    act(s, "draw")
    assert s.is_terminal()
    s = position(["2S", "6C"], stock="~5D", rest="clubs_home", from_home=False)
    act(s, "draw")
    assert legal(s, plain=True) == ["waste to pile 2"]


def _after(s, action):
    t = s.clone()
    t.apply_action(action)
    return (tuple(map(tuple, t.zones)), tuple(t.face), tuple(t.vars), t.is_terminal())


@pytest.mark.parametrize("seed", range(6))
def test_it_plays_as_the_shipped_klondike(seed):
    """The same deal (the same seed), the same moves at every position, the same end."""
    a, b = shipped().new_initial_state(seed), by_card().new_initial_state(seed)
    rng = random.Random(seed)
    while not a.is_terminal():
        assert not b.is_terminal()
        there = {_after(a, m): m for m in a.legal_actions()}
        here = {_after(b, m): m for m in b.legal_actions()}
        assert set(there) == set(here)
        key = rng.choice(sorted(there))
        a.apply_action(there[key])
        b.apply_action(here[key])
    assert b.is_terminal() and a.returns() == b.returns() and a.scores() == b.scores()


def test_it_checks_from_the_command_line(capsys):
    with pytest.raises(SystemExit) as end:
        main(["check", str(FILE)])
    assert end.value.code == 0 and "ok" in capsys.readouterr().out
