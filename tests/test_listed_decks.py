"""Decks built from a list (docs/language.md `deck`): suits with ranks of their own, ranks above the ace,
a suit of the deck's own, cards named on their own, ranks that follow the table; read everywhere a rank
is read (order, values, moves, the compact view, the terminal table, the rulebook); and a deck order that
keeps two named decks' same-name cards apart. The expressions are in tests/compliance/decks_from_lists.yaml
and deck_ranks_by_player_count.yaml; the mistakes in tests/bad_rules/deck_list_*.yaml."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

import koloda
from helpers import random_playout
from koloda.compact import CompactGame
from koloda.dsl.errors import RuleErrors
from koloda.interpreter.codegen import generate
from koloda.rulebook import rulebook
from koloda.ui.table import card_key, card_text

ROOT = Path(__file__).resolve().parent.parent
TAROT = str(ROOT / "examples" / "tarot3.yaml")

SMALL = """\
    game: small-tarot
    players: 2
    deck:
      suits:
        hearts: [1..10, J, C, Q, K]
        trumps: {ranks: 1..21, letter: T, symbol: "★"}
      cards:
        EX: {label: Excuse}
        RJ: {colour: red, label: "red joker"}
        BJ: {colour: black, label: "black joker"}
    zones:
      stock: {visible: nobody}
      hand: {each: player, visible: owner}
      pile: {}
    deal:
      - gather into stock
      - shuffle stock
      - deal 5 to each hand
    phases:
      play:
        actions:
          play:
            with: c in my hand
            text: "play {c}"
            do: [move c to pile, end turn]
          name:
            with: r in ranks
            if: pile.size == 0
            text: "name {r}"
            do: [end turn]
        ends: all(p.hand.size == 0 for p in players)
    scoring: []
    match:
      ends: deal_number >= 1
      score: count(c for c in pile if c.by == p and c.suit == trumps)
"""


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def test_a_tarot_pack_has_its_78_cards_each_named_once():
    game = koloda.load(TAROT)
    cards = game.cards
    assert cards.size == 78 and len(set(cards.names)) == 78
    assert cards.names[:14] == ("1C", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "CC", "QC", "KC")
    assert cards.names[-3:] == ("20T", "21T", "EX") and cards.labels[-3:] == ("20★", "21★", "Excuse")
    assert cards.suit_names[4] == "trumps"
    # the order: 1..10, jack, knight, queen, king, and the trumps above ten after them
    strength = [cards.order[r] for r in cards.deck_ranks]
    assert strength == sorted(strength) and len(set(strength)) == len(strength) == 25


def test_ranks_above_the_ace_make_moves_that_read_and_print_back(tmp_path):
    game = koloda.load(write(tmp_path, SMALL))
    s = game.new_initial_state(seed=3)
    names = [s.action_to_string(a) for a in s.legal_actions()]
    # one `name` move for each of the 25 ranks, by their words
    named = [n for n in names if n.startswith("name ")]
    assert len(named) == 25 and "name 21" in named and "name C" in named and "name 1" in named
    for text in ("name 21", "name C"):
        action = s.string_to_action(text)
        assert s.action_to_string(action) == text
    assert game.num_distinct_actions >= 38 + 25


def test_two_jokers_are_told_apart_by_name_and_colour_at_the_table(tmp_path):
    game = koloda.load(write(tmp_path, SMALL))
    cards = game.cards
    red, black = cards.parse("RJ"), cards.parse("BJ")
    assert len(red) == len(black) == 1 and red != black
    assert cards.colors[red[0]] == 0 and cards.colors[black[0]] == 1 and cards.ranks[red[0]] == 0
    assert card_text(game, "RJ").style == "bold red" and card_text(game, "BJ").style != "bold red"
    # the terminal's hand order: the four suits, then the deck's own, then the cards of no suit
    order = sorted(range(cards.size), key=lambda c: card_key(game, c))
    assert [cards.suits[c] for c in order][-4:] == [4, None, None, None]
    # `10T` may be typed `TT`, as `10H` is `TH`
    assert cards.parse("TT") == cards.parse("10T") and cards.parse("21t") == cards.parse("21T")


def test_the_compact_view_spells_and_tensors_a_deck_of_its_own(tmp_path):
    compact = CompactGame.load(write(tmp_path, SMALL))
    s = compact.new_initial_state(seed=5)
    texts = {s.action_to_string(t) for t in s.legal_actions()}
    assert any("21" in t for t in texts)
    assert len(s.observation_tensor(0)) == compact.observation_tensor_shape()[0]
    assert len(s.information_state_tensor(0)) == compact.information_state_tensor_shape()[0]


def test_the_rulebook_lists_each_suit_with_its_ranks():
    text = rulebook(TAROT).markdown()
    assert "trumps: 1 2 3" in text and "21" in text and "Excuse" in text and "J C Q K" in text


def test_the_tarot_example_plays_to_the_end_on_every_seed():
    game = koloda.load(TAROT)
    for seed in range(6):
        s, most, moves = random_playout(game, seed)
        assert s.is_terminal() and moves == 72 and most <= 24
        scores = s.scores()
        # every card point but the dog's, whoever took it
        dog = next(z for z in range(len(s.zones)) if game.zone_label(z) == "dog")
        points = {c: (9 if game.cards.names[c] in ("1T", "21T", "EX") or game.cards.ranks[c] == 13 else
                      7 if game.cards.ranks[c] == 12 else 5 if game.cards.ranks[c] == 15 else
                      3 if game.cards.ranks[c] == 11 else 1) for c in range(78)}
        assert sum(points.values()) == 182
        assert sum(scores) == 182 - sum(points[c] for c in s.zones[dog])


def test_the_tarot_example_plays_the_same_fast_and_checked(monkeypatch):
    def play(game):
        s, rng, seen = game.new_initial_state(seed=11), random.Random(11), []
        while not s.is_terminal():
            legal = s.legal_actions()
            seen.append([s.action_to_string(a) for a in legal])
            s.apply_action(rng.choice(legal))
        return seen, s.scores()
    fast = koloda.load(TAROT)
    monkeypatch.setattr(generate, "ALL_CHECKED", True)      # the same flow written checked throughout
    slow = koloda.load(TAROT)
    assert "_ck_" in slow.generated.source and "_ck_" not in fast.generated.source
    assert play(fast) == play(slow)


def test_the_excuse_goes_back_to_whoever_played_it():
    game = koloda.load(TAROT)
    ex = game.cards.parse("EX")[0]
    for seed in range(4):
        s, rng, owner = game.new_initial_state(seed=seed), random.Random(seed), None
        while not s.is_terminal():
            action = rng.choice(s.legal_actions())
            if s.action_to_string(action, plain=True) == "play EX":
                owner = s.current_player()
            s.apply_action(action)
        won = next(z for z in range(len(s.zones)) if game.zone_label(z) == f"P{owner + 1} won")
        assert ex in s.zones[won]


@pytest.mark.parametrize("players,ranks", [(2, ["1S", "2S", "3S"]), (3, ["1S", "2S", "3S", "4S"]),
                                           (5, ["1S", "2S", "3S", "4S", "5S", "6S"])])
def test_a_decks_ranks_follow_the_number_of_players(tmp_path, players, ranks):
    path = write(tmp_path, """\
        game: kuhn-n
        players: 2..5
        deck: {ranks: "1..player_count + 1", suits: [spades]}
        zones: {stock: {visible: nobody}, hand: {each: player}, pile: {}}
        deal: [gather into stock, shuffle stock, deal 1 to each hand]
        phases:
          play:
            actions:
              play: {with: c in my hand, do: [move c to pile, end turn]}
            ends: all(p.hand.size == 0 for p in players)
        scoring: []
        match: {ends: deal_number >= 1, score: "value(p.hand.top) if p.hand.size > 0 else 0"}
    """)
    game = koloda.load(path, players=players)
    assert list(game.cards.names) == ranks
    s, _, moves = random_playout(game, 2)
    assert s.is_terminal() and moves == players


def test_a_range_of_ranks_that_ends_below_one_refuses_the_table_where_it_is_written(tmp_path):
    path = write(tmp_path, """\
        game: shrinking
        players: 2..4
        deck: {ranks: "1..player_count - 2", suits: [spades]}
        zones: {stock: {}}
        phases:
          main:
            actions:
              noop: {do: end turn}
    """)
    assert koloda.load(path, players=3).cards.size == 1
    with pytest.raises(RuleErrors) as info:
        koloda.load(path, players=2)
    first = info.value.errors[0]
    assert "works out to end at 0 with 2 players" in first.message and first.span.line == 3


TWO_JOKERS = """\
    game: jokers
    players: 2
    deck:
      main: {base: piquet32, jokers: 1}
      big: {ranks: [A], suits: [spades], jokers: 1}
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
    match: {ends: deal_number >= 1, score: 0}
