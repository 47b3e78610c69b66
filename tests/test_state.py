"""koloda.interpreter.core.state: moves, shuffles, deck orders, clones, JSON."""
from __future__ import annotations

import json
import random

import pytest

import koloda
from koloda.dsl.errors import NOWHERE
from koloda.interpreter.base.errors import RuleRuntimeError


@pytest.fixture(scope="module")
def pony():
    return koloda.load("pony")


@pytest.fixture(scope="module")
def peklo():
    return koloda.load("peklo", players=4)


def card(game, name):
    return game.cards.parse(name)[0]


def where(game, s, name):
    return s.loc[card(game, name)]


def test_initial_state_places_every_card_once(pony):
    s = pony.new_initial_state(seed=3)
    placed = [c for z in s.zones for c in z]
    assert sorted(placed) == list(range(pony.cards.size))
    for zi, zone in enumerate(s.zones):
        for c in zone:
            assert s.loc[c] == zi
    hand = pony.layout.zone_base["hand"]
    assert [len(s.zones[hand + p]) for p in range(s.n)] == [5, 5]
    assert len(s.zones[pony.layout.zone_base["pile"]]) == 1


def test_move_updates_loc_and_by(pony):
    s = pony.new_initial_state(seed=1)
    pile = pony.layout.zone_base["pile"]
    hand1 = pony.layout.zone_base["hand"] + 1
    c = s.zones[hand1][0]
    before = len(s.zones[hand1])
    s.move(c, pile, 1)
    assert s.zones[pile][-1] == c, "a moved card goes on top"
    assert c not in s.zones[hand1] and len(s.zones[hand1]) == before - 1
    assert s.loc[c] == pile and s.by[c] == 1
    s.move(c, hand1, None)
    assert s.by[c] is None and s.loc[c] == hand1 and s.zones[hand1][-1] == c


def test_gather(pony):
    s = pony.new_initial_state(seed=1)
    stock = pony.layout.zone_base["stock"]
    s.gather(stock)
    assert sorted(s.zones[stock]) == list(range(pony.cards.size))
    assert all(not z for i, z in enumerate(s.zones) if i != stock)
    assert set(s.loc) == {stock} and set(s.by) == {None}


def test_deal_too_many_is_a_runtime_error(pony):
    s = pony.new_initial_state(seed=1)
    with pytest.raises(RuleRuntimeError, match="only"):
        s.deal(100, pony.layout.zone_base["hand"], pony.layout.zone_base["stock"], NOWHERE)
    with pytest.raises(RuleRuntimeError, match="cannot deal -1"):
        s.deal(-1, pony.layout.zone_base["hand"], pony.layout.zone_base["stock"], NOWHERE)


def test_shuffle_is_decided_by_the_seed(pony):
    a = pony.new_initial_state(seed=42)
    b = pony.new_initial_state(seed=42)
    c = pony.new_initial_state(seed=43)
    assert a.zones == b.zones
    assert a.dealer == b.dealer
    assert a.zones != c.zones
    stock = pony.layout.zone_base["stock"]
    a.shuffle(stock)
    b.shuffle(stock)
    assert a.zones[stock] == b.zones[stock]


def test_same_seed_same_game(pony):
    def play(seed):
        s = pony.new_initial_state(seed=seed)
        rng = random.Random(0)
        trail = []
        for _ in range(60):
            if s.is_terminal():
                break
            a = rng.choice(s.legal_actions())
            trail.append(a)
            s.apply_action(a)
        return trail, s.to_json()
    assert play(5) == play(5)


def test_deck_order_is_top_first(pony):
    names = ["JS", "7H", "8H", "9H", "10H", "QH", "KH", "AH", "JH", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
             "AD", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "7S", "8S", "9S", "10S", "QS", "KS", "AS"]
    order = pony.parse_deck(" ".join(names))
    s = pony.new_initial_state(seed=0, deck=order)
    hand = pony.layout.zone_base["hand"]
    first = (s.dealer + 1) % s.n
    # the deal gives the top card to the player after the dealer, one at a time
    assert pony.cards.names[s.zones[hand + first][0]] == "JS"
    assert pony.cards.names[s.zones[hand + (first + 1) % 2][0]] == "7H"
    assert [pony.cards.names[c] for c in s.zones[hand + first]] == names[0:10:2]
    # after ten cards dealt the next one is turned up on the pile
    assert pony.cards.names[s.zones[pony.layout.zone_base["pile"]][-1]] == names[10]
    assert s.orders == [], "the given order was used up"


def test_parse_deck_rejects_unknown_and_repeated_cards(pony):
    with pytest.raises(ValueError, match="not a card of this deck"):
        pony.parse_deck("2C 3C")
    with pytest.raises(ValueError, match="more often"):
        pony.parse_deck("QS QS")
    assert len(pony.parse_deck("QS KS\n\nAS")) == 2


