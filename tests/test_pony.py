"""Pony / Kis-kis (GAMES.md section 3, seed 002): one scenario per rule and per option."""
from __future__ import annotations

import pytest

import koloda

from helpers import act, card, cards, conservation, get_var, hand, legal, new_state, setup, suit, zone_cards


def pony(players: int = 2, **options):
    return koloda.load("pony", options=options, players=players)


def position(game, hands, pile, stock_top="", stock=None, current=0, seed=0, vars=None, by=None):
    """A fresh deal-1 state rearranged: `hands` per player, `pile` bottom first (last is the top),
    the stock holds every other card with `stock_top` (top first) on top; `stock=""` demands an
    empty stock (then every card must be placed)."""
    s = game.new_initial_state(seed)
    placed = set()
    zones = {}
    for p, h in enumerate(hands):
        zones[("hand", p)] = h
        placed |= set(cards(game, h))
    zones["pile"] = pile
    placed |= set(cards(game, pile))
    top = cards(game, stock_top)
    rest = [c for c in range(game.cards.size) if c not in placed and c not in top]
    if stock is not None:
        assert stock == "" and not rest and not top, "an empty stock needs every card placed"
    zones["stock"] = [game.cards.names[c] for c in rest + top[::-1]]
    setup(s, zones=zones, vars=vars, current=current, step="turn", by=by)
    conservation(s)
    return s


def penalties(s):
    return [get_var(s, ("penalty", p)) for p in range(s.n)]


# ------------------------------------------------------------------ the deck and the values
def test_default_deck_is_piquet_32():
    g = pony()
    assert g.cards.size == 32
    assert sorted(set(g.cards.ranks)) == list(range(7, 15))
    assert len(set(g.cards.names)) == 32
    for s in range(4):
        assert sum(1 for x in g.cards.suits if x == s) == 8


def test_option_deck_52():
    g = pony(deck="standard52")
    assert g.cards.size == 52
    assert sorted(set(g.cards.ranks)) == list(range(2, 15))
    assert len(set(g.cards.names)) == 52
    s = g.new_initial_state(3)
    conservation(s)
    assert len(zone_cards(s, "stock")) == 52 - 2 * 5 - 1


def test_card_values():
    g = pony(deck="standard52")
    expect = {"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4,
              "3": 3, "2": 2}
    for rank, value in expect.items():
        for s in "CDHS":
            assert g.cards.values[card(g, rank + s)] == value, rank + s


def test_unknown_deck_choice_rejected():
    with pytest.raises(Exception):
        pony(deck="russian36")


# ------------------------------------------------------------------ the deal
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_deal_five_each_and_turn_up_one(players):
    g = pony(players)
    s = g.new_initial_state(11)
    conservation(s)
    for p in range(players):
        assert len(hand(s, p)) == 5
    assert len(zone_cards(s, "pile")) == 1
    assert len(zone_cards(s, "stock")) == 32 - 5 * players - 1
    assert s.deal_number == 1 and not s.is_terminal()


@pytest.mark.parametrize("players,deck", [(2, "piquet32"), (4, "piquet32"), (6, "standard52")])
def test_option_deal_seven(players, deck):
    g = pony(players, hand=7, deck=deck)
    s = g.new_initial_state(5)
    conservation(s)
    assert all(len(hand(s, p)) == 7 for p in range(players))
    assert len(zone_cards(s, "pile")) == 1
    assert len(zone_cards(s, "stock")) == g.cards.size - 7 * players - 1


def test_seven_cards_to_six_players_do_not_fit_a_32_deck():
    # 6 x 7 = 42 > 32: the table cannot be dealt; loading the table already says so, located.
    with pytest.raises(koloda.RuleError, match="needs 42 cards") as info:
        pony(6, hand=7)
    assert info.value.span.file.endswith("pony.yaml") and info.value.span.line > 0


