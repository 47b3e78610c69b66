"""`koloda new`: a starter rule file that checks and plays, and a pytest file of scenarios for it.

The rule file is a shipped game's text under new headers (`--like`), or a small shedding game;
the test file sets up a position with koloda's Python API (a seed, a dealer and the first hand to
move) and asserts what the rules allow there and how a game from it ends. What it asserts is taken
from the rules as they are written, so it passes at once; the author edits it as the rules grow.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from koloda.api import load
from koloda.dsl.loader import read_rule_text, shipped_path
from koloda.interpreter.game import Game

NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}")
_HEADERS = ("game", "title", "source", "notes", "library")
MAX_MOVES = 2_000          # a scenario's game: the first move offered each turn, up to this many
SCHEMA = Path(__file__).resolve().parent.parent / "dsl" / "schema.json"

SKELETON = """\
players: 2..4
deck: standard52
zones:
  stock: {visible: nobody}
  pile: {visible: top}
  hand: {each: player, visible: owner}
vars:
  penalty: {each: player, start: 0}
deal:
  - gather into stock
  - shuffle stock
  - deal 5 to each hand
  - move stock.top to pile
phases:
  play:
    help: Play a card of the pile's suit or rank, or draw one.
    actions:
      play:
        help: a card of the suit or rank of the pile's top card
        with: c in my hand
        if: c.suit == pile.top.suit or c.rank == pile.top.rank
        text: "play {c}"
        do: move c to pile
      draw:
        help: one card from the stock
        if: stock.size > 0
        do: move stock.top to my hand
deal ends: any(p.hand.size == 0 for p in players) or stock.size == 0
scoring:
  - for: p in players
    do: p.penalty += p.hand.size
match:
  score: p.penalty
  winner: lowest
"""


class StarterError(Exception):
    """What the user asked for cannot be made: a bad name, an unknown game, a file already there."""


def check_name(name: str) -> None:
    if not NAME.fullmatch(name):
        raise StarterError(f"`{name[:40]}` is not a game name: lower case letters, digits, `-` and `_`, "
                           "starting with a letter (`my-rummy`)")


def rules_text(name: str, like: str | None, folder: Path) -> str:
    """The new rule file: headers, then the structure of `like` (a shipped game) or the skeleton."""
    check_name(name)
    body = SKELETON
    based = ""
    if like is not None:
        path = shipped_path(like)
        if path is None or not path.is_file():
            raise StarterError(f"`{like[:40]}` is not a shipped game (`koloda list` shows them)")
        text = read_rule_text(path, str(path))
        if re.search(r"^library:", text, re.M):
            raise StarterError(f"`{like}` is a library of patterns, not a game: start from a game that imports it")
        body = _without_headers(text)
        based = f"  Started from koloda's `{like}` rules (koloda new {name} --like {like}).\n"
    schema = os.path.relpath(SCHEMA, folder.resolve()) if folder.resolve().anchor == SCHEMA.anchor else str(SCHEMA)
    title = name.replace("-", " ").replace("_", " ").capitalize()
    return (f"# yaml-language-server: $schema={Path(schema).as_posix()}\n"
            f"game: {name}\n"
            f"title: {title}\n"
            "source: >\n"
            "  Where the rules come from: a book (author, title, page), a web page, the people who\n"
            "  taught you. Cite the source's words next to the rules that implement them.\n"
            "notes: |\n"
            "  Interpretation notes: where the source is silent or unclear, what this file does and why.\n"
            f"{based}"
            f"{body}")


def _without_headers(text: str) -> str:
    """A rule file's text without its schema line and its own headers (each a top-level key and
    the lines of its value)."""
    kept: list[str] = []
    dropping = False
    for line in text.splitlines(keepends=True):
        if line.startswith("# yaml-language-server:"):
            continue
        if line.strip() and not line[0].isspace() and not line.startswith("#"):
            dropping = line.split(":", 1)[0].strip() in _HEADERS
        if not dropping:
            kept.append(line)
    return "".join(kept).lstrip("\n")


def test_text(name: str, rules_file: str, game: Game) -> str:
    """A pytest file for the rules in `rules_file` (next to it): one position and one game from it."""
    state = game.new_initial_state(seed=1, dealer=0)
    hands: dict[str, str] = {}
    if not state.is_terminal():
        mover = state.current_player()
        for zone in state.observation(mover)["zones"]:
            if zone.get("owner") == mover and zone.get("cards"):
                hands = {f"P{mover + 1} {zone['zone']}": " ".join(zone["cards"])}
                break
    state = game.new_initial_state(seed=1, dealer=0, hands=hands or None)
    legal = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions()) \
        if not state.is_terminal() else []
    moves = 0
    while not state.is_terminal() and moves < MAX_MOVES:
        state.apply_action(state.legal_actions()[0])
        moves += 1
    ending = (f"    assert state.scores() == {state.scores()!r}\n" if state.is_terminal() else
              f"    assert not state.is_terminal()          # {MAX_MOVES} moves do not end it yet\n")
    module = name.replace("-", "_")
    return f'''"""Scenarios for {name}: a position set up by hand, what the rules allow there, how a game ends.

Run them with `python -m pytest {Path(rules_file).with_name(f"test_{module}.py").name}`. They were written from the
rules as they stood when the file was made: when a rule changes, change what they expect, and add
a scenario for every rule you want to keep (a position where it matters, the moves it allows).
"""
from pathlib import Path

import koloda

RULES = str(Path(__file__).with_name({Path(rules_file).name!r}))
HANDS = {hands!r}          # zone: cards, top first; the other cards lie as seed 1 deals them


def start():
    game = koloda.load(RULES)
    return game, game.new_initial_state(seed=1, dealer=0, hands=HANDS or None)


def test_the_moves_allowed_at_the_start():
    game, state = start()
    legal = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions()) \\
        if not state.is_terminal() else []
    assert legal == {legal!r}


def test_a_game_of_first_moves_ends_with_these_scores():
    game, state = start()
    moves = 0
    while not state.is_terminal() and moves < {MAX_MOVES}:
        state.apply_action(state.legal_actions()[0])
        moves += 1
{ending}'''


def create(name: str, like: str | None, folder: Path) -> tuple[Path, Path]:
    """Write NAME.yaml and test_NAME.py into `folder`; never over a file that is there.
    Raises StarterError, and RuleErrors if the new rules do not load (a shipped game that does not)."""
    check_name(name)
    rules = folder / f"{name}.yaml"
    tests = folder / f"test_{name.replace('-', '_')}.py"
    for path in (rules, tests):
        if path.exists():
            raise StarterError(f"{path} is already there: koloda new never writes over a file")
    if not folder.is_dir():
        raise StarterError(f"{folder} is not a folder")
    text = rules_text(name, like, folder)
    rules.write_text(text, encoding="utf-8")
    try:
        tests.write_text(test_text(name, str(rules), load(str(rules))), encoding="utf-8")
    except BaseException:
        rules.unlink()          # nothing half made
        raise
    return rules, tests
