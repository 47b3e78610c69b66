"""What the table tells a player of other players' moves: hidden cards counted, not repeated, and a
shared zone emptied into several players' zones told as such, not as taken whole by the last of them."""
from __future__ import annotations

import koloda
from koloda.ui.table import taken_lines


def test_a_secret_discard_of_two_cards_reads_two_cards():
    g = koloda.load("cribbage", players=2)
    s = g.new_initial_state(seed=1)
    mover = s.current
    action = s.legal_actions()[0]
    shown = s.action_to_string(action)
    s.apply_action(action)
    assert len(shown.split()) == 3                               # `discard A♠ Q♠`
    assert g.describe(s, action, 1 - mover) == "discard two cards"
    assert g.describe(s, action, mover) == shown                 # the mover still knows their cards


def test_a_count_going_back_to_its_players_is_not_taken_by_the_last():
    g = koloda.load("cribbage", players=2)
    s = g.new_initial_state(seed=1)
    pile = g.layout.zone_base["pile"]
    while not any(len(m) and m[0] == pile for m in s.moved):     # play until a count ends
        s.apply_action(s.legal_actions()[0])
    records = [m for m in s.observation(0)["moved"] if m["from"] == "pile"]
    assert len(records) == 2 and not any(m["whole"] for m in records) and all(m["shared"] for m in records)
    [line] = taken_lines(g, s, 0)
    text = line.plain
    assert text.startswith("The count goes back: you ") and ", P2 " in text and "takes" not in text
    for m in records:                                            # every card of the count, after its owner
        who = "you" if m["owner"] == 0 else f"P{m['owner'] + 1}"
        assert f"{who} " + " ".join(g.cards.labels[g.cards.parse(c)[0]] for c in m["cards"]) in text
        assert all(p == m["owner"] for p in m["by"])


def test_a_defender_taking_the_table_is_told_by_the_zones_labels():
    g = koloda.load("durak", players=2)
    s = g.new_initial_state(seed=2)
    lines: list[str] = []
    while not lines:                          # throw in or take whenever the rules allow, else the first move
        texts = {s.action_to_string(a): a for a in s.legal_actions()}
        pick = next((a for t, a in texts.items() if t == "take" or t.startswith("throw")), s.legal_actions()[0])
        s.apply_action(pick)
        lines = [x.plain for x in taken_lines(g, s, 0)]
    assert all(" the cards to beat: " in x or " the beaten cards: " in x for x in lines), lines
    assert lines[0].startswith(("You take the ", "P2 takes the "))
