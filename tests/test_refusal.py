"""Why a typed move is refused: the rule it breaks, in the rule file's words, on dealt positions."""
from __future__ import annotations

import functools

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

import koloda
from koloda.agents.human import match_move
from koloda.cli.main import main
from koloda.interpreter.words.refusal import why_refused

from helpers import act, legal


def kunkin_melding(hand: str):
    """Kun-kin, P1 to move with `hand` and the card it draws from the stock (the 5♣, as seed 1 deals)."""
    g = koloda.load("kunkin", options={"hand": len(hand.split())}, players=2)
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": hand, "P2 hand": "4D 6D 8D TD", "pile": "2D"})
    act(s, "draw")
    assert s.step == "melding"
    return s


def pony(hand: str, pile: str, other: str = "7D 8D 9D TD JD"):
    g = koloda.load("pony", players=2)
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": hand, "P2 hand": other, "pile": pile})
    assert s.current == 0 and s.step == "turn"
    return s


def peklo_trick():
    """Oh Hell, 4 players, 3 cards: everyone bid 0, P2 led 3♣, P3 played K♠ (void); P4 to play."""
    g = koloda.load("peklo", options={"deal_size": 3}, players=4)
    s = g.new_initial_state(0, dealer=0, hands={"P1 hand": "3S 6D 9C", "P2 hand": "AS 2H 3C",
                                                "P3 hand": "KS 5S 4D", "P4 hand": "2S AH 5C"})
    for text in ["bid 0"] * 4 + ["play 3C", "play KS"]:
        act(s, text)
    assert s.current == 3
    return s


# ------------------------------------------------------------------ the guard, part by part
def test_a_kunkin_meld_short_of_the_opening_says_which_condition_fails():
    s = kunkin_melding("2S 3S 4S 9D")
    assert "meld 2♠ 3♠ 4♠" not in legal(s)
    # in the player's words: the condition's help, its values worked out for this meld
    assert why_refused(s, "meld 2S 3S 4S") == ("`meld 2♠ 3♠ 4♠` is not allowed now: 31 points short of the 40 "
                                               "opening, and the rest of your hand cannot make them up this turn")
    assert why_refused(s, "meld 2S 3S 4S", language="ru") == (
        "`meld 2♠ 3♠ 4♠` сейчас нельзя: до открытия (40 очков) не хватает 31, и остальные карты руки их за этот "
        "ход не доберут")
    # as the rule file writes it, for a designer
    why = why_refused(s, "meld 2S 3S 4S", rule_text=True)
    assert why is not None
    assert why.splitlines()[0] == "`meld 2♠ 3♠ 4♠` is not allowed now: `opens(m)` is false:"
    assert "- `my opened` is false" in why
    assert "- `short(m) <= 0` is false: 31 <= 0" in why, "40 points less the meld's 9 are still needed"
    assert "- `best_points_after(m, left, keep(), short(m)) >= short(m)` is false: 0 >= 31" in why


def test_pony_draw_is_refused_while_a_card_can_be_played():
    s = pony("8H 9C AS KD QD", "7H")
    assert "draw" not in legal(s)
    assert why_refused(s, "draw") == ("`draw` is not allowed now: only when no card in your hand can be played; "
                                      "exactly one card")
    why = why_refused(s, "draw", rule_text=True)
    assert why == ("`draw` is not allowed now: `can_play()` is true: "
                   "`any(playable(c) for c in my hand)` is true (for c = 8♥)")


def test_a_card_that_does_not_fit_is_told_part_by_part_from_a_folded_function():
    assert why_refused(pony("8H 9C AS KD QD", "7H"), "play 9C") == (
        "`play 9♣` is not allowed now: 9♣ does not fit 7♥: play its suit or rank (the named suit after a jack), "
        "or a jack")
    why = why_refused(pony("8H 9C AS KD QD", "7H"), "play 9C", rule_text=True)
    assert why is not None
    assert why.startswith("`play 9♣` is not allowed now: `playable(c)` is false:")
    assert "- `c.rank == J` is false: 9 == J" in why
    # quoted from a more indented line of a `>-` text, the branch the named suit (none) takes
    assert "- `c.suit == pile.top.suit or c.rank == pile.top.rank` is false:" in why
    assert "- `c.suit == pile.top.suit` is false: clubs == hearts" in why
    assert "- `c.rank == pile.top.rank` is false: 9 == 7" in why


