"""The command line: every command, and every user error ends in a message, not a traceback."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from koloda.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "koloda" / "rules"


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_check_shipped_files_pass():
    files = sorted(str(p) for p in RULES.glob("*.yaml"))
    result = run("check", *files)
    assert result.exit_code == 0, result.output
    assert result.output.count(": ok") == len(files)


def test_check_reports_every_error_with_location(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "game: bad\n"
        "deck: standard52\n"
        "zones:\n"
        "  stock: {visible: nobody}\n"
        "phases:\n"
        "  play:\n"
        "    actions:\n"
        "      draw:\n"
        "        if: stok.size > 0\n"
        "        do: move stock.top to pil\n", encoding="utf-8")
    result = run("check", str(bad))
    assert result.exit_code == 1
    assert "bad.yaml:9:13: unknown name `stok`" in result.output
    assert "did you mean `stock`?" in result.output
    assert "bad.yaml:10:31: unknown name `pil`" in result.output
    assert "    ^" in result.output or "^" in result.output.splitlines()[2]
    assert "2 errors" in result.output


def test_check_missing_file():
    result = run("check", "no-such-file.yaml")
    assert result.exit_code == 1
    assert "no such rule file" in result.output


def test_list_shows_games_and_players():
    result = run("list")
    assert result.exit_code == 0
    assert "pony" in result.output and "2-6 players" in result.output
    assert "peklo" in result.output and "3-7 players" in result.output


def test_simulate_reports_every_game_ended():
    result = run("simulate", "pony", "-n", "20", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "20 games played, 20 ended" in result.output
    assert "win share" in result.output and "P2" in result.output


def test_simulate_with_options_and_players():
    result = run("simulate", "peklo", "-n", "3", "--seed", "2", "-o", "deal_size=3", "-o", "hook=true",
                 "--players", "5")
    assert result.exit_code == 0, result.output
    assert "3 games played, 3 ended" in result.output
    assert "P5" in result.output


def test_players_as_an_option():
    result = run("simulate", "peklo", "-n", "2", "-o", "players=6", "-o", "deal_size=2")
    assert result.exit_code == 0, result.output
    assert "P6" in result.output


@pytest.mark.parametrize("args, message", [
    (("simulate", "pony", "-o", "colour=red"), "unknown option `colour`"),
    (("simulate", "pony", "-o", "hand=6"), "option `hand` is one of 5, 7"),
    (("simulate", "pony", "-o", "seven_draws=maybe"), "true or false"),
    (("simulate", "pony", "-o", "limit"), "key=value"),
    (("simulate", "pony", "--players", "9"), "2 to 6 players, not 9"),
    (("simulate", "pony", "-o", "hand=7", "-p", "6"), "needs 42 cards"),
    (("simulate", "ponny"), "did you mean `pony`?"),
    (("play", "pony", "--seat", "wizard", "--seat", "random"), "unknown seat `wizard`"),
    (("play", "pony", "--seat", "wizard"), "unknown seat `wizard`"),
    (("play", "pony", "--deck", "missing-deck.txt"), "cannot read deck file"),
])
def test_user_errors_are_messages(args, message):
    result = run(*args)
    assert result.exit_code != 0
    assert message in result.output


def test_bad_deck_file_is_reported(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("AS KS ZZ\n", encoding="utf-8")
    result = run("play", "pony", "--seat", "random", "--seat", "random", "--deck", str(deck))
    assert result.exit_code == 1
    assert "`ZZ` is not a card of this deck" in result.output


def test_play_between_bots_finishes():
    result = run("play", "pony", "--seat", "random", "--seat", "random", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output and "Winner:" in result.output


def test_play_with_a_given_deck_order(tmp_path):
    # the whole pack, top first: it decides the first hands (a partial order is an error, see test_position)
    deck = tmp_path / "deck.txt"
    deck.write_text("7S 8S 9S 10S JS QS KS AS 7H 8H 9H\n10H JH QH KH AH 7D 8D 9D 10D JD QD KD AD\n"
                    "7C 8C 9C 10C JC QC KC AC\n", encoding="utf-8")
    result = run("play", "pony", "--seat", "random", "--seat", "random", "--seed", "0", "--deck", str(deck))
    assert result.exit_code == 0, result.output


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_game_from_a_deck_file_deals_the_files_order(tmp_path, pexpect):
    """`play --deck` does not only check the file: the first deal is the file's, as the table shows it."""
    import koloda
    from helpers import hand
    from koloda.dsl.types import SUIT_LETTERS, SUIT_SYMBOLS
    game = koloda.load("pony")
    order = " ".join(reversed(game.cards.names))          # the spades from the ace down, then the hearts, ...
    deck = tmp_path / "deck.txt"
    deck.write_text(order + "\n", encoding="utf-8")
    dealt = hand(game.new_initial_state(0, game.parse_deck(order, str(deck))), 0)
    assert dealt != hand(game.new_initial_state(0), 0), "the seed alone would deal other cards"
    expected = sorted(name[:-1] + SUIT_SYMBOLS[SUIT_LETTERS.index(name[-1])] for name in dealt)
    env = dict(os.environ, COLUMNS="100", TERM="dumb", PYTHONPATH=str(ROOT), KOLODA_HOME=str(tmp_path))
    child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "play", "pony", "--seat", "human",
                                           "--seat", "random", "--seed", "0", "--deck", str(deck), "--fast"],
                          encoding="utf-8", timeout=60, env=env, cwd=str(tmp_path))
    child.expect(r"your hand +([^\r\n]*)")
    assert sorted(child.match.group(1).split()) == expected
    child.expect("your move")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_human_plays_pony_to_the_end_in_a_terminal(pexpect):
    env = dict(os.environ, COLUMNS="100", TERM="dumb", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "play", "pony", "--seat", "human",
                                           "--seat", "random", "--seed", "3", "--fast", "-o", "limit=25"],
                          encoding="utf-8", timeout=60, env=env, cwd=str(ROOT))
    moves = 0
    checked_errors = False
    while True:
        index = child.expect([r"your move", pexpect.EOF])
        if index == 1:
            break
        if not checked_errors:
            child.sendline("zzz")
            child.expect("is not a legal move")
            child.expect("your move")
            child.sendline("help")
            child.expect("Legal moves")
            child.expect("your move")
            child.sendline("0")
            child.expect("there is no move 0")
            child.expect("your move")
            checked_errors = True
        child.sendline("1")
        moves += 1
    child.close()
    assert moves > 3
    assert child.exitstatus == 0
    assert "Game over." in child.before, "the game was played to its end, and the table says so"


