"""koloda tune's targets and search space: read from the command line and the rule file, and refused
with the column of the mistake (docs/tune.md)."""
from __future__ import annotations

import math

import pytest

from koloda.api import load_spec
from koloda.tune.measures import Estimate, measure_names, quantile_interval
from koloda.tune.space import SpaceError, read_space
from koloda.tune.targets import TargetError, parse_target, read_targets

KNOWN = measure_names(2, ["jack_finish", "blocked"])


def test_targets_as_a_designer_writes_them():
    t = parse_target("advantage.max <= 0.03", KNOWN)
    assert (t.measure, t.op, t.high) == ("advantage.max", "<=", 0.03) and t.low == -math.inf
    t = parse_target("turns.median in 20..40", KNOWN)
    assert (t.op, t.low, t.high) == ("in", 20.0, 40.0)
    t = parse_target("counter.jack_finish >= 5%", KNOWN)
    assert (t.op, t.low) == (">=", 0.05)
    assert parse_target("  drama>0.2 ", KNOWN).low == 0.2
    objectives = read_targets([], ["drama"], ["forced"], KNOWN)
    assert [(o.measure, o.op) for o in objectives] == [("drama", "max"), ("forced", "min")]


@pytest.mark.parametrize("text, column, words", [
    ("advantge.max <= 0.03", 1, "did you mean `advantage.max`"),
    ("counter.jack_finsh >= 0.05", 1, "did you mean `counter.jack_finish`"),
    ("turns.median = 30", 14, "write <= or >="),
    ("turns.median in 20 40", 20, "`..` was expected"),
    ("turns.median in 40..20", 21, "high end is below"),
    ("drama >= lots", 10, "a number was expected"),
    ("drama >= 0.3 please", 14, "unexpected `please`"),
    ("drama", 6, "a comparison was expected at the end"),
    ("<= 3", 1, "a measure's name was expected"),
])
def test_a_mistake_is_told_at_its_column(text, column, words):
    with pytest.raises(TargetError) as caught:
        parse_target(text, KNOWN)
    err = caught.value
    assert err.column == column and words in err.message
    shown = err.format().splitlines()
    assert shown[1].strip() == text.strip() and shown[2].index("^") - 2 == column - 1


def test_an_objective_takes_a_name_alone():
    with pytest.raises(TargetError, match="takes a measure's name alone"):
        read_targets([], ["drama >= 0.3"], [], KNOWN)
    with pytest.raises(TargetError, match="did you mean `forced`"):
        read_targets([], [], ["forcd"], KNOWN)


def test_verdicts_from_the_interval():
    t = parse_target("advantage.max <= 0.03", KNOWN)
    assert t.verdict(Estimate(0.0, -0.02, 0.02, 100)) == "met"
    assert t.verdict(Estimate(0.05, 0.04, 0.06, 100)) == "missed"
    assert t.verdict(Estimate(0.03, 0.01, 0.05, 100)) == "open"
    band = parse_target("turns in 20..40", KNOWN)
    assert band.verdict(Estimate(10, 8, 12, 50)) == "missed" and band.verdict(Estimate(50, 45, 55, 50)) == "missed"
    assert band.violation(30) == 0 and band.violation(44) == pytest.approx(0.1, rel=1e-6)


def test_a_median_has_an_interval_around_it():
    e = quantile_interval(list(range(1, 102)), 0.5)
    assert e.value == 51 and e.low < 51 < e.high and e.high - e.low < 30


def test_the_space_comes_from_the_options():
    spec, _ = load_spec("pony")
    space = read_space(spec)
    names = {d.name: d for d in space.dimensions}
    # choices and booleans are dimensions, and `limit` (min: 1, no max) by its `search: 30..150`
    assert set(names) == {"deck", "hand", "limit", "jack_finish_doubles", "seven_draws", "eight_skips",
                          "queen_needs_king"}
    assert names["hand"].listed() == [5, 7] and names["seven_draws"].listed() == [False, True]
    assert (names["limit"].low, names["limit"].high) == (30, 150)
    assert space.skipped == () and space.size == 2 * 2 * 2 ** 4 * 121
    space = read_space(spec, ["limit=50..150", "hand=7"], ["deck=standard52", "seven_draws=yes"], "2..4")
    names = {d.name: d for d in space.dimensions}
    assert (names["limit"].low, names["limit"].high) == (50, 150) and names["players"].listed() == [2, 3, 4]
    assert space.fixed == {"hand": 7, "deck": "standard52", "seven_draws": True}
    assert "hand" not in names and "deck" not in names and space.skipped == ()


@pytest.mark.parametrize("space, fix, players, words", [
    (["limt=1..5"], [], None, "did you mean `limit`"),
    (["hand=6"], [], None, "hand: option `hand` is one of 5, 7, not 6"),
    (["limit=0..5"], [], None, "must be at least 1"),
    (["limit=9..5"], [], None, "the low end is above the high end"),
    (["deck=1..3"], [], None, "a range is for a whole-number option"),
    ([], ["seven_draws=maybe"], None, "true or false"),
    (["hand"], [], None, "write it as KEY=VALUE"),
    ([], [], "2..9", "played by 2 to 6 players"),
])
def test_a_space_the_file_cannot_take_is_refused(space, fix, players, words):
    spec, _ = load_spec("pony")
    with pytest.raises(SpaceError) as caught:
        read_space(spec, space, fix, players)
    assert words in str(caught.value)


def test_a_number_without_bounds_or_search_is_left_out_until_space_bounds_it(tmp_path):
    from tests.test_tune_search import DUEL
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.replace("rounds: {default: 1, min: 1, max: 2,", "rounds: {default: 1, min: 1,")
                    .replace("spare: {default: 3, min: 0, max: 9,", "spare: {default: 3, min: 0, search: [0, 4],"),
                    encoding="utf-8")
    spec, _ = load_spec(str(path))
    space = read_space(spec)
    assert [d.text() for d in space.dimensions] == ["edge=0,1,2", "spare=0,4"] and space.skipped == ("rounds",)
    # --space outranks the file's search, and bounds what has none
    space = read_space(spec, ["spare=1..2", "rounds=1..3"])
    assert [d.text() for d in space.dimensions] == ["edge=0,1,2", "spare=1..2", "rounds=1..3"] and not space.skipped
