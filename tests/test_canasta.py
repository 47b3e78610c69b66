"""Canasta, Russian form (GAMES.md section 8, seed 004, cut off; classic partnership Canasta fills
the rest): one scenario per rule on set-up positions.

Positions: `position()` puts named cards into the hands and the discard pile (P0 to move, in the
`after_draw` step unless told); every card not placed goes to the stock. Table melds made outside
play take their cards from the stock and belong to a side (4 players: P0+P2 are side 0, P1+P3
side 1).
"""
from __future__ import annotations

import pytest

import koloda

from helpers import act, conservation, get_var, hand, legal, meld_cards, setup, table_meld, zone_cards

OTHERS = ["5C 6C 8C", "5D 6D 8D", "5H 6H 8H", "9C 9D QH"]     # hands with no meld, for players not given


def load(players: int = 4, **options):
    return koloda.load("canasta", options=options, players=players)


def position(game, hands, pile="4D", step="after_draw", current=0, vars=None, table=()):
    s = game.new_initial_state(0)
    zones = {"pile": pile}
    for p in range(game.num_players):
        zones[("hand", p)] = hands[p] if p < len(hands) else OTHERS[p - 1]
    setup(s, zones=zones, current=current, step=step, vars=vars or {})
    for text, owner in table:
        table_meld(s, text, owner, where="stock")
    return s


def plays(s) -> list[str]:
    return [t for t in legal(s) if t.startswith(("meld", "lay off", "swap"))]


def discards(s) -> list[str]:
    return [t for t in legal(s) if t.startswith("discard")]


def side_scores(s) -> list[int]:
    return [get_var(s, ("score", t)) for t in range(s.game.num_sides)]


def opened(s) -> list[bool]:
    return [get_var(s, ("opened", t)) for t in range(s.game.num_sides)]


# ------------------------------------------------------------------ players, sides, deck, deal
def test_four_players_are_two_sides_partners_opposite():
    g = load()
    assert g.num_players == 4 and g.num_sides == 2
    assert [g.side_of(p) for p in range(4)] == [0, 1, 0, 1]
    assert g.layout.meld_by_side


@pytest.mark.parametrize("players", [2, 3, 5])
def test_other_counts_play_each_for_themselves(players):
    g = load(players=players)
    assert g.num_sides == players
    s = g.new_initial_state(1)
    assert [len(hand(s, p)) for p in range(players)] == [12] * players
    assert len(zone_cards(s, "stock")) == 110 - 12 * players - 1


def test_one_or_six_players_are_refused():
    for n in (1, 6):
        with pytest.raises(Exception):
            load(players=n)


def test_110_cards_by_default_108_as_an_option():
    g = load()
    assert g.cards.size == 110 and len(g.cards.parse("JK")) == 6
    assert len(g.cards.parse("QS")) == 2
    g = load(jokers=4)
    assert g.cards.size == 108 and len(g.cards.parse("JK")) == 4


def test_twelve_dealt_the_stock_and_its_top_turned_up():
    g = load()
    s = g.new_initial_state(3)
    assert [len(hand(s, p)) for p in range(4)] == [12] * 4
    assert len(zone_cards(s, "pile")) == 1
    assert len(zone_cards(s, "stock")) == 110 - 48 - 1
    obs = s.observation(1)
    pile = next(z for z in obs["zones"] if z["zone"] == "pile")
    assert pile["top"] == zone_cards(s, "pile")[-1]
    stock = next(z for z in obs["zones"] if z["zone"] == "stock")
    assert "cards" not in stock and "top" not in stock
    conservation(s)


def test_card_values():
    """Classic values, but the two is not wild here, so it is the low card it is (5), not a wild card's 20."""
    g = load()
    v = {g.cards.names[c]: g.cards.values[c] for c in range(g.cards.size)}
    assert (v["JK"], v["AS"], v["2H"], v["KD"], v["8C"], v["7S"], v["3H"]) == (50, 20, 5, 10, 10, 5, 5)
    assert "2C" not in [g.cards.names[c] for c in g.wild_cards]


