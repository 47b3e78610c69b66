"""Moves as players type them: a meld's cards in any order, bids written short (`2nt`, `x`), a word's start
(`h` for hearts), `my` for the player to move; and the move list in the order the rule file declares."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import koloda
from koloda.agents.human import match_move
from koloda.interpreter.base.errors import IllegalAction
from koloda.ui.moves import listed_moves

ROOT = Path(__file__).resolve().parent.parent


def kunkin_sets():
    """Kun-kin, P1 after drawing, with two sets to open with (K♦ K♥ K♠ and A♦ A♥ A♠)."""
    g = koloda.load("kunkin", options={"hand": 7}, players=2)
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": "KH KD KS AH AD AS 2C",
                                                "P2 hand": "4D 6D 8D TD 3C 3D 3H", "pile": "2D"})
    s.apply_action(s.string_to_action("draw"))
    return s


def bridge(dealer: int = 1, seed: int = 1):
    g = koloda.load("bridge")
    return g.new_initial_state(seed, dealer=dealer - 1)


def text(s, typed: str) -> str:
    return s.action_to_string(s.string_to_action(typed))


# ------------------------------------------------------------------ item: a meld typed in any order
@pytest.mark.parametrize("typed", ["meld KD KH KS", "meld KH KD KS", "meld KS KH KD", "MELD k♠ k♦ k♥"])
def test_the_cards_of_a_set_in_any_order_name_one_meld(typed):
    s = kunkin_sets()
    assert text(s, typed) == "meld K♦ K♥ K♠"
    action, why = match_move(s, typed)
    assert why == "" and s.action_to_string(action) == "meld K♦ K♥ K♠"


def test_the_cards_of_a_run_in_any_order_and_a_part_of_a_run_is_no_move():
    g = koloda.load("kunkin", options={"hand": 7}, players=2)
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": "KH KD KS AH QH JH 2C",
                                                "P2 hand": "4D 6D 8D TD 3C 3D 3H", "pile": "2D"})
    s.apply_action(s.string_to_action("draw"))
    assert text(s, "meld AH JH KH QH") == "meld J♥ Q♥ K♥ A♥"
    assert text(s, "meld kh jh qh") == "meld J♥ Q♥ K♥"
    # three of the four cards typed name the three-card meld, never the longer one
    assert text(s, "meld QH AH KH") == "meld Q♥ K♥ A♥"


# ------------------------------------------------------------------ item: bids as players type them
@pytest.mark.parametrize("typed, meant", [
    ("bid 2c", "bid 2 clubs"), ("2nt", "bid 2 no trump"), ("6s", "bid 6 spades"), ("7 NT", "bid 7 no trump"),
    ("bid 1 ♦", "bid 1 diamonds"), ("1♥", "bid 1 hearts"), ("b 3 h", "bid 3 hearts"), ("BID 4 SPADES", "bid 4 spades"),
    ("pass", "pass"), ("pa", "pass"), ("5 no trump", "bid 5 no trump"), ("3notrump", "bid 3 no trump")])
def test_bridge_bids_written_short(typed, meant):
    s = bridge()
    assert s.current == 0
    assert text(s, typed) == meant
    action, why = match_move(s, typed)
    assert why == "" and s.action_to_string(action) == meant


@pytest.mark.parametrize("typed", ["x", "dbl", "X", "double", "d"])
def test_a_double_written_short(typed):
    s = bridge()
    s.apply_action(s.string_to_action("1c"))
    assert text(s, typed) == "double"
    s.apply_action(s.string_to_action(typed))
    assert text(s, "xx") == "redouble" and text(s, "rdbl") == "redouble"


def test_a_short_form_that_is_not_legal_now_or_fits_several():
    s = bridge()
    with pytest.raises(IllegalAction, match="`x` is not a legal move now"):
        s.string_to_action("x")                  # nothing to double yet
    action, why = match_move(s, "x")
    assert action is None and why == "`double` is not allowed now: there is no bid to double yet"
    with pytest.raises(IllegalAction, match=r"`bid 2` names 5 moves now \(bid 2 clubs, bid 2 diamonds, "):
        s.string_to_action("bid 2")
    action, why = match_move(s, "bid 2")
    assert action is None and why.startswith("`bid 2` fits 5 moves: ") and "bid 2 no trump" in why


def test_preferans_calls_and_misere_without_its_accent():
    s = koloda.load("preferans").new_initial_state(1)
    assert text(s, "6s") == "6 spades"
    assert text(s, "6NT") == "6 no trump"
    assert text(s, "7 d") == "7 diamonds"
    assert text(s, "misere") == "misère" and text(s, "mis") == "misère"


def test_naming_a_suit_by_its_start_or_symbol():
    g = koloda.load("pony", players=2)
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": "JH JC AS KD QD", "pile": "7H",
                                                "P2 hand": "7D 8D 9D TD 10C"})
    # two jacks: `j` fits both, and the answer lists them with their numbers
    action, why = match_move(s, "j")
    assert action is None
    numbers = {s.action_to_string(a): k for k, a in enumerate(listed_moves(s), 1)}
    assert why.startswith("`j` fits 2 moves: ")
    assert f"{numbers['play J♥']}. play J♥" in why and f"{numbers['play J♣']}. play J♣" in why
    s.apply_action(s.string_to_action("play jh"))
    for typed in ("h", "hea", "Hearts", "♥", "name h", "n hea"):
        assert text(s, typed) == "name hearts", typed
    assert text(s, "c") == "name clubs"


def test_a_bare_rank_names_the_one_card_of_that_rank():
    g = koloda.load("pony", players=2)
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": "8H 9C AS KD QD", "pile": "7H",
                                                "P2 hand": "7D 8D 9D TD JD"})
    assert text(s, "8") == "play 8♥" and text(s, "play 8") == "play 8♥"


def test_leopard_place_on_my_square():
    s = koloda.load("leopard").new_initial_state(3)
    s.apply_action(s.string_to_action("draw"))
    assert s.current == 0
    assert text(s, "place 5c on my square") == "place 5♣ on P1 square 5"
    assert text(s, "place 5c on p2 square") == "place 5♣ on P2 square 5"
    assert text(s, "pl 4s on my sq") == "place 4♠ on P1 square 4"
    with pytest.raises(IllegalAction, match="names 3 moves"):
        s.string_to_action("5c")                 # discard it, or place it on either square


def test_exact_texts_still_win_over_short_forms():
    s = bridge()
    # `pass` is a move's whole text, and the start of no other; `bid 1 clubs` is exact
    assert text(s, "bid 1 clubs") == "bid 1 clubs"
    assert text(s, "bid 1 c") == "bid 1 clubs"


# ------------------------------------------------------------------ the order the file declares
def test_preferans_calls_are_listed_in_the_ladders_order():
    s = koloda.load("preferans").new_initial_state(1)
    texts = [s.action_to_string(a) for a in listed_moves(s)]
    assert texts[:11] == ["6 spades", "6 clubs", "6 diamonds", "6 hearts", "6 no trump",
                          "7 spades", "7 clubs", "7 diamonds", "7 hearts", "7 no trump", "8 spades"]


def test_bridge_bids_are_listed_level_by_level():
    s = bridge()
    texts = [s.action_to_string(a) for a in listed_moves(s)]
    bids = [t for t in texts if t.startswith("bid")]
    assert bids[:7] == ["bid 1 clubs", "bid 1 diamonds", "bid 1 hearts", "bid 1 spades", "bid 1 no trump",
                        "bid 2 clubs", "bid 2 diamonds"]
    assert bids[-1] == "bid 7 no trump"


WRITTEN = """\
game: written
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
deal: [gather into stock, shuffle stock, deal 2 to each hand]
phases:
  main:
    actions:
      call:
        with: [n in 1..2, "s in [hearts, spades, clubs]"]
        do: end turn
      other:
        with: "s in suits"
        text: "say {s}"
        do: end turn
