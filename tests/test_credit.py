"""Who a card on the table is credited to: the player whose hand it left, not whoever's action moved it
(the dummy's hand laid down by the opening leader, a card played from the dummy, an attack card beaten
and moved aside by the defender), and zones laid out as pairs or as a hand (`arrange:`)."""
from __future__ import annotations

import random
import re

from rich.console import Console

import koloda
from koloda.ui.table import render

from helpers import zone_index


def _text(game, state, viewer) -> str:
    console = Console(width=200, record=True, force_terminal=False)
    console.print(render(game, state, viewer))
    return console.export_text()


def _bridge_until_dummy_plays(seed: int):
    g = koloda.load("bridge")
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    dummy = zone_index(g, "dummy")
    laid = None
    while not s.is_terminal():
        legal = s.legal_actions()
        from_dummy = [a for a in legal if g.action_to_string(a).endswith("from dummy")]
        a = from_dummy[0] if from_dummy and laid is not None else rng.choice(legal)
        s.apply_action(a)
        if laid is None and len(s.zones[dummy]) == 13:
            laid = s.clone()
        if from_dummy and a in from_dummy and laid is not None:
            return g, laid, s, g.cards.parse(g.action_to_string(a, plain=True).split()[1])[0]
    raise AssertionError("no card was played from the dummy")


def test_the_dummy_s_cards_are_the_dummy_s_and_lie_sorted_as_a_hand():
    g, laid, _, _ = _bridge_until_dummy_plays(4)
    declarer = laid.vars[g.layout.var_base["declarer"]]
    dummy_seat = (declarer + 2) % 4
    cards = laid.zones[zone_index(g, "dummy")]
    assert {laid.by[c] for c in cards} == {dummy_seat}       # laid down in the leader's action, but the dummy's
    viewer = (declarer + 1) % 4
    row = next(line for line in _text(g, laid, viewer).splitlines() if line.strip().startswith("dummy"))
    assert f"dummy (P{dummy_seat + 1})" in row
    shown = re.findall(r"(10|[2-9JQKA])([♠♥♣♦])", row)
    suits = [suit for _, suit in shown]
    assert len(shown) == 13 and suits == sorted(suits, key="♠♥♣♦".index)      # by suit, as a hand is
    assert f"P{dummy_seat + 1}" not in row.split(")", 1)[1]                   # no seat after every card


def test_a_card_played_from_the_dummy_is_the_dummy_s_not_the_declarer_s():
    g, _, s, card = _bridge_until_dummy_plays(4)
    declarer = s.vars[g.layout.var_base["declarer"]]
    assert s.by[card] == (declarer + 2) % 4
    trick = next(z for z in s.observation(declarer)["zones"] if z["zone"] == "trick")
    assert trick["by"][trick["cards"].index(g.cards.names[card])] == (declarer + 2) % 4
    row = next(line for line in _text(g, s, declarer).splitlines() if line.strip().startswith("trick"))
    label = g.cards.labels[card]
    assert f"{label} P{(declarer + 2) % 4 + 1}" in row and f"{label} you" not in row


def test_durak_s_beaten_cards_lie_in_pairs_each_with_who_put_it():
    g = koloda.load("durak", players=3)
    pairs_seen = 0
    for seed in range(20):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        put: dict[str, int] = {}              # each card on the table, by the player who played it
        while not s.is_terminal() and pairs_seen < 6:
            player = s.current_player()
            legal = s.legal_actions()
            beats = [a for a in legal if g.action_to_string(a, plain=True).startswith("beat")]
            a = beats[0] if beats else rng.choice(legal)
            words = g.action_to_string(a, plain=True).split()
            s.apply_action(a)
            if words[0] in ("attack", "throw", "transfer"):
                put[words[1]] = player
            if words[0] != "beat":
                continue
            attack, beat = words[1], words[3]
            put[beat] = player
            text = _text(g, s, player)
            row = next(line for line in text.splitlines() if line.strip().startswith("beaten cards"))
            a_label, b_label = (g.cards.labels[g.cards.parse(x)[0]] for x in (attack, beat))
            attacker = "you" if put[attack] == player else f"P{put[attack] + 1}"
            assert attacker != "you"
            assert f"{a_label} {attacker} / {b_label} you" in row, row
            pairs_seen += 1
    assert pairs_seen == 6
