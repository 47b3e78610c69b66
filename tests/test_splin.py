"""Splin 29.в and its variant 29.г (GAMES.md section 6, seed 004): Lesenka's open-row rummy with
54 cards, the two joining the ace, the forbidden row card, declared jokers and jokers doubling
the loss; 29.г deals six and lets only a player who has melded swap a joker or take the row.

Positions: `position()` puts named cards into the hands and the row (P0 to move, in the `main`
step - after the draw - unless told); every card not placed goes to the stock. Table melds made
outside play take their cards from the stock (helpers.table_meld).
"""
from __future__ import annotations

import pytest

import koloda
from koloda.interpreter.melds.melds import identity
from koloda.ui.table import render

from helpers import (act, conservation, each_player, get_var, hand, legal, meld_cards, moves_starting,
                     open_row_position, setup, zone_cards)

C, D, H, S = range(4)
SPARE = "8C 9S 3D 5H 7C 10D 4C 2D"      # for hands not given: no meld, nothing to build below


def load(name: str = "splin", players: int = 2, **options):
    return koloda.load(name, options=options, players=players)


def position(game, hands, row="7D", step="main", current=0, vars=None, table=()):
    return open_row_position(game, hands, SPARE, row, step, current, vars, table)


def melds(s) -> list[str]:
    """Melds from the hand alone."""
    return [m for m in moves_starting(s, "meld") if not m.endswith("with the row")]


def row_melds(s) -> list[str]:
    return [m for m in moves_starting(s, "meld") if m.endswith("with the row")]


def adds(s) -> list[str]:
    return moves_starting(s, "add")


def swaps(s) -> list[str]:
    return moves_starting(s, "swap")


def scores(s) -> list[int]:
    return each_player(s, "score")


def joker_ids(g) -> list[int]:
    return g.cards.parse("JK")


# ------------------------------------------------------------------ deck, players, deal
def test_54_cards_with_two_jokers():
    g = load()
    assert g.cards.size == 54
    assert sorted(set(g.cards.ranks) - {0}) == list(range(2, 15))
    assert len(joker_ids(g)) == 2
    assert set(joker_ids(g)) == g.wild_cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_five_dealt(players):
    g = load(players=players)
    s = g.new_initial_state(11)
    assert [len(hand(s, p)) for p in range(players)] == [5] * players
    assert len(zone_cards(s, "row")) == 1
    assert len(zone_cards(s, "stock")) == 54 - 5 * players - 1
    conservation(s)


def test_one_or_five_players_are_refused():
    for n in (1, 5):
        with pytest.raises(Exception):
            load(players=n)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_29g_deals_six(players):
    g = load("splin-29g", players=players)
    s = g.new_initial_state(4)
    assert g.cards.size == 54
    assert [len(hand(s, p)) for p in range(players)] == [6] * players
    assert len(zone_cards(s, "stock")) == 54 - 6 * players - 1


def test_jokers_are_worth_nothing_themselves():
    g = load()
    assert all(g.cards.values[j] == 0 for j in joker_ids(g))


# ------------------------------------------------------------------ the two joins the ace
def test_runs_go_a_2_3_and_round_the_corner_k_a_2():
    g = load()
    s = position(g, ["AS 2S 3S KS 9D"])
    assert sorted(melds(s)) == sorted(["meld A♠ 2♠ 3♠", "meld K♠ A♠ 2♠", "meld K♠ A♠ 2♠ 3♠"])


def test_the_ace_is_still_high_q_k_a():
    g = load()
    s = position(g, ["QH KH AH 9D"])
    assert melds(s) == ["meld Q♥ K♥ A♥"]


def test_lesenka_does_not_join_two_and_ace():
    g = koloda.load("lesenka", options={"deck": "standard52"}, players=3)
    s = g.new_initial_state(0)
    setup(s, zones={("hand", 0): "AS 2S 3S KS 9D", "row": "7D"}, current=0, step="main")
    assert not any(t.startswith("meld") for t in legal(s))


def test_building_round_the_corner():
    g = load()
    s = position(g, ["KS AS 2S 9D 8H", "QS 3S 5H 7C"])
    act(s, "meld K♠ A♠ 2♠")
    assert s.current_player() == 1
    builds = [t for t in legal(s) if t.startswith("build")]
    assert sorted(builds) == sorted(["build Q♠ on meld 1 (low end)", "build 3♠ on meld 1"])


# ------------------------------------------------------------------ the forbidden row card
SEED_ROW = "AS 6C QS 6S"                  # П:Т, Т:6, П:Д, П:6