def test_deal_one_at_a_time_from_left_of_dealer_then_turn_up():
    g = pony(3)
    seed = 1
    dealer = g.new_initial_state(seed).dealer
    order = [g.cards.names[i] for i in range(32)]        # 7C 8C 9C ... top first
    s = g.new_initial_state(seed, deck=g.parse_deck(" ".join(order)))
    first = (dealer + 1) % 3
    for j in range(3):
        p = (first + j) % 3
        assert hand(s, p) == [order[j + 3 * r] for r in range(5)]
    assert zone_cards(s, "pile") == [order[15]]           # "the next card is turned up"
    assert zone_cards(s, "stock")[::-1] == order[16:]      # the rest is the stock, top first


def test_deck_order_helper_gives_the_hands_asked_for():
    g = pony(3)
    s = new_state(g, 2, hands=["7C 8C 9C 10C JC", "QC KC AC 7D 8D", "9D 10D JD QD KD"], then="AD 7H 8H")
    assert hand(s, 0) == ["7C", "8C", "9C", "10C", "JC"]
    assert hand(s, 1) == ["QC", "KC", "AC", "7D", "8D"]
    assert hand(s, 2) == ["9D", "10D", "JD", "QD", "KD"]
    assert zone_cards(s, "pile") == ["AD"]
    assert zone_cards(s, "stock")[-2:] == ["8H", "7H"]     # 7H on top


@pytest.mark.parametrize("players", [2, 3, 5])
def test_player_left_of_dealer_starts(players):
    g = pony(players)
    dealers = set()
    for seed in range(12):
        s = g.new_initial_state(seed)
        dealers.add(s.dealer)
        assert s.current_player() == (s.dealer + 1) % players
    assert len(dealers) > 1          # the first dealer is drawn by lot


def test_next_deal_dealer_rotates_and_left_of_new_dealer_starts():
    g = pony(3)
    s = position(g, hands=["8H", "AS KS", "7D"], pile="9H", current=1)
    d = s.dealer
    s.current = 0
    act(s, "play 8H")
    assert s.deal_number == 2
    assert s.dealer == (d + 1) % 3
    assert s.current_player() == (d + 2) % 3
    assert all(len(hand(s, p)) == 5 for p in range(3))
    conservation(s)


# ------------------------------------------------------------------ a turn
def test_match_suit_or_rank_jack_always():
    g = pony(2)
    s = position(g, hands=["9C KH 8S JD AD", "7S"], pile="9H")
    assert sorted(legal(s, plain=True)) == ["play 9C", "play JD", "play KH"]
    assert "draw" not in legal(s) and "pass" not in legal(s)


def test_screen_names_of_actions():
    g = pony(2)
    s = position(g, hands=["QS 8D", "7S"], pile="9S")
    assert legal(s) == ["play Q♠"]
    act(s, "play Q♠")
    assert zone_cards(s, "pile")[-1] == "QS"


def test_play_moves_card_to_pile_and_turn_passes_clockwise():
    g = pony(3)
    s = position(g, hands=["KH 8S", "7S 8C", "7C 9C"], pile="9H")
    act(s, "play KH")
    assert zone_cards(s, "pile")[-2:] == ["9H", "KH"]
    assert hand(s, 0) == ["8S"]
    assert s.current_player() == 1
    conservation(s)


def test_jack_always_playable_even_on_a_named_suit():
    g = pony(2)
    s = position(g, hands=["JH 8D", "7S"], pile="10S JC", vars={"named_suit": "clubs"})
    assert legal(s, plain=True) == ["play JH"]


def test_jack_names_a_suit_and_only_that_suit_or_jacks_follow():
    g = pony(2)
    s = position(g, hands=["JS 8D", "10H 10S 7S JC KD"], pile="10C")
    act(s, "play JS")
    # the same player names the suit, any of the four
    assert s.current_player() == 0
    assert sorted(legal(s)) == sorted(f"name {x}" for x in ("clubs", "diamonds", "hearts", "spades"))
    act(s, "name hearts")
    assert get_var(s, "named_suit") == suit("hearts")
    assert s.current_player() == 1
    # spades (the jack's suit) and tens (no rank match) are out; hearts and jacks are in
    assert sorted(legal(s, plain=True)) == ["play 10H", "play JC"]
    act(s, "play 10H")
    assert get_var(s, "named_suit") is None
    assert s.current_player() == 0
    assert legal(s) == ["draw"]                    # 8D matches neither 10H nor hearts


