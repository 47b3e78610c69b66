"""koloda.dsl.check: did-you-mean hints, every error collected, what it hands to the compiler."""
from __future__ import annotations

import textwrap

import pytest

from koloda.api import load_spec, shipped_games
from koloda.dsl import ast
from koloda.dsl.check import check
from koloda.dsl.errors import RuleErrors
from koloda.dsl.loader import load_file
from koloda.dsl.model import build

HEAD = """\
game: g
players: 2..4
deck: standard52
options:
  hand: {default: 5, choices: [5, 7]}
zones:
  stock: {visible: nobody}
  pile: {visible: top}
  hand: {each: player, visible: owner}
vars:
  score: {each: player, start: 0}
  trump: {type: suit, start: none}
define:
  playable(card c): c.suit == pile.top.suit or c.rank == pile.top.rank
deal:
  - gather into stock
  - shuffle stock
  - deal option.hand to each hand
"""

PHASES = """\
phases:
  main:
    actions:
      play:
        with: c in my hand
        if: playable(c)
        do: move c to pile
      pass: {do: end turn}
"""


def errors_for(tmp_path, text: str):
    path = tmp_path / "g.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        load_spec(str(path))
    return info.value.errors


def clean(tmp_path, text: str):
    path = tmp_path / "g.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_spec(str(path))


def test_the_base_file_is_clean(tmp_path):
    spec, rules = clean(tmp_path, HEAD + PHASES)
    assert spec.name == "g" and (spec.min_players, spec.max_players) == (2, 4)
    assert rules.functions["playable"].type == "bool"


@pytest.mark.parametrize("name", shipped_games())
def test_shipped_games_are_clean(name):
    spec, rules = load_spec(name)
    assert spec.name == name
    guards = [a.guard for ph in rules.phases for a in ph.actions.values() if a.guard is not None]
    assert all(g.type == "bool" for g in guards), "every guard is resolved and typed"
    # a game without a guard (Goofspiel: bid any card of your hand) limits its moves by their parameters
    assert guards or all(a.params for ph in rules.phases for a in ph.actions.values())


@pytest.mark.parametrize("wrong,right,hint", [
    ("if: playable(c)", "if: playabel(c)", "did you mean `playable`?"),
    ("do: move c to pile", "do: move c to piel", "did you mean `pile`?"),
    ("do: move c to pile", "do: [move c to pile, my scroe += 1]", "did you mean `score`?"),
    ("if: playable(c)", "if: playable(c) and c.suti == trump", "did you mean `suit`?"),
    ("if: playable(c)", "if: playable(c) and trmp == c.suit", "did you mean `trump`?"),
    ("if: playable(c)", "if: playable(c) and count(my hand) > option.hnad", "did you mean `hand`?"),
    ("if: playable(c)", "if: playable(c) and coutn(my hand) > 1", "did you mean `count`?"),
    ("pass: {do: end turn}", "pass: {do: [end turn, scroe = 1]}", "did you mean `score`?"),
])
def test_did_you_mean(tmp_path, wrong, right, hint):
    errors = errors_for(tmp_path, HEAD + PHASES.replace(wrong, right))
    assert hint in [e.hint for e in errors]


def test_no_hint_when_nothing_is_close(tmp_path):
    errors = errors_for(tmp_path, HEAD + PHASES.replace("if: playable(c)", "if: zzzzzz"))
    assert errors[0].message == "unknown name `zzzzzz`" and errors[0].hint is None


def test_all_errors_are_collected_and_sorted(tmp_path):
    text = HEAD + PHASES
    text = text.replace("deal option.hand to each hand", "deal option.hnad to each hand")
    text = text.replace("if: playable(c)", "if: playable(c, c)")
    text = text.replace("do: move c to pile", "do: [move c to pile, trump = 3, goto nowhere]")
    text = text.replace("c.rank == pile.top.rank", "c.rank == pile.top.rnak")
    errors = errors_for(tmp_path, text)
    messages = [e.message for e in errors]
    assert any("unknown option `hnad`" in m for m in messages)
    assert any("`playable` takes 1 argument, not 2" in m for m in messages)
    assert any("cannot set a suit to a number" in m for m in messages)
    assert any("unknown step `nowhere`" in m for m in messages)
    assert any("a card has no `rnak`" in m for m in messages)
    assert len(errors) == 5
    lines = [e.span.line for e in errors]
    assert lines == sorted(lines)


