"""How koloda tune judges its answer: a variant whose 95% intervals all lie within the targets is
shown to meet them (exit 0); one that meets them by its estimates only is told as not shown, with
the games that would tell, and still written (exit 3); the JSON follows tune.schema.json."""
from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

pytest.importorskip("optuna")

from koloda.cli.main import main  # noqa: E402
from koloda.report.export import schema  # noqa: E402
from koloda.tune.answer import ESTIMATED, MISSED, SHOWN, finite, games_to_tell, standing  # noqa: E402
from koloda.tune.measures import Estimate, measure_names  # noqa: E402
from koloda.tune.search import Plan  # noqa: E402
from koloda.tune.space import Space  # noqa: E402
from koloda.tune.targets import read_targets  # noqa: E402
from koloda.tune.trial import Outcome, Setup  # noqa: E402
from tests.test_tune_search import DUEL  # noqa: E402


def _tune(tmp_path: Path, monkeypatch, target: str) -> tuple[int, str, dict]:
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["tune", "duel.yaml", "--target", target, "--fix", "spare=0", "-n", "200",
                                    "--chunk", "100", "--show", "1", "--json", "answer.json"])
    data = json.loads((tmp_path / "answer.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema("tune"))
    return out.exit_code, out.output, data


def test_a_variant_shown_to_meet_the_targets_exits_0_and_its_json_follows_the_schema(tmp_path, monkeypatch):
    code, output, data = _tune(tmp_path, monkeypatch, "advantage.max <= 0.1")
    assert code == 0, output
    assert "Shown: variant 1 meets every target" in output
    assert data["format"] == "koloda-tune/1" and data["variants"][0]["standing"] == SHOWN
    assert data["variants"][0]["games_to_tell"] is None and len(data["trials"]) == 6
    assert {t["state"] for t in data["trials"]} == {"complete", "pruned"}


def test_a_variant_met_by_its_estimates_only_is_told_as_not_shown_and_still_written(tmp_path, monkeypatch):
    code, output, data = _tune(tmp_path, monkeypatch, "advantage.max <= 0.05")
    variant = data["variants"][0]
    assert code == 3, output
    assert "Not shown: no variant's 95% intervals lie within every target after 200 games" in output
    assert "advantage.max <= 0.05: not sure in every one" in output
    assert variant["standing"] == ESTIMATED and variant["games_to_tell"] > 200
    assert f"about {variant['games_to_tell']:,} games" in output and Path(variant["file"]).exists()
    assert variant["targets"][0]["met"] == "open"


def _plan(*targets: str) -> Plan:
    return Plan(Setup("duel"), Space(()), read_targets(list(targets), [], [], measure_names(2, [])), 2, Path("x"))


def _outcome(games: int, **estimates: Estimate) -> Outcome:
    out = Outcome({}, 2, estimates={k.replace("_", "."): e for k, e in estimates.items()})
    out.records = [None] * games      # type: ignore[list-item] — only their number is read
    return out


def test_the_standing_and_the_games_that_would_tell():
    plan = _plan("advantage.max <= 0.02", "deals.mean in 4..6")
    deals = Estimate(5.0, 4.8, 5.2, 1000)
    # the advantage's interval reaches 0.04, twice as far past its estimate as the target: four times the games
    unsure = _outcome(1000, advantage_max=Estimate(0.0, -0.04, 0.04, 1000), deals_mean=deals)
    assert standing(plan, unsure) == ESTIMATED and games_to_tell(plan, unsure) == 4000
    # both ends of a range count: deals 5.5 (3.5..7.5) would need (2 / 0.5)² = 16 times the games
    wide = _outcome(100, advantage_max=Estimate(0.0, -0.01, 0.01, 100), deals_mean=Estimate(5.5, 3.5, 7.5, 100))
    assert standing(plan, wide) == ESTIMATED and games_to_tell(plan, wide) == 1600
    on_the_bound = _outcome(1000, advantage_max=Estimate(0.02, 0.0, 0.04, 1000), deals_mean=deals)
    assert standing(plan, on_the_bound) == ESTIMATED and games_to_tell(plan, on_the_bound) is None
    shown = _outcome(1000, advantage_max=Estimate(0.0, -0.01, 0.01, 1000), deals_mean=deals)
    assert standing(plan, shown) == SHOWN
    missed = _outcome(1000, advantage_max=Estimate(0.03, 0.01, 0.05, 1000), deals_mean=deals)
    assert standing(plan, missed) == MISSED
    assert standing(plan, _outcome(1000, deals_mean=deals)) == MISSED          # a measure not measured


def test_the_json_has_no_infinity():
    data = finite({"estimates": {"turns.median": {"value": 3.0, "low": 1.0, "high": math.inf, "n": 0}}, "x": [-math.inf]})
    assert data == {"estimates": {"turns.median": {"value": 3.0, "low": 1.0, "high": None, "n": 0}}, "x": [None]}
    json.dumps(data, allow_nan=False)


def test_without_plots_the_chart_of_the_trials_goes_beside_the_variant(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    (tmp_path / "duel.yaml").write_text(DUEL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["tune", "duel.yaml", "--target", "advantage.max <= 0.1", "--target", "turns <= 3",
                                    "--fix", "spare=0", "-n", "200", "--chunk", "100", "--show", "1"])
    assert out.exit_code == 0, out.output
    chart = tmp_path / "duel-tuned-front.png"
    assert chart.read_bytes().startswith(b"\x89PNG") and f"the trials on the first two targets: {chart.name}" in out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duel-tuned-1.yaml", "duel-tuned-front.png", "duel.tune.db",
                                                          "duel.yaml"]


def test_importance_counts_the_pruned_trials_and_tells_nothing_from_no_difference():
    import optuna
    from optuna.distributions import IntDistribution
    from optuna.trial import TrialState, create_trial
    from koloda.tune.answer import importance
    from koloda.tune.space import Dimension
    plan = _plan("deals <= 5")
    plan.space = Space((Dimension("a", "int", low=0, high=9), Dimension("b", "int", low=0, high=9)))
    dists = {"a": IntDistribution(0, 9), "b": IntDistribution(0, 9)}

    def study(miss) -> optuna.Study:
        s = optuna.create_study()
        for k in range(20):
            a, b = k % 10, (k * 7) % 10
            v = miss(a)
            # what misses is pruned (no value for Optuna), what meets is complete: the pruned tell the story
            s.add_trial(create_trial(params={"a": a, "b": b}, distributions=dists, user_attrs={"violations": [v]},
                                     state=TrialState.PRUNED if v else TrialState.COMPLETE, value=None if v else 0.0))
        return s

    weights = importance(plan, study(lambda a: max(0, a - 4) / 5))
    assert set(weights) == {"a", "b"} and weights["a"] > 0.8 > weights["b"]
    assert importance(plan, study(lambda a: 0.0)) == {}          # every trial alike: nothing to tell