def test_named_suit_is_spent_after_one_card():
    g = pony(2)
    s = position(g, hands=["JS 10D 8C", "10H 9S"], pile="10C")
    act(s, "play JS")
    act(s, "name hearts")
    act(s, "play 10H")
    assert s.current_player() == 0
    assert sorted(legal(s, plain=True)) == ["play 10D"]     # rank 10 matches again, 8C does not


def test_turned_up_jack_has_no_effect_and_matches_by_suit():
    g = pony(2)
    s = position(g, hands=["7H 7S KC", "8C"], pile="JH")
    assert get_var(s, "named_suit") is None
    assert legal(s, plain=True) == ["play 7H"]


def test_turned_up_jack_from_a_real_deal():
    g = pony(2)
    s = new_state(g, 4, hands=["7H 7S KC 8D 9D", "8C 9C 10C AC QC"], then="JH")
    p = s.current_player()
    assert zone_cards(s, "pile") == ["JH"]
    expected = ["play 7H"] if p == 0 else []
    assert [x for x in legal(s, plain=True) if x.startswith("play")] == expected
    if p == 1:
        assert legal(s) == ["draw"]


# ------------------------------------------------------------------ drawing
def test_draw_is_not_allowed_when_a_card_can_be_played():
    g = pony(2)
    s = position(g, hands=["9H 7S", "8C"], pile="9C")
    assert "draw" not in legal(s)
    assert "pass" not in legal(s)


def test_draw_only_when_nothing_can_be_played_and_exactly_one_card():
    g = pony(2)
    s = position(g, hands=["7S 8D", "8C"], pile="9C", stock_top="AH KC")
    assert legal(s) == ["draw"]
    stock_before = len(zone_cards(s, "stock"))
    act(s, "draw")
    assert hand(s, 0) == ["7S", "8D", "AH"]
    assert len(zone_cards(s, "stock")) == stock_before - 1
    assert s.current_player() == 0                 # still their turn, in the `drawn` step
    assert get_var(s, ("drawn", 0)) == card(g, "AH")
    # AH cannot be played on 9C: the only move is to pass; no second draw
    assert legal(s) == ["pass"]
    act(s, "pass")
    assert s.current_player() == 1
    assert hand(s, 0) == ["7S", "8D", "AH"]
    assert get_var(s, ("drawn", 0)) is None
    conservation(s)


def test_drawn_card_that_fits_may_be_played():
    g = pony(2)
    s = position(g, hands=["7S 8D", "8C"], pile="9C", stock_top="KC AH")
    act(s, "draw")
    assert sorted(legal(s, plain=True)) == ["pass", "play KC"]
    act(s, "play KC")
    assert zone_cards(s, "pile")[-1] == "KC"
    assert s.current_player() == 1
    assert get_var(s, ("drawn", 0)) is None


def test_drawn_card_that_fits_may_be_kept():
    g = pony(2)
    s = position(g, hands=["7S 8D", "8C"], pile="9C", stock_top="KC AH")
    act(s, "draw")
    act(s, "pass")
    assert hand(s, 0) == ["7S", "8D", "KC"]
    assert zone_cards(s, "pile") == ["9C"]
    assert s.current_player() == 1


def test_only_the_drawn_card_may_be_played_after_drawing():
    # a drawn jack names a suit; the other cards in hand stay unplayable
    g = pony(2)
    s = position(g, hands=["7S 8D", "8C"], pile="9C", stock_top="JH")
    act(s, "draw")
    assert sorted(legal(s, plain=True)) == ["pass", "play JH"]
    act(s, "play JH")
    assert s.current_player() == 0 and s.step == "name"
    act(s, "name spades")
    assert s.current_player() == 1


