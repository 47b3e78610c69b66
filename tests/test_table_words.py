"""The table's own words: counts, results, cells, the move list's order and the command to go on, each
said the way a player reads it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
import koloda.cli.table_run as cli
from koloda.agents.human import match_move
from koloda.cli.main import main
from koloda.ui.moves import listed_moves
from koloda.ui.table import render

from helpers import act, setup

TWO_CARDS = """\
game: level
players: 2
deck: piquet32
zones:
  stock: {visible: nobody}
  hand: {each: player}
  pile: {visible: top}
deal: [gather into stock, shuffle stock, deal 1 to each hand]
phases:
  play:
    actions:
      play: {with: c in my hand, do: move c to pile}
deal ends: all(p.hand.size == 0 for p in players)
"""


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_a_pile_of_one_card_is_on_top_of_nothing():
    g = koloda.load("pony")
    s = setup(g.new_initial_state(1), zones={"pile": "10H"})
    line = next(x for x in render(g, s, 0).plain.splitlines() if x.strip().startswith("pile"))
    assert "10♥" in line and "on top of" not in line
    s = setup(g.new_initial_state(1), zones={"pile": "9H 10H"})
    assert "10♥  on top of 1" in render(g, s, 0).plain


def test_cards_under_a_cells_top_card_are_explained():
    g = koloda.load("leopard")
    s = g.new_initial_state(1)
    assert "+N" not in render(g, s, 0).plain, "no legend before any cell holds two cards"
    setup(s, zones={("square", 0, "7"): "7H ~JS"})
    text = render(g, s, 0).plain
    assert "▒▒ +1" in text
    assert "+N: N more cards lie under the top card" in text


def test_a_draw_is_said_as_a_draw(tmp_path):
    path = tmp_path / "level.yaml"
    path.write_text(TWO_CARDS, encoding="utf-8")
    out = run("play", str(path), "--seat", "random", "--seat", "random", "--fast").output
    assert "Game over" in out and "A draw: every player shares the win." in out
    assert "Winner" not in out


@pytest.mark.parametrize("game, players, returns, said", [
    ("pony", 2, [1.0, -1.0], "Winner: P1"),
    ("pony", 3, [0.5, 0.5, -1.0], "Winners: P1 and P2 (a shared win)"),
    ("pony", 3, [0.0, 0.0, 0.0], "A draw: every player shares the win."),
    ("leopard4", 4, [-1.0, 1.0, -1.0, 1.0], "Winners: P2+P4"),
])
def test_results_in_words(game, players, returns, said):
    assert cli._result(koloda.load(game, players=players), returns) == said


def test_quitting_prints_the_command_to_go_on_whole_on_its_own_line(monkeypatch):
    monkeypatch.setattr(cli.console, "width", 30)          # narrower than the save's path
    out = run("play", "pony", "--seat", "human", "--seat", "random", "--seed", "5", input="quit\n").output
    saved = re.search(r"Game saved in (\S+)\.\n", out)
    assert saved, out
    save_id = Path(saved.group(1)).name.removesuffix(".save.json")
    assert f"Go on with:\n  koloda resume {save_id}\n" in out
    resumed = run("resume", save_id, "--fast", input="quit\n")
    assert resumed.exit_code == 0 and "Resuming Pony" in resumed.output


def test_a_save_outside_the_save_folder_is_resumed_by_its_file(tmp_path):
    save = tmp_path / "my game.json"
    out = run("play", "pony", "--seat", "human", "--seat", "random", "--save", str(save), input="quit\n").output
    assert f"  koloda resume '{save}'\n" in out


def test_the_move_list_follows_the_hands_suit_order():
    g = koloda.load("leopard")
    s = g.new_initial_state(1)
    setup(s, zones={("hand", 0): "2C 9H AD KS 5S 10D 3H"}, current=0, step="start")
    act(s, "draw")                                      # the drawn card joins the hand
    hand_line = next(x for x in render(g, s, 0).plain.splitlines() if x.strip().startswith("your hand"))
    hand = hand_line.split()[2:]
    discards = [t.split()[1] for t in (s.action_to_string(a) for a in listed_moves(s)) if t.startswith("discard")]
    assert discards == hand
    assert [c[-1] for c in hand] == sorted((c[-1] for c in hand), key="♠♥♣♦".index), "spades, hearts, clubs, diamonds"
    first = listed_moves(s)[0]
    assert match_move(s, "1") == (first, ""), "numbers follow the list as shown"
    assert set(listed_moves(s)) == set(s.legal_actions())
