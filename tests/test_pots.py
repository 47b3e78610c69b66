"""The pot and its side pots (koloda/interpreter/runtime/pots.py), the best k of the cards
(koloda/interpreter/melds/patterns.py), and the `betting` library a game imports with its variables.
The language's cases are in tests/compliance/pots.yaml; these test the functions of plain values and
the library's import."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.dsl.errors import NOWHERE
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.runtime.pots import pot_shares


class Ranked:
    """Patterns that rank a hand by its first card: the higher, the stronger."""

    def strength(self, hand):
        return (hand[0],)


def shares(stakes, hands):
    return pot_shares(Ranked(), stakes, hands, NOWHERE)


def test_one_layer_to_the_best_hand():
    assert shares([10, 10, 10], [[3], [9], [5]]) == [0, 30, 0]


def test_each_layer_to_the_best_hand_that_covered_it():
    # P1 all in for 10 with the best hand, P2 for 40 with the second; P3 and P4 cover 100
    assert shares([10, 40, 100, 100], [[9], [8], [1], [2]]) == [40, 90, 0, 120]


def test_chips_of_players_who_folded_stay_in_their_layers():
    assert shares([10, 60, 30], [[9], [], [5]]) == [30, 0, 70]


def test_the_odd_chips_go_to_the_first_tied_players_listed():
    assert shares([3, 3, 1], [[7], [7], []]) == [4, 3, 0]
    assert shares([5, 5, 5, 2], [[7], [7], [7], []]) == [6, 6, 5, 0]


def test_the_chips_are_kept():
    import random
    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(2, 9)
        stakes = [rng.randint(0, 50) for _ in range(n)]
        hands = [[rng.randint(0, 4)] if rng.random() < 0.7 else [] for _ in range(n)]
        assert sum(shares(stakes, hands)) == sum(stakes)


def test_mismatched_lists_are_a_located_error():
    with pytest.raises(RuleRuntimeError, match="one hand for each stake"):
        shares([1, 2], [[1]])
    with pytest.raises(RuleRuntimeError, match="from 0"):
        shares([None, 2], [[1], [2]])


def test_the_best_five_of_seven():
    game = koloda.load("holdem")
    ids = game.cards.parse
    seven = [ids(c)[0] for c in "2H 9H KH 4H AH 7H 3S".split()]
    best = game.patterns.best(seven, 5)
    # the flush of the five highest hearts, in the cards' order
    assert best == [ids(c)[0] for c in "9H KH 4H AH 7H".split()]
    assert game.patterns.best(seven[:4], 5) == seven[:4]        # fewer cards than asked: all of them


# ------------------------------------------------------------------ the betting library
GAME = """\
game: {name}
players: 2
deck: standard52
import: [betting]
vars:
  stack: {{start: 50}}
zones:
  stock: {{}}
phases:
  main:
    actions:
      call: {{do: call()}}
match:
  score: p.stack
"""


def test_a_library_gives_its_variables_and_the_game_may_change_their_start(tmp_path: Path):
    path = tmp_path / "bets.yaml"
    path.write_text(GAME.format(name="bets"), encoding="utf-8")
    game = koloda.load(str(path))
    state = game.new_initial_state(0)
    assert state.vars[game.layout.var_base["stack"]] == 50
    assert "put" in game.layout.var_base and "folded" in game.layout.var_base


def test_the_betting_library_checks_on_its_own():
    result = CliRunner().invoke(main, ["check", "koloda/rules/lib/betting.yaml"])
    assert result.exit_code == 0 and "library" in result.output


def test_a_stack_too_big_for_the_raises_is_refused_with_a_message():
    result = CliRunner().invoke(main, ["simulate", "holdem", "-n", "1", "-o", "stack=5000"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "stack" in result.output
