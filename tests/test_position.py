"""A known position: the first dealer, hands, deck orders, and moves by their text.

From Python (`new_initial_state(seed, deck, dealer, hands)`, `string_to_action`) and from the
command line (`--dealer`, `--hands`, `--deck`), mistakes included.
"""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.interpreter.base.errors import IllegalAction, PositionError
from koloda.session import Session

from helpers import get_var, hand, zone_cards


@pytest.fixture(scope="module")
def peklo():
    return koloda.load("peklo", {"deal_size": 3}, players=4)


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


# ------------------------------------------------------------------ the dealer
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_dealer_is_given(peklo, dealer):
    s = peklo.new_initial_state(7, dealer=dealer)
    assert s.dealer == dealer
    assert s.current_player() == (dealer + 1) % 4          # the player after the dealer bids first


def test_the_seed_shuffles_the_same_whoever_deals(peklo):
    # the dealer by lot is still drawn, so the given dealer changes who gets which hand, not the cards
    a, b = peklo.new_initial_state(7, dealer=0), peklo.new_initial_state(7, dealer=2)
    assert zone_cards(a, "trump_card") == zone_cards(b, "trump_card")
    assert sorted(map(tuple, (hand(a, p) for p in range(4)))) == sorted(map(tuple, (hand(b, p) for p in range(4))))
    assert hand(a, 1) == hand(b, 3)                          # the first card goes left of the dealer


@pytest.mark.parametrize("dealer", [4, -1, "P1", True, 1.0])
def test_a_dealer_not_at_the_table_is_an_error(peklo, dealer):
    with pytest.raises(PositionError, match=r"to deal: the players are 0\.\.3 \(P1\.\.P4\)"):
        peklo.new_initial_state(7, dealer=dealer)


def test_the_dealer_overrides_a_first_dealer_the_rules_fix(tmp_path):
    g = koloda.load(str(write_rules(tmp_path, first_dealer="players[0]")))
    assert g.new_initial_state(1).dealer == 0
    assert g.new_initial_state(1, dealer=1).dealer == 1


# ------------------------------------------------------------------ deck orders
def test_a_deck_order_may_be_names(peklo):
    order = " ".join(peklo.cards.names[::-1])                # 2C is the bottom card, AS the top
    s = peklo.new_initial_state(0, deck=[order], dealer=3)
    assert hand(s, 0) == ["AS", "10S", "6S"]                 # one at a time, P1 first
    assert zone_cards(s, "trump_card") == ["2S"]             # the 13th card from the top


def test_a_deck_order_that_misses_cards_is_an_error_not_a_shuffle(peklo):
    with pytest.raises(PositionError) as info:
        peklo.new_initial_state(0, deck=["AS KS QS"])
    text = str(info.value)
    assert "`stock` holds 52 cards and the order lists 3" in text
    assert "49 of its cards are missing from the order (2C 3C 4C 5C 6C 7C 8C 9C and 41 more)" in text


def test_a_deck_order_with_cards_not_in_the_zone_is_an_error(peklo):
    s = peklo.new_initial_state(0)
    s.orders = [list(range(52))]                              # the whole deck, for a stock of 39
    with pytest.raises(PositionError, match=r"`stock` holds 39 cards and the order lists 52; 13 listed cards "
                                            r"are not in `stock`"):
        s.shuffle(peklo.layout.zone_base["stock"])


@pytest.mark.parametrize("order, message", [
    (["AS", "ZZ"], "`ZZ` is not a card of this deck"),
    (["AS", "AS"], "`AS` appears more often than the deck holds it"),
    ([52], "52 is not a card id of this deck"),
])
def test_bad_cards_in_a_deck_order(peklo, order, message):
    with pytest.raises(PositionError, match=message):
        peklo.new_initial_state(0, deck=[order])


def test_a_deck_file_error_is_located(peklo):
    with pytest.raises(PositionError) as info:
        peklo.parse_deck("AS KS\n\nQS  JS QX\n", "deck.txt")
    assert info.value.span.file == "deck.txt" and (info.value.span.line, info.value.span.col) == (3, 8)


# ------------------------------------------------------------------ hands
HANDS = {"P1 hand": "AS KS QS", "P2 hand": "2C 3C 4C", "P3 hand": "10H JH QH", "P4 hand": "5D 6D 7D",
         "trump_card": "9S"}


