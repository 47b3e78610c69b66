"""Seat order and flow: the direction of play, phases skipped by `if:`, `next dealer:` and `turn cap:`.

Played on tests/games/round_table.yaml, a small game made to show each (not a real card game)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import koloda
from koloda.api import load_spec
from koloda.dsl.errors import RuleErrors
from koloda.interpreter.codegen import generate
from koloda.interpreter.core.state import State

GAME = Path(__file__).parent / "games" / "round_table.yaml"
HANDS = {"P1 hand": "QS 7S", "P2 hand": "KS 7H", "P3 hand": "8S 8H", "P4 hand": "9S 9H"}


def load(tmp_path: Path | None = None, replace: tuple[str, str] | None = None, **options):
    path = GAME
    if replace is not None:
        assert tmp_path is not None and replace[0] in GAME.read_text(encoding="utf-8")
        path = tmp_path / "round_table.yaml"
        path.write_text(GAME.read_text(encoding="utf-8").replace(*replace), encoding="utf-8")
    return koloda.load(str(path), options=options, players=4)


def play(s, text: str) -> None:
    s.apply_action(s.string_to_action(text))


def seat(s) -> str:
    return f"P{s.current + 1}"


def test_a_queen_reverses_the_turn_order_and_the_next_deal_goes_left_again():
    game = load(passing=False)
    s = game.new_initial_state(seed=1, dealer=3, hands=HANDS)        # P4 deals: P1 leads
    assert (seat(s), s.direction) == ("P1", 1)
    play(s, "play Q♠")
    assert (seat(s), s.direction) == ("P4", -1), "after the queen the turn passes to the right"
    play(s, "play 9♠")
    assert seat(s) == "P3"
    twin = State.from_json(game, s.to_json())
    assert twin.direction == -1 and twin.legal_actions() == s.legal_actions()
    assert s.clone().direction == -1
    while s.deal_number == 1:
        s.apply_action(s.legal_actions()[0])
    assert s.direction == 1, "every deal starts to the left"


def test_dealing_and_the_first_turn_follow_the_direction_set_in_deal(tmp_path):
    game = load(tmp_path, ("  - deal 2 to each hand", "  - reverse direction\n  - deal 2 to each hand"),
                passing=False)
    s = game.new_initial_state(seed=2, dealer=0)
    assert s.direction == -1 and seat(s) == "P4", "the player to the dealer's right plays first"
    # dealing went to the right too: P4 got the stock's top card, then P3, P2, P1
    spec = load(passing=False).new_initial_state(seed=2, dealer=0)
    hand = game.layout.zone_base["hand"]
    assert [s.zones[hand + p] for p in range(4)] == [spec.zones[hand + (4 - p) % 4] for p in range(4)]


def test_others_are_asked_in_the_direction_of_play():
    game = load(passing=False)
    s = game.new_initial_state(seed=1, dealer=3, hands={**HANDS, "P1 hand": "QS KH"})
    play(s, "play Q♠")                           # now to the right: P4 plays next
    play(s, "play 9♠")
    play(s, "play 8♠")
    play(s, "play K♠")                           # P2 asks the others, to the right of P2: P1, P4, P3
    order = []
    while s.step == "hear":
        order.append(seat(s))
        play(s, "listen")
    assert order == ["P1", "P4", "P3"]
    heard = game.layout.var_base["heard"]
    assert s.vars[heard:heard + 4] == [1, 0, 3, 2]


def phases_by_deal(game, seed: int) -> dict[int, list[str]]:
    seen: dict[int, list[str]] = {}
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        seen.setdefault(s.deal_number, []).append(game.flow.phases[s.phase].name)
        s.apply_action(rng.choice(s.legal_actions()))
    return seen


def test_the_passing_phase_is_not_played_on_every_fourth_deal():
    seen = phases_by_deal(load(), seed=4)
    assert sorted(seen) == [1, 2, 3, 4, 5, 6]
    for deal, phases in seen.items():
        passes = phases.count("passing")
        assert passes == (0 if deal % 4 == 0 else 4), f"deal {deal}: {passes} passing turns"


def test_a_deal_whose_phases_are_all_skipped_ends_at_once(tmp_path):
    game = load(tmp_path, ("  play:\n    actions:", "  play:\n    if: deal_number < 3\n    actions:"), passing=False)
    s = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while not s.is_terminal():
        assert s.deal_number < 3
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.deal_number == 6, "deals 3 to 6 had nothing to play and were scored as dealt"


def test_the_player_of_the_last_card_deals_next():
    game = load()
    s = game.new_initial_state(seed=5)
    rng = random.Random(5)
    dealers = []
    last = game.layout.var_base["last"]
    while not s.is_terminal():
        deal, before = s.deal_number, s.vars[last]
        s.apply_action(rng.choice(s.legal_actions()))
        if s.deal_number != deal and not s.is_terminal():
            dealers.append((s.dealer, before if s.vars[last] is None else s.vars[last]))
    assert dealers and all(dealer == winner for dealer, winner in dealers)


def test_without_the_winner_the_deal_passes_to_the_left():
    game = load(winner_deals=False)
    s = game.new_initial_state(seed=5, dealer=1)
    rng = random.Random(5)
    dealers = [s.dealer]
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal() and s.dealer != dealers[-1]:
            dealers.append(s.dealer)
    assert dealers == [1, 2, 3, 0, 1, 2]


def test_the_turn_cap_ends_the_match_drawn():
    game = load(cap=3)
    s = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.capped and s.deal_number == 1 and s.deal_turns == 3
    assert s.returns() == [0.25] * 4, "every side shares the win"
    assert s.scores() == [0, 0, 0, 0], "the unfinished deal is not scored"
    assert State.from_json(game, s.to_json()).returns() == [0.25] * 4


def test_the_turn_cap_can_end_the_deal_instead(tmp_path):
    game = load(tmp_path, ("turn cap: option.cap", "turn cap: {turns: option.cap, ends: deal}"), cap=5)
    s = game.new_initial_state(seed=1)
    rng = random.Random(1)
    turns = []
    while not s.is_terminal():
        deal = s.deal_number
        s.apply_action(rng.choice(s.legal_actions()))
        if s.deal_number != deal or s.is_terminal():
            turns.append(s.turn_no)
    assert not s.capped and s.deal_number == 6
    assert all(b - a <= 5 for a, b in zip([0] + turns, turns)), "no deal lasted more than 5 turns"
    assert sum(s.scores()) == 6, "every deal was scored"


def test_fast_and_checked_code_agree(monkeypatch):
    def trace(game):
        s = game.new_initial_state(seed=7)
        rng = random.Random(7)
        out = []
        while not s.is_terminal():
            out.append((s.current, s.direction, s.legal_actions()))
            s.apply_action(rng.choice(s.legal_actions()))
        return out, s.returns()
    fast = load()
    monkeypatch.setattr(generate, "ALL_CHECKED", True)        # the flow written checked throughout
    slow = load()
    assert trace(fast) == trace(slow)


@pytest.mark.parametrize("old_name", ["direction", "player"])
def test_a_file_may_still_name_its_own_things_direction_and_player(tmp_path, old_name):
    text = GAME.read_text(encoding="utf-8").replace("  heard_so_far: 0", f"  heard_so_far: 0\n  {old_name}: 5")
    text = text.replace("  - last.points += 1", f"  - last.points += 1\n  - {old_name} += 1")
    path = tmp_path / "own.yaml"
    path.write_text(text, encoding="utf-8")
    game = koloda.load(str(path), players=3)
    s = game.new_initial_state(seed=1)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.vars[game.layout.var_base[old_name]] == 11


def test_next_dealer_and_a_dealer_that_stays_cannot_both_be_given(tmp_path):
    path = tmp_path / "both.yaml"
    path.write_text(GAME.read_text(encoding="utf-8").replace("  score: p.points", "  score: p.points\n"
                                                             "  dealer rotates: false"), encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        load_spec(str(path))
    assert "give one of them" in info.value.errors[0].message


def test_a_simulation_counts_games_drawn_by_the_turn_cap_as_ended_draws():
    from koloda.report.render import headline
    from koloda.report.summary import summarise
    from koloda.sim.sequential import simulate
    game = load(cap=3)
    result = simulate(game, 3, seed=1)
    assert all(r.ended and r.capped and r.draw for r in result.records)
    report = summarise(result.records, game={"name": "round-table", "title": "Round table", "options": {},
                                             "players": 4},
                       run={"games": 3, "seed": 1, "seats": [], "rotate": False, "max_moves": 100_000,
                            "stopped": False})
    assert report["games"]["turn_cap"] == 3 and report["draws"]["value"] == 1.0
    assert "3 drawn at the rules' turn cap" in headline(report)
