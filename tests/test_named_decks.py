"""Several named decks in one game, played whole: where each deck starts, `c.deck` in guards, `wild:` and
scores, the deck-count expressions of a part, and bots' sampling keeping every card within its deck."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

import koloda
from helpers import random_playout
from koloda.agents.sampling import determinize

TWO_DECKS = """\
    game: two-decks
    players: 2..4
    deck:
      main: {base: piquet32}
      bonus: {ranks: [J, Q, K], suits: [hearts], copies: "2 if player_count > 2 else 1"}
    wild: c.deck == bonus
    zones:
      stock: {visible: nobody}
      extras: {visible: nobody}
      hand: {each: player}
      pile: {}
    vars:
      bonuses: {each: player, start: 0}
    deal:
      - gather into stock
      - "move [c for c in stock if c.deck == bonus] to extras"
      - shuffle stock
      - shuffle extras
      - deal 4 to each hand
      - deal 1 to each hand from extras
    phases:
      play:
        actions:
          play:
            with: c in my hand
            if: pile.size == 0 or c.deck == bonus or c.suit == pile.top.suit or c.rank == pile.top.rank
            do: [move c to pile, "my bonuses += 1 if c.deck == \\"bonus\\" else 0", end turn]
          draw:
            if: stock.size > 0 and not any(c.deck == bonus or pile.size == 0 for c in my hand)
            do: [move stock.top to my hand, end turn]
          pass: {do: end turn}
        ends: any(p.hand.size == 0 for p in players) or deal_number > 0 and stock.size == 0
    scoring: []
    match:
      ends: deal_number >= 2
      score: p.bonuses
"""


def load(tmp_path: Path, players: int = 2):
    path = tmp_path / "two.yaml"
    path.write_text(textwrap.dedent(TWO_DECKS), encoding="utf-8")
    return koloda.load(str(path), players=players)


def test_each_deck_is_dealt_from_its_own_zone(tmp_path):
    game = load(tmp_path)
    assert game.cards.size == 35
    s = game.new_initial_state(seed=4)
    bonus = {c for c in range(game.cards.size) if c >= 32}
    zones = {game.zone_label(z): list(cards) for z, cards in enumerate(s.zones)}
    hands = [zones["P1 hand"], zones["P2 hand"]]
    assert all(len(h) == 5 and len(set(h) & bonus) == 1 for h in hands), hands
    assert set(zones["extras"]) == bonus - set(hands[0]) - set(hands[1])
    assert not set(zones["stock"]) & bonus and len(zones["stock"]) == 32 - 8


def test_the_bonus_deck_is_wild_and_grows_with_the_table(tmp_path):
    assert load(tmp_path).wild_cards == set(range(32, 35))
    four = load(tmp_path, players=4)
    assert four.cards.size == 38 and four.wild_cards == set(range(32, 38))


def test_named_decks_play_to_the_end_and_score_by_deck(tmp_path):
    game = load(tmp_path, players=3)
    scores = []
    for seed in range(3):
        s, _, moves = random_playout(game, seed)
        assert moves > 0
        scores.append(s.scores())
    assert any(any(x > 0 for x in score) for score in scores), scores
    restored = game.state_from_json(s.to_json())
    assert restored.to_json() == s.to_json()


def test_a_sampled_world_keeps_every_card_in_its_deck(tmp_path):
    game = load(tmp_path)
    s = game.new_initial_state(seed=1)
    deck_of = game.card_deck
    assert deck_of is not None and deck_of[0] == 0 and deck_of[34] == 1
    for seed in range(5):
        world = determinize(s, 0, random.Random(seed))
        for zone, cards in zip(s.zones, world.zones):
            assert sorted(deck_of[c] for c in zone) == sorted(deck_of[c] for c in cards)


def test_too_many_cards_over_the_named_decks_are_refused(tmp_path):
    path = tmp_path / "big.yaml"
    text = textwrap.dedent(TWO_DECKS).replace("main: {base: piquet32}", "main: {base: standard52, copies: 150}")
    path.write_text(text.replace('copies: "2 if player_count > 2 else 1"', "copies: 1000"), encoding="utf-8")
    with pytest.raises(koloda.RuleErrors) as info:
        koloda.load(str(path))
    assert [e.message for e in info.value.errors] == ["these decks hold 10,800 cards; a game has at most 10,000"]


def test_a_hands_file_card_comes_from_the_deck_dealt_there(tmp_path):
    game = load(tmp_path)
    s = game.new_initial_state(seed=1, hands={"P1 hand": "KH 7C 8C 9C QH"})
    hand = next(cards for z, cards in enumerate(s.zones) if game.zone_label(z) == "P1 hand")
    decks = {game.cards.names[c]: game.deck_of_card[c] for c in hand}
    # four cards come from the stock (main deck), one from `extras` (the bonus deck): the K♥ or the Q♥
    assert sorted(decks.values()) == ["bonus", "main", "main", "main", "main"]
    assert decks["7C"] == decks["8C"] == decks["9C"] == "main"


def test_fast_and_checked_code_agree_on_deck_names(tmp_path, monkeypatch):
    from test_generated import both
    path = tmp_path / "two.yaml"
    path.write_text(textwrap.dedent(TWO_DECKS), encoding="utf-8")
    fast, slow = both(monkeypatch, str(path), seed=3, moves=80)
    assert fast == slow and len(fast) > 10


def one_stock(tmp_path: Path):
    """The two decks shuffled together: a K♥ in the stock may be either deck's."""
    path = tmp_path / "mixed.yaml"
    text = textwrap.dedent(TWO_DECKS).replace('  - "move [c for c in stock if c.deck == bonus] to extras"\n', "")
    path.write_text(text.replace("deal 1 to each hand from extras", "deal 1 to each hand"), encoding="utf-8")
    return koloda.load(str(path), players=2)


