"""Cribbage (the American Cribbage Congress rules): one scenario per rule of koloda/rules/cribbage.yaml."""
from __future__ import annotations

import functools
import itertools
import random

import pytest

import koloda

from koloda.interpreter.game import compile_expression

from helpers import act, cards, conservation, get_var, hand, legal, names, setup, zone_cards


@functools.lru_cache(maxsize=None)
def cribbage(players: int = 2, **options):
    return koloda.load("cribbage", options, players)


def dealt(p1="5C 5D 5H JS 2C 3C", p2="4D 6D 8S 9S QH KH", starter="7C", **options):
    """The first deal with these hands, P1 dealing, and `starter` the top of the stock after the deal."""
    game = cribbage(**options)
    order = [c for pair in zip(p2.split(), p1.split()) for c in pair] + [starter]
    rest = [n for n in names(game, range(52)) if n not in order]
    return game.new_initial_state(0, deck=[cards(game, order + rest)], dealer=0)


def in_play(hands, pile="", by=None, scores=(0, 0), current=1, starter="KD", passed=(False, False), **options):
    """A position of the play: `hands[p]` player p's cards, `pile` the count so far (bottom first),
    `by` who played each card of it; P1 deals, P2 is to play unless `current` says otherwise."""
    s = dealt(**options)
    act(s, "discard 2C 3C")
    act(s, "discard QH KH")
    zones = {("hand", p): hands[p] for p in range(2)}
    zones.update(pile=pile, starter=starter)
    variables = {("score", p): scores[p] for p in range(2)}
    variables.update({("passed", p): passed[p] for p in range(2)})
    variables["last"] = (by or {}).get(pile.split()[-1]) if pile else None
    return setup(s, zones=zones, vars=variables, current=current, by=by or {}, phase="play")


def plays(s):
    return sorted(legal(s, plain=True))


def score(s):
    return [get_var(s, ("score", p)) for p in range(2)]


# ------------------------------------------------------------------ an independent count of a hand
def reference_show(hand4: list[str], starter: str, crib: bool) -> int:
    """The show as a player counts it, written here apart from the rule file."""
    def rank(c):
        return "A 2 3 4 5 6 7 8 9 10 J Q K".split().index(c[:-1]) + 1

    five = hand4 + [starter]
    points = 2 * sum(1 for k in range(2, 6) for sub in itertools.combinations(five, k)
                     if sum(min(rank(c), 10) for c in sub) == 15)
    points += 2 * sum(1 for a, b in itertools.combinations(five, 2) if rank(a) == rank(b))
    for k in (5, 4, 3):
        runs = [sub for sub in itertools.combinations(five, k)
                if sorted(rank(c) for c in sub) == list(range(min(rank(c) for c in sub), min(rank(c) for c in sub) + k))]
        if runs:
            points += k * len(runs)
            break
    if len({c[-1] for c in five}) == 1:
        points += 5
    elif len({c[-1] for c in hand4}) == 1 and not crib:
        points += 4
    points += any(c[:-1] == "J" and c[-1] == starter[-1] for c in hand4)
    return points


def show(hand4: str, starter: str, crib: bool = False, **options) -> int:
    game = cribbage(**options)
    count, _ = compile_expression(game, f"show(crib.cards, {'true' if crib else 'false'})")
    s = setup(game.new_initial_state(0, dealer=0), zones={"crib": hand4, "starter": starter})
    return count(s, {})


# ------------------------------------------------------------------ the deal and the crib
def test_six_cards_each_and_two_laid_away_in_seat_order():
    s = dealt()
    assert len(hand(s, 0)) == len(hand(s, 1)) == 6 and s.dealer == 0
    assert s.current_player() == 0                       # P1 chooses first, though P1 deals
    assert len(legal(s)) == 15 and "discard 2C 3C" in legal(s, plain=True)
    act(s, "discard 2C 3C")
    assert s.current_player() == 1 and zone_cards(s, "crib") == ["2C", "3C"]
    act(s, "discard QH KH")
    assert sorted(zone_cards(s, "crib")) == sorted("2C 3C QH KH".split())
    assert zone_cards(s, "starter") == ["7C"]             # the starter is turned
    assert s.current_player() == 1                       # the non-dealer leads
    conservation(s)


def test_the_crib_is_hidden_and_a_discard_is_secret():
    s = dealt()
    act(s, "discard 2C 3C")
    view = s.observation(1)
    crib = [z for z in view["zones"] if z["zone"] == "crib"][0]
    assert "cards" not in crib and crib["size"] == 2
    assert "2C" not in str(view["history"]) and "2♣" not in str(view["history"])
    assert "2C" in str(s.observation(0)["history"]) or "2♣" in str(s.observation(0)["history"])


def test_his_heels_a_jack_turned_scores_2_for_the_dealer():
    s = dealt(starter="JD")
    act(s, "discard 2C 3C")
    act(s, "discard QH KH")
    assert score(s) == [2, 0]


