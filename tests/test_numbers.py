"""Number parameters beyond the deck's size, and ranges with a step (interpreter/core/codec.py).

Played on tests/games/auction.yaml, a small bidding game made to show them (not a real card game)."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import koloda
from koloda.compact import CompactGame
from koloda.dsl.errors import RuleErrors
from koloda.interpreter.codegen import generate
from koloda.interpreter.game import compile_expression

GAME = Path(__file__).parent / "games" / "auction.yaml"


def load(tmp_path: Path | None = None, replace: tuple[str, str] | None = None, players: int = 2, **options):
    path = GAME
    if replace is not None:
        assert tmp_path is not None and replace[0] in GAME.read_text(encoding="utf-8")
        path = tmp_path / "auction.yaml"
        path.write_text(GAME.read_text(encoding="utf-8").replace(*replace), encoding="utf-8")
    return koloda.load(str(path), options=options, players=players)


def texts(s) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def test_a_bid_from_100_to_300_by_fives_is_its_place_in_the_range():
    game = load()
    bid = game.codec.actions[0]
    assert (bid.name, bid.size) == ("bid", 41)              # 100, 105 ... 300
    s = game.new_initial_state(seed=1)
    assert texts(s) == [f"bid {b}" for b in range(100, 301, 5)]
    assert s.legal_actions() == list(range(41))
    assert s.string_to_action("bid 115") == 3
    assert game.decode(3)[1] == {"b": 115}
    s.apply_action(s.string_to_action("bid 150"))
    assert texts(s)[0] == "bid 155" and "hold 0" in texts(s)


def test_the_step_follows_the_option_and_the_ids_follow_the_step():
    game = load(step=20)
    assert game.codec.actions[0].size == 11                  # 100, 120 ... 300
    s = game.new_initial_state(seed=1)
    assert texts(s) == [f"bid {b}" for b in range(100, 301, 20)]
    assert s.string_to_action("bid 140") == 2


def test_a_small_range_keeps_the_ids_it_always_had():
    """`k in 0..3` fits 0..deck size: its value is its digit, in a block of deck size + 1, as before."""
    game = load()
    hold = game.codec.actions[-1]
    assert hold.params[0].plain and hold.size == 33         # a 32-card deck
    s = game.new_initial_state(seed=1)
    s.apply_action(s.string_to_action("bid 100"))
    assert s.string_to_action("hold 2") == hold.offset + 2


def test_numbers_far_past_the_deck_are_spelled_in_their_own_block(tmp_path):
    """`pledge` (a card and 1000..9000) has too many ids for one token each: its number is a token of
    the block of its range, read back to the same move."""
    cg = CompactGame(load())
    cs = cg.new_initial_state(seed=2)
    for token in cg.spell(cs.native.string_to_action("bid 300")):
        cs.apply_action(token)
    native = next(a for a in cs.native.legal_actions() if cs.native.action_to_string(a).endswith("for 4321"))
    tokens = cg.spell(native)
    assert len(tokens) == 3 and cg.native(tokens) == native
    assert cs.action_to_string(tokens[2]).endswith("4321")
    assert cg.native(tokens[:2] + (tokens[2] + 1,)) == native + 1          # 4322


def test_fast_and_checked_code_agree(monkeypatch):
    generated = load()
    monkeypatch.setattr(generate, "ALL_CHECKED", True)        # the flow written checked throughout
    checked = load()
    monkeypatch.setattr(generate, "ALL_CHECKED", False)
    for game_seed in (0, 1):
        seen = []
        for game in (generated, checked):
            rng, s, moves = random.Random(game_seed), game.new_initial_state(seed=game_seed), []
            while not s.is_terminal():
                legal = s.legal_actions()
                moves.append((legal[:50], texts(s)[:50]))
                s.apply_action(rng.choice(legal))
            seen.append((moves, s.returns()))
        assert seen[0] == seen[1]


def test_a_winning_bid_scores_its_hundreds():
    s = load().new_initial_state(seed=1)
    # two deals of two players: P2 bids 250 over 120, then opens the second deal with 300
    for move in ("bid 120", "bid 250", "bid 300", "hold 3"):
        s.apply_action(s.string_to_action(move))
    assert s.is_terminal() and s.scores() == [0, 5]


def test_a_typed_number_off_the_step_is_refused():
    s = load().new_initial_state(seed=1)
    with pytest.raises(koloda.IllegalAction):
        s.string_to_action("bid 103")


def test_a_range_from_the_player_count_is_fixed_before_play(tmp_path):
    game = load(tmp_path, ("b in 100..300 by option.step", "b in 100 * player_count..500 by 50"), players=3)
    s = game.new_initial_state(seed=1)
    assert texts(s) == ["bid 300", "bid 350", "bid 400", "bid 450", "bid 500"]
    assert s.legal_actions() == [0, 1, 2, 3, 4]


def test_too_many_numbers_from_an_option_is_refused_at_load(tmp_path):
    with pytest.raises(RuleErrors) as info:
        load(tmp_path, ("b in 100..300 by option.step", "b in 0..option.step * 1000"), step=30)
    assert "takes 30001 numbers, more than 10000" in str(info.value)


def test_check_refuses_too_many_numbers_with_a_clear_message(tmp_path):
    path = tmp_path / "auction.yaml"
    path.write_text(GAME.read_text(encoding="utf-8").replace("n in 1000..9000", "n in 1000..90000"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "koloda.cli.main", "check", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "takes 89001 numbers, more than 10000" in done.stdout + done.stderr


def test_a_file_may_still_name_its_own_things_product_or_subsets(tmp_path):
    """The new built-ins came after rule files were written: a file's own names win where it names them."""
    game = load(tmp_path, ("  spoken: 0\n", "  spoken: 0\n  product: 7\n  subsets: 2\n"))
    s = game.new_initial_state(seed=1)
    assert s.legal_actions()          # loads and plays
    fn, _ = compile_expression(game, "product + subsets")
    assert fn(s, {}) == 9