def test_stock_refill_keeps_the_pile_top():
    g = pony(2)
    h0 = ["7S", "8D"]
    h1 = ["7D", "9D", "10D", "QD", "KD", "AD", "7C"]
    # every other card but 7H is on the pile, 9C on top: the stock is just 7H
    rest = [g.cards.names[i] for i in range(32) if g.cards.names[i] not in h0 + h1 + ["7H", "9C"]]
    pile = rest + ["9C"]
    s = position(g, hands=[" ".join(h0), " ".join(h1)], pile=" ".join(pile), stock_top="7H")
    assert zone_cards(s, "stock") == ["7H"]
    assert legal(s) == ["draw"]
    act(s, "draw")
    conservation(s)
    assert hand(s, 0) == ["7S", "8D", "7H"]
    assert zone_cards(s, "pile") == ["9C"]                      # the top stays
    assert sorted(zone_cards(s, "stock")) == sorted(rest)       # the rest is the new stock
    assert legal(s) == ["pass"]


def test_no_draw_from_an_empty_stock_then_pass():
    g = pony(2)
    everything = [g.cards.names[i] for i in range(32)]
    h0 = ["7S", "8S"]
    pile = ["9D"]
    h1 = [c for c in everything if c not in h0 + pile]
    s = position(g, hands=[" ".join(h0), " ".join(h1)], pile=" ".join(pile), stock="")
    assert legal(s) == ["pass"]
    act(s, "pass")
    assert get_var(s, "passes") == 1
    assert s.current_player() == 1


# ------------------------------------------------------------------ end of a deal and scoring
def test_deal_ends_on_last_card_and_others_count_their_hands():
    g = pony(3)
    s = position(g, hands=["8H", "AS KS QS JD 10C", "7D 8D 9D"], pile="9H")
    act(s, "play 8H")
    # A 11 + K 4 + Q 3 + J 2 + 10 = 30; 7 + 8 + 9 = 24; the player who went out adds nothing
    assert penalties(s) == [0, 30, 24]
    assert s.deal_number == 2
    assert not s.is_terminal()
    conservation(s)


def test_hand_values_with_the_52_deck():
    g = pony(2, deck="standard52")
    s = position(g, hands=["8H", "2C 5D 6S AH"], pile="9H")
    act(s, "play 8H")
    assert penalties(s) == [0, 2 + 5 + 6 + 11]


def test_finishing_with_a_jack_ends_the_deal_at_once():
    g = pony(2)
    s = position(g, hands=["JC", "7D 8D"], pile="9H")
    act(s, "play JC")
    assert s.deal_number == 2          # no suit to name: the deal is over
    assert penalties(s) == [0, 15]


def test_option_jack_finish_doubles():
    g = pony(3, jack_finish_doubles=True)
    s = position(g, hands=["JC", "AS KS QS JD 10C", "7D 8D 9D"], pile="9H")
    act(s, "play JC")
    assert penalties(s) == [0, 60, 48]


def test_option_jack_finish_doubles_only_for_a_jack():
    g = pony(3, jack_finish_doubles=True)
    s = position(g, hands=["8H", "AS KS QS JD 10C", "7D 8D 9D"], pile="9H")
    act(s, "play 8H")
    assert penalties(s) == [0, 30, 24]


def test_penalties_accumulate_over_deals():
    g = pony(2)
    s = position(g, hands=["8H", "AS KS"], pile="9H", vars={("penalty", 0): 12, ("penalty", 1): 30})
    act(s, "play 8H")
    assert penalties(s) == [12, 45]


# ------------------------------------------------------------------ options: 7, 8, queen
def test_option_seven_next_player_draws_and_is_skipped():
    g = pony(3, seven_draws=True)
    s = position(g, hands=["7H 8S", "8C 9C", "7C 9S"], pile="9H", stock_top="AD KD")
    act(s, "play 7H")
    assert hand(s, 1) == ["8C", "9C", "AD"]        # drew the stock top without playing
    assert s.current_player() == 2                 # and lost the turn
    assert get_var(s, ("drawn", 1)) is None
    conservation(s)