def test_clone_is_independent(peklo):
    s = peklo.new_initial_state(seed=2)
    c = s.clone()
    assert c.to_json() == s.to_json()
    before = json.dumps(s.to_json())
    for _ in range(6):
        c.apply_action(c.legal_actions()[0])
    assert json.dumps(s.to_json()) == before, "playing on the clone leaves the original alone"
    assert c.to_json() != s.to_json()
    c.own(0).append(999)          # a zone's cards change through own(): the clone's copy
    c.vars[0] = "changed"
    c.skips[0] = 9
    assert 999 not in s.zones[0] and s.vars[0] != "changed" and s.skips[0] == 0


def test_json_round_trip(peklo):
    s = peklo.new_initial_state(seed=4)
    rng = random.Random(1)
    for _ in range(7):
        s.apply_action(rng.choice(s.legal_actions()))
    text = json.dumps(s.to_json())
    data = json.loads(text)
    assert data["format"] == "koloda-state/1" and data["game"] == "peklo"
    r = peklo.state_from_json(data)
    assert json.dumps(r.to_json()) == text
    assert r.loc == s.loc and r.history == s.history
    assert r.legal_actions() == s.legal_actions()
    # both go on the same way, shuffles included
    for _ in range(30):
        if s.is_terminal():
            break
        a = s.legal_actions()[-1]
        s.apply_action(a)
        r.apply_action(a)
    assert json.dumps(r.to_json()) == json.dumps(s.to_json())


def test_illegal_action_is_refused(pony):
    s = pony.new_initial_state(seed=1)
    illegal = next(a for a in range(pony.num_distinct_actions) if a not in s.legal_actions())
    with pytest.raises(ValueError):
        s.apply_action(illegal)
    assert s.history == []


def test_current_player_and_legal_for_others(pony):
    s = pony.new_initial_state(seed=1)
    assert s.current_player() == s.current
    assert s.legal_actions((s.current + 1) % s.n) == []
    assert s.legal_actions(s.current)


def test_a_deal_from_a_stock_shared_with_a_clone_deals_its_top_cards(pony):
    s = pony.new_initial_state(seed=1)
    stock, hand = pony.layout.zone_base["stock"], pony.layout.zone_base["hand"]
    c = s.clone()                         # the clone shares the stock's list until it changes it
    top4 = s.zones[stock][-4:]
    c.deal(2, hand, stock, NOWHERE)
    assert len(c.zones[stock]) == len(s.zones[stock]) - 4
    dealt = c.zones[hand + s.current][5:] + c.zones[hand + 1 - s.current][5:]
    assert sorted(dealt) == sorted(top4)
    assert [len(c.zones[hand + p]) for p in range(2)] == [7, 7]
    assert all(c.loc[x] in (hand, hand + 1) for x in top4) and all(s.loc[x] == stock for x in top4)


def card_by_card(s, cards, dest, who):
    """What moving a whole zone was before it was done in one pass: noted, then moved card by card."""
    s.note_leaving(cards, dest)
    for x in cards:
        s.move(x, dest, who)


def test_a_deal_and_a_whole_zone_moved_are_card_by_card_moves(peklo):
    s = peklo.new_initial_state(seed=5)
    while s.phase == 0 or len(s.zones[peklo.layout.zone_base["trick"]]) < 2:
        s.apply_action(s.legal_actions()[-1])
    trick, won = peklo.layout.zone_base["trick"], peklo.layout.zone_base["won"]
    one, other = s.clone(), s.clone()
    one.moved = other.moved = ()
    one.move_zone(trick, won + 2, 2)
    card_by_card(other, list(s.zones[trick]), won + 2, 2)
    assert one.to_json() == other.to_json() and one.dirty == other.dirty
    assert one.moved and not one.zones[trick]
    stock, hand = peklo.layout.zone_base["stock"], peklo.layout.zone_base["hand"]
    s.gather(stock)
    one, other = s.clone(), s.clone()
    one.deal(3, hand, stock, NOWHERE)
    for _ in range(3):
        for k in range(4):
            other.move(other.zones[stock][-1], hand + (other.dealer + 1 + k) % 4, None)
    assert one.to_json() == other.to_json() and one.dirty == other.dirty


def test_a_shuffle_puts_the_cards_where_pythons_shuffle_does():
    from koloda.interpreter.core.shuffle import shuffled
    for size in (0, 1, 2, 3, 32, 52, 108, 1000):
        for seed in range(5):
            ours, theirs = list(range(size)), list(range(size))
            rng, other = random.Random(seed), random.Random(seed)
            shuffled(rng, ours)
            other.shuffle(theirs)
            assert ours == theirs and rng.random() == other.random(), (size, seed)
