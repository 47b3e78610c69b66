"""Who played which card: a shared open zone shows who put each card there, and a move that takes such
a zone whole tells its cards and their players (Oh Hell's tricks), without revealing a hidden card."""
from __future__ import annotations

import re

import json
import random

import pytest
from click.testing import CliRunner

import koloda
from koloda.agents.sampling import determinize
from koloda.cli.main import main
from koloda.session import SaveError, Session
from koloda.ui.table import render, taken_lines

from helpers import act, new_state, roundtrip, snapshot

# 4 players, dealer P1 (P2 leads), 3 cards each, 7♥ turned up. Trick 1: P2 3♣, P3 K♠ (void in clubs),
# P4 5♣, P1 9♣: P1 takes it with the highest club.
HANDS = ["3S 6D 9C", "AS 2H 3C", "KS 5S 4D", "2S AH 5C"]


def scripted():
    g = koloda.load("peklo", options={"deal_size": 3}, players=4)
    seed = next(seed for seed in range(200) if g.new_initial_state(seed).dealer == 0)
    s = new_state(g, seed, hands=HANDS, then="7H")
    for _ in range(4):
        act(s, "bid 1")
    return g, s


def trick_entry(s, viewer: int) -> dict:
    return next(z for z in s.observation(viewer)["zones"] if z["zone"] == "trick")


def test_a_trick_under_way_shows_who_played_each_card():
    g, s = scripted()
    for c in ("3C", "KS", "5C"):
        act(s, f"play {c}")
    entry = trick_entry(s, 0)
    assert entry["cards"] == ["3C", "KS", "5C"] and entry["by"] == [1, 2, 3]
    assert re.search(r"trick +3♣ P2 · K♠ P3 · 5♣ P4", render(g, s, 0).plain)
    assert "3♣ you · K♠ P3 · 5♣ P4" in render(g, s, 1).plain
    assert s.moved == (), "cards played from a hand are not noted: only what leaves an open shared zone"
    assert taken_lines(g, s, 0) == []


def test_the_finished_trick_is_told_with_its_players_and_winner():
    g, s = scripted()
    for c in ("3C", "KS", "5C", "9C"):
        act(s, f"play {c}")
    assert trick_entry(s, 0)["cards"] == [], "the trick is cleared at once"
    [line] = taken_lines(g, s, 0)
    assert line.plain == "You take the trick: P2 3♣, P3 K♠, P4 5♣, you 9♣"
    [line] = taken_lines(g, s, 2)
    assert line.plain == "P1 takes the trick: P2 3♣, you K♠, P4 5♣, P1 9♣"
    [moved] = s.observation(3)["moved"]
    assert moved == {"from": "trick", "to": "won", "owner": 0, "cards": ["3C", "KS", "5C", "9C"],
                     "by": [1, 2, 3, 0], "whole": True}
    act(s, "play 6D")                               # the next action starts a fresh record
    assert s.moved == () and taken_lines(g, s, 0) == []


def test_the_record_survives_clone_and_json():
    g, s = scripted()
    for c in ("3C", "KS", "5C", "9C"):
        act(s, f"play {c}")
    assert s.moved
    assert s.clone().moved == s.moved
    back = roundtrip(s)
    assert back.moved == s.moved and snapshot(back) == snapshot(s)
    assert back.observation(0) == s.observation(0)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.moved and not c.moved, "playing on a clone leaves the original's record alone"


def test_a_save_written_before_the_record_still_loads(tmp_path):
    game = koloda.load("peklo", options={"deal_size": 3}, players=4)
    session = Session.start("peklo", game, ["random"] * 4, 5)
    while not session.state.moved:                  # up to the move that takes the first trick
        session.play(session.state.legal_actions()[0])
    path = tmp_path / "s.save.json"
    session.save(path)
    data = json.loads(path.read_text())
    assert data["state"]["moved"]
    del data["state"]["moved"]
    path.write_text(json.dumps(data))
    assert Session.load(path).state.moved == session.state.moved
    data["state"]["moved"] = []                     # a record that does not follow from the moves
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="does not follow from its moves"):
        Session.load(path)


def test_a_seat_sees_the_same_whatever_the_hidden_cards():
    g, s = scripted()
    for c in ("3C", "KS", "5C", "9C", "6D"):
        act(s, f"play {c}")
        for p in range(4):
            twins = [determinize(s, p, random.Random(seed)) for seed in range(4)]
            assert any(snapshot(t) != snapshot(s) for t in twins), "the twins differ in hidden cards"
            for twin in twins:
                twin.history = s.history[:]             # the moves so far (a determinization forgets them)
                assert twin.observation(p) == s.observation(p)
                assert [x.plain for x in taken_lines(g, twin, p)] == [x.plain for x in taken_lines(g, s, p)]


FACE_DOWN = """\
game: middle
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
  middle: {visible: all}
  taken: {each: player, visible: nobody}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      hide:
        with: c in my hand
        text: "hide {c}"
        do: [move c to middle face down]
      show:
        with: c in my hand
        text: "show {c}"
        do: [move c to middle]
      take:
        if: middle.size > 0
        do: [move middle to my taken]
deal ends: all(p.hand.size == 0 for p in players)
match: {ends: "true"}
"""


def test_a_card_face_down_in_an_open_zone_is_never_named(tmp_path):
    path = tmp_path / "middle.yaml"
    path.write_text(FACE_DOWN, encoding="utf-8")
    g = koloda.load(str(path))
    s = g.new_initial_state(1)
    hidden = s.zones[g.layout.zone_base["hand"]][0]
    act(s, f"hide {g.cards.names[hidden]}")                 # P1 lays a card face down
    shown_card = s.zones[g.layout.zone_base["hand"] + 1][0]
    act(s, f"show {g.cards.names[shown_card]}")             # P2 shows one
    middle = next(z for z in s.observation(1)["zones"] if z["zone"] == "middle")
    assert middle["cards"] == [None, g.cards.names[shown_card]] and middle["by"] == [None, 1]
    act(s, "take")                                          # P1 takes the middle whole
    for viewer in (0, 1):
        [moved] = s.observation(viewer)["moved"]
        assert moved["cards"] == [None, g.cards.names[shown_card]] and moved["by"] == [None, 1]
        assert g.cards.labels[hidden] not in taken_lines(g, s, viewer)[0].plain
    assert taken_lines(g, s, 1)[0].plain == f"P1 takes the middle: ▒▒, you {g.cards.labels[shown_card]}"


def test_the_table_tells_each_trick_as_it_is_taken(tmp_path):
    result = CliRunner().invoke(main, ["play", "peklo", "-p", "4", "--seat", "human", "--fast", "--seed", "3",
                                       "-o", "deal_size=2", "--save", str(tmp_path / "s.json")], input="1\n" * 10)
    out = result.output
    assert "Traceback" not in out
    told = [line for line in out.splitlines() if " the trick: " in line]
    assert len(told) == 2, out                       # two cards each: two tricks
    for line in told:
        assert line.startswith(("You take the trick: ", "P2 takes", "P3 takes", "P4 takes"))
        assert line.count(",") == 3, "four cards, each with who played it"
        assert all(f"{p} " in line for p in ("you", "P2", "P3", "P4"))