def test_without_seven_option_a_seven_is_plain():
    g = pony(3)
    s = position(g, hands=["7H 8S", "8C 9C", "7C 9S"], pile="9H", stock_top="AD KD")
    act(s, "play 7H")
    assert hand(s, 1) == ["8C", "9C"]
    assert s.current_player() == 1


def test_option_seven_with_two_players_returns_the_turn():
    g = pony(2, seven_draws=True)
    s = position(g, hands=["7H 8S", "8C 9C"], pile="9H", stock_top="AD")
    act(s, "play 7H")
    assert hand(s, 1) == ["8C", "9C", "AD"]
    assert s.current_player() == 0


def test_option_seven_as_last_card_ends_the_deal_before_the_draw():
    g = pony(3, seven_draws=True)
    s = position(g, hands=["7H", "8C 9C", "7C 9S"], pile="9H", stock_top="AD KD")
    act(s, "play 7H")
    assert s.deal_number == 2
    assert penalties(s) == [0, 8 + 9, 7 + 9]      # not [0, 28, 16]: P2 draws no ace after the deal is over


def test_option_eight_skips_next_player():
    g = pony(3, eight_skips=True)
    s = position(g, hands=["8H 8S", "8C 9C", "7C 9S"], pile="9H")
    act(s, "play 8H")
    assert s.current_player() == 2
    assert hand(s, 1) == ["8C", "9C"]


def test_without_eight_option_an_eight_is_plain():
    g = pony(3)
    s = position(g, hands=["8H 8S", "8C 9C", "7C 9S"], pile="9H")
    act(s, "play 8H")
    assert s.current_player() == 1


def test_option_eight_two_players():
    g = pony(2, eight_skips=True)
    s = position(g, hands=["8H 8S", "8C 9C"], pile="9H")
    act(s, "play 8H")
    assert s.current_player() == 0


def test_option_queen_only_king_of_suit_or_jack():
    g = pony(2, queen_needs_king=True)
    s = position(g, hands=["QS 7C", "KS KH QH 9S JD"], pile="10S")
    act(s, "play QS")
    assert sorted(legal(s, plain=True)) == ["play JD", "play KS"]


def test_without_queen_option_a_queen_is_plain():
    g = pony(2)
    s = position(g, hands=["QS 7C", "KS KH QH 9S JD"], pile="10S")
    act(s, "play QS")
    assert sorted(legal(s, plain=True)) == ["play 9S", "play JD", "play KS", "play QH"]


def test_option_queen_without_king_or_jack_must_draw():
    g = pony(2, queen_needs_king=True)
    s = position(g, hands=["QS 7C", "KH QH 9S"], pile="10S", stock_top="8S")
    act(s, "play QS")
    assert legal(s) == ["draw"]
    act(s, "draw")
    assert legal(s) == ["pass"]        # 8S would match the suit, but not under the queen rule


def test_option_queen_turned_up_has_no_effect():
    g = pony(2, queen_needs_king=True)
    s = new_state(g, 0, hands=["9S QH 7C 8C 10D", "7D 8D 9D AD KD"], then="QS")
    assert zone_cards(s, "pile") == ["QS"]
    p = s.current_player()
    if p == 0:
        assert sorted(legal(s, plain=True)) == ["play 9S", "play QH"]
    else:
        assert legal(s) == ["draw"]
    # and by direct set-up, whoever is to move
    s = position(g, hands=["9S QH 7C", "7D"], pile="QS")
    assert sorted(legal(s, plain=True)) == ["play 9S", "play QH"]


