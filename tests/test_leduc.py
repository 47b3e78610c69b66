"""Scenario tests for examples/leduc.yaml, one per rule of its text (see the file's header): who may
fold, call and raise, when a round ends and the public card is turned up, and the showdown, with a pot
split into half chips (exact fractions: interpreter/base/exact.py). The whole game is checked against
OpenSpiel in tests/test_leduc_differential.py."""
from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

import koloda
from helpers import act, check_state, get_var, legal, zone_cards

LEDUC = str(Path(__file__).resolve().parent.parent / "examples" / "leduc.yaml")


def deal(players: int, hands: list[str], board: str):
    game = koloda.load(LEDUC, players=players)
    given = {f"P{p + 1} hand": hands[p] for p in range(players)}
    return game, game.new_initial_state(0, hands={**given, "board": board})


def test_nobody_folds_when_nothing_is_owed():
    _, s = deal(2, ["1S", "2S"], "3S")
    assert sorted(legal(s)) == ["call", "raise"]


def test_a_raise_may_be_folded_to_and_two_raises_close_the_round_to_raising():
    _, s = deal(2, ["1S", "2S"], "3S")
    act(s, "raise")
    assert get_var(s, "stakes") == 3 and get_var(s, ("put", 0)) == 3
    assert sorted(legal(s)) == ["call", "fold", "raise"]
    act(s, "raise")
    assert get_var(s, "stakes") == 5
    assert sorted(legal(s)) == ["call", "fold"]


def test_the_public_card_is_turned_up_after_the_first_round_and_raises_are_four():
    _, s = deal(2, ["1S", "2S"], "3S")
    assert zone_cards(s, "public") == []
    act(s, "call")
    act(s, "call")
    assert zone_cards(s, "public") == ["3S"] and get_var(s, "round") == 2
    assert s.current_player() == 0            # the first seat opens the second round too
    act(s, "raise")
    assert get_var(s, "stakes") == 5


def test_a_fold_gives_the_pot_to_the_one_left():
    _, s = deal(2, ["1S", "2S"], "3S")
    act(s, "raise")
    act(s, "fold")
    assert s.is_terminal() and s.scores() == [1, -1]


def test_a_pair_with_the_public_card_beats_a_higher_card():
    _, s = deal(2, ["1S", "3S"], "1H")
    for move in ("call", "call", "call", "call"):
        act(s, move)
    assert s.is_terminal() and s.scores() == [1, -1]


def test_a_tie_of_two_after_a_fold_splits_the_pot_in_half_chips():
    # P1 checks, P2 raises, P3 calls, P1 folds; in the second round both check: a pot of 1 + 3 + 3,
    # split between P2 and P3 (the same rank, no pair), 7/2 each for the 3 each put in
    game, s = deal(3, ["4S", "2S", "2H"], "3S")
    for move in ("call", "raise", "call", "fold", "call", "call"):
        act(s, move)
    assert s.is_terminal()
    assert s.scores() == [-1, Fraction(1, 2), Fraction(1, 2)]
    assert s.returns() == [0.0, 0.5, 0.5]
    # the table and the save say it exactly
    assert {v["value"] for v in s.observation(0)["vars"] if v["var"] == "chips"} == {"-1", "1/2"}
    saved = json.loads(json.dumps(s.to_json()))
    assert {"fraction": [1, 2]} in saved["vars"]
    again = type(s).from_json(game, saved)
    assert again.scores() == s.scores() and again.vars == s.vars


@pytest.mark.parametrize("players", [2, 3, 5])
def test_seeded_random_games_keep_every_invariant_and_end(players):
    game = koloda.load(LEDUC, players=players)
    halves = 0
    for seed in range(25):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            check_state(s, rng)          # saves (fractions among them), clones, observations
            s.apply_action(rng.choice(s.legal_actions()))
        check_state(s, rng)
        assert sum(s.scores()) == 0, "chips only change hands"
        assert all(0 <= r <= 1 for r in s.returns())
        halves += any(isinstance(x, Fraction) for x in s.scores())
    if players > 2:
        assert halves, "some pot was split into fractions of a chip"


def test_a_transcript_with_half_chips_replays_and_an_edited_one_is_refused(tmp_path):
    from click.testing import CliRunner
    from koloda.cli.main import main
    runner = CliRunner()
    seats = ["--seat", "random"] * 3
    for seed in range(60):           # a seed whose game splits a pot into halves
        log = tmp_path / f"game{seed}.jsonl"
        played = runner.invoke(main, ["play", LEDUC, "--players", "3", *seats, "--fast", "--seed", str(seed),
                                      "--log", str(log)])
        assert played.exit_code == 0, played.output
        if "fraction" in log.read_text(encoding="utf-8"):
            break
    else:
        pytest.fail("no seed of 60 split a pot into halves")
    assert "/2" in played.output                       # `Scores: P1 -1, P2 1/2, P3 1/2`
    replayed = runner.invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0 and "same scores" in replayed.output, replayed.output
    lines = log.read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    end["scores"] = [{"fraction": [1, 3]} if isinstance(v, dict) else v for v in end["scores"]]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines[:-1] + [json.dumps(end)]) + "\n", encoding="utf-8")
    refused = runner.invoke(main, ["replay", str(edited)])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    end["scores"][0] = {"fraction": [1, 0]}
    edited.write_text("\n".join(lines[:-1] + [json.dumps(end)]) + "\n", encoding="utf-8")
    refused = runner.invoke(main, ["replay", str(edited)])
    assert refused.exit_code != 0 and "not a valid transcript" in refused.output