"""


@pytest.mark.parametrize("written", ["ids", "names"])
def test_a_deck_order_keeps_two_decks_jokers_apart(tmp_path, written):
    game = koloda.load(write(tmp_path, TWO_JOKERS))
    jokers = {game.deck_of_card[c]: c for c in range(game.cards.size) if game.cards.names[c] == "JK"}
    assert set(jokers) == {"main", "big"}
    rest = [c for c in range(game.cards.size) if c != jokers["big"]]
    if written == "ids":
        order: list = [jokers["big"]] + rest
    else:
        order = [f"{game.cards.names[c]}@{game.deck_of_card[c]}" for c in [jokers["big"]] + rest]
    s = game.new_initial_state(seed=1, deck=[order])
    hand = next(cards for z, cards in enumerate(s.zones) if game.zone_label(z) == "P1 hand")
    assert hand == [jokers["big"]], "the big deck's joker, on top, is dealt first"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_kuhn_example_deals_from_one_more_rank_than_players_and_is_zero_sum(players):
    game = koloda.load(str(ROOT / "examples" / "kuhn.yaml"), players=players)
    assert game.cards.size == players + 1
    for seed in range(5):
        s, most, moves = random_playout(game, seed)
        assert s.is_terminal() and most == 2 and players <= moves <= 2 * players - 1
        assert sum(s.scores()) == 0 and max(s.scores()) > 0


def test_two_decks_cards_of_one_name_must_be_one_card_where_the_ranks_follow_the_table(tmp_path):
    path = write(tmp_path, """\
        game: clash
        players: 2
        deck:
          main: {base: piquet32}
          extra:
            suits: {stars: {ranks: "7..player_count + 6", letter: S}}
        zones: {stock: {}}
        phases:
          main:
            actions:
              noop: {do: end deal}
    """)
    with pytest.raises(RuleErrors) as info:
        koloda.load(path)
    first = info.value.errors[0]
    assert "two different cards of this game are named 7S with 2 players" in first.message
    assert first.span.line == 4           # the deck's mapping