def test_hands_are_dealt_as_given(peklo):
    s = peklo.new_initial_state(11, dealer=2, hands=HANDS)
    for p in range(4):
        assert hand(s, p)[::-1] == HANDS[f"P{p + 1} hand"].split()      # listed top card first
    assert zone_cards(s, "trump_card") == ["9S"]
    assert get_var(s, "trump") == 3                                      # spades
    assert s.dealer == 2 and s.current_player() == 3
    assert len(zone_cards(s, "stock")) == 39


def test_hands_with_the_same_seed_give_the_same_game(peklo):
    a = peklo.new_initial_state(11, hands=HANDS)
    b = peklo.new_initial_state(11, hands=HANDS)
    assert a.to_json() == b.to_json()
    assert peklo.new_initial_state(12, hands=HANDS).zones != a.zones            # the rest still follows the seed


def test_some_zones_given_the_rest_from_the_seed(peklo):
    s = peklo.new_initial_state(5, hands={"hand P2": ["TC", "9C", "8C"]})     # either word order, T for ten
    assert hand(s, 1) == ["8C", "9C", "10C"]
    dealt = [c for p in range(4) for c in hand(s, p)] + zone_cards(s, "trump_card")
    assert len(set(dealt)) == 13


def test_hands_then_deck_orders_for_the_next_deals():
    g = koloda.load("peklo", players=3)                      # the cycle: 1 card, then 2, ...
    second = "AS 2S 3S KH 2H 3H".split() + [n for n in g.cards.names if n not in "AS 2S 3S KH 2H 3H".split()]
    s = g.new_initial_state(3, dealer=0, hands={"P1 hand": "AC", "P2 hand": "KC", "P3 hand": "QC",
                                                "trump_card": "JD"}, deck=[second])
    assert [hand(s, p) for p in range(3)] == [["AC"], ["KC"], ["QC"]]
    for _ in range(3):
        s.apply_action(s.string_to_action("bid 0"))
    for card in ("KC", "QC", "AC"):
        s.apply_action(s.string_to_action(f"play {card}"))
    assert s.deal_number == 2 and s.dealer == 1
    assert [sorted(hand(s, p)) for p in range(3)] == [["2H", "2S"], ["3H", "3S"], ["AS", "KH"]]
    assert zone_cards(s, "trump_card") == ["2C"]


def test_each_players_own_deck_can_hold_the_same_card():
    g = koloda.load("showdown")
    spades = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"
    hearts = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"
    s = g.new_initial_state(2, hands={"P1 hand": f"{spades} {hearts}", "P2 hand": f"{hearts} {spades}"})
    assert sorted(hand(s, 0)) == sorted(hand(s, 1))
    assert {g.card_deck[c] for c in s.zones[g.layout.zone_base["hand"]]} == {0}       # P1's from P1's deck


@pytest.mark.parametrize("hands, message", [
    ({"P1 hand": "AS KS ZZ"}, "`ZZ` is not a card of this deck"),
    ({"P1 hand": "AS KS AS"}, "`AS` appears more often than the deck holds it"),
    ({"P1 hand": "AS KS QS", "P2 hand": "2C 3C QS"}, "`QS` appears more often than the deck holds it"),
    ({"P1 hand": "AS KS"}, "`P1 hand` gets 3 cards in the first deal, but 2 are given"),
    ({"trump_card": "AS KS"}, "`trump_card` gets 1 card in the first deal, but 2 are given"),
    ({"P1 won": "AS"}, "`P1 won` gets no cards in the first deal, but 1 is given"),
    ({"P5 hand": "AS KS QS"}, r"there is no zone `P5 hand` at this table \(did you mean `P4 hand`\?\)"),
    ({"deck": "AS"}, r"there is no zone `deck` at this table \(zones: P1 hand, P1 won"),
    ({"P1 hand": "AS KS QS", "hand P1": "2C 3C 4C"}, "`P1 hand` is given twice"),
])
def test_hands_that_are_not_a_deal_are_errors(peklo, hands, message):
    with pytest.raises(PositionError, match=message):
        peklo.new_initial_state(0, hands=hands)


def test_showdown_hands_need_a_card_in_the_players_own_deck():
    g = koloda.load("showdown")
    cards = ["AS"] * 2 + [n for n in g.cards.names[:52] if n != "AS"][:23]
    with pytest.raises(PositionError, match="`AS` cannot be dealt to `P1 hand`: the cards it is dealt from "
                                            r"\(the shuffle of `P1 stock`\) hold no other AS"):
        g.new_initial_state(0, hands={"P1 hand": cards})