def test_seed_example_the_six_of_hearts_may_not_be_added_to_the_row():
    g = load()
    s = position(g, ["6H 9D 4C 2H"], row=SEED_ROW)
    assert "add 6♥ to the row" not in adds(s)
    assert sorted(adds(s)) == sorted(["add 9♦ to the row", "add 4♣ to the row", "add 2♥ to the row"])
    assert "meld 6♣ 6♥ 6♠ with the row" in legal(s)


def test_seed_example_the_player_takes_and_melds_the_sixes_and_the_rest_of_the_row_stays():
    # "обязан забрать все шестерки и произвести из них выкладку": the sixes, not the whole row
    g = load()
    s = position(g, ["6H 6D"], row=SEED_ROW)
    assert adds(s) == [], "every card of the hand would make a meld with the row"
    assert sorted(legal(s)) == sorted(["meld 6♣ 6♦ 6♥ with the row", "meld 6♣ 6♥ 6♠ with the row",
                                       "meld 6♦ 6♥ 6♠ with the row", "meld 6♣ 6♦ 6♠ with the row",
                                       "meld 6♣ 6♦ 6♥ 6♠ with the row"])
    at_the_end = []
    g.on_deal_scored(lambda st: at_the_end.append((zone_cards(st, "row"), hand(st, 0), zone_cards(st, ("taken", 0)))))
    act(s, "meld 6♣ 6♦ 6♥ 6♠ with the row")
    assert s.deal_number == 2, "the player went out with the four sixes"
    assert at_the_end == [(["AS", "QS"], [], [])], "the ace and the queen stayed in the row"
    assert scores(s)[0] == 24


def test_the_row_cards_of_a_meld_count_for_the_melder_and_the_turn_goes_on():
    g = load()
    s = position(g, ["6H 6D 9D 4C"], row=SEED_ROW)
    act(s, "meld 6♣ 6♦ 6♥ 6♠ with the row")
    assert get_var(s, ("melded", 0)) == 24
    act(s, "pass")
    assert s.current_player() == 0 and zone_cards(s, "row") == ["AS", "QS"]
    assert sorted(adds(s)) == ["add 4♣ to the row", "add 9♦ to the row"]
    assert sorted(hand(s, 0)) == ["4C", "9D"], "no card of the row went into the hand"


def test_a_card_making_a_run_with_the_row_is_forbidden_too():
    g = load()
    s = position(g, ["KS 9D 4C"], row=SEED_ROW)        # Q♠ K♠ A♠
    assert "add K♠ to the row" not in adds(s)
    s = position(g, ["2S 9D 4C"], row="AS 3S 9H")       # A♠ 2♠ 3♠: the two joins the ace
    assert "add 2♠ to the row" not in adds(s)


def test_lesenka_allows_any_card_on_the_row():
    g = koloda.load("lesenka", players=3)
    s = g.new_initial_state(0)
    setup(s, zones={("hand", 0): "6H 9D", "row": SEED_ROW.replace("AS", "AH").replace("QS", "QH")},
          current=0, step="main")
    assert "add 6♥ to the row" in legal(s)


def test_a_joker_may_not_be_added_when_it_makes_a_meld_with_the_row():
    g = load()
    s = position(g, ["JK 9D 4C"], row="6C 6S 2H")
    assert "add 🃏 to the row" not in adds(s)
    s = position(g, ["JK 9D 4C"], row="6C 8S 2H")
    assert "add 🃏 to the row" in adds(s)


# ------------------------------------------------------------------ declared jokers
def test_seed_example_the_joker_is_declared_as_the_queen_of_clubs_or_diamonds():
    g = load()
    s = position(g, ["QS QH JK 9D 4C"])
    assert sorted(t for t in melds(s) if "🃏" in t) == ["meld Q♥ Q♠ 🃏=Q♣", "meld Q♥ Q♠ 🃏=Q♦"]


def test_the_declaration_is_kept_and_shown():
    g = load()
    s = position(g, ["QS QH JK 9D 4C"])
    act(s, "meld Q♥ Q♠ 🃏=Q♣")                 # "Джокер — дама треф"
    jk = next(c for c in s.zones[g.layout.slot_zone[0]] if g.cards.ranks[c] == 0)
    assert s.stands[jk] == identity(12, C)
    assert meld_cards(s, 0) == ["QH", "QS", "JK=QC"]
    for viewer in (0, 1):
        shown = [z["cards"] for z in s.observation(viewer)["zones"] if "meld" in z]
        assert shown == [["QH", "QS", "JK=QC"]]
    assert "🃏=Q♣" in render(g, s, 1).plain
    act(s, "pass")
    assert s.stands[jk] == identity(12, C), "the declaration outlives the turn"