def test_human_can_quit(pexpect):
    env = dict(os.environ, TERM="dumb", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "play", "pony", "--seat", "human",
                                           "--seat", "random", "--seed", "5"],
                          encoding="utf-8", timeout=60, env=env, cwd=str(ROOT))
    child.expect("your move")
    child.sendline("quit")
    child.expect("Game saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_simulate_on_two_processes_plays_the_same_games():
    one = run("simulate", "pony", "-n", "12", "--seed", "3", "-j", "1")
    two = run("simulate", "pony", "-n", "12", "--seed", "3", "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    assert one.output == two.output


def test_simulate_with_bot_seats():
    result = run("simulate", "peklo", "-n", "3", "-o", "deal_size=2", "--seat", "greedy", "--seat",
                 "ismcts:iterations=10", "--seat", "random")
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "ismcts:iterations=10" in result.output


def test_simulate_refuses_a_human_seat():
    result = run("simulate", "pony", "--seat", "human")
    assert result.exit_code == 1 and "bots only" in result.output


def test_simulate_says_how_long_a_long_run_will_take(monkeypatch):
    """After the first game, a run expected to pass the threshold says how long it will take."""
    import koloda.sim.timing
    short = run("simulate", "pony", "-n", "3", "--seed", "1")
    assert short.exit_code == 0 and "about" not in short.output
    monkeypatch.setattr(koloda.sim.timing, "ESTIMATE_FROM", 0.0)
    result = run("simulate", "pony", "-n", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    said = re.findall(r"Pony: 3 games, about \d+ seconds on 1 worker \(the first took "
                      r"(?:\d+(?:\.\d)? s|\d+ ms|less than 1 ms)\)\n", result.output)
    assert len(said) == 1
    assert result.output.replace(said[0], "") == short.output       # the same games, the same report
