"""At the table: any line a person types gets an answer and the prompt again; any table `check`
accepts can be drawn (a grid shared by the whole table included)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

import koloda
from koloda.agents.human import match_move
from koloda.ui.moves import listed_moves
from koloda.cli.main import main
from koloda.ui.table import render

SHARED_GRID = """\
game: middle
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
  middle: {grid: [[A, 2], [3, "-"]], visible: all}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      place:
        with: [c in my hand, z in middle.cells]
        do: [move c to z, end turn]
deal ends: my hand.size == 0
match: {ends: "true"}
"""


@pytest.mark.parametrize("typed", ["²", "①", "٣", "9" * 5000, "[/yellow]", "[bold]x", ":x:", "\x00", "\x1b[2J",
                                   "x" * 100_000, "", "   ", "-1", "0", "1.5"])
def test_any_line_typed_gets_an_answer(typed):
    s = koloda.load("pony", players=2).new_initial_state(3)
    action, why = match_move(s, typed)
    if action is None:
        assert why and len(why) < 600, "one short line"
    else:
        assert action in s.legal_actions()


def test_an_ambiguous_entry_lists_the_moves_it_fits():
    s = koloda.load("leopard").new_initial_state(1)
    s.apply_action(s.legal_actions()[0])            # draw: now a card is placed or discarded
    texts = [s.action_to_string(a) for a in listed_moves(s)]       # as the table numbers them
    word = next(w for w in {t.split()[0] for t in texts} if sum(t.split()[0] == w for t in texts) >= 2)
    action, why = match_move(s, word)
    assert action is None and f"`{word}` fits" in why
    first = next(k for k, t in enumerate(texts, 1) if t.split()[0] == word)
    assert f"{first}. {texts[first - 1]}" in why, "the candidates are listed with their numbers"


def test_a_shared_grid_is_drawn_for_a_person(tmp_path):
    path = tmp_path / "middle.yaml"
    path.write_text(SHARED_GRID, encoding="utf-8")
    game = koloda.load(str(path))
    s = game.new_initial_state(1)
    text = render(game, s, 0).plain
    assert "middle" in text
    result = CliRunner().invoke(main, ["play", str(path), "--seat", "human", "--seat", "random", "--fast",
                                       "--save", str(tmp_path / "s.json")], input="1\n1\n1\n")
    assert "Traceback" not in result.output and "middle" in result.output, result.output


def test_the_move_that_ends_a_deal_comes_before_the_deal_summary(tmp_path):
    result = CliRunner().invoke(main, ["play", "peklo", "--seat", "human", "--seat", "random", "--seat", "random",
                                       "--fast", "--seed", "2", "-o", "deal_size=1",
                                       "--save", str(tmp_path / "s.json")], input="1\n" * 10)
    out = result.output
    assert "Traceback" not in out
    summary = out.index("Deal 1 is over")
    last_move = max(out.rfind(f"P{p} play", 0, summary) for p in (1, 2, 3))
    assert 0 <= last_move < summary, "every move of the deal is printed before its summary"
    block = out[summary:out.index("Scores after deal 1", summary)]
    assert "to move" not in block
    for p in (1, 2, 3):
        assert f"P{p} hand:" in block and f"P{p} cards won:" in block      # zones by their labels
    assert "(3 cards)" in block, "the trick's three cards are counted where they lie"


def test_hot_seat_hands_over_the_keyboard_before_showing_the_next_hand(tmp_path):
    # two people at one keyboard: before P2's turn, P1's screen is left behind
    result = CliRunner().invoke(main, ["play", "pony", "--seat", "human", "--seat", "human", "--fast", "--seed", "4",
                                       "--save", str(tmp_path / "s.json")], input="1\n\n1\nquit\n")
    out = result.output
    assert "Traceback" not in out
    first_prompt = out.index("your move")
    assert "Pass the keyboard" not in out[:first_prompt], "the first player needs no hand-over"
    handover = out.index("Pass the keyboard to P", first_prompt)
    assert out.index("your move", handover) > handover, "the next player is asked only after the hand-over"