def test_a_declared_joker_blocks_its_card_for_building():
    g = load()
    s = position(g, ["QS QH JK 9D 4C", "QC QD 3H 8S"])
    act(s, "meld Q♥ Q♠ 🃏=Q♣")
    assert legal(s) == ["build Q♦ on meld 1", "pass"], "the Q♣ is taken by the joker"
    act(s, "build Q♦ on meld 1")
    assert legal(s) == ["pass"]


def test_only_the_declared_card_swaps_the_joker_out():
    g = load()
    s = position(g, ["QD QC 9S 3H"], table=[("QS QH JK=QC", 1)])
    assert swaps(s) == ["swap Q♣ for the joker in meld 1"]
    s = position(g, ["QD 9S 3H"], table=[("QS QH JK=QC", 1)])
    assert swaps(s) == []


def test_a_swap_returns_the_joker_to_hand_free_of_its_declaration():
    g = load()
    s = position(g, ["QC 9S 3H 5D"], table=[("QS QH JK=QC", 1)])
    act(s, "swap Q♣ for the joker in meld 1")
    assert meld_cards(s, 0) == ["QH", "QS", "QC"], "the Q♣ takes the joker's place"
    assert sorted(hand(s, 0)) == sorted(["JK", "9S", "3H", "5D"])
    assert all(x is None for x in s.stands)
    assert s.step == "main" and s.current_player() == 0, "the turn goes on after a swap"
    conservation(s)


def test_a_declared_joker_in_a_run_is_used_by_building_and_swaps():
    g = load()
    s = position(g, ["5S JK 7S 9D 4C", "4S 6S 8S 3H"])
    assert "meld 5♠ 🃏=6♠ 7♠" in melds(s)
    act(s, "meld 5♠ 🃏=6♠ 7♠")
    builds = sorted(t for t in legal(s) if t.startswith("build"))
    assert builds == sorted(["build 4♠ on meld 1 (low end)", "build 8♠ on meld 1"]), "6♠ is no build"
    act(s, "build 8♠ on meld 1")
    act(s, "pass")
    act(s, "add 9♦ to the row")
    act(s, "draw")
    assert swaps(s) == ["swap 6♠ for the joker in meld 1"]
    act(s, "swap 6♠ for the joker in meld 1")
    assert meld_cards(s, 0) == ["5S", "6S", "7S", "8S"]
    assert "JK" in hand(s, 1)


# ------------------------------------------------------------------ scoring: jokers double the loss
def test_scoring_as_lesenka_without_jokers():
    g = load()
    s = position(g, ["JD QD KD", "AS 9C"], vars={("melded", 1): 12})
    act(s, "meld J♦ Q♦ K♦")
    assert s.deal_number == 2 or s.is_terminal()
    assert scores(s) == [30, 12 - 20]


def test_one_joker_in_hand_doubles_the_loss():
    g = load()
    s = position(g, ["JD QD KD", "AS 9C JK"], vars={("melded", 1): 12})
    act(s, "meld J♦ Q♦ K♦")
    assert scores(s) == [30, 12 - 2 * 20]


def test_two_jokers_in_hand_quadruple_the_loss():
    g = load()
    s = position(g, ["JD QD KD", "AS 9C JK JK"], vars={("melded", 1): 12})
    act(s, "meld J♦ Q♦ K♦")
    assert scores(s) == [30, 12 - 4 * 20]


def test_a_joker_alone_in_hand_costs_nothing():
    g = load()
    s = position(g, ["JD QD KD", "JK"], vars={("melded", 1): 12})
    act(s, "meld J♦ Q♦ K♦")
    assert scores(s) == [30, 12]


def test_three_players_each_loss_doubled_separately():
    g = load(players=3)
    s = position(g, ["JD QD KD", "5C JK", "5H 2C"])
    act(s, "meld J♦ Q♦ K♦")
    assert scores(s) == [30, -10, -7]


# ------------------------------------------------------------------ 29.г
def test_29g_before_a_meld_the_row_is_not_taken_and_any_card_may_be_added():
    g = load("splin-29g")
    s = position(g, ["6H 9D 4C 2H 8D 10C"], row=SEED_ROW)
    assert not row_melds(s)
    assert "add 6♥ to the row" in adds(s), "a player who may not take the row may add any card"
    assert len(adds(s)) == 6