def test_options_seven_and_eight_turned_up_have_no_effect():
    g = pony(3, seven_draws=True, eight_skips=True)
    for up in ("7H", "8H"):
        s = new_state(g, 1, hands=["9C 10C JC QC KC", "9D 10D JD QD KD", "9S 10S JS QS KS"], then=up)
        assert s.current_player() == (s.dealer + 1) % 3
        assert all(len(hand(s, p)) == 5 for p in range(3))


# ------------------------------------------------------------------ the match
def test_match_ends_at_the_limit_and_lowest_penalty_wins():
    g = pony(3)
    s = position(g, hands=["7D", "8H", "8C"], pile="9H", current=1,
                 vars={("penalty", 0): 93, ("penalty", 1): 50, ("penalty", 2): 10})
    act(s, "play 8H")
    assert s.is_terminal()
    assert penalties(s) == [100, 50, 18]           # 93 + 7 reaches exactly 100
    assert s.scores() == [100, 50, 18]
    assert s.returns() == [0.0, 0.0, 1.0]
    assert s.current_player() == koloda.TERMINAL
    assert s.legal_actions() == []


def test_match_goes_on_below_the_limit():
    g = pony(3)
    s = position(g, hands=["7D", "8H", "8C"], pile="9H", current=1,
                 vars={("penalty", 0): 92, ("penalty", 1): 50, ("penalty", 2): 10})
    act(s, "play 8H")
    assert not s.is_terminal()
    assert penalties(s) == [99, 50, 18]
    assert s.returns() == [0.0, 0.0, 0.0]


def test_option_limit():
    g = pony(2, limit=20)
    s = position(g, hands=["8H", "AS AC"], pile="9H")
    act(s, "play 8H")
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0]


def test_tied_lowest_penalty_shares_the_win():
    g = pony(3, limit=20)
    s = position(g, hands=["8H", "AS AC", "7C"], pile="9H", vars={("penalty", 0): 7})
    act(s, "play 8H")
    assert s.is_terminal()
    assert penalties(s) == [7, 22, 7]
    assert s.returns() == [0.5, 0.0, 0.5]


def _blocked(game, passes):
    everything = [game.cards.names[i] for i in range(game.cards.size)]
    h0 = ["7S", "8S"]
    pile = ["9D"]
    h1 = [c for c in everything if c not in h0 + pile]
    return position(game, hands=[" ".join(h0), " ".join(h1)], pile=" ".join(pile), stock="",
                    vars={"passes": passes})


def test_blocked_deal_ends_and_everyone_counts():
    # With the refill rule the stock is empty only when the pile is one card, so this position is
    # artificial; it checks that `passes` in a row by every player with an empty stock end the deal.
    g = pony(2, limit=1000)
    s = _blocked(g, passes=1)
    h1_value = sum(g.cards.values[c] for c in s.zones[g.layout.zone_base["hand"] + 1])
    assert legal(s) == ["pass"]
    act(s, "pass")
    assert s.deal_number == 2
    assert penalties(s) == [7 + 8, h1_value]
    conservation(s)


def test_one_pass_does_not_block_and_a_play_resets():
    g = pony(2, limit=1000)
    s = _blocked(g, passes=0)
    act(s, "pass")
    assert s.deal_number == 1 and get_var(s, "passes") == 1
    assert s.current_player() == 1
    assert "play 9H" in legal(s, plain=True)
    act(s, "play 9H")
    assert get_var(s, "passes") == 0
    assert s.deal_number == 1


def test_pass_after_a_draw_from_a_full_stock_is_not_a_block_pass():
    g = pony(2)
    s = position(g, hands=["7S 8D", "8C"], pile="9C", stock_top="AH KC")
    act(s, "draw")
    act(s, "pass")
    assert get_var(s, "passes") == 0