def test_three_players_deal_five_and_lay_away_one():
    game = cribbage(3)
    s = game.new_initial_state(0, dealer=0)
    assert [len(hand(s, p)) for p in range(3)] == [5, 5, 5]
    assert len(zone_cards(s, "crib")) == 1               # one card of the stock
    assert all(t.startswith("discard ") and len(t.split()) == 2 for t in legal(s, plain=True))
    for _ in range(3):
        act(s, legal(s, plain=True)[0])
    assert len(zone_cards(s, "crib")) == 4 and s.current_player() == 1
    assert all(len(hand(s, p)) == 4 for p in range(3))


# ------------------------------------------------------------------ the play
def test_the_count_may_not_pass_31_and_go_only_when_nothing_fits():
    s = in_play(["5C 5D", "KS 2D 9S"], pile="10H QS 8C", by={"10H": 1, "QS": 0, "8C": 0})
    assert plays(s) == ["play 2D"]                       # 28 + 2; K and 9 would pass 31
    s = in_play(["5C 5D", "KS 9S"], pile="10H QS 8C", by={"10H": 1, "QS": 0, "8C": 0})
    assert plays(s) == ["go"]


def test_fifteen_scores_2():
    s = in_play(["5C", "7D 2S"], pile="8C", by={"8C": 0})
    act(s, "play 7D")
    assert score(s) == [0, 2]


@pytest.mark.parametrize("pile,points", [("3C", 2), ("3C 3D", 6), ("3C 3D 3H", 12)])
def test_pairs_pair_royal_and_double_pair_royal(pile, points):
    s = in_play(["AC", "3S 2D"], pile=pile, by={c: i % 2 for i, c in enumerate(pile.split())})
    act(s, "play 3S")
    assert score(s)[1] == points


def test_a_run_scores_one_a_card_in_any_order():
    s = in_play(["AC", "4S 9D"], pile="6C 3D 5H", by={"6C": 1, "3D": 0, "5H": 0})
    act(s, "play 4S")
    assert score(s) == [0, 4]                           # 6 3 5 4: a run of four (and 18, no fifteen)
    s = in_play(["AC", "4S 9D"], pile="6C 3D 5H 5C", by={"6C": 1, "3D": 0, "5H": 0, "5C": 0})
    act(s, "play 4S")
    assert score(s) == [0, 0]                           # 5 5 4: the 5 breaks the run


def test_31_scores_2_and_the_count_starts_again_with_the_next_player():
    s2 = in_play(["2C", "AD 6S"], pile="10H QS 5C", by={"10H": 1, "QS": 0, "5C": 0})
    act(s2, "play 6S")                                  # 31
    assert score(s2) == [0, 2]
    assert zone_cards(s2, "pile") == [] and s2.current_player() == 0


def test_go_gives_the_last_card_1_and_the_other_plays_on():
    s = in_play(["9C 2C", "KS"], pile="10H QS", by={"10H": 1, "QS": 0}, current=1)
    assert plays(s) == ["play KS"]                      # 20 + 10 is 30: the K fits
    s = in_play(["9C 2C", "KS 6H"], pile="10H QS 8D", by={"10H": 1, "QS": 0, "8D": 1}, current=1)
    assert plays(s) == ["go"]
    act(s, "go")
    assert s.current_player() == 0 and plays(s) == ["play 2C"]   # 28: P1 plays on
    act(s, "play 2C")
    assert score(s) == [0, 0] and s.current_player() == 1
    act(s, "go")                                        # P2 still cannot play
    act(s, "go")                                        # nor P1: P1 played last
    assert score(s) == [1, 0]
    assert zone_cards(s, "pile") == [] and s.current_player() == 1   # P2 leads the new count
    assert plays(s) == ["play 6H", "play KS"]


def test_the_play_ends_with_the_last_card_then_the_show():
    s = in_play(["", "4S"], starter="KD", scores=(10, 10))
    setup(s, zones={("played", 0): "5C 5D 5H JD", ("played", 1): "AC 2C 3D", "crib": "2H 3H 4H 6H"})
    act(s, "play 4S")                                   # P2's last card
    act(s, "go")                                        # P1 has none
    act(s, "go")                                        # P2 has none: last card, 1
    # the non-dealer (P2) shows first, then the dealer, then the dealer's crib
    p2 = 1 + reference_show("AC 2C 3D 4S".split(), "KD", False)
    p1 = reference_show("5C 5D 5H JD".split(), "KD", False) + reference_show("2H 3H 4H 6H".split(), "KD", True)
    assert s.deal_number == 2 and not s.is_terminal()
    assert score(s) == [10 + p1, 10 + p2]