LISTED = """\
game: listed-bids
players: 2
deck: piquet32
options:
  top: 36
zones:
  stock: {visible: nobody}
vars:
  high: 0
  spoken: 0
deal:
  - gather into stock
  - high = 0
  - spoken = 0
phases:
  bidding:
    actions:
      bid:
        with: b in DOMAIN
        if: b > high
        text: "bid {b}"
        do: [high = b, spoken += 1]
      pass:
        do: spoken += 1
    steps:
      main: [bid, pass]
deal ends: spoken == player_count
match:
  ends: deal_number >= 1
  score: 0
"""


def listed(tmp_path: Path, domain: str, **options):
    path = tmp_path / "listed.yaml"
    path.write_text(LISTED.replace("DOMAIN", domain), encoding="utf-8")
    return koloda.load(str(path), options=options, players=2)


def test_a_number_from_a_fixed_list_past_the_deck_is_its_place_in_the_covering_range(tmp_path):
    """Skat's bids: 18, 20, 22, 23 ... past a 32-card deck, each offered and read back."""
    game = listed(tmp_path, "[18, 20, 22, 23, 24, 27, 30, 33, 35, option.top]")
    bid = game.codec.actions[0]
    assert (bid.params[0].low, bid.params[0].step, bid.size) == (18, 1, 19)     # 18..36
    s = game.new_initial_state(seed=1)
    assert texts(s) == [f"bid {b}" for b in (18, 20, 22, 23, 24, 27, 30, 33, 35, 36)] + ["pass"]
    assert s.string_to_action("bid 23") == 5 and game.decode(5)[1] == {"b": 23}
    s.apply_action(s.string_to_action("bid 33"))
    assert texts(s) == ["bid 35", "bid 36", "pass"]


def test_a_listed_number_follows_the_options_and_the_steps_between_them(tmp_path):
    game = listed(tmp_path, "[100, 150, option.top]", top=300)
    assert (game.codec.actions[0].params[0].low, game.codec.actions[0].params[0].step) == (100, 50)
    s = game.new_initial_state(seed=1)
    assert texts(s) == ["bid 100", "bid 150", "bid 300", "pass"]
    assert s.legal_actions()[:3] == [0, 1, 4]


def test_a_list_within_the_deck_keeps_the_ids_it_always_had(tmp_path):
    game = listed(tmp_path, "[2, 4, 30]")
    assert game.codec.actions[0].params[0].plain and game.codec.actions[0].size == 33
    assert game.new_initial_state(seed=1).string_to_action("bid 30") == 30


def test_a_list_spread_too_wide_is_refused_at_check_time_where_it_is_written(tmp_path):
    path = tmp_path / "listed.yaml"
    path.write_text(LISTED.replace("DOMAIN", "[1, 2, 50000]"), encoding="utf-8")
    with pytest.raises(RuleErrors) as caught:
        koloda.load(str(path), players=2)
    error = caught.value.errors[0]
    assert "from a list that spreads over 50000 places" in error.message and (error.span.line, error.span.col) == (19, 20)
    assert "within 10000 places" in (error.hint or "")


