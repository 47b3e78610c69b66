"""The game's own trick order: `winner(trick, trump, power, suit_of)` and `highest(cards, order)`.

Played on tests/games/bowers.yaml: Euchre's bowers (a trump-dependent order and the left bower
counted as a trump), or, with option `tens_high`, Тысяча's A 10 K Q J 9 from a table of values."""
from __future__ import annotations

import random
from pathlib import Path

import koloda
from koloda.interpreter.codegen import generate
from koloda.interpreter.words.refusal import why_refused
from tests.helpers import act, get_var, legal, setup, zone_cards

GAME = Path(__file__).parent / "games" / "bowers.yaml"
HANDS = {("hand", 0): "AS 9S QC 10C KD", ("hand", 1): "JD 9C AC KC 10D",
         ("hand", 2): "KS JC QD 9D AH", ("hand", 3): "10S JH QS 10H 9H", "upcard": "AD"}


def position(**options):
    game = koloda.load(str(GAME), options=options, players=4)
    s = game.new_initial_state(seed=3, dealer=3)
    return setup(s, zones=HANDS, vars={"trump": "hearts"}, current=0)


def test_the_left_bower_follows_trump_and_takes_the_trick():
    s = position()
    act(s, "play AS")
    # P2 holds no spade, and the jack of diamonds counts as a heart: every card may be played
    assert len(legal(s)) == 5
    act(s, "play JD")
    act(s, "play KS")
    # P4 has a spade: the left bower did not change the suit led
    assert sorted(legal(s, plain=True)) == ["play 10S", "play QS"]
    act(s, "play 10S")
    assert get_var(s, ("tricks", 1)) == 1 and get_var(s, ("tricks", 0)) == 0     # P2's side
    assert s.current == 1 and zone_cards(s, "trick") == []


def test_a_led_left_bower_asks_for_trumps():
    s = setup(position(), current=1)
    act(s, "play JD")
    # trump was led: P3 must play the ace of hearts, though holding diamonds
    assert legal(s, plain=True) == ["play AH"]
    act(s, "play AH")
    assert sorted(legal(s, plain=True)) == ["play 10H", "play 9H", "play JH"]
    act(s, "play 9H")
    act(s, "play AS")
    assert get_var(s, ("tricks", 1)) == 1 and s.current == 1      # JD over AH: P2 leads again


def test_the_right_bower_is_the_highest_card():
    s = setup(position(), current=3)
    act(s, "play JH")
    act(s, "play AS")
    act(s, "play JD")
    act(s, "play AH")
    assert get_var(s, ("tricks", 1)) == 1 and s.current == 3      # JH over the left bower and AH


def test_tens_high_ranks_the_ten_over_the_king_and_the_jack_is_ordinary():
    s = setup(position(tens_high=True), current=1)
    act(s, "play KC")
    act(s, "play JC")
    act(s, "play 10S")            # P4 has no club
    act(s, "play 10C")
    assert get_var(s, ("tricks", 0)) == 1 and s.current == 0     # the ten of clubs (P1) over the king


def test_fast_and_checked_code_agree(monkeypatch):
    def trace(game):
        s = game.new_initial_state(seed=5)
        rng = random.Random(5)
        out = []
        while not s.is_terminal():
            out.append((s.current, s.legal_actions()))
            s.apply_action(rng.choice(s.legal_actions()))
        return out, s.returns()
    fast = koloda.load(str(GAME), players=4)
    monkeypatch.setattr(generate, "ALL_CHECKED", True)        # the flow written checked throughout
    slow = koloda.load(str(GAME), players=4)
    assert trace(fast) == trace(slow)


def test_a_guard_with_the_order_is_explained_when_it_refuses_a_move(tmp_path):
    # a variant: lead your strongest card by the game's order
    text = GAME.read_text(encoding="utf-8").replace(
        "        if: may_play(c)\n", "        if: may_play(c) and (trick.size > 0 or c == highest(my hand, power))\n")
    assert "highest(my hand, power)" in text
    path = tmp_path / "lead_best.yaml"
    path.write_text(text, encoding="utf-8")
    game = koloda.load(str(path), players=4)
    s = setup(game.new_initial_state(seed=3, dealer=3), zones=HANDS, vars={"trump": "hearts"}, current=1)
    assert legal(s, plain=True) == ["play JD"]          # the left bower, over AC by the order
    why = why_refused(s, "play AC")
    assert why is not None and "highest" in why