# ------------------------------------------------------------------ draw, then the pile
def test_a_turn_starts_with_the_draw_only_even_when_the_pile_top_fits():
    g = load()
    s = position(g, ["KS KH 7C 7D 9S"], pile="4D KC", step="start")
    assert legal(s) == ["draw"], "the pile is taken only after drawing"
    top = zone_cards(s, "stock")[-1]
    act(s, "draw")
    assert hand(s, 0)[-1] == top
    assert "take the pile (K♣)" in legal(s)


def test_the_pile_is_taken_whole_and_its_top_must_be_melded_at_once():
    g = load()
    s = position(g, ["KS KH 7C 7D 7H 9S"], pile="4D JS KC")
    act(s, "take the pile (K♣)")
    assert zone_cards(s, "pile") == []
    assert sorted(hand(s, 0)) == sorted("KS KH 7C 7D 7H 9S 4D JS KC".split())
    assert get_var(s, ("must_meld", 0)) is not None
    assert plays(s) == ["meld K♣ K♥ K♠"], "only a play that uses the top: not the sevens"
    assert discards(s) == []
    act(s, "meld K♣ K♥ K♠")
    assert get_var(s, ("must_meld", 0)) is None
    assert "meld 7♣ 7♦ 7♥" in plays(s)
    assert len(discards(s)) == 6


def test_the_pile_cannot_be_taken_when_its_top_cannot_be_melded():
    g = load()
    s = position(g, ["KS QH 7C 7D 9S"], pile="4D KC")
    assert not any(t.startswith("take") for t in legal(s))
    s = position(g, ["7S 7H 9C 2D 9S"], pile="4D 7C")         # 15 points: no opening
    assert not any(t.startswith("take") for t in legal(s))


def test_the_pile_top_may_complete_the_opening_with_the_rest_of_the_hand():
    g = load()
    s = position(g, ["7S 7H QS QH QD 9C"], pile="4D 7C")       # 15 + 30
    assert "take the pile (7♣)" in legal(s)
    act(s, "take the pile (7♣)")
    assert plays(s) == ["meld 7♣ 7♥ 7♠"]


def test_an_opened_side_takes_the_pile_to_lay_its_top_off():
    g = load()
    s = position(g, ["9S 3C 4H"], pile="2H 5S QC", vars={("opened", 0): True}, table=[("QS QH QD", 1)])
    assert "take the pile (Q♣)" in legal(s)
    act(s, "take the pile (Q♣)")
    assert plays(s) == ["lay off Q♣ on meld 1"]
    act(s, "lay off Q♣ on meld 1")
    assert sorted(meld_cards(s, 0)) == ["QC", "QD", "QH", "QS"]
    assert len(discards(s)) == 5


# ------------------------------------------------------------------ the opening minimum
def test_the_sides_first_melds_need_30_points():
    g = load()
    s = position(g, ["7S 7H 7D 9C QS"])
    assert plays(s) == [], "15 points"
    s = position(g, ["KS KH KD 9C 4S"])
    assert plays(s) == ["meld K♦ K♥ K♠"]
    act(s, "meld K♦ K♥ K♠")
    assert opened(s) == [True, False]


def test_the_opening_may_be_made_of_several_melds_in_one_turn():
    g = load()
    s = position(g, ["7S 7H 7D 5C 5D 5H 9C QS"])
    assert sorted(plays(s)) == ["meld 5♣ 5♦ 5♥", "meld 7♦ 7♥ 7♠"]
    act(s, "meld 7♦ 7♥ 7♠")
    assert opened(s) == [False, False] and get_var(s, ("turn_points", 0)) == 15
    assert discards(s) == [], "15 put down: no discard short of the opening"
    act(s, "meld 5♣ 5♦ 5♥")
    assert opened(s) == [True, False]
    assert sorted(discards(s)) == ["discard 9♣", "discard Q♠"]


def test_the_opening_counts_only_what_can_go_down_with_two_cards_kept():
    """555 + 777 is 30, but it would leave one card, and a side without a canasta keeps two: 555 alone
    (15) would stay on the table short of the opening."""
    g = load()
    s = position(g, ["5S 5H 5D 7S 7H 7D 9C"])
    assert plays(s) == []
    assert len(discards(s)) == 7
    s = position(g, ["5S 5H 5D 7S 7H 7D 9C 4S"])
    assert sorted(plays(s)) == ["meld 5♦ 5♥ 5♠", "meld 7♦ 7♥ 7♠"]
    act(s, "meld 5♦ 5♥ 5♠")
    assert plays(s) == ["meld 7♦ 7♥ 7♠"] and discards(s) == []
    act(s, "meld 7♦ 7♥ 7♠")
    assert opened(s) == [True, False]
    assert sorted(discards(s)) == ["discard 4♠", "discard 9♣"]


