"""Deck, value and expression constructs played in small whole games (the compliance files test
each expression alone): word variables at the table, decks from expressions and listed cards,
named value tables."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import koloda
from helpers import random_playout
from koloda.compact import CompactGame


def write(tmp_path: Path, text: str, name: str = "probe.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


BETTING = """\
    game: betting
    players: 2
    deck: piquet32
    vars:
      last: {type: [check, bet, raise, fold], start: check}
      calls: {each: player, start: 0}
    zones:
      stock: {visible: nobody}
      hand: {each: player}
    deal:
      - gather into stock
      - shuffle stock
      - deal 1 to each hand
    phases:
      betting:
        actions:
          check: {if: last == check, do: [last = check, my calls += 1, end turn]}
          bet: {if: last == check, do: [last = bet, end turn]}
          raise: {if: last == bet, do: [last = raise, end turn]}
          fold: {if: last != check, do: [last = fold, end deal]}
        ends: last == raise or sum(p.calls for p in players) >= 4
    scoring:
      - for: p in players
        do: [p.calls += 1]
    match:
      ends: deal_number >= 3
      score: p.calls
"""


def test_a_word_variable_is_shown_by_its_word_and_plays_to_the_end(tmp_path):
    game = koloda.load(write(tmp_path, BETTING))
    s = game.new_initial_state(seed=3)
    bet = [a for a in s.legal_actions() if game.action_to_string(a) == "bet"]
    assert bet, [game.action_to_string(a) for a in s.legal_actions()]
    s.apply_action(bet[0])
    assert "bet" in str(s)
    shown = s.observation(0)
    assert "bet" in repr(shown)
    compact = CompactGame(game).new_initial_state(seed=3)
    compact.apply_action(compact.legal_actions()[1])       # the words are one-hot in the tensor
    assert sum(compact.observation_tensor(0)) > 0
    for seed in range(3):
        s, _, _ = random_playout(game, seed)
    restored = game.state_from_json(s.to_json())
    assert restored.to_json() == s.to_json()


SMALL_DECK = """\
    game: small-deck
    players: 2..6
    deck: {ranks: [J, Q, K], copies: "2 if player_count > 3 else 1"}
    zones:
      stock: {visible: nobody}
      hand: {each: player}
      pile: {}
    deal:
      - gather into stock
      - shuffle stock
      - deal 1 to each hand
    phases:
      play:
        actions:
          play: {with: c in my hand, do: [move c to pile, end turn]}
        ends: all(p.hand.size == 0 for p in players)
    scoring: []
    match:
      ends: deal_number >= 2
"""


def test_a_three_card_deck_grows_with_the_table(tmp_path):
    path = write(tmp_path, SMALL_DECK)
    two, five = koloda.load(path, players=2), koloda.load(path, players=5)
    assert two.cards.size == 12 and sorted(set(two.cards.names)) == sorted(
        f"{r}{s}" for r in "JQK" for s in "CDHS")
    assert five.cards.size == 24
    for game in (two, five):
        random_playout(game, 1)


def test_a_deck_count_that_is_not_a_whole_number_is_refused_at_load(tmp_path):
    path = write(tmp_path, SMALL_DECK.replace('"2 if player_count > 3 else 1"', '"player_count > 3"'))
    with pytest.raises(koloda.RuleError, match="deck `copies` works out to False with 2 players"):
        koloda.load(path, players=2)