def test_oh_hell_a_card_that_does_not_follow_suit():
    s = peklo_trick()
    assert legal(s) == ["play 5♣"]
    assert why_refused(s, "play 2S") == "`play 2♠` is not allowed now: follow suit: clubs were led and you hold 5♣"
    assert why_refused(s, "play 2S", language="ru") == \
        "`play 2♠` сейчас нельзя: нужно ходить в масть (clubs): у вас есть 5♣"
    why = why_refused(s, "play 2S", rule_text=True)
    assert why is not None
    assert why.startswith("`play 2♠` is not allowed now: `may_play(c)` is false:")
    assert "- `trick.size == 0` is false: 2 == 0" in why
    assert "- `c.suit == led()` is false: spades == clubs" in why
    assert "- `any(d.suit == led() for d in my hand)` is true (for d = 5♣)" in why


# ------------------------------------------------------------------ other reasons
def test_a_card_not_in_hand():
    s = pony("8H 9C AS KD QD", "7H")
    assert why_refused(s, "play QS") == "`play QS` cannot be made: Q♠ is not in `my hand`"
    assert why_refused(s, "play ZZ") == "`play ZZ` cannot be made: `ZZ` is not a card of this deck"
    s = kunkin_melding("2S 3S 4S 9D")
    assert why_refused(s, "meld 2S 3S 4S KS") == "`meld 2S 3S 4S KS` cannot be made: K♠ is not in `my hand`"
    assert why_refused(s, "meld jh qh kh") == "`meld jh qh kh` cannot be made: J♥, Q♥, K♥ are not in `my hand`"


def test_a_move_of_another_step_or_phase():
    assert why_refused(pony("8H 9C AS KD QD", "7H"), "name hearts") == \
        "`name hearts`: you can't name a suit yet: first play a card"
    assert why_refused(kunkin_melding("2S 3S 4S 9D"), "draw") == "`draw`: you can't draw now; you may discard"
    assert why_refused(peklo_trick(), "bid 1") == \
        "`bid 1`: you can't bid now: that is for the bidding, and this is the play; you may play a card"
    assert why_refused(peklo_trick(), "bid 1", language="ru") == \
        "`bid 1`: сейчас нельзя заказать: это ход фазы «заказ взяток», а сейчас «розыгрыш»; можно сыграть карту"
    # before drawing: the moves of the step, by their labels
    g = koloda.load("kunkin", players=2)
    s = g.new_initial_state(1)
    assert why_refused(s, "meld 2S 3S 4S") == "`meld 2S 3S 4S`: you can't meld yet: first draw or take the discard"
    assert why_refused(s, "meld 2S 3S 4S", language="ru") == \
        "`meld 2S 3S 4S`: пока нельзя выложить: сначала взять из колоды или взять открытую карту"


def test_a_value_outside_its_range_and_a_word_of_the_wrong_kind():
    g = koloda.load("peklo", options={"deal_size": 3}, players=4)
    s = g.new_initial_state(0, dealer=0)
    assert why_refused(s, "bid 9") == "`bid 9` cannot be made: 9 is not among `0..cards` (0, 1, 2, 3)"
    assert why_refused(s, "bid many") == "`bid many` cannot be made: `many` is not a number"


def test_a_move_half_typed_says_what_it_takes():
    # the moves of that action that can be made now, else what the action takes
    assert why_refused(pony("8H 9C AS KD QD", "7H"), "play") == "`play` is not a whole move: play 8♥"
    s = pony("JH 9C AS KD QD", "7H")
    act(s, "play JH")
    assert why_refused(s, "name") == ("`name` is not a whole move: name clubs, name diamonds, name hearts, "
                                      "name spades")


def test_canasta_taking_the_pile_before_drawing():
    g = koloda.load("canasta")
    s = g.new_initial_state(2)
    assert s.step == "start" and legal(s) == ["draw"]
    for typed in ("take", "take the pile", "take the pile (AH)", "take the pile (A♥)"):
        assert why_refused(s, typed) == f"`{typed}`: you can't take the pile yet: first draw", typed
    assert why_refused(s, "take", language="ru") == \
        "`take`: пока нельзя взять открытую колоду: сначала взять из колоды"
    act(s, "draw")
    assert why_refused(s, "take") == "`take` is not a whole move: take the pile (A♥)"


def test_bridge_calls_refused_in_words():
    s = koloda.load("bridge").new_initial_state(1, dealer=0)
    assert why_refused(s, "x") == "`double` is not allowed now: there is no bid to double yet"
    act(s, "bid 3 clubs")
    assert why_refused(s, "2nt") == "`bid 2 no trump` is not allowed now: a bid must be higher than the last one (level 3)"
    assert why_refused(s, "bid 3 c", language="ru") == (
        "`bid 3 clubs` сейчас нельзя: заявка должна быть выше последней (уровень 3): выше уровнем или выше мастью "
        "на том же уровне")
    assert why_refused(s, "xx") == "`redouble` is not allowed now: you can redouble only your side's bid"