def test_with_a_canasta_nothing_need_be_kept_for_the_opening():
    g = load(players=2)
    s = position(g, ["5S 5H 5D 7S 7H 7D 9C", "5C 6C 8C"], table=[("KS KH KD KC KS KH KD", 0)])
    assert sorted(plays(s)) == ["meld 5♦ 5♥ 5♠", "meld 7♦ 7♥ 7♠"]


def test_the_pile_is_not_taken_when_the_two_kept_cards_leave_the_opening_short():
    g = load()
    s = position(g, ["5S 5H 7S 7H 7D 9C"], pile="5D")
    assert not any(t.startswith("take") for t in legal(s)), "555 and 777 would leave one card"
    s = position(g, ["5S 5H 7S 7H 7D 9C"], pile="4D 5D")     # the 4♦ under the top comes into the hand too
    assert "take the pile (5♦)" in legal(s)
    act(s, "take the pile (5♦)")
    act(s, "meld 5♦ 5♥ 5♠")
    act(s, "meld 7♦ 7♥ 7♠")
    assert opened(s) == [True, False] and sorted(discards(s)) == ["discard 4♦", "discard 9♣"]


def test_the_opening_option_40():
    g = load(opening=40)
    s = position(g, ["KS KH KD 9C 4S"])
    assert plays(s) == []
    s = position(g, ["KS KH KD KC 9C 4S"])
    assert "meld K♣ K♦ K♥ K♠" in plays(s)
    assert "meld K♦ K♥ K♠" not in plays(s) and "meld K♣ K♥ K♠" not in plays(s)


def test_a_joker_counts_as_the_card_it_stands_for_in_the_opening():
    g = load()
    s = position(g, ["KS KH JK 9C 4S"])
    assert [t for t in plays(s) if "🃏" in t] == ["meld K♥ K♠ 🃏=K"]
    s = position(g, ["7S 7H JK 9C 4S"])
    assert plays(s) == [], "7 7 🃏: 15 points"


def test_the_opening_is_the_sides_partners_need_not_open_again():
    g = load()
    s = position(g, ["9C 4S", "5C 6C 8C", "7S 7H 7D 2C 3D"], vars={("opened", 0): True}, current=2)
    assert plays(s) == ["meld 7♦ 7♥ 7♠"], "P2's side has opened: 15 points are enough"
    s = position(g, ["9C 4S", "7S 7H 7D 2C 3D"], vars={("opened", 0): True}, current=1)
    assert plays(s) == [], "P1's side has not"


def test_partners_share_their_melds():
    g = load()
    s = position(g, ["9C 4S KS", "5C 6C 8C", "7S 2C 3D"], vars={("opened", 0): True}, current=2,
                 table=[("7H 7D 7C", 0)])
    act(s, "lay off 7♠ on meld 1")
    assert s.slot_owner[0] == 0
    assert get_var(s, ("opened", 0)) is True


# ------------------------------------------------------------------ laying off, swapping, jokers
def test_an_opened_player_lays_off_on_anyones_melds():
    g = load()
    s = position(g, ["QC 7S 9C 4S"], vars={("opened", 0): True}, table=[("QS QH QD", 1), ("7H 7D 7C", 0)])
    assert sorted(plays(s)) == sorted(["lay off Q♣ on meld 1", "lay off 7♠ on meld 2"])


def test_no_layoff_before_opening():
    g = load()
    s = position(g, ["QC 7S 9C 4S"], table=[("QS QH QD", 1), ("7H 7D 7C", 0)])
    assert plays(s) == []