def test_a_number_past_its_ids_at_play_says_where_and_how_without_an_internal_error(tmp_path):
    """A list read from the table is not fixed before play: its numbers are 0..deck size, and one
    past them stops play with the action's place and a hint, not Python's chained failure."""
    from koloda.interpreter.base.errors import RuleRuntimeError
    game = listed(tmp_path, "[high + 36, 20]")
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_initial_state(seed=1).legal_actions()
    error = caught.value
    assert "takes 36, outside 0..32" in error.message and (error.span.line, error.span.col) == (18, 7)
    assert "`b in [18, 20, 22]`" in (error.hint or "")
    assert error.__context__ is None and error.__cause__ is None


def test_listed_numbers_play_the_same_in_fast_and_checked_code(tmp_path, monkeypatch):
    from test_generated import both
    path = tmp_path / "listed.yaml"
    path.write_text(LISTED.replace("DOMAIN", "[18, 20, 22, 23, 24, 27, 30, 33, 35, option.top]"), encoding="utf-8")
    fast, slow = both(monkeypatch, str(path), seed=2, moves=20, players=2)
    assert fast == slow and len(fast) >= 2


@pytest.mark.parametrize("domain,value,col", [("[high + 18, 36]", 36, 32), ("high..40", 40, 26), ("[high, -1]", -1, 27),
                                              ("[high, option.top]", 36, 34)])
def test_a_number_a_state_read_list_cannot_code_is_refused_at_check_time(tmp_path, domain, value, col):
    """A list or range that reads the table keeps the digits 0..deck size: a number it names outright
    outside them could never be a move, and `koloda check` says so where it is written."""
    path = tmp_path / "listed.yaml"
    path.write_text(LISTED.replace("DOMAIN", domain), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "koloda.cli.main", "check", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"listed.yaml:19:{col}: parameter `b` may take {value}, but its" in done.stdout + done.stderr
    assert "to the deck's size (32)" in done.stdout + done.stderr


def test_a_state_read_list_within_the_deck_still_checks(tmp_path):
    path = tmp_path / "listed.yaml"
    path.write_text(LISTED.replace("DOMAIN", "[high + 1, 30]"), encoding="utf-8")
    assert koloda.load(str(path), players=2).new_initial_state(seed=1).legal_actions()


def test_listed_numbers_in_a_move_of_many_ids_are_spelled_as_their_own_token(tmp_path):
    """A card and a number from a list spread over 8001 places: too many ids for one token each, so
    the number is a token of the list's own block, shown as the number and read back."""
    path = tmp_path / "listed.yaml"
    text = LISTED.replace("DOMAIN", "[18, 20]").replace("  stock: {visible: nobody}\n", "  stock: {visible: nobody}\n"
                                                        "  hand: {each: player, visible: owner}\n")
    text = text.replace("  - spoken = 0\n", "  - spoken = 0\n  - deal 3 to each hand\n")
    text = text.replace("      pass:\n", "      pledge:\n        with:\n          - c in my hand\n"
                        "          - n in [1000, 9000, 3001]\n        text: \"pledge {c} for {n}\"\n"
                        "        do: spoken += 1\n      pass:\n").replace("main: [bid, pass]", "main: [bid, pledge, pass]")
    path.write_text(text.replace("  - gather into stock\n", "  - gather into stock\n  - shuffle stock\n"),
                    encoding="utf-8")
    cg = CompactGame(koloda.load(str(path), players=2))
    cs = cg.new_initial_state(seed=3)
    pledges = [a for a in cs.native.legal_actions() if cs.native.action_to_string(a).startswith("pledge")]
    assert len(pledges) == 9 and cs.native.action_to_string(pledges[-1]).endswith("for 9000")
    for native in pledges:
        tokens = cg.spell(native)
        assert len(tokens) == 3 and cg.native(tokens) == native
    assert [cs.action_to_string(cg.spell(a)[2]) for a in pledges[:3]] == ["1000", "3001", "9000"]


def test_every_bot_and_the_table_play_listed_numbers(tmp_path):
    from click.testing import CliRunner
    from koloda.cli.main import main
    path = tmp_path / "listed.yaml"
    path.write_text(LISTED.replace("DOMAIN", "[18, 20, 22, 23, 24, 27, 30, 33, 35, option.top]"), encoding="utf-8")
    for seat in ("random", "greedy", "ismcts:iterations=20"):
        done = CliRunner().invoke(main, ["simulate", str(path), "-n", "4", "-j", "1", "--seed", "5", "--seat", seat,
                                         "--seat", seat])
        assert done.exit_code == 0 and "4 games played, 4 ended" in done.output, done.output
    done = CliRunner().invoke(main, ["play", str(path), "--seat", "human", "--seat", "random", "--fast", "--seed", "3"],
                              input="bid 19\nbid 36\n")
    assert "Traceback" not in done.output
    assert "`bid 19` cannot be made: 19 is not among `[18, 20, 22" in done.output        # (an option in the list)
    assert "P1 bid 36" in done.output