# ------------------------------------------------------------------ the show
@pytest.mark.parametrize("hand4,starter,points", [
    ("5C 5D 5H JS", "5S", 29),                          # the best hand: fifteens 16, pair royal 12, nobs 1
    ("5C 5D 5H 5S", "10H", 28),                         # fifteens 16, six pairs 12
    ("3C 4D 5H 5S", "KC", 12),                          # two runs of three 6, a pair 2, fifteens 4
    ("7C 8D 8H 9S", "AC", 12),                          # two runs of three 6, a pair 2, fifteens 4
    ("3C 4D 5H 6S", "6D", 16),                          # two runs of four 8, a pair 2, fifteens 6
    ("2C 4D 6H 8S", "QC", 0),                           # every card even: no fifteen, nothing at all
])
def test_the_show_counts_known_hands(hand4, starter, points):
    assert show(hand4, starter) == points
    assert reference_show(hand4.split(), starter, False) == points


def test_the_show_agrees_with_a_count_made_apart_on_random_hands():
    rng = random.Random(7)
    deck = [r + s for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for s in "CDHS"]
    for _ in range(60):
        five = rng.sample(deck, 5)
        for crib in (False, True):
            assert show(" ".join(five[:4]), five[4], crib) == reference_show(five[:4], five[4], crib), five


def test_flushes_four_in_hand_five_in_the_crib():
    assert show("2H 4H 8H QH", "KC") - show("2H 4D 8H QH", "KC") == 4
    assert show("2H 4H 8H QH", "KH") - show("2H 4D 8H QH", "KC") == 5
    assert show("2H 4H 8H QH", "KC", crib=True) == show("2H 4D 8H QH", "KC", crib=True)   # no four in the crib
    assert show("2H 4H 8H QH", "KH", crib=True) - show("2H 4D 8H QH", "KC", crib=True) == 5
    assert show("2H 4H 8H QH", "KC", crib=True, crib_four_flush=True) == show("2H 4H 8H QH", "KC")


def test_his_nobs_the_jack_of_the_starters_suit():
    assert show("JS 2C 4D 9H", "KS") - show("JS 2C 4D 9H", "KD") == 1


# ------------------------------------------------------------------ the end
def test_reaching_121_in_the_play_ends_the_game_at_once():
    s = in_play(["5C", "7D 2S"], pile="8C", by={"8C": 0}, scores=(100, 119))
    act(s, "play 7D")
    assert s.is_terminal() and score(s) == [100, 121]
    assert s.returns() == [0.0, 1.0]


def test_the_non_dealer_counts_first_and_may_win_before_the_dealer():
    s = in_play(["", "4S"], starter="KD", scores=(118, 118))
    setup(s, zones={("played", 0): "5C 5D 5H JD", ("played", 1): "AC 2C 3D", "crib": "2H 3H 4H 6H"})
    for move in ("play 4S", "go", "go"):
        act(s, move)
    assert s.is_terminal() and s.returns() == [0.0, 1.0]
    assert score(s)[0] == 118                            # the dealer never counted


def test_whole_show_counts_everything_and_the_first_seat_past_the_target_wins():
    s = in_play(["", "4S"], starter="KD", scores=(118, 118), whole_show=True)
    setup(s, zones={("played", 0): "5C 5D 5H JD", ("played", 1): "AC 2C 3D", "crib": "2H 3H 4H 6H"})
    for move in ("play 4S", "go", "go"):
        act(s, move)
    assert s.is_terminal() and s.returns() == [1.0, 0.0]
    assert score(s)[0] > 121 and score(s)[1] > 121


def test_the_short_game_to_61_and_the_winner_bonus():
    s = in_play(["5C", "7D 2S"], pile="8C", by={"8C": 0}, scores=(30, 59), target=61, winner_bonus=1000)
    act(s, "play 7D")
    assert s.is_terminal() and s.scores() == [30 - 1000, 61 + 1000]


def test_four_players_are_partners_who_peg_together():
    game = cribbage(4)
    s = game.new_initial_state(0, dealer=0)
    assert [len(hand(s, p)) for p in range(4)] == [5, 5, 5, 5] and zone_cards(s, "crib") == []
    for _ in range(4):
        act(s, legal(s, plain=True)[0])
    assert len(zone_cards(s, "crib")) == 4 and s.current_player() == 1
    setup(s, zones={("hand", 1): "7D", ("hand", 2): "KS", "pile": "8C"}, by={"8C": 0}, current=1)
    act(s, "play 7D")                                   # fifteen for P2, and so for P4
    assert [get_var(s, ("score", side)) for side in range(2)] == [0, 2]   # P1+P3, P2+P4
    assert s.scores() == [0, 2, 0, 2]


def test_a_person_plays_at_the_terminal_to_the_end():
    """The first listed move every time, against a bot, in the short game: the show is narrated."""
    from click.testing import CliRunner

    from koloda.cli.main import main
    result = CliRunner().invoke(main, ["play", "cribbage", "--seat", "human", "--seat", "random", "--fast",
                                       "--seed", "3", "-o", "target=61"], input="1\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Traceback" not in result.output
    assert "Game over." in result.output and "counts the crib" in result.output and " shows " in result.output
