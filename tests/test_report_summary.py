"""The report from records made by hand: every number can be worked out on paper."""
from __future__ import annotations

import csv
import io

import jsonschema
import pytest
from rich.console import Console

from koloda.report.export import schema, to_json, write_csv
from koloda.report.records import ENDED, RULE_ERROR, STEP_CAP, GameRecord, Quality
from koloda.report.render import render
from koloda.report.summary import summarise
from koloda.report.stats import wilson


def record(number: int, returns=(1.0, 0.0), agents=("greedy", "random"), deals=4, status=ENDED, **more) -> GameRecord:
    ended = status == ENDED
    return GameRecord(number, 100 + number, agents, status, more.pop("error", ""),
                      returns=returns if ended else (), scores=(10.0 * returns[0], 5.0) if ended else (),
                      deals=deals, turns=10 * deals, decisions=20 * deals, legal_moves=50 * deals, forced=5 * deals,
                      quality=Quality(2, 0.25, 0.5, (1.0,) * 10) if ended else None, **more)


RECORDS = [
    record(0, counts={"moon": 1}),
    record(1, returns=(0.0, 1.0), agents=("random", "greedy"), counts={"moon": 0}),
    record(2, counts={"moon": 2}),
    record(3, returns=(0.5, 0.5), deals=2, counts={"moon": 0}),
    record(4, status=STEP_CAP, deals=9),
    record(5, status=RULE_ERROR, error="t.yaml:3:4: division by zero"),
]
GAME = {"name": "t", "title": "Test", "options": {"hand": 5}, "players": 2}
RUN = {"games": 6, "seed": 100, "seats": ["greedy", "random"], "rotate": True, "max_moves": 80, "stopped": False}


@pytest.fixture(scope="module")
def report():
    return summarise(RECORDS, game=GAME, run=RUN, counters=["moon"])


def test_games_and_findings(report):
    assert report["games"] == {"played": 6, "ended": 4, "step_cap": 1, "rule_errors": 1, "turn_cap": 0}
    assert [(f["kind"], f["game"], f["seed"]) for f in report["findings"]] == [("step cap", 5, 104),
                                                                             ("rule error", 6, 105)]
    assert report["findings"][1]["message"] == "t.yaml:3:4: division by zero"


def test_win_share_by_seat_and_by_agent(report):
    p1, p2 = report["seats"]
    assert p1["win_share"]["value"] == pytest.approx(2.5 / 4)
    assert (p1["win_share"]["low"], p1["win_share"]["high"]) == pytest.approx(wilson(2.5, 4))
    assert p1["advantage"]["value"] == pytest.approx(2.5 / 4 - 0.5)
    assert p1["advantage"]["low"] == pytest.approx(wilson(2.5, 4)[0] - 0.5)
    assert p1["agents"] == ["greedy", "random"] and p2["score"]["mean"] == 5.0
    greedy = next(a for a in report["agents"] if a["agent"] == "greedy")
    assert greedy["seat_games"] == 4 and greedy["win_share"]["value"] == pytest.approx(3.5 / 4)
    assert report["draws"]["value"] == pytest.approx(1 / 4)


def test_length_decisions_quality_and_counters(report):
    assert report["length"]["deals"]["mean"] == pytest.approx(14 / 4)      # the ended games only
    assert report["length"]["turns"]["max"] == 40
    d = report["decisions"]
    assert d["total"] == 20 * (4 + 4 + 4 + 2 + 9 + 4)      # every game's decisions, those that did not end too
    assert d["legal_moves_mean"] == pytest.approx(2.5) and d["forced"]["value"] == pytest.approx(0.25)
    q = report["quality"]
    assert q["games"] == 4 and q["lead_changes"]["mean"] == 2 and q["drama"]["mean"] == 0.25
    assert q["uncertainty"][0]["value"] == 0.0 and q["uncertainty"][0]["n"] == 4
    (moon,) = report["counters"]
    assert moon["deal_share"]["value"] == pytest.approx(3 / 14) and moon["deal_share"]["n"] == 14
    assert moon["per_game"]["mean"] == pytest.approx(3 / 4)


def test_the_report_follows_its_schema(report):
    jsonschema.validate(report, schema("report"))
    broken = dict(report, games={"played": 6})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema("report"))
    assert to_json(report).startswith('{\n "format": "koloda-report/1"')


def test_the_table_at_the_terminal(report):
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render(report, "koloda simulate t -p 2"))
    text = console.export_text()
    assert "Test: 6 games played, 4 ended, 1 stopped at the move limit, 1 stopped by a rule error" in text
    assert "62.5% (" in text                                      # P1's win share with its interval
    assert "koloda simulate t -p 2 --seed 100 --only 6 --seat greedy --seat random --rotate --max-moves 80" in text
    assert "moon" in text and "21.4% (" in text
    assert "Wilson" in text


def test_csv_has_a_row_a_game():
    out = io.StringIO()
    write_csv(out, RECORDS, 2, ["moon"])
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 6
    assert rows[0]["game"] == "1" and rows[0]["seed"] == "100" and rows[0]["count_moon"] == "1"
    assert rows[1]["agent_P1"] == "random" and rows[1]["result_P2"] == "1.0"
    assert rows[4]["status"] == "step cap" and rows[4]["result_P1"] == "" and rows[4]["deals"] == "9"
    assert rows[5]["error"] == "t.yaml:3:4: division by zero"


def test_spread_quantiles_draws_and_the_turn_cap():
    records = RECORDS[:4] + [record(6, returns=(0.5, 0.5), capped=True)]
    r = summarise(records, game=GAME, run=RUN, counters=["moon"])
    assert r["games"]["turn_cap"] == 1 and r["games"]["ended"] == 5
    assert (r["draws"]["value"], r["draws"]["low"], r["draws"]["high"]) == pytest.approx((2 / 5, *wilson(2, 5)))
    deals = r["length"]["deals"]             # 4, 4, 4, 2, 4
    assert (deals["median"], deals["p90"], deals["min"], deals["max"]) == (4, 4, 2, 4)
    assert deals["sd"] == pytest.approx(0.894427, abs=1e-6)
    assert r["quality"]["decisiveness"]["mean"] == 0.5 and r["quality"]["decisiveness"]["n"] == 5
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render(r, "koloda simulate t -p 2"))
    assert "(1 drawn at the rules' turn cap)" in console.export_text()


def test_a_penalty_score_reads_lower_is_better_at_the_terminal(report):
    def table(winner: str) -> str:
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(render(dict(report, game=dict(GAME, winner=winner)), "koloda simulate t -p 2"))
        return console.export_text()
    assert "mean score (lower is better)" in table("lowest")
    assert "lower is better" not in table("highest")