deal ends: "false"
match: {ends: "true"}
"""


def test_a_parameter_over_a_written_list_keeps_its_order(tmp_path):
    path = tmp_path / "written.yaml"
    path.write_text(WRITTEN, encoding="utf-8")
    s = koloda.load(str(path)).new_initial_state(1)
    texts = [s.action_to_string(a) for a in listed_moves(s)]
    assert texts == ["call 1 hearts", "call 1 spades", "call 1 clubs", "call 2 hearts", "call 2 spades",
                     "call 2 clubs", "say clubs", "say diamonds", "say hearts", "say spades"]


# ------------------------------------------------------------------ at a real terminal
def test_short_bids_typed_at_the_table(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="dumb", COLUMNS="120", PYTHONPATH=str(ROOT), KOLODA_HOME=str(tmp_path))
    child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "play", "bridge", "--seat", "human",
                                           "--seat", "random", "--seat", "random", "--seat", "random",
                                           "--seed", "1", "--fast", "--dealer", "1"],
                          encoding="utf-8", timeout=60, env=env, cwd=str(ROOT))
    child.expect("your move")
    # a level of the ladder a line: `bid 1 …  2) clubs … 6) no trump`
    assert "pass" in child.before and re.search(r"bid 1 …\s+2\) clubs .*6\) no trump", child.before)
    child.sendline("bid 2")                     # fits five bids: they are listed
    child.expect("your move")
    assert "`bid 2` fits 5 moves" in child.before and "bid 2 no trump" in child.before
    child.sendline("x")                         # nothing to double yet
    child.expect("your move")
    assert "`double` is not allowed now: there is no bid to double yet" in child.before
    child.sendline("2nt")
    child.expect(["your move", "Game over"])
    assert "bid 2 no trump" in child.before, child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
