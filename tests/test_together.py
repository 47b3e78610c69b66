"""`turns: together` on its own (docs/language.md §8.7): what the checker lets in, how the engine
plays it (in turn, unseen) and the round the research tools see (koloda/episode.py)."""
from __future__ import annotations

import json
import textwrap

import pytest

import koloda
from koloda.api import load_spec
from koloda.compact import CompactGame
from koloda.dsl.errors import RuleErrors
from koloda.episode import Episode, Table

# three players each throw a card of their own at the same time; the highest takes a point
THROWS = """\
game: throws
players: 3
deck: {ranks: [2, 3, 4], suits: [clubs, diamonds, spades]}
zones:
  hand: {each: player, visible: owner}
  thrown: {each: player, visible: owner}
  aside: {visible: nobody}
  shown: {visible: all}
vars:
  points: {each: player, start: 0}
  secret: {each: player, start: 0, visible: owner}
setup:
  - move [c for c in all_cards if c.suit == clubs] to players[0].hand
  - move [c for c in all_cards if c.suit == diamonds] to players[1].hand
  - move [c for c in all_cards if c.suit == spades] to players[2].hand
phases:
  throw:
    first: players[0]
    turns: together
    start: ["SKIP"]
    actions:
      throw: {with: c in my hand, do: [move c to my thrown, my secret += 1, GUARDED]}
      hide: {if: "my hand.size == 3 and HIDE", do: move my hand.top to aside}
scoring:
  - for: p in players
    do: move p.thrown to shown
match:
  ends: deal_number >= 2
  score: p.points
"""


def rules(tmp_path, skip="check events", guarded="check events", extra="", hide="true"):
    path = tmp_path / "throws.yaml"
    text = THROWS.replace("SKIP", skip).replace("GUARDED", guarded).replace("HIDE", hide)
    path.write_text(text + extra, encoding="utf-8")
    return str(path)


def test_a_together_phase_checks_with_hidden_choices_and_its_flag_is_kept(tmp_path):
    spec, checked = load_spec(rules(tmp_path))
    assert spec.phases[0].together and spec.phases[0].once
    assert checked.phases[0].together and checked.phases[0].once


def test_the_engine_plays_it_in_turn_and_nobody_sees_an_earlier_choice(tmp_path):
    game = koloda.load(rules(tmp_path))
    s = game.new_initial_state(0)
    assert s.current_player() == 0
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 1
    seen = json.loads(CompactGame(game).wrap(s).observation_string(1).split(": ", 1)[1].split("\n")[0])
    (thrown,) = [z for z in seen["zones"] if z["zone"] == "thrown" and z["owner"] == 0]
    assert thrown["size"] == 1 and "cards" not in thrown


def test_the_research_tools_see_one_round_of_every_chooser(tmp_path):
    game = koloda.load(rules(tmp_path))
    episode = Episode(Table(game), 0)
    round = episode.together_round()
    assert round is not None and [seat for seat, _ in round.order] == [0, 1, 2]
    assert all(len(legal) == 4 for _, legal in round.order)      # three cards or `hide`
    assert len({legal for _, legal in round.order}) == 3
    episode.play_together(round, {seat: legal[-1] for seat, legal in round.order})
    assert episode.together_round() is not None                   # the next deal's round
    copy = episode.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.together_round() is None, "in the middle of a round, the engine's seat to move"


def test_a_skipped_player_does_not_choose_in_the_round(tmp_path):
    # `turns: once` counts three turns: P1, P3, and P1 again, whose second turn is a node of its own
    game = koloda.load(rules(tmp_path, skip="skip players[1]"))
    episode = Episode(Table(game), 0)
    round = episode.together_round()
    assert round is not None and [seat for seat, _ in round.order] == [0, 2]
    episode.play_together(round, {seat: legal[0] for seat, legal in round.order})
    assert episode.current_player() == 0 and episode.together_round() is None


def test_a_guard_that_reads_another_s_choice_stops_the_round_with_a_message(tmp_path):
    # P3 may hide only if P1 threw: listed on a copy where P1 threw, but P1 hides instead
    path = rules(tmp_path, hide="(me == players[0] or players[0].thrown.size == 1)")
    episode = Episode(Table(koloda.load(path)), 0)
    round = episode.together_round()
    assert round is not None and len(round.legal[2]) == 4
    tokens = {seat: max(legal) for seat, legal in round.order}       # everyone hides
    with pytest.raises(ValueError, match="must not depend on another's choice"):
        episode.play_together(round, tokens)


@pytest.mark.parametrize("effect, message", [
    ("move c to shown", "puts a card where the other players see it"),
    ("my points += 1", "changes a variable the other players see"),
    ("reveal c to all", "`reveal` cannot be in phase `throw`"),
    ("end deal", "`end deal` cannot be in phase `throw`"),
])
def test_what_would_tell_or_change_the_turns_is_refused_where_it_is_written(tmp_path, effect, message):
    with pytest.raises(RuleErrors) as caught:
        load_spec(rules(tmp_path, guarded=effect))
    errors = caught.value.errors
    assert any(message in e.message for e in errors), [e.message for e in errors]
    assert all(e.span.line == 22 for e in errors if message in e.message)


def test_a_procedure_run_by_a_together_action_is_checked_too(tmp_path):
    extra = textwrap.dedent("""\
        procedures:
          tell_all(player p):
            - say "{p} threw" to all
        """)
    with pytest.raises(RuleErrors, match="`say` cannot be in phase `throw`"):
        load_spec(rules(tmp_path, guarded="tell_all(me)", extra=extra))