def ids_of(game, name: str) -> dict[str, int]:
    return {game.deck_of_card[c]: c for c in game.cards.parse(name)}


def test_a_deck_file_says_which_deck_a_card_shared_by_two_decks_is(tmp_path):
    game = one_stock(tmp_path)
    kh = ids_of(game, "KH")
    rest = " ".join(f"{game.cards.names[c]}@{game.deck_of_card[c]}" for c in range(game.cards.size)
                    if c not in kh.values())
    orders = game.parse_deck(f"KH@bonus {rest}\nKH@main\n", "deck.txt")
    assert orders[0][0] == kh["bonus"] and orders[0][-1] == kh["main"] and len(orders[0]) == game.cards.size
    s = game.new_initial_state(seed=1, deck=[f"KH@bonus {rest} KH@main"])
    where = {c: game.zone_label(z) for z, cards in enumerate(s.zones) for c in cards}
    assert where[kh["bonus"]].endswith("hand") and where[kh["main"]] == "stock"
    # a card only one deck holds needs no deck
    assert game.parse_deck("7C")[0] == [game.cards.parse("7C")[0]]


@pytest.mark.parametrize("text,message,hint", [
    ("7C KH", "`KH` is a card of decks `main` and `bonus`: say which", "write KH@main or KH@bonus"),
    ("KH@bonsu", "`KH@bonsu`: there is no deck `bonsu` in this game", "bonus"),
    ("7C@bonus", "`7C@bonus`: deck `bonus` has no 7C", None),
])
def test_a_deck_file_card_of_an_unclear_or_wrong_deck_is_refused_where_it_is_written(tmp_path, text, message, hint):
    game = one_stock(tmp_path)
    with pytest.raises(koloda.PositionError) as info:
        game.parse_deck(text, "deck.txt")
    error = info.value
    assert error.message == message and error.span.file == "deck.txt" and error.span.line == 1
    assert hint is None or hint in (error.hint or "")


def test_a_deck_name_in_a_game_of_one_deck_is_refused(tmp_path):
    game = koloda.load("pony")
    with pytest.raises(koloda.PositionError, match="names a deck after `@`, but this game has one deck"):
        game.parse_deck("QS@main")


def test_a_hands_card_dealt_from_cards_of_two_decks_must_say_which(tmp_path):
    game = one_stock(tmp_path)
    with pytest.raises(koloda.PositionError, match="`KH` is a card of decks `main` and `bonus`"):
        game.new_initial_state(seed=1, hands={"P1 hand": "KH 7C 8C 9C 10C"})
    s = game.new_initial_state(seed=1, hands={"P1 hand": "KH@bonus 7C 8C 9C 10C"})
    hand = next(cards for z, cards in enumerate(s.zones) if game.zone_label(z) == "P1 hand")
    assert ids_of(game, "KH")["bonus"] in hand and ids_of(game, "KH")["main"] not in hand