def test_legal_moves_unknown_words_and_other_turns():
    s = pony("8H 9C AS KD QD", "7H")
    assert why_refused(s, "play 8H") is None
    assert why_refused(s, "jump") is None
    assert why_refused(s, "draw", viewer=1) == "`draw`: it is P1's turn, not yours"
    assert why_refused(s, "draw", viewer=1, language="ru") == "`draw`: сейчас ход P1, не ваш"


def test_the_game_is_over():
    g = koloda.load("pony", players=2, options={"limit": 1})
    s = g.new_initial_state(4)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert why_refused(s, "draw") == "the game is over: no move can be made"
    assert why_refused(s, "draw", language="ru") == "игра окончена: ходов больше нет"


# ------------------------------------------------------------------ only what the player may know
PEEK = """\
game: peek
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hole: {visible: nobody}
  hand: {each: player, visible: owner}
vars:
  secret: {type: card, start: none, visible: nobody}
deal: [gather into stock, shuffle stock, deal 3 to each hand, move stock.top to hole, secret = hole.top]
phases:
  main:
    actions:
      play:
        with: c in my hand
        if: my hand.size > 0 and c.suit == hole.top.suit and c.rank == secret.rank
        do: [move c to stock, end turn]
      match:
        with: c in my hand
        if: not any(d.rank == c.rank for d in next(me).hand)
        do: end turn
      give:
        with: c in my hand
        if: c in next(me).hand or secret == none
        do: end turn
      dig:
        with: c in stock
        if: c.rank == A
        do: end turn
      pass: {do: end turn}
deal ends: my hand.size == 0
match: {ends: "true"}
"""


def test_a_reason_tells_nothing_the_player_cannot_see(tmp_path):
    path = tmp_path / "peek.yaml"
    path.write_text(PEEK, encoding="utf-8")
    g = koloda.load(str(path))
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": "2C 3C 4C", "P2 hand": "2D 3D 4D", "hole": "9H"})
    hidden = ["9♥", "hearts", "2♦", "3♦", "4♦", " 9 "]
    play = why_refused(s, "play 2C")
    # no part alone may be told (the card in the hole and the secret are hidden): the whole guard is
    assert play == ("`play 2♣` is not allowed now: `my hand.size > 0 and c.suit == hole.top.suit and "
                    "c.rank == secret.rank` is false")
    match = why_refused(s, "match 2C")
    assert match == "`match 2♣` is not allowed now: `any(d.rank == c.rank for d in next(me).hand)` is true"
    give = why_refused(s, "give 3C")
    # a failing `or`: each part fails, as the refusal says already; the secret's value is not shown
    assert give == ("`give 3♣` is not allowed now: `c in next(me).hand or secret == none` is false:\n"
                    "    - `c in next(me).hand` is false (`c` is 3♣)\n"
                    "    - `secret == none` is false")
    for why in (play, match, give):
        assert not any(word in why for word in hidden), why
    # whether a card lies in the stock is not the player's to learn, in it or not
    assert why_refused(s, "dig 5S") is None and why_refused(s, "dig 2D") is None


HELPED = """\
game: helped
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  pile: {visible: top}
  hand: {each: player, visible: owner}
define:
  can_play(): any(c.suit == pile.top.suit for c in my hand)
deal: [gather into stock, shuffle stock, deal 3 to each hand, move stock.top to pile]
phases:
  main:
    actions:
      play:
        help: a card of the pile's suit, not a two
        with: c in my hand
        if:
          - {if: c.suit == pile.top.suit, help: follow the suit of the pile}
          - c.rank != 2
        do: [move c to pile, end turn]
      draw:
        if:
          - stock.size > 0
          - if: not can_play()
            help: you may draw only when no card in your hand can be played
        do: [move stock.top to my hand, end turn]
deal ends: my hand.size == 0
match: {ends: "true"}
"""


def test_a_condition_says_its_own_help(tmp_path):
    path = tmp_path / "helped.yaml"
    path.write_text(HELPED, encoding="utf-8")
    g = koloda.load(str(path))
    s = g.new_initial_state(1, dealer=1, hands={"P1 hand": "2H 3H 4C", "P2 hand": "5D 6D 7D", "pile": "9H"})
    assert why_refused(s, "play 4C") == "`play 4♣` is not allowed now: follow the suit of the pile"
    # a condition without help: the action's
    assert why_refused(s, "play 2H") == "`play 2♥` is not allowed now: a card of the pile's suit, not a two"
    assert why_refused(s, "draw") == \
        "`draw` is not allowed now: you may draw only when no card in your hand can be played"
    # the rule as written, for a designer
    assert why_refused(s, "play 4C", rule_text=True) == \
        "`play 4♣` is not allowed now: `c.suit == pile.top.suit` is false: clubs == hearts"