def test_syntax_errors_and_check_errors_together(tmp_path):
    text = (HEAD + PHASES).replace("if: playable(c)", "if: playable(c) and")
    text = text.replace("pass: {do: end turn}", "pass: {do: [end turn, trump = 3]}")
    errors = errors_for(tmp_path, text)
    assert {e.category for e in errors} == {"syntax", "type"}


def test_checker_without_raising():
    doc = load_file("pony")
    spec = build(doc)
    rules, errors = check(spec)
    assert errors == []
    assert set(rules.functions) == {"queen_rule", "playable", "can_play", "finished"}


@pytest.mark.parametrize("name,kind", [("me", "zone"), ("sum", "zone"), ("hearts", "zone"), ("players", "zone")])
def test_reserved_names(tmp_path, name, kind):
    errors = errors_for(tmp_path, HEAD.replace("  pile: {visible: top}", f"  pile: {{visible: top}}\n  {name}: {{}}")
                        + PHASES)
    assert any(f"`{name}` is a word of the language and cannot name a {kind}" in e.message for e in errors)


def test_one_name_for_two_things(tmp_path):
    text = HEAD.replace("  trump: {type: suit, start: none}", "  trump: {type: suit, start: none}\n  pile: 0") + PHASES
    errors = errors_for(tmp_path, text)
    assert any("`pile` names both a zone and a variable" in e.message for e in errors)


def test_visible_owner_needs_each_player(tmp_path):
    text = HEAD.replace("trump: {type: suit, start: none}", "trump: {type: suit, start: none, visible: owner}")
    errors = errors_for(tmp_path, text + PHASES)
    assert any("`visible: owner` needs `each: player`" in e.message for e in errors)


def test_deal_without_stock(tmp_path):
    text = HEAD.replace("  stock: {visible: nobody}\n", "").replace("gather into stock", "gather into pile") \
        .replace("shuffle stock", "shuffle pile")
    errors = errors_for(tmp_path, text + PHASES)
    assert any("deals from `stock`, and there is no zone `stock`" in e.message for e in errors)


def test_deal_size_uses_every_option_choice(tmp_path):
    text = HEAD.replace("choices: [5, 7]", "choices: [5, 14]")
    errors = errors_for(tmp_path, text + PHASES)
    assert errors[0].category == "deal"
    assert "dealing 14 cards to each of 4 players needs 56 cards" in errors[0].message


def test_parameter_must_range_over_a_list_or_zone(tmp_path):
    errors = errors_for(tmp_path, HEAD + PHASES.replace("with: c in my hand", "with: c in 5"))
    assert any("`c` must range over a zone or a list, not a number" in e.message for e in errors)


LISTED_IF = PHASES.replace("        if: playable(c)\n", """\
        if:
          - c.rank != 2
          - {if: playable(c), help: a card of the pile's suit or rank}
""")


def test_an_if_written_as_a_list_is_all_of_its_conditions_with_their_help(tmp_path):
    _, rules = clean(tmp_path, HEAD + LISTED_IF)
    play = rules.phases[0].actions["play"]
    assert [text for _, text in play.conditions] == ["", "a card of the pile's suit or rank"]
    first, second = (node for node, _ in play.conditions)
    assert play.guard is not None and (play.guard.left, play.guard.right) == (first, second), "one `and` of them"
    assert (first.span.line, second.span.line) == (25, 26)


def test_each_condition_of_a_listed_if_is_checked_where_it_is(tmp_path):
    errors = errors_for(tmp_path, HEAD + LISTED_IF.replace("- c.rank != 2", "- c.rank"))
    assert [(e.span.line, e.message) for e in errors] == [
        (25, "the `if:` of action `play` must be true/false, but this is a rank")]
    errors = errors_for(tmp_path, HEAD + LISTED_IF.replace("{if: playable(c), help:", "{help:"))
    assert [(e.span.line, e.message) for e in errors] == [(26, "`phases.main.actions.play.if.1` needs `if:`")]