def test_an_opened_player_swaps_a_joker_in_any_meld_and_lays_it_down_at_once():
    """«менять в них джокер. Джокер должен быть тут же выложен на стол»: the joker won back goes down next."""
    g = load()
    s = position(g, ["QC 9C 9S 5D 6H"], vars={("opened", 0): True}, table=[("QS QH JK", 1)])
    assert "swap Q♣ for the joker in meld 1" in plays(s)
    act(s, "swap Q♣ for the joker in meld 1")
    assert sorted(meld_cards(s, 0)) == ["QC", "QH", "QS"]
    assert "JK" in hand(s, 0)
    assert sorted(legal(s)) == ["lay off 🃏=Q on meld 1", "meld 9♣ 9♠ 🃏=9"], "only plays with the joker"
    act(s, "meld 9♣ 9♠ 🃏=9")
    assert sorted(discards(s)) == ["discard 5♦", "discard 6♥"]


def test_no_swap_when_the_joker_could_not_then_be_laid_down():
    g = load()
    s = position(g, ["QC 9C"], vars={("opened", 0): True}, table=[("QS QH JK", 1)])
    assert plays(s) == [], "laying the joker would leave one card, and the side has no canasta"
    s = position(g, ["QC 9C"], vars={("opened", 0): True}, table=[("QS QH JK", 1), ("KS KH KD KC KS KH KD", 0)])
    assert "swap Q♣ for the joker in meld 1" in plays(s)


def test_no_swap_before_opening():
    g = load()
    s = position(g, ["QC 9C 4S 5D"], table=[("QS QH JK", 1)])
    assert plays(s) == []


def test_a_joker_in_hand_may_be_laid_down_kept_or_discarded():
    """Only the joker won back by a swap must go down at once; one dealt or drawn is a card like any other,
    so a player is never made to give the other side a 50-point joker."""
    g = load()
    s = position(g, ["JK 9C 4S 5D"], vars={("opened", 0): True}, table=[("QS QH QD", 1)])
    assert plays(s) == ["lay off 🃏=Q on meld 1"]
    assert sorted(discards(s)) == ["discard 4♠", "discard 5♦", "discard 9♣", "discard 🃏"]
    s = position(g, ["JK 9C 9S 4S 5D"], vars={("opened", 0): True})
    assert "meld 9♣ 9♠ 🃏=9" in plays(s)
    assert len(discards(s)) == 5


def test_cards_laid_off_count_for_the_melds_owner():
    """P1 lays a joker on side 1's queens and goes out: the joker's 50 go to side 1."""
    g = load()
    s = position(g, ["JK 4S", "5C 6C 8C", "5H 6H 8H", "9C 9D QH"], vars={("opened", 0): True, ("opened", 1): True},
                 table=[("KS KH KD KC KS KH KD", 0), ("QS QH QD", 1)])
    act(s, "lay off 🃏=Q on meld 2")
    act(s, "discard 4♠")
    assert s.deal_number == 2 or s.is_terminal()
    hands1 = (5 + 5 + 10) + (10 + 10 + 10)
    hands0 = 5 + 5 + 10
    assert side_scores(s) == [70 + 500 + 100 - hands0, 30 + 50 - hands1]


def test_a_meld_needs_more_natural_cards_than_jokers():
    g = load()
    s = position(g, ["JK JK 9C 4S 5D"], vars={("opened", 0): True})
    assert plays(s) == []


# ------------------------------------------------------------------ going out needs a canasta
def test_without_a_canasta_a_play_must_leave_two_cards():
    g = load()
    s = position(g, ["9C 9S 9D 4S"], vars={("opened", 0): True})
    assert plays(s) == [], "melding three would leave one card: the last discard would go out"
    s = position(g, ["9C 9S 9D 4S 5D"], vars={("opened", 0): True})
    assert plays(s) == ["meld 9♣ 9♦ 9♠"]


def test_without_a_canasta_the_last_card_is_not_discarded():
    g = load()
    s = position(g, ["4S"], vars={("opened", 0): True})
    assert discards(s) == []
    assert legal(s) == ["stop"]


def test_with_a_canasta_a_player_goes_out_by_melding_everything():
    g = load()
    s = position(g, ["9C 9S 9D"], vars={("opened", 0): True}, table=[("KS KH KD KC KS KH KD", 0)])
    assert plays(s) == ["meld 9♣ 9♦ 9♠"]
    act(s, "meld 9♣ 9♦ 9♠")
    assert s.deal_number == 2 or s.is_terminal(), "going out ends the deal"