# ------------------------------------------------------------------ at the table
def test_match_move_gives_the_reason_and_keeps_ambiguity_messages():
    s = pony("8H 7S AS KD QD", "7H")
    action, why = match_move(s, "draw")
    assert action is None and why == ("`draw` is not allowed now: only when no card in your hand can be played; "
                                      "exactly one card")
    action, why = match_move(s, "play")
    assert action is None and "`play` fits 2 moves" in why
    action, why = match_move(s, "dance")
    assert action is None and why == "`dance` is not a legal move now"


def test_the_terminal_shows_why_a_move_is_refused(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("P1 hand: 8H 9C AS KD QD\npile: 7H\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "pony", "--seat", "human", "--seat", "random", "--fast",
                                       "--seed", "1", "--dealer", "2", "--hands", str(hands),
                                       "--save", str(tmp_path / "s.json")], input="draw\nplay QS\nquit\n")
    out = result.output
    assert "Traceback" not in out, out
    assert "`draw` is not allowed now: only when no card in your hand can be played" in out, out
    assert "`play QS` cannot be made: Q♠ is not in `my hand`" in out


# ------------------------------------------------------------------ never a failure
ODD = ["", " ", "meld", "meld meld meld", "play " * 60, "lay off", "lay off on meld 1", "play JK=5S", "bid -0",
       "bid 99999999999999999999", "name ♥", "name", "draw draw", "take 🃏", "meld 2S 2S 2S 2S", "P2",
       "play \x1b[2J", "[bold]play[/bold] QS", "play 10H 10H", "discard JK=JK", "play =", "meld = = =",
       "swap 3H for the joker in meld 99", "lay off 9H on meld 0 (low end)", "meld ¼ ½ ¾", "bid ²"]


@pytest.mark.parametrize("name", ["kunkin", "pony", "peklo", "canasta", "leopard", "lesenka", "splin"])
def test_moves_of_other_positions_and_odd_lines_get_a_reason_or_none(name):
    g = koloda.load(name)
    s = g.new_initial_state(5)
    states, texts = [], set(ODD)
    for k in range(40):
        if s.is_terminal():
            break
        texts |= {g.action_to_string(a, plain=True) for a in s.legal_actions()}
        if k % 8 == 0:
            states.append(s.clone())
        s.apply_action(s.legal_actions()[-1])
    for state in states:
        legal_texts = {g.action_to_string(a, plain=True) for a in state.legal_actions()}
        for text in sorted(texts):
            why = why_refused(state, text)
            assert why is None or (isinstance(why, str) and why), text
            if text in legal_texts:
                assert why is None, f"`{text}` is legal, yet: {why}"


@functools.lru_cache(maxsize=1)
def one_trick():
    return peklo_trick()


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_any_text_gets_a_reason_or_none(text):
    s = one_trick()
    why = why_refused(s, text)
    assert why is None or isinstance(why, str)
    why = why_refused(s, "play " + text)
    assert why is None or isinstance(why, str)


FOLLOW = """\
game: follow
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
  trick: {visible: all}
define:
  led(): trick.bottom.suit
  may_play(card c): trick.size == 0 or c.suit == led() or not any(d.suit == led() for d in my hand)
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      play:
        with: c in my hand
        if: may_play(c)
        do: [move c to trick, end turn]
      claim:
        if: trick.size >= 2
        do: end turn
deal ends: my hand.size == 0
match: {ends: "true"}
"""


def test_without_help_the_reason_names_cards_and_values_in_words(tmp_path):
    path = tmp_path / "follow.yaml"
    path.write_text(FOLLOW, encoding="utf-8")
    s = koloda.load(str(path)).new_initial_state(1, dealer=1, hands={"P1 hand": "2C 3H 4H", "P2 hand": "5C 2S 3D"})
    act(s, "play 2C")
    assert why_refused(s, "play 2S") == ("`play 2♠` is not allowed now: `may_play(c)` is false:\n"
                                         "    - `trick.size == 0` is false: it is 1, not 0\n"
                                         "    - `c.suit == led()` is false: it is spades, not clubs\n"
                                         "    - `any(d.suit == led() for d in my hand)` is true: you hold 5♣")
    assert why_refused(s, "claim") == "`claim` is not allowed now: `trick.size >= 2` is false: it is 1, less than 2"
    # for a designer, the rule's own operators
    assert why_refused(s, "play 2S", rule_text=True).splitlines()[-1] == \
        "    - `any(d.suit == led() for d in my hand)` is true (for d = 5♣)"
