"""The answer of a search: the best variants (or the Pareto front), each played to the full number
of games on the base's deals, its targets' values with 95% intervals, its differences from the
base with `compare`'s paired intervals and Holm's correction, and which dimensions mattered.

The chosen variants are played again to `games` games: the games a trial played are the same
games (same numbers, same seeds), so this only completes them; the intervals are then those of
the full run. They were chosen on these deals, though: `koloda compare --seed` on other deals is
the check that owes nothing to the choice (docs/tune.md)."""
from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import optuna
from optuna.trial import FrozenTrial, TrialState

from koloda.report.compare import compare
from koloda.tune.search import Plan, SearchResult
from koloda.tune.space import option_values
from koloda.tune.targets import Target
from koloda.tune.trial import Outcome, play_trial

FORMAT = "koloda-tune/1"


@dataclass
class Variant:
    rank: int
    trial: FrozenTrial
    outcome: Outcome
    comparison: dict[str, Any] = field(default_factory=dict)
    file: str = ""

    @property
    def options(self) -> dict[str, str]:
        return self.outcome.options

    @property
    def players(self) -> int:
        return self.outcome.players


# how a played-out variant stands against the targets: every 95% interval within its target; every
# estimate within it, but some interval reaching past it (more games would tell); some estimate outside
SHOWN, ESTIMATED, MISSED = "shown", "estimated", "missed"


def feasible(trial: FrozenTrial) -> bool:
    return trial.state == TrialState.COMPLETE and not any(v > 0 for v in trial.user_attrs.get("violations", []))


def standing(plan: Plan, out: Outcome) -> str:
    """SHOWN, ESTIMATED or MISSED, from the variant's own games (all of them, played out)."""
    constraints = [t for t in plan.constraints if t.measure in out.estimates]
    if len(constraints) < len(plan.constraints) or any(not t.accepts(out.estimates[t.measure].value)
                                                        for t in constraints):
        return MISSED
    return SHOWN if all(t.verdict(out.estimates[t.measure]) == "met" for t in constraints) else ESTIMATED


def unsettled(plan: Plan, out: Outcome) -> list[Target]:
    """The targets whose interval still reaches past them (neither met nor missed)."""
    return [t for t in plan.constraints if t.measure in out.estimates and t.verdict(out.estimates[t.measure]) == "open"]


def games_to_tell(plan: Plan, out: Outcome) -> int | None:
    """About how many games the variant would need for every interval to lie within its target, if
    its estimates held (an interval narrows as one over the square root of the games); None when
    an estimate sits on its bound or outside it (no number of games would show it)."""
    need = 0.0
    for t in unsettled(plan, out):
        e = out.estimates[t.measure]
        for bound, end in ((t.high, e.high), (t.low, e.low)):
            if not math.isfinite(bound) or t.accepts(end):
                continue
            gap, half = abs(bound - e.value), abs(end - e.value)
            if gap == 0 or not math.isfinite(half):
                return None
            need = max(need, out.games * (half / gap) ** 2)
    if need == 0:
        return None if unsettled(plan, out) else out.games
    return int(math.ceil(need / 100) * 100)


def _dominates(a: Sequence[float], b: Sequence[float], signs: Sequence[int]) -> bool:
    better = [s * x >= s * y for x, y, s in zip(a, b, signs)]
    return all(better) and any(s * x > s * y for x, y, s in zip(a, b, signs))


def chosen(plan: Plan, trials: Sequence[FrozenTrial], show: int) -> list[FrozenTrial]:
    """The variants to answer with: with objectives, the Pareto front of those meeting every
    constraint (of every complete trial when none does); else those meeting every target, the
    clearly met first, then the rest by how far they miss (when every trial was pruned, those that
    missed by least)."""
    trials = [t for t in trials if "same_as" not in t.user_attrs]      # a variant proposed again is one variant
    complete = [t for t in trials if t.state == TrialState.COMPLETE]
    if plan.objectives:
        pool = [t for t in complete if feasible(t)] or complete
        signs = [1 if o.op == "max" else -1 for o in plan.objectives]
        front = [t for t in pool if not any(_dominates(u.values, t.values, signs) for u in pool if u is not t)]
        front.sort(key=lambda t: [-s * v for s, v in zip(signs, t.values)])
        return front[:show]
    if not complete:            # every trial pruned: the nearest misses, for the designer to see how near
        return sorted(trials, key=lambda t: (sum(t.user_attrs.get("violations", [math.inf])), t.number))[:show]
    ordered = sorted(complete, key=lambda t: (t.values[0], t.user_attrs.get("verdict") != "met",
                                              -_margin(plan, t), t.number))
    return ordered[:show]


def _margin(plan: Plan, trial: FrozenTrial) -> float:
    """The least room any target leaves, relative to its bound: the surer variants first."""
    estimates = trial.user_attrs.get("estimates", {})
    room = []
    for t in plan.constraints:
        e = estimates.get(t.measure)
        if e is None:
            continue
        gaps = [(t.high - e["high"]) / max(abs(t.high), 0.01) if math.isfinite(t.high) else math.inf,
                (e["low"] - t.low) / max(abs(t.low), 0.01) if math.isfinite(t.low) else math.inf]
        room.append(min(gaps))
    return min(room) if room else 0.0