def test_a_hands_file_error_is_located(peklo, tmp_path):
    given = peklo.parse_hands("# three each\nP1 hand: AS KS QS\nP2 hand: 2C 3C\n", str(tmp_path / "hands.txt"))
    with pytest.raises(PositionError) as info:
        peklo.new_initial_state(0, hands=given)
    assert info.value.format(with_source=False).endswith(
        "hands.txt:3:1: `P2 hand` gets 3 cards in the first deal, but 2 are given")
    with pytest.raises(PositionError) as info:
        peklo.parse_hands("P1 hand AS KS QS\n", "hands.txt")
    assert "hands.txt:1:1: write each zone on a line of its own as `ZONE: CARDS`" in str(info.value)


def write_rules(tmp_path, first_dealer: str = "random"):
    """A deal that places cards by what they are: the lower of the two cards turned up goes left."""
    path = tmp_path / "sorted.yaml"
    path.write_text(f"""\
game: sorted
players: 2
deck: standard52
zones:
  stock: {{}}
  low: {{visible: all}}
  high: {{visible: all}}
  spare: {{}}
  hand: {{each: player}}
deal:
  - gather into stock
  - shuffle stock
  - deal 1 to each hand
  - move stock.top to low
  - move stock.top to high
  - if: low.top.rank > high.top.rank
    then: [move low.top to spare, move high.top to low, move spare.top to high]
phases:
  main:
    actions:
      pass: {{do: end deal}}
match:
  first dealer: {first_dealer}
""", encoding="utf-8")
    return path


def test_a_deal_that_moves_cards_by_what_they_are_cannot_be_given(tmp_path):
    g = koloda.load(str(write_rules(tmp_path)))
    s = g.new_initial_state(0, hands={"low": "2C", "high": "AS"})         # in order: the deal keeps them
    assert zone_cards(s, "low") == ["2C"] and zone_cards(s, "high") == ["AS"]
    with pytest.raises(PositionError, match=r"the first deal does not put the given cards in `low` \(it gets 2C\)"):
        g.new_initial_state(0, hands={"low": "AS", "high": "2C"})


# ------------------------------------------------------------------ moves by their text
def test_a_move_by_its_text_in_ascii_or_with_symbols(peklo):
    s = peklo.new_initial_state(0, dealer=3, hands=HANDS)
    bid = s.string_to_action("bid 2")
    assert s.action_to_string(bid) == "bid 2" and s.string_to_action("BID 2") == bid
    s.apply_action(bid)
    for text in ("bid 0", "bid 1", "bid 0"):
        s.apply_action(s.string_to_action(text))
    assert s.current_player() == 0
    ace = s.string_to_action("play AS")
    assert {s.string_to_action(t) for t in ("play A♠", "PLAY as", " play   AS ")} == {ace}
    assert (s.action_to_string(ace), s.action_to_string(ace, plain=True)) == ("play A♠", "play AS")


def test_ten_is_10_or_t():
    g = koloda.load("peklo", {"deal_size": 1}, players=3)
    s = g.new_initial_state(0, dealer=2, hands={"P1 hand": "10H", "P2 hand": "2C", "P3 hand": "3C"})
    for _ in range(3):
        s.apply_action(s.string_to_action("bid 0"))
    ten = s.string_to_action("play 10H")
    assert s.string_to_action("play TH") == s.string_to_action("play 10♥") == s.string_to_action("play th") == ten


def test_a_move_that_is_not_legal_is_a_clear_error(peklo):
    s = peklo.new_initial_state(0, dealer=3, hands=HANDS)
    with pytest.raises(IllegalAction, match=r"`bid 4` is not a legal move now; legal moves: bid 0, bid 1, bid 2, "
                                            r"bid 3"):
        s.string_to_action("bid 4")
    with pytest.raises(ValueError, match="`play AS` is not a legal move now"):
        s.string_to_action("play AS")


@pytest.mark.parametrize("name, players", [("pony", 3), ("peklo", 4), ("kunkin", 2), ("leopard", 2),
                                           ("showdown", 2), ("canasta", 4)])
