"""Text from outside is printed as it is, every bot-only game stops, and an internal error is a
message with the command to report — never a traceback (unless --debug asks for it)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda.cli.main as cli
from koloda.cli.main import main

RULES = Path(__file__).resolve().parent.parent / "koloda" / "rules"

NEVER_ENDS = """\
game: loop
title: "{title}"
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
deal: [gather into stock, shuffle stock, deal 2 to each hand]
phases:
  main:
    actions:
      wait:
        text: "{text}"
        do: end turn
match: {{ends: "true"}}
"""


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def write(folder: Path, title: str = "Loop", text: str = "wait", name: str = "loop.yaml") -> Path:
    path = folder / name
    path.write_text(NEVER_ENDS.format(title=title, text=text), encoding="utf-8")
    return path


def test_rich_markup_and_emoji_codes_in_a_rule_file_are_printed_as_written(tmp_path):
    path = write(tmp_path, title="[bold]Loop[/] :x: [/x]", text="wait [red]here[/red] :smile:")
    result = run("play", str(path), "--seat", "random", "--seat", "random", "--fast", "--max-moves", "3",
                 "--save", str(tmp_path / "s.json"))
    assert "[bold]Loop[/] :x: [/x]" in result.output
    assert "wait [red]here[/red] :smile:" in result.output
    assert "❌" not in result.output and "😄" not in result.output


def test_an_error_on_line_100_keeps_its_location(tmp_path):
    lines = ["game: g", "players: 2", "deck: standard52"] + [f"# {k}" for k in range(96)] + ["zones: {a: {x: 1}}"]
    path = tmp_path / "g.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("check", str(path))
    assert "g.yaml:100:" in result.output and "💯" not in result.output


def test_a_file_named_like_markup_is_played_and_named(tmp_path):
    path = write(tmp_path, name="[x].yaml")
    result = run("check", str(path))
    assert result.exit_code == 0 and "[x].yaml: ok" in result.output
    result = run("play", str(path), "--seat", "random", "--seat", "random", "--fast", "--max-moves", "2",
                 "--save", str(tmp_path / "[s].json"))
    assert "[s].json" in result.output


def test_a_bot_only_game_that_never_ends_is_stopped_and_saved(tmp_path):
    save = tmp_path / "s.json"
    result = run("play", str(write(tmp_path)), "--seat", "random", "--seat", "random", "--fast",
                 "--max-moves", "50", "--save", str(save))
    assert result.exit_code == 1
    assert "has not ended after 50 moves" in result.output and "the rules may never end it" in result.output
    assert save.exists()


def test_a_default_bot_only_game_is_bounded_too():
    assert cli.MAX_MOVES <= 1_000_000


@pytest.mark.parametrize("delay", ["inf", "-1", "nan", "1e400"])
def test_an_impossible_delay_is_refused(tmp_path, delay):
    result = run("play", "pony", "--seat", "random", "--seat", "random", "--delay", delay)
    assert result.exit_code == 2 and "--delay" in result.output


def test_two_games_started_in_the_same_second_get_their_own_saves():
    assert cli.default_save("pony") != cli.default_save("pony")


def test_an_internal_error_is_reported_with_the_command_and_no_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr("koloda.api.load_spec", broken)      # the command imports it when it runs
    result = run("check", "pony")
    assert result.exit_code == 1
    assert "internal error (ZeroDivisionError)" in result.output and "koloda" in result.output
    assert "--debug" in result.output


def test_debug_shows_the_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr("koloda.api.load_spec", broken)      # the command imports it when it runs
    result = CliRunner().invoke(main, ["--debug", "check", "pony"])
    assert result.exit_code == 1
    assert "Traceback" in result.output and "ZeroDivisionError" in result.output


def test_debug_after_the_command_shows_the_traceback_too(monkeypatch):
    # the hint says "run it with --debug": it may go where a user puts it, after the command
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr("koloda.cli.reports.simulate_report", broken)
    result = CliRunner().invoke(main, ["simulate", "pony", "-n", "2", "--debug"])
    assert result.exit_code == 1
    assert "Traceback" in result.output and "ZeroDivisionError" in result.output
    assert "run it with --debug" not in result.output
    without = CliRunner().invoke(main, ["simulate", "pony", "-n", "2"])
    assert "Traceback" not in without.output and "run it with --debug" in without.output


def test_every_command_takes_debug():
    for name, command in main.commands.items():
        assert "--debug" in [o for p in command.params for o in p.opts], name
        result = CliRunner().invoke(main, [name, "--debug", "--help"])
        assert result.exit_code == 0 and "--debug" in result.output, (name, result.output)


def test_a_transcript_is_never_appended_to_by_a_new_game(tmp_path):
    log = tmp_path / "game.jsonl"
    args = ["play", "pony", "--seat", "random", "--seat", "random", "--fast", "--seed", "3", "--log", str(log),
            "--save", str(tmp_path / "s.json")]
    assert run(*args).exit_code == 0
    first = log.read_text(encoding="utf-8")
    again = run(*args)
    assert again.exit_code == 1 and "is already there" in again.output and "--force" in again.output
    assert log.read_text(encoding="utf-8") == first
    assert run(*args, "--force").exit_code == 0
    assert log.read_text(encoding="utf-8") == first, "the same seed writes the same transcript afresh"
    assert run("replay", str(log), "-q").exit_code == 0


def test_a_game_between_bots_is_saved_only_when_asked(tmp_path):
    import os
    saves = Path(os.environ["KOLODA_HOME"])
    result = run("play", "pony", "--seat", "random", "--seat", "random", "--fast", "--seed", "1")
    assert result.exit_code == 0
    assert not saves.exists() or not list(saves.glob("*.save.json"))
    asked = tmp_path / "bots.json"
    assert run("play", "pony", "--seat", "random", "--seat", "random", "--fast", "--save", str(asked)).exit_code == 0
    assert asked.exists()


def test_plain_words_for_counts_and_results(tmp_path):
    out = run("play", "leopard", "-p", "3").output
    assert "leopard is played by 2 players, not 3" in out
    out = run("play", "pony", "-p", "9").output
    assert "pony is played by 2 to 6 players, not 9" in out
    out = run("play", str(write(tmp_path)), "--seat", "random", "--seat", "random", "--fast", "--max-moves", "5",
              "--save", str(tmp_path / "s.json")).output
    assert "Winner: P1 and P2" not in out


def test_saves_lists_games_and_resume_takes_the_newest_one_a_person_waits_in(tmp_path):
    import os
    import time as _time
    saves = Path(os.environ["KOLODA_HOME"])
    # a person's game, quit at their first prompt; then a newer game between bots, saved on request
    run("play", "pony", "--seat", "human", "--seat", "random", "--fast", "--seed", "5", input="quit\n")
    _time.sleep(0.05)
    bots = saves / "bots.save.json"
    run("play", "pony", "--seat", "random", "--seat", "random", "--fast", "--max-moves", "3", "--save", str(bots))
    listed = run("saves")
    assert listed.exit_code == 0
    lines = [line for line in listed.output.splitlines() if "pony" in line]
    assert len(lines) == 2
    assert lines[0].startswith("bots") and "bots only" in lines[0], "newest first"
    assert "your move" in lines[1] and "human, random" in lines[1]
    resumed = run("resume", "--fast", input="quit\n")
    person = lines[1].split()[0]
    assert f"{person}.save.json" in resumed.output, "not the newer game between bots"
    by_id = run("resume", person, "--fast", input="quit\n")
    assert by_id.exit_code == 0 and "Resuming Pony" in by_id.output


def test_resume_with_only_bot_games_saved_says_so(tmp_path):
    import os
    saves = Path(os.environ["KOLODA_HOME"])
    run("play", "pony", "--seat", "random", "--seat", "random", "--fast", "--max-moves", "3",
        "--save", str(saves / "b.save.json"))
    result = run("resume")
    assert result.exit_code == 1 and "no saved game is waiting for a person" in result.output


def test_replay_shows_one_seat_or_every_card_and_marks_each_deal(tmp_path):
    log = tmp_path / "g.jsonl"
    assert run("play", "peklo", "--seat", "random", "--seat", "random", "--seat", "random", "--fast", "--seed", "3",
               "-o", "deal_size=2", "--log", str(log), "--save", str(tmp_path / "s.json")).exit_code == 0
    plain = run("replay", str(log)).output
    assert "── deal 1 ──" in plain
    hidden_stock = plain[plain.rindex("stock"):].splitlines()[0]
    assert "45 cards" in hidden_stock, "without --all the stock stays hidden"
    every = run("replay", str(log), "--all").output
    assert "(45)" in every, "--all shows the stock's cards"
    as_p2 = run("replay", str(log), "--as", "P2")
    assert as_p2.exit_code == 0 and "── deal 1 ──" in as_p2.output
    bad = run("replay", str(log), "--as", "P9")
    assert bad.exit_code == 1 and "P1 to P3" in bad.output