def test_29g_before_a_meld_no_swap():
    g = load("splin-29g")
    s = position(g, ["QC 9S 3H 5D 8D 10C"], table=[("QS QH JK=QC", 1)])
    assert swaps(s) == []


def test_29g_after_a_meld_the_row_may_be_taken_and_jokers_swapped():
    g = load("splin-29g")
    s = position(g, ["6H QC 2S 3S 4S 10C"], row=SEED_ROW, table=[("QH QD JK=QS", 1)])
    assert not row_melds(s) and swaps(s) == []
    act(s, "meld 2♠ 3♠ 4♠")
    assert get_var(s, ("has_melded", 0)) is True
    act(s, "pass")
    assert s.current_player() == 0
    assert "meld 6♣ 6♥ 6♠ with the row" in legal(s)
    assert "add 6♥ to the row" not in adds(s), "now the forbidden card rule applies"
    assert swaps(s) == [], "Q♣ is not what the joker stands for"


def test_29g_swap_after_a_meld():
    g = load("splin-29g")
    s = position(g, ["QC 9S 3H 5D 8D 10C"], table=[("QS QH JK=QC", 1)], vars={("has_melded", 0): True})
    assert swaps(s) == ["swap Q♣ for the joker in meld 1"]


def test_29g_has_melded_is_reset_each_deal():
    g = load("splin-29g")
    s = position(g, ["JD QD KD"], vars={("has_melded", 0): True, ("has_melded", 1): True})
    act(s, "meld J♦ Q♦ K♦")
    assert s.deal_number == 2
    assert [get_var(s, ("has_melded", p)) for p in range(2)] == [False, False]
    assert [len(hand(s, p)) for p in range(2)] == [6, 6]


# ------------------------------------------------------------------ never without a move
def test_after_swapping_a_joker_out_the_player_can_still_end_the_turn():
    # Found stuck before the row was taken meld by meld: a player who had taken the whole row owed a
    # meld with one of its cards, swapped that card for a joker, and had nothing left to play.
    g = load()
    s = position(g, ["6D 8S QC 5C KC JK"], row="9H", table=[("6C 6H JK=6D", 1), ("AS 2S 3S", 1)])
    act(s, "swap 6♦ for the joker in meld 1")
    assert get_var(s, ("owes", 0)) is False
    assert sorted(hand(s, 0)) == ["5C", "8S", "JK", "JK", "KC", "QC"]
    assert len(adds(s)) == 5, "each card may go to the row (the two jokers make one move)"


STUCK_SEEDS = 16


@pytest.mark.parametrize("name,players", [("splin", 2), ("splin", 3), ("splin", 4), ("splin-29g", 2),
                                          ("splin-29g", 3), ("splin-29g", 4), ("lesenka", 3), ("lesenka", 4)])
def test_no_live_state_without_a_move(name, players):
    """Seeded random matches of every open-row variant: the engine stops with a rule error if a
    live state offers no move, so each match reaching its end shows there was none."""
    import random
    g = koloda.load(name, players=players)
    for seed in range(STUCK_SEEDS):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))


# ------------------------------------------------------------------ seeded random playouts
PLAYOUTS = [           # file, players, options, seeds
    ("splin", 2, {}, [1, 2]),
    ("splin", 3, {}, [3]),
    ("splin", 4, {}, [2]),
    ("splin-29g", 2, {}, [1, 2]),
    ("splin-29g", 3, {"target": 100}, [4]),
]
MAX_LEGAL: dict[str, int] = {}


@pytest.mark.parametrize("name,players,options,seeds", PLAYOUTS,
                         ids=[f"{n}-{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default")
                              for n, p, o, _ in PLAYOUTS])
def test_playouts(name, players, options, seeds):
    import time
    from helpers import random_playout
    g = load(name, players=players, **options)
    most, started = 0, time.time()
    for seed in seeds:
        s, m, moves = random_playout(g, seed)
        most = max(most, m)
        assert s.is_terminal()
        assert any(x >= g.options["target"] for x in s.scores())
    key = f"{name} {players}p {options}"
    MAX_LEGAL[key] = most
    print(f"\n{key}: at most {most} legal actions, {time.time() - started:.1f}s")
    assert most <= 600


@pytest.mark.parametrize("name", ["splin", "splin-29g"])
def test_same_seed_same_game(name):
    from helpers import random_playout, snapshot
    g = load(name, players=3)
    a, _, n = random_playout(g, 7, every=50)
    b, _, m = random_playout(g, 7, every=50)
    assert n == m and a.history == b.history and snapshot(a) == snapshot(b)