# ------------------------------------------------------------------ random matches against a reference
def reference_legal(g, s, top_played, options):
    """The legal moves by GAMES.md section 3, computed independently of the rule file."""
    names, ranks, suits = g.cards.names, g.cards.ranks, g.cards.suits
    me = s.current_player()
    my = s.zones[g.layout.zone_base["hand"] + me]
    pile = s.zones[g.layout.zone_base["pile"]]
    stock = s.zones[g.layout.zone_base["stock"]]
    top = pile[-1]
    named = get_var(s, "named_suit")

    def playable(c):
        if ranks[c] == 11:
            return True
        if options.get("queen_needs_king") and ranks[top] == 12 and top_played:
            return ranks[c] == 13 and suits[c] == suits[top]
        if named is not None:
            return suits[c] == named
        return suits[c] == suits[top] or ranks[c] == ranks[top]

    if s.step == "name":
        return sorted(f"name {x}" for x in ("clubs", "diamonds", "hearts", "spades"))
    if s.step == "drawn":
        d = get_var(s, ("drawn", me))
        return sorted(["pass"] + ([f"play {names[d]}"] if playable(d) else []))
    plays = [f"play {names[c]}" for c in my if playable(c)]
    if plays:
        return sorted(plays)
    return ["draw"] if stock else ["pass"]


REFERENCE_CONFIGS = [
    (3, {}),
    (2, {"seven_draws": True, "eight_skips": True}),
    (4, {"queen_needs_king": True, "jack_finish_doubles": True}),
    (5, {"deck": "standard52", "hand": 7, "seven_draws": True, "eight_skips": True,
         "queen_needs_king": True, "jack_finish_doubles": True}),
]


@pytest.mark.parametrize("players,options", REFERENCE_CONFIGS)
def test_random_matches_against_reference(players, options):
    import random
    g = pony(players, **options)
    hb, vb = g.layout.zone_base["hand"], g.layout.var_base["penalty"]
    for seed in (1, 2):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        top_played = False
        deal = 1
        while not s.is_terminal():
            assert s.deal_number == deal
            me = s.current_player()
            assert sorted(legal(s, plain=True)) == reference_legal(g, s, top_played, options)
            text = rng.choice(legal(s, plain=True))
            hands = [list(s.zones[hb + p]) for p in range(players)]
            stock = list(s.zones[g.layout.zone_base["stock"]])
            pen = [s.vars[vb + p] for p in range(players)]
            passes = get_var(s, "passes")
            dealer = s.dealer
            act(s, text)
            verb, _, arg = text.partition(" ")
            ended = False
            if verb == "play":
                top_played = True
                if len(hands[me]) == 1:
                    ended = True
                    mult = 2 if options.get("jack_finish_doubles") and arg.startswith("J") else 1
                    expect = [pen[p] + mult * sum(g.cards.values[c] for c in hands[p] if hands[p] != [card(g, arg)])
                              for p in range(players)]
            elif verb == "pass" and not stock and passes + 1 >= players:
                ended = True
                expect = [pen[p] + sum(g.cards.values[c] for c in hands[p]) for p in range(players)]
            if ended:
                deal += 1
                got = [s.vars[vb + p] for p in range(players)]
                assert got == expect
                top_played = False
                if not s.is_terminal():
                    assert s.dealer == (dealer + 1) % players
                    assert s.current_player() == (dealer + 2) % players
                    assert get_var(s, "named_suit") is None
                continue
            if verb == "draw":
                assert s.current_player() == me and s.step == "drawn"
                assert s.zones[hb + me] == hands[me] + [stock[-1]]
                continue
            if verb == "play" and arg.startswith("J"):
                assert s.current_player() == me and s.step == "name"
                continue
            nxt = (me + 1) % players
            if verb == "play" and options.get("eight_skips") and arg.startswith("8"):
                nxt = (nxt + 1) % players
            if verb == "play" and options.get("seven_draws") and arg.startswith("7") and stock:
                assert s.zones[hb + nxt] == hands[nxt] + [stock[-1]]
                nxt = (nxt + 1) % players
            if verb == "name":
                assert get_var(s, "named_suit") == suit(arg)
            assert s.current_player() == nxt and s.step == "turn"
        assert max(s.vars[vb + p] for p in range(players)) >= 100