def test_every_legal_move_reads_back_to_its_id(name, players):
    g = koloda.load(name, players=players)
    s = g.new_initial_state(3)
    rng = random.Random(3)
    for _ in range(150):
        if s.is_terminal():
            break
        for a in s.legal_actions():
            assert s.string_to_action(s.action_to_string(a)) == a
            assert s.string_to_action(s.action_to_string(a, plain=True)) == a
        s.apply_action(rng.choice(s.legal_actions()))


# ------------------------------------------------------------------ the command line
def hands_file(tmp_path, text: str) -> str:
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


PEKLO_HANDS = """\
# Oh Hell, three players, two cards each
P1 hand: AS KS
hand P2: 2C 3C      # either word order
P3 hand: 7H 8H
trump_card: 2D
"""


def test_play_with_a_dealer_and_hands_saves_and_resumes_them(tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "peklo", "-p", "3", "-o", "deal_size=2", "--seat", "random", "--seat", "random",
                 "--seat", "random", "--fast", "--seed", "5", "--dealer", "P2", "--hands",
                 hands_file(tmp_path, PEKLO_HANDS), "--save", str(save), "--log", str(tmp_path / "game.jsonl"))
    assert result.exit_code == 0, result.output
    moves = [line for line in result.output.splitlines() if " bid " in line or " play " in line]
    assert moves[0].startswith("P3 bid")                             # the player after P2 bids first
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["dealer"] == 1
    session = Session.load(save)                                     # replays without the hands file
    first = session.game.new_initial_state(session.seed, session.deck, session.dealer)
    assert [sorted(hand(first, p)) for p in range(3)] == [["AS", "KS"], ["2C", "3C"], ["7H", "8H"]]
    replay = run("replay", str(tmp_path / "game.jsonl"), "-q")
    assert replay.exit_code == 0 and "same moves, same scores" in replay.output


def test_simulate_from_a_known_position(tmp_path):
    result = run("simulate", "peklo", "-n", "4", "-p", "3", "-o", "deal_size=2", "--dealer", "3",
                 "--hands", hands_file(tmp_path, PEKLO_HANDS))
    assert result.exit_code == 0, result.output
    assert "4 games played, 4 ended" in result.output


@pytest.mark.parametrize("args, message", [
    (("--dealer", "4"), "--dealer 4: this table has 3 players, P1..P3"),
    (("--dealer", "P0"), "--dealer P0: this table has 3 players, P1..P3"),
    (("--dealer", "east"), "--dealer `east`: name a seat as 2 or P2"),
    (("--hands", "no-such-hands.txt"), "cannot read hands file no-such-hands.txt"),
    (("--deck", "no-such-deck.txt"), "cannot read deck file no-such-deck.txt"),
])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_position_mistakes_on_the_command_line(command, args, message):
    result = run(command, "peklo", "-p", "3", "-o", "deal_size=2", "--seat", "random", *args)
    assert result.exit_code == 1
    assert message in result.output


@pytest.mark.parametrize("text, message", [
    ("P1 hand: AS KS\nP2 hand: 2C ZZ\n", "hands.txt:2:13: `ZZ` is not a card of this deck"),
    ("P1 hand: AS KS\nP2 hand: 2C AS\n", "hands.txt:2:13: `AS` appears more often than the deck holds it"),
    ("P1 hand: AS KS\nP2 hand: 2C\n", "hands.txt:2:1: `P2 hand` gets 2 cards in the first deal, but 1 is given"),
    ("P1 hand: AS KS\nP9 hand: 2C 3C\n", "hands.txt:2:1: there is no zone `P9 hand` at this table"),
    ("P1 hand AS KS\n", "hands.txt:1:1: write each zone on a line of its own as `ZONE: CARDS`"),
])
def test_a_hands_file_mistake_is_shown_where_it_is(tmp_path, text, message):
    result = run("play", "peklo", "-p", "3", "-o", "deal_size=2", "--seat", "random",
                 "--hands", hands_file(tmp_path, text))
    assert result.exit_code == 1
    assert message in result.output.replace(str(tmp_path) + "/", "")


def test_a_deck_file_that_misses_cards_says_how_many(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("7S 8S 9S 10S JS QS KS AS 7H 8H 9H\n", encoding="utf-8")
    result = run("play", "pony", "--seat", "random", "--seat", "random", "--seed", "0", "--deck", str(deck))
    assert result.exit_code == 1
    assert f"{deck}: the deck order for the shuffle of `stock` in deal 1 does not fit it" in result.output
    assert "21 of its cards are missing from the order" in result.output
