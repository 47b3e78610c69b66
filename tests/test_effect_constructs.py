"""Procedures, loops, `check events`, `turn X face up`, computed move text and anchors spliced into
effect lists, as whole rule files load and play them (the cases one effect at a time are in
tests/compliance/procedures_and_loops.yaml)."""
from __future__ import annotations

import random

import pytest

import koloda
from koloda.interpreter.words.refusal import why_refused

GAME = """\
game: probe
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  row: {}
  hand: {each: player, visible: owner}
vars:
  drawn: {type: int, start: 0}
procedures:
  draw(player p, int n):
    - repeat: n
      do: [move stock.top to p.hand, check events, drawn += 1]
events:
  stock runs out:
    when: stock.size == 0 and row.size > 1
    do:
      - move [c for c in row if c != row.top] to stock
      - shuffle stock
deal: &fresh
  - gather into stock
  - shuffle stock
  - deal 3 to each hand
phases:
  main:
    actions:
      take:
        with: c in my hand
        text: "lay {c} ({value(c) * 2} points)"
        do: [move c to row face down, "draw(me, 2)", turn row.top face up]
      again:
        if: drawn > 40
        do: [*fresh, drawn = 0]
      stop:
        if: drawn > 30
        do: end deal
    steps:
      main: [take, again, stop]
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("effects") / "probe.yaml"
    path.write_text(GAME, encoding="utf-8")
    return koloda.load(str(path))


def test_a_whole_game_with_procedures_loops_and_events_in_an_action_plays_to_the_end(game):
    for seed in range(3):
        s = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        # 3 + 3 dealt, each `take` lays one and draws two: the stock was refilled from the row mid-draw
        assert s.vars[game.layout.var_base["drawn"]] > 30


def test_computed_values_are_shown_in_the_move_text_and_typed_back(game):
    s = game.new_initial_state(seed=1)
    hand = s.zones[game.layout.zone_base["hand"] + s.current]
    c = hand[0]
    shown = [s.action_to_string(a) for a in s.legal_actions()]
    label, name = game.cards.labels[c], game.cards.names[c]
    points = 2 * game.cards.values[c]
    text = f"lay {label} ({points} points)"
    assert text in shown
    typed = f"lay {name.lower()} ({points} points)"
    assert s.action_to_string(s.string_to_action(typed)) == text
    # a player who may not know the card sees neither it nor the value computed from it
    action = s.string_to_action(typed)
    assert game.view.describe(s, action, 1 - s.current) == "lay a card (? points)"


def test_a_typed_move_with_a_computed_text_is_explained_when_refused(game):
    s = game.new_initial_state(seed=1)
    other = s.zones[game.layout.zone_base["hand"] + 1 - s.current][0]
    said = f"lay {game.cards.names[other]} (2 points)"
    reason = why_refused(s, said, s.current)
    assert reason is not None and "lay" in reason


def test_turned_face_up_where_it_lies_the_card_is_seen_by_those_who_see_its_zone(game):
    s = game.new_initial_state(seed=2)
    row = game.layout.zone_base["row"]
    for c in list(s.zones[row]):
        assert s.face[c]
    s.apply_action(s.legal_actions()[0])
    top = s.zones[row][-1]
    assert s.face[top]                               # laid face down, then turned up in the same action
    assert s.known[top] == 0b11                      # both players see the row
    assert game.cards.names[top] in game.view.observe(s, 1 - s.current)["zones"][
        [z["zone"] for z in game.view.observe(s, 0)["zones"]].index("row")]["cards"]


def test_an_anchored_effect_list_is_spliced_where_its_alias_stands(game):
    action = game.rules.phases[0].actions["again"]
    assert [type(e).__name__ for e in action.effects] == ["Gather", "Shuffle", "Deal", "Assign"]


def test_an_error_in_an_anchored_list_is_reported_where_it_is_written(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(GAME.replace("  - deal 3 to each hand", "  - deal 3 to each hnd"), encoding="utf-8")
    with pytest.raises(koloda.RuleErrors) as info:
        koloda.load(str(path))
    assert {(e.span.line, "hnd" in e.message) for e in info.value.errors} == {(23, True)}


LIBRARY = """\
library: helpers
procedures:
  give(player p, int n):
    - repeat: n
      do: move stock.top to p.hand
"""

USER = """\
game: user
import: [helpers]
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
deal: [gather into stock, shuffle stock, "give(players[0], 2)", "give(players[1], 1)"]
phases:
  main:
    actions:
      stop:
        do: end deal
"""


def test_procedures_come_from_libraries_and_variants_replace_them(tmp_path):
    (tmp_path / "helpers.yaml").write_text(LIBRARY, encoding="utf-8")
    (tmp_path / "user.yaml").write_text(USER, encoding="utf-8")
    (tmp_path / "variant.yaml").write_text(
        "extends: user\ngame: variant\nprocedures:\n  give(player p, int n): [\"repeat: 0\"]\n", encoding="utf-8")
    base = koloda.load(str(tmp_path / "user.yaml"))
    s = base.new_initial_state(seed=0)
    hand = base.layout.zone_base["hand"]
    assert [len(s.zones[hand]), len(s.zones[hand + 1])] == [2, 1]
    (tmp_path / "variant.yaml").write_text(
        "extends: user\ngame: variant\nprocedures:\n  give(player p, int n): [move stock.top to p.hand]\n",
        encoding="utf-8")
    variant = koloda.load(str(tmp_path / "variant.yaml"))
    s = variant.new_initial_state(seed=0)
    assert [len(s.zones[hand]), len(s.zones[hand + 1])] == [1, 1]