def test_with_a_partners_canasta_a_player_goes_out_by_discarding():
    g = load()
    s = position(g, ["4S"], vars={("opened", 0): True}, table=[("KS KH KD KC KS KH KD", 0)])
    assert discards(s) == ["discard 4♠"]
    act(s, "discard 4♠")
    assert s.deal_number == 2 or s.is_terminal()


def test_the_opponents_canasta_does_not_let_a_player_out():
    g = load()
    s = position(g, ["4S"], vars={("opened", 0): True}, table=[("KS KH KD KC KS KH KD", 1)])
    assert discards(s) == []


def test_a_new_canasta_of_seven_may_empty_the_hand():
    g = load()
    s = position(g, ["9C 9S 9D 9H 9C 9S 9D"])
    assert "meld 9♣ 9♦ 9♥ 9♠ 9♣ 9♦ 9♠" in plays(s)
    assert "meld 9♣ 9♦ 9♥ 9♠ 9♣ 9♦" not in plays(s), "six would leave one card and no canasta"
    act(s, "meld 9♣ 9♦ 9♥ 9♠ 9♣ 9♦ 9♠")
    assert s.deal_number == 2 or s.is_terminal()


def test_a_layoff_completing_a_canasta_lets_the_player_go_out():
    g = load()
    s = position(g, ["KS 4S"], vars={("opened", 0): True}, table=[("KC KH KD KC KS KH", 0)])
    assert "lay off K♠ on meld 1" in plays(s)
    act(s, "lay off K♠ on meld 1")
    assert discards(s) == ["discard 4♠"]


def test_a_layoff_making_the_other_sides_canasta_does_not_let_a_player_out():
    g = load()
    s = position(g, ["KS 4S"], vars={("opened", 0): True}, table=[("KC KH KD KC KS KH", 1)])
    assert "lay off K♠ on meld 1" not in plays(s), "it would leave one card, and the canasta is not P1's side's"
    s = position(g, ["KS 4S 5D"], vars={("opened", 0): True}, table=[("KC KH KD KC KS KH", 1)])
    assert "lay off K♠ on meld 1" in plays(s)


def live_moves(s) -> list[str]:
    """The legal moves, or [] where the engine finds none (it raises: the rules offer no move)."""
    from koloda.interpreter.base.errors import RuleRuntimeError
    try:
        return legal(s)
    except RuleRuntimeError:
        return []


def test_a_first_meld_is_offered_only_when_the_opening_can_be_completed():
    g = load()
    s = position(g, ["7S 7H 7D 5C 5D 5H"])
    for text in plays(s):
        c = s.clone()
        act(c, text)
        assert live_moves(c), f"after `{text}` P0 has no legal move"


def test_the_pile_is_not_taken_into_a_dead_end():
    g = load()
    s = position(g, ["KS KH 9D"], pile="KC")
    if "take the pile (K♣)" in legal(s):
        act(s, "take the pile (K♣)")
        assert live_moves(s), "after taking the pile P0 has no legal move"
        assert any("K♣" in t for t in plays(s))


# ------------------------------------------------------------------ the end of the deal and scoring
def test_the_deal_ends_when_the_stock_is_exhausted_after_a_turn():
    g = load()
    s = position(g, ["9C 4S 5D"], step="start")
    stock = g.layout.zone_base["stock"]
    keep = s.zones[stock][-1]
    for c in list(s.zones[stock][:-1]):
        s.move(c, g.layout.zone_base["pile"], None, under=True)
    s._legal = None
    assert len(zone_cards(s, "stock")) == 1
    act(s, "draw")
    assert zone_cards(s, "stock") == [] and s.deal_number == 1
    assert s.current_player() == 0 and g.cards.names[keep] in hand(s, 0), "the turn is played out"
    act(s, "discard 4♠")
    assert s.deal_number == 2, "the stock is exhausted: the next deal"
    assert [len(hand(s, p)) for p in range(4)] == [12] * 4


