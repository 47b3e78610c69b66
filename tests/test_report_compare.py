"""Paired comparison on records made by hand: known differences found, no difference not marked."""
from __future__ import annotations

import io

import jsonschema
import pytest
from rich.console import Console

from koloda.report.compare import compare, paired
from koloda.report.export import schema
from koloda.report.records import ENDED, STEP_CAP, GameRecord, Quality
from koloda.report.render_compare import render_comparison


def record(number: int, decisions: int, p1_wins: bool, status: str = ENDED, moon: int = 0) -> GameRecord:
    returns = (1.0, 0.0) if p1_wins else (0.0, 1.0)
    return GameRecord(number, number, ("random", "random"), status, returns=returns if status == ENDED else (),
                      scores=(0.0, 0.0) if status == ENDED else (), deals=4, turns=decisions, decisions=decisions,
                      legal_moves=2 * decisions, forced=0, quality=Quality(1, 0.5, 0.5, ()), counts={"moon": moon})


# B's games are 10 decisions longer, game by game, though the games differ much among themselves;
# the same seat wins in both; the moon is shot in B's first two games only
A = [record(k, 50 + 37 * (k % 5), k % 2 == 0) for k in range(20)]
B = [record(k, 60 + 37 * (k % 5), k % 2 == 0, moon=int(k < 2)) for k in range(20)]


def rows(comparison):
    return {r["measure"]: r for r in comparison["measures"]}


def test_a_difference_the_same_in_every_game_is_found_and_survives_holm():
    c = rows(compare(A, B, names=["a", "b"], players=2, counters=["moon"]))
    d = c["decisions"]
    assert d["diff"] == pytest.approx(10) and d["low"] == pytest.approx(10) and d["high"] == pytest.approx(10)
    assert d["significant"] and d["holm"] and d["p"] == 0.0


def test_no_difference_is_not_marked():
    c = rows(compare(A, B, names=["a", "b"], players=2, counters=["moon"]))
    share = c["win share P1"]
    assert share["diff"] == 0 and not share["significant"] and share["p"] == 1.0
    assert c["legal moves per decision"]["diff"] == pytest.approx(0.0) and not c["lead changes"]["significant"]


def test_a_rare_difference_is_not_significant_in_few_games():
    moon = rows(compare(A, B, names=["a", "b"], players=2, counters=["moon"]))["deals counted: moon"]
    assert moon["diff"] == pytest.approx(2 / 4 / 20) and moon["low"] < 0 < moon["high"] and not moon["significant"]


def test_paired_p_value_and_interval():
    row = paired("x", [0.0, 0.0, 0.0, 0.0], [1.0, 3.0, 1.0, 3.0])     # differences 1, 3, 1, 3: mean 2, sd 2/√3
    se = (2 / 3 ** 0.5) / 2
    assert row["diff"] == 2 and row["low"] == pytest.approx(2 - 1.959964 * se, abs=1e-5)
    assert row["p"] == pytest.approx(0.000532, abs=1e-5) and row["significant"]      # z = 2 / se = 3.46


def test_only_games_ended_in_both_are_paired():
    b = list(B)
    b[3] = record(3, 0, True, status=STEP_CAP)
    c = compare(A, b, names=["a", "b"], players=2)
    assert c["paired"] == 19 and rows(c)["decisions"]["n"] == 19


def test_the_comparison_follows_its_schema_and_marks_at_the_terminal():
    c = compare(A, B, names=["pony", "pony seven_draws=true"], players=2, counters=["moon"])
    jsonschema.validate(c, schema("compare"))
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(render_comparison(c))
    text = console.export_text()
    decisions = next(line for line in text.splitlines() if line.startswith("decisions"))
    share = next(line for line in text.splitlines() if line.startswith("win share P1"))
    assert decisions.rstrip().endswith("**") and not share.rstrip().endswith("*")
    assert "B: pony seven_draws=true" in text


# ---------------------------------------------------------------- Holm's correction, on a table of many measures

def game(number: int, turns: int, decisions: int) -> GameRecord:
    return GameRecord(number, number, ("random", "random"), ENDED, returns=(1.0, 0.0) if number % 2 else (0.0, 1.0),
                      scores=(0.0, 0.0), deals=4, turns=turns, decisions=decisions, legal_moves=2 * decisions,
                      forced=0, quality=Quality(1, 0.5, 0.5, ()))


def test_holm_keeps_a_chance_difference_unmarked_among_many_measures():
    # B's turns differ from A's by +1 in 15 games and -1 in 5: p = 0.012, below 0.05 but not below
    # 0.05 / 14, what Holm asks of the second smallest of the table's 15 p-values; B's decisions are
    # 10 more in every game (p = 0), which survives any correction
    a = [game(k, 100 + 7 * (k % 3), 50 + 37 * (k % 5)) for k in range(20)]
    b = [game(k, 100 + 7 * (k % 3) + (1 if k < 15 else -1), 60 + 37 * (k % 5)) for k in range(20)]
    c = compare(a, b, names=["a", "b"], players=2)
    tested = [r for r in c["measures"] if r["n"] >= 2]
    assert len(tested) >= 10, "a table of many measures"
    turns, decisions = rows(c)["turns"], rows(c)["decisions"]
    assert turns["p"] == pytest.approx(0.0118, abs=5e-4) and turns["significant"] and not turns["holm"]
    assert decisions["p"] == 0.0 and decisions["holm"]
    assert [r["measure"] for r in tested if r["holm"]] == ["decisions"]
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(render_comparison(c))
    line = next(x for x in console.export_text().splitlines() if x.startswith("turns"))
    assert line.rstrip().endswith("*") and not line.rstrip().endswith("**")


def test_holm_steps_down_rather_than_dividing_by_every_measure():
    from koloda.report.compare import _holm

    def table(*ps: float) -> list[dict]:
        return [{"measure": f"m{k}", "n": 20, "p": p, "holm": False} for k, p in enumerate(ps)]
    # each held to 0.05 / 4, / 3, / 2, / 1 in turn: all pass, where Bonferroni (0.05 / 4 each) passes two
    rows_ = table(0.04, 0.012, 0.001, 0.02)
    _holm(rows_)
    assert [r["holm"] for r in rows_] == [True, True, True, True]
    # the second smallest fails its 0.05 / 3: it and every larger one stay unmarked, 0.04 too
    rows_ = table(0.04, 0.03, 0.001, 0.2)
    _holm(rows_)
    assert [r["holm"] for r in rows_] == [False, False, True, False]
    # a measure seen in fewer than two games is no test and does not count in the table
    rows_ = table(0.001, 0.02) + [{"measure": "rare", "n": 1, "p": 1.0, "holm": False}]
    _holm(rows_)
    assert [r["holm"] for r in rows_] == [True, True, False]
