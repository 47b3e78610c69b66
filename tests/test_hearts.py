"""Hearts (Pagat.com's rules): one scenario per rule of koloda/rules/hearts.yaml."""
from __future__ import annotations

import functools

import pytest

import koloda

from koloda.interpreter.game import compile_expression

from helpers import act, card, conservation, get_var, hand, legal, setup

# one suit to each player: P1 clubs, P2 diamonds, P3 hearts, P4 spades
BY_SUIT = ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
           "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"]


@functools.lru_cache(maxsize=None)
def hearts(**options):
    return koloda.load("hearts", options)


def dealt(hands=BY_SUIT, **options):
    """The first deal with these hands (player 0 first), P4 dealing, so P1 is the first to act."""
    game = hearts(**options)
    return game.new_initial_state(0, dealer=3, hands={f"P{p + 1} hand": h.split() for p, h in enumerate(hands)})


def plays(s):
    return sorted(t.split()[1] for t in legal(s, plain=True))


def last_trick(s, won, points, hands, scores=(0, 0, 0, 0)):
    """The last trick of a deal about to be played: `won[p]` the cards player p has taken."""
    zones = {("won", p): won[p] for p in range(4)}
    zones.update({("hand", p): hands[p] for p in range(4)})
    zones["trick"] = ""
    variables = {"tricks_played": 12, "broken": True}
    variables.update({("points", p): points[p] for p in range(4)})
    variables.update({("score", p): scores[p] for p in range(4)})
    variables.update({("tricks", p): len(won[p].split()) // 4 for p in range(4)})
    return setup(s, zones=zones, vars=variables, current=0)


# ------------------------------------------------------------------ passing
@pytest.mark.parametrize("first,receiver", [("left", 1), ("across", 2), ("right", 3)])
def test_three_cards_go_left_across_or_right_when_everyone_has_chosen(first, receiver):
    s = dealt(first_pass=first)
    assert s.current_player() == 0
    assert all(t.startswith("pass ") for t in legal(s, plain=True)) and len(legal(s)) == 13
    for p, suit in enumerate("CDHS"):
        assert s.current_player() == p
        for rank in "AKQ":
            act(s, f"pass {rank}{suit}")
        if p < 3:                               # nothing changes hands before the last has chosen
            assert len(hand(s, receiver)) == 13 - (3 if receiver <= p else 0)
    for p, suit in enumerate("CDHS"):
        assert {f"A{suit}", f"K{suit}", f"Q{suit}"} <= set(hand(s, (p + receiver) % 4))
    conservation(s)
    # the holder of the 2 of clubs (P1) leads it
    assert s.current_player() == 0 and legal(s, plain=True) == ["play 2C"]


def test_the_fourth_deal_has_no_passing():
    """The cycle left, right, across, none: started at `none`, the first deal is played at once:
    the passing phase is skipped, so no turn is spent on it."""
    s = dealt(first_pass="none")
    assert legal(s, plain=True) == ["play 2C"]
    assert s.observation(0)["phase"] == "play" and s.turns == 0
    assert dealt(first_pass="left").observation(0)["phase"] == "passing"


def test_everyone_is_shown_who_holds_the_two_of_clubs():
    """The holder must lead it, so its place is no secret: every seat knows it from the first
    trick on (and the bots' guesses at the hidden cards keep it there)."""
    s = dealt(first_pass="left")
    assert not any(card_known(s, "2C", p) for p in (1, 2, 3))
    for p, suit in enumerate("CDHS"):
        for rank in "AKQ":
            act(s, f"pass {rank}{suit}")
    assert all(card_known(s, "2C", p) for p in range(4))
    assert not card_known(s, "3C", 1)


def card_known(s, name: str, seat: int) -> bool:
    return bool(s.known[card(s.game, name)] & (1 << seat))


def test_without_option_passing_no_deal_passes():
    s = dealt(passing=False)
    assert legal(s, plain=True) == ["play 2C"]


def test_the_cycle_goes_left_right_across_none():
    game = hearts()
    shift, _ = compile_expression(game, "pass_shift()")
    s = game.new_initial_state(0, dealer=3)
    seats = []
    for deal in range(1, 6):
        s.deal_number = deal
        seats.append(shift(s, {}))
    assert seats == [1, 3, 2, 0, 1]          # seats to the left: left, right, across, none, left


# ------------------------------------------------------------------ the play
def test_the_two_of_clubs_leads_and_no_points_on_the_first_trick():
    s = dealt(first_pass="none")
    assert plays(s) == ["2C"]
    act(s, "play 2C")
    assert len(plays(s)) == 13                   # void in clubs, P2 holds only diamonds: any
    act(s, "play AD")
    assert len(plays(s)) == 13                   # P3 holds nothing but hearts: any heart
    act(s, "play 2H")
    assert "QS" not in plays(s) and len(plays(s)) == 12   # P4 may not discard the queen
    act(s, "play AS")
    assert s.current_player() == 0               # the only club takes the trick
    assert get_var(s, ("points", 0)) == 1 and get_var(s, "broken") is True


def test_the_first_trick_with_another_card_refuses_hearts():
    hands = ["2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D", "AC 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S", "AH 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"]
    s = dealt(hands, first_pass="none")
    act(s, "play 2C")
    assert plays(s) == ["AC"]                    # follow suit
    act(s, "play AC")
    assert plays(s) == ["2S"]                    # no heart while a spade can go
    s2 = dealt(hands, first_pass="none", clean_first_trick=False)
    act(s2, "play 2C")
    act(s2, "play AC")
    assert len(plays(s2)) == 13                  # option off: any card


def test_lead_any_club_option():
    s = dealt(first_pass="none", lead_any_club=True)
    assert len(plays(s)) == 13
    assert plays(dealt(first_pass="none")) == ["2C"]


def position(s, cards_in_hand, broken, **vars):
    v = {"tricks_played": 3, "broken": broken, **vars}
    return setup(s, zones={("hand", 0): cards_in_hand, "trick": ""}, vars=v, current=0)


def test_hearts_are_led_only_once_broken():
    s = position(dealt(first_pass="none"), "2H 9H QS 3C", broken=False)
    assert plays(s) == ["3C", "QS"]              # the queen may be led at any time
    s = position(dealt(first_pass="none"), "2H 9H QS 3C", broken=True)
    assert plays(s) == ["2H", "3C", "9H", "QS"]
    s = position(dealt(first_pass="none"), "2H 9H", broken=False)
    assert plays(s) == ["2H", "9H"]              # nothing but hearts


def test_the_queen_breaks_hearts_unless_the_option_says_not():
    for option, broken in ((True, True), (False, False)):
        s = dealt(first_pass="none", queen_breaks_hearts=option)
        setup(s, zones={("hand", 0): "QS 3C", ("hand", 1): "2D 4C", "trick": ""},
              vars={"tricks_played": 3, "broken": False}, current=0)
        act(s, "play QS")
        assert get_var(s, "broken") is broken


def test_hearts_instead_of_the_bare_queen():
    s = position(dealt(first_pass="none", hearts_instead_of_queen=True), "2H 9H QS", broken=False)
    assert plays(s) == ["2H", "9H", "QS"]
    s = position(dealt(first_pass="none"), "2H 9H QS", broken=False)
    assert plays(s) == ["QS"]


def test_without_breaking_hearts_may_be_led_at_once():
    s = dealt(first_pass="none", must_break_hearts=False)
    assert get_var(s, "broken") is True


# ------------------------------------------------------------------ scoring and the end
ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH".split()


def finish_last_trick(s):
    for text in ("play AH", "play 2C", "play 3C", "play 4C"):
        act(s, text)


def test_points_a_heart_each_and_thirteen_for_the_queen():
    won = [" ".join(ALL_HEARTS[1:-1] + ["QS", "5D", "6D"]), "2H 7D 8D 9D", "", ""]
    s = last_trick(dealt(first_pass="none"), won, [24, 1, 0, 0], ["AH", "2C", "3C", "4C"])
    finish_last_trick(s)
    assert s.is_terminal() is False               # the match goes on to 100
    assert [get_var(s, ("score", p)) for p in range(4)] == [25, 1, 0, 0]


def test_shooting_the_moon_gives_everyone_else_26():
    won = [" ".join(ALL_HEARTS[:-1] + ["QS"]), "", "", ""]
    s = last_trick(dealt(first_pass="none"), won, [25, 0, 0, 0], ["AH", "2C", "3C", "4C"])
    finish_last_trick(s)
    assert [get_var(s, ("score", p)) for p in range(4)] == [0, 26, 26, 26]


def test_jack_of_diamonds_and_no_tricks_bonus():
    won = [" ".join(ALL_HEARTS[1:-1] + ["QS"]), "2H JD 7D 8D", "5D 6D 9D 10D", ""]
    s = last_trick(dealt(first_pass="none", jack_of_diamonds=True, no_tricks_bonus=True), won,
                   [24, -9, 0, 0], ["AH", "2C", "3C", "4C"])
    finish_last_trick(s)
    assert [get_var(s, ("score", p)) for p in range(4)] == [25, -9, 0, -5]


def test_the_match_ends_at_100_and_the_lowest_total_wins():
    won = [" ".join(ALL_HEARTS[1:-1] + ["QS", "5D", "6D"]), "2H 7D 8D 9D", "", ""]
    s = last_trick(dealt(first_pass="none"), won, [24, 1, 0, 0], ["AH", "2C", "3C", "4C"],
                   scores=(80, 50, 60, 40))
    finish_last_trick(s)
    assert s.is_terminal()
    assert s.scores() == [105, 51, 60, 40]
    assert s.returns() == [0.0, 0.0, 0.0, 1.0]