def test_scoring_in_a_known_final_position():
    g = load()
    # side 0: a natural canasta of kings (7 x 10), a mixed canasta of nines with a joker (6 x 10 + 50),
    #         and 5 5 5 (15); P0 goes out by discarding; P2 holds A 3 (25)
    # side 1: a set of queens (30) with a joker (50); P1 holds JK 7 (55), P3 holds 2 2 (40)
    s = position(g, ["4S", "JK 7H", "AS 3C", "2D 2H"], vars={("opened", 0): True, ("opened", 1): True},
                 table=[("KS KH KD KC KS KH KD", 0), ("9S 9H 9D 9C 9S 9H JK", 0), ("5C 5D 5H", 0),
                        ("QS QH QD JK", 1)])
    act(s, "discard 4♠")
    assert s.deal_number == 2 or s.is_terminal()
    side0 = 70 + (60 + 50) + 15 + 500 + 300 + 100 - 25
    side1 = (30 + 50) - 55 - 10
    assert side_scores(s) == [side0, side1]


def test_scoring_without_going_out_gets_no_bonus():
    g = load()
    s = position(g, ["9C 4S 5D"], step="start", table=[("KS KH KD", 0)], vars={("opened", 0): True})
    stock = g.layout.zone_base["stock"]
    for c in list(s.zones[stock][:-1]):
        s.move(c, g.layout.zone_base["pile"], None, under=True)
    top = g.cards.names[s.zones[stock][-1]]
    s._legal = None
    act(s, "draw")
    act(s, "discard 9♣")
    assert s.deal_number == 2
    left = sorted(["4S", "5D", top])
    mine = sum(g.cards.values[g.cards.parse(n)[0]] for n in left)
    # P2's hand and the others' are the default ones
    p2 = sum(g.cards.values[g.cards.parse(n)[0]] for n in OTHERS[1].split())
    p1 = sum(g.cards.values[g.cards.parse(n)[0]] for n in OTHERS[0].split())
    p3 = sum(g.cards.values[g.cards.parse(n)[0]] for n in OTHERS[2].split())
    assert side_scores(s) == [30 - mine - p2, -p1 - p3]


def test_the_match_runs_the_deals_option():
    g = load(deals=1)
    s = position(g, ["9C 9S 9D"], vars={("opened", 0): True}, table=[("KS KH KD KC KS KH KD", 0)])
    act(s, "meld 9♣ 9♦ 9♠")
    assert s.is_terminal()
    r = s.returns()
    assert r[0] == r[2] > 0 and r[1] == r[3] == 0, "partners win together"
    assert s.scores()[0] == s.scores()[2] and s.scores()[1] == s.scores()[3]
    g = load(deals=2)
    s = position(g, ["9C 9S 9D"], vars={("opened", 0): True}, table=[("KS KH KD KC KS KH KD", 0)])
    act(s, "meld 9♣ 9♦ 9♠")
    assert not s.is_terminal() and s.deal_number == 2
    assert opened(s) == [False, False] and all(k is None for k in s.slot_kind)


# ------------------------------------------------------------------ seeded random playouts
PLAYOUTS = [           # players, options, seeds
    (4, {"deals": 2}, [1, 2]),
    (4, {"deals": 1, "jokers": 4, "opening": 40}, [3]),
    (2, {"deals": 1}, [1]),
    (3, {"deals": 1, "jokers": 4, "opening": 40}, [1]),
    (5, {"deals": 1}, [1]),
]
MAX_LEGAL: dict[str, int] = {}


@pytest.mark.parametrize("players,options,seeds", PLAYOUTS,
                         ids=[f"{p}p-" + "-".join(f"{k}={v}" for k, v in o.items()) for p, o, _ in PLAYOUTS])
def test_playouts(players, options, seeds):
    import time
    from helpers import random_playout
    g = load(players=players, **options)
    most, started = 0, time.time()
    for seed in seeds:
        s, m, moves = random_playout(g, seed)
        most = max(most, m)
        assert s.is_terminal() and s.deal_number == options["deals"]
        if g.num_sides < players:
            sc = s.scores()
            assert all(sc[p] == sc[p % g.num_sides] for p in range(players)), "partners share their score"
    key = f"canasta {players}p {options}"
    MAX_LEGAL[key] = most
    print(f"\n{key}: at most {most} legal actions, {time.time() - started:.1f}s")
    assert most <= 300


def test_same_seed_same_game():
    from helpers import random_playout, snapshot
    g = load(deals=1)
    a, _, n = random_playout(g, 4, every=50)
    b, _, m = random_playout(g, 4, every=50)
    assert n == m and a.history == b.history and snapshot(a) == snapshot(b)