def test_phase_first_and_ends_types(tmp_path):
    text = HEAD + PHASES.replace("  main:\n", "  main:\n    first: 3\n    ends: pile.size\n")
    messages = [e.message for e in errors_for(tmp_path, text)]
    assert any("`first` of phase `main` must be a player" in m for m in messages)
    assert any("`ends` of phase `main` must be true/false" in m for m in messages)


def test_match_score_has_p(tmp_path):
    spec, _ = clean(tmp_path, HEAD + PHASES + "match:\n  score: p.score\n  ends: true\n")
    assert isinstance(spec.match.score, ast.Attr)
    errors = errors_for(tmp_path, HEAD + PHASES + "match:\n  score: q.score\n")
    assert errors[0].message == "unknown name `q`"


def test_user_function_recursion_through_others(tmp_path):
    text = HEAD.replace("define:\n", "define:\n  a(): b()\n  b(): c()\n  c(): a()\n") + PHASES
    errors = errors_for(tmp_path, text)
    assert any("calls itself" in e.message for e in errors)


def test_direct_recursion(tmp_path):
    text = HEAD.replace("define:\n", "define:\n  f(int n): f(n - 1)\n") + PHASES
    errors = errors_for(tmp_path, text)
    assert any("function `f` calls itself" in e.message for e in errors)


def test_var_type_is_inferred_from_start(tmp_path):
    spec, rules = clean(tmp_path, HEAD.replace("trump: {type: suit, start: none}", "trump: {start: hearts}") + PHASES)
    assert rules.var_types["trump"] == "suit"
    assert rules.var_types["score"] == "int"
    assert spec.vars["trump"].type is None, "the checker leaves the rule file's model as it was"


def test_an_expression_is_not_an_effect(tmp_path):
    errors = errors_for(tmp_path, HEAD + PHASES.replace("pass: {do: end turn}", "pass: {do: [end turn, 'x']}"))
    assert errors[0].category == "syntax"


def test_no_phases(tmp_path):
    errors = errors_for(tmp_path, HEAD + "phases: {}\n")
    assert errors[0].category == "schema"


def test_unknown_names_are_name_errors_everywhere(tmp_path):
    text = HEAD + PHASES.replace("pass: {do: end turn}", "pass: {do: [scroe = 1, deal 1 to each hnad, goto nowhere]}")
    errors = errors_for(tmp_path, text)
    assert len(errors) == 3
    assert {e.category for e in errors} == {"name"}


def test_list_concatenation_checks_element_types(tmp_path):
    text = HEAD.replace("  playable(card c)", "  mixed(): \"[1] + [hearts]\"\n  playable(card c)") + PHASES
    errors = errors_for(tmp_path, text)
    assert errors[0].category == "type"


HOUSE = """\
game: house
players: 1
deck: standard52
zones:
  stock: {visible: nobody}
  dealer: {visible: all}
  hand: {each: player, visible: owner}
vars:
  spoken: 0
deal:
  - gather into stock
  - deal 2 to each hand
  - move stock.top to dealer
phases:
  play:
    actions:
      hit:
        if: dealer.size < 5 and spoken < 3
        do: [move stock.top to dealer, spoken += 1]
      stand:
        do: spoken += BROKEN
    steps:
      main: [hit, stand]
deal ends: spoken >= 2 or dealer.size > 4
match:
  ends: deal_number >= 1
  score: my hand.size + dealer.size
"""


def test_a_zone_named_with_a_word_of_the_language_is_one_error_not_one_at_every_use(tmp_path):
    """`dealer` is the language's player: its uses would each fail to parse or to type (5 errors
    more); they are left out, and a mistake on a line that does not name it is still told."""
    errors = errors_for(tmp_path, HOUSE.replace("BROKEN", "1"))
    assert [(e.span.line, e.span.col) for e in errors] == [(6, 3)]
    assert "`dealer` is a word of the language and cannot name a zone" in errors[0].message
    assert "`dealer_zone`" in (errors[0].hint or "")
    errors = errors_for(tmp_path, HOUSE.replace("BROKEN", "ghost"))
    assert [e.span.line for e in errors] == [6, 21] and "ghost" in errors[1].message
    renamed = HOUSE.replace("BROKEN", "1").replace("dealer", "bank")
    assert clean(tmp_path, renamed)[0].zones.keys() == {"stock", "bank", "hand"}
