"""The games koloda and OpenSpiel both play, on the same rules: the rule file and options on
koloda's side, the game and parameters on OpenSpiel's.

The options are those of the differential tests (tests/test_*_differential.py), which check move
for move that the two sides are the same game; where OpenSpiel leaves something to a chance node
that koloda fixes by an option (Oh Hell's number of tricks), OpenSpiel is given the same value as a
parameter, so both sides play the same deals.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Twin:
    openspiel: str                          # OpenSpiel's game name, the label's second half
    koloda: str                             # the rule file
    options: dict[str, Any] = field(default_factory=dict)
    players: int | None = None
    params: dict[str, Any] = field(default_factory=dict)    # OpenSpiel's parameters

    @property
    def label(self) -> str:
        """koloda's side as the bench names it: the rule file, and the peer it is the twin of."""
        return f"{self.koloda}={self.openspiel}"

    def spec(self) -> str:
        """OpenSpiel's game string, as `pyspiel.load_game` reads it."""
        if not self.params:
            return self.openspiel
        inner = ",".join(f"{k}={_spiel_value(v)}" for k, v in sorted(self.params.items()))
        return f"{self.openspiel}({inner})"


def _spiel_value(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


# the OpenSpiel parameter of Hearts -> the koloda option of the same meaning, at OpenSpiel's defaults
_HEARTS = {"passing": True, "clean_first_trick": True, "lead_any_club": False, "jack_of_diamonds": False,
           "no_tricks_bonus": False, "must_break_hearts": True, "queen_breaks_hearts": True,
           "hearts_instead_of_queen": False}

TWINS: list[Twin] = [
    Twin("oh_hell", "peklo", {"deal_size": 8, "hook": True, "missed_bid_penalty": False}, 3,
         {"players": 3, "num_tricks_fixed": 8, "off_bid_penalty": False}),
    Twin("crazy_eights", "crazy-eights", {"deals": 1, "draw_anyway": True, "draw_limit": 5, "max_plays": 100,
                                          "openspiel_points": True, "reshuffle": False, "special_cards": False}, 2,
         {"players": 2, "reshuffle": False, "use_special_cards": False}),
    Twin("gin_rummy", "gin-rummy", {"single_hand": True, "tie_undercuts": False, "longest_run": 5,
                                    "layoff_list": True}, 2),
    Twin("hearts", "hearts", {**_HEARTS, "deals": 1}),
    Twin("spades", "spades", {"deals": 1, "breaking": False}),
    Twin("bridge", "bridge", {"scoring": "duplicate", "vulnerable": "none"}, None,
         {"use_double_dummy_result": False}),
    Twin("euchre", "euchre", {"single_hand": True, "stick_the_dealer": True, "keep_upcard": True,
                              "lone_defender": False}, 4),
    Twin("skat", "skat", {"first_come": True, "card_points": True, "deals": 1}, 3),
    Twin("cribbage", "cribbage", {"whole_show": True, "crib_four_flush": True, "winner_bonus": 1000}, 2,
         {"players": 2, "winner_bonus_reward": 1000.0}),
    Twin("blackjack", "blackjack", {"naturals": False, "double": False, "split": False}, 1),
    # OpenSpiel's bids are one simultaneous node a round (a flat joint action in a sequential loop),
    # koloda's one decision a bidder (tests/test_goofspiel_differential.py)
    Twin("goofspiel", "goofspiel", {"cards": 13, "points_order": "random"}, 2,
         {"num_cards": 13, "players": 2, "points_order": "random"}),
]
