"""The move list at the table: a long one grouped by action, its numbers and names unchanged, the full
list one a line on request."""
from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

import koloda
from koloda.agents.human import HumanAgent, QuitGame, match_move
from koloda.ui.moves import grouped, grouped_lines, listed_moves, move_groups, starting


def position(name: str, at_least: int, seed: int = 1):
    """The first decision of a seeded random game with at least `at_least` legal moves."""
    s = koloda.load(name).new_initial_state(seed)
    rng = random.Random(seed)
    while len(s.legal_actions()) < at_least:
        assert not s.is_terminal()
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def full_text(head: str, words: str) -> str:
    return head.replace("…", words) if words else head


def agent_typing(lines: list[str], width: int = 100) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    agent = HumanAgent(Console(file=out, width=width, highlight=False, emoji=False))
    typed = iter(lines)
    agent.console.input = lambda prompt="", **kw: next(typed)       # type: ignore[method-assign]
    return agent, out


@pytest.mark.parametrize("name", ["canasta", "leopard"])
def test_each_group_reads_back_as_its_moves_with_their_numbers(name):
    s = position(name, 30)
    legal = listed_moves(s)
    groups = move_groups(s)
    assert grouped(groups, len(legal)) and len(groups) < len(legal) // 2
    numbers = []
    for g in groups:
        for k, words in g.moves:
            assert full_text(g.head, words) == s.action_to_string(legal[k - 1])
            numbers.append(k)
    assert numbers == list(range(1, len(legal) + 1)), "every move once, in the order of the full list"
    lines = [line.plain for line in grouped_lines(groups, 100, most=10_000)]
    assert len(lines) < len(legal) // 2 and all(len(line) <= 100 for line in lines)
    shown = [int(n) for line in lines for n in re.findall(r"(?:^|  )(\d+)\)", line)]
    assert shown == list(range(1, len(legal) + 1)), "each number on the screen once, in order"


@pytest.mark.parametrize("name", ["canasta", "leopard"])
def test_numbers_and_names_pick_the_same_moves_as_before(name):
    s = position(name, 30)
    for k, a in enumerate(listed_moves(s), 1):
        assert match_move(s, str(k)) == (a, "")
        assert match_move(s, s.action_to_string(a, plain=True)) == (a, "")


def test_the_person_sees_the_groups_and_types_a_move_or_a_number():
    s = position("leopard", 30)
    legal = listed_moves(s)
    discard = next(a for a in legal if s.action_to_string(a).startswith("discard"))
    agent, out = agent_typing([s.action_to_string(discard, plain=True).lower()])
    assert agent.choose(s) == discard
    screen = out.getvalue()
    assert f"{len(legal)} moves, by kind" in screen
    assert re.search(r"^  discard …\s+1\) ", screen, re.M), "the discards on one line, from number 1"
    agent, out = agent_typing(["7"])
    assert agent.choose(s) == legal[6]


def test_moves_lists_them_all_one_a_line_and_help_too():
    s = position("canasta", 30)
    legal = listed_moves(s)
    agent, out = agent_typing(["moves", "help", "1"])
    assert agent.choose(s) == legal[0]
    screen = out.getvalue()
    for k, a in enumerate(legal, 1):
        assert screen.count(f"{k:>2}  {s.action_to_string(a)}\n") == 2, "once for `moves`, once for `help`"


def test_a_very_long_list_folds_its_biggest_groups_and_moves_word_lists_one_kind():
    s = position("canasta", 70)
    legal = listed_moves(s)
    assert len(grouped_lines(move_groups(s), 60, most=10_000)) > 20
    lines = [line.plain for line in grouped_lines(move_groups(s), 60)]
    assert len(lines) <= 20
    hint = next(line for line in lines if "more: `moves " in line)
    word = re.search(r"`moves ([^`]+)`", hint)[1]
    picked = starting(s, word)
    assert picked == [(k, s.action_to_string(a)) for k, a in enumerate(legal, 1)
                      if s.action_to_string(a).startswith(word)]
    agent, out = agent_typing([f"moves {word}", "quit"])
    with pytest.raises(QuitGame):
        agent.choose(s)
    screen = out.getvalue()
    for k, text in picked:
        assert f"{k:>2}  {text}\n" in screen
    agent, out = agent_typing(["moves zzz", "quit"])
    with pytest.raises(QuitGame):
        agent.choose(s)
    assert "no legal move starts with `zzz`" in out.getvalue()


def test_a_short_list_stays_one_a_line():
    s = koloda.load("pony").new_initial_state(3)
    legal = listed_moves(s)
    assert len(legal) <= 12
    agent, out = agent_typing(["1"])
    agent.choose(s)
    screen = out.getvalue()
    assert "by kind" not in screen
    for k, a in enumerate(legal, 1):
        assert f"{k:>2}  {s.action_to_string(a)}\n" in screen