def importance(plan: Plan, study: optuna.Study) -> dict[str, float]:
    """How much each dimension moved the answer (Optuna's PED-ANOVA, which needs no other library);
    empty when there are too few trials or dimensions to tell, or nothing to tell them by.

    With bounds alone, every trial counts by how far its estimates miss them — the pruned ones
    too, which show best what a dimension does (Optuna leaves them out, having no value for
    them); with objectives, the complete trials by the first objective, turned so that low is good."""
    if len(plan.space.dimensions) < 2:
        return {}
    trials = [t for t in study.get_trials(deepcopy=False)
              if t.state in (TrialState.COMPLETE, TrialState.PRUNED) and "same_as" not in t.user_attrs]
    sign = -1.0 if plan.objectives and plan.objectives[0].op == "max" else 1.0
    scored = [(t, sign * t.values[0]) for t in trials if t.state == TrialState.COMPLETE] if plan.objectives \
        else [(t, float(sum(t.user_attrs.get("violations", [])))) for t in trials]
    if len(scored) < 4 or len({v for _, v in scored}) < 2:
        return {}
    scratch = optuna.create_study(direction="minimize")
    scratch.add_trials([optuna.trial.create_trial(params=t.params, distributions=t.distributions, value=v)
                        for t, v in scored])
    try:
        with warnings.catch_warnings():      # its notes on what it computes: said in docs/tune.md
            warnings.simplefilter("ignore")
            return dict(optuna.importance.get_param_importances(
                scratch, evaluator=optuna.importance.PedAnovaImportanceEvaluator()))
    except (ValueError, RuntimeError, ZeroDivisionError):
        return {}


def answer(plan: Plan, result: SearchResult, study: optuna.Study | None, show: int,
           progress: Callable[[int], object] = lambda k: None) -> tuple[list[Variant], dict[int, Outcome], bool]:
    """The chosen variants, each played to the full games with the base (per number of players)
    on the same deals; and whether a stop broke this off."""
    bases: dict[int, Outcome] = {}
    variants: list[Variant] = []
    # a pruned variant (every trial was: the nearest misses) is not played out: it cannot meet a target
    picked = [t for t in chosen(plan, result.trials, show) if t.state == TrialState.COMPLETE]
    for rank, trial in enumerate(picked, start=1):
        players = int(trial.user_attrs["players"])
        if players not in bases:
            bases[players] = play_trial(plan.setup, option_text(plan), players, plan.targets, progress,
                                        early=False)
            if bases[players].stopped:
                return variants, bases, True
        out = play_trial(plan.setup, dict(trial.user_attrs["options"]), players, plan.targets, progress, early=False)
        if out.stopped:
            return variants, bases, True
        base = bases[players]
        counters = [c["name"] for c in out.report.get("counters", [])]
        comparison = compare(base.records, out.records, names=["base", f"variant {rank}"], players=players,
                             counters=[c for c in counters if c in {d["name"] for d in base.report.get("counters", [])}])
        variants.append(Variant(rank, trial, out, comparison))
    return variants, bases, False


def option_text(plan: Plan) -> dict[str, str]:
    """The base's options: its own defaults, with what --fix holds (held in every variant, so no difference)."""
    return option_values(plan.space.fixed)


def to_dict(plan: Plan, result: SearchResult, variants: Sequence[Variant], bases: dict[int, Outcome],
            weights: dict[str, float], stopped: bool) -> dict[str, Any]:
    """The answer as JSON (`--json`, koloda/report/schemas/tune.schema.json): the search, every
    trial, the chosen variants; an interval's end that is not finite (a median of no games) is null."""
    def targets_of(out: Outcome) -> list[dict[str, Any]]:
        return [{"target": t.text, "measure": t.measure, **out.estimates[t.measure].as_dict(),
                 "met": t.verdict(out.estimates[t.measure]) if not t.objective else None}
                for t in plan.targets if t.measure in out.estimates]

    return finite({
        "format": FORMAT, "search": plan.definition(), "stopped": stopped or result.stopped,
        "games": result.games, "seconds": result.seconds,
        "trials": [{"trial": t.number, "state": t.state.name.lower(), "params": t.params,
                    "games": t.user_attrs.get("games"), "verdict": t.user_attrs.get("verdict"),
                    "estimates": t.user_attrs.get("estimates", {}), "violations": t.user_attrs.get("violations"),
                    "error": t.user_attrs.get("error"), "same_as": t.user_attrs.get("same_as")}
                   for t in result.trials],
        "exhausted": result.exhausted,
        "base": {str(p): {"games": b.games, "targets": targets_of(b)} for p, b in bases.items()},
        "variants": [{"rank": v.rank, "trial": v.trial.number, "options": v.options, "players": v.players,
                      "games": v.outcome.games, "file": v.file, "standing": standing(plan, v.outcome),
                      "games_to_tell": games_to_tell(plan, v.outcome) if standing(plan, v.outcome) == ESTIMATED
                      else None, "targets": targets_of(v.outcome),
                      "differences": [r for r in v.comparison.get("measures", []) if r["n"]]}
                     for v in variants],
        "importance": weights,
    })


def finite(data: Any) -> Any:
    """`data` with every number that is not finite made None (JSON has no infinity)."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite(v) for v in data]
    return data

