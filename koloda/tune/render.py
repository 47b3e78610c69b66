"""A search's answer at the terminal: each chosen variant, its targets with intervals against the
base's, and the differences from the base that hold after Holm's correction."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from koloda.report.render_compare import render_comparison
from koloda.tune.answer import ESTIMATED, SHOWN, Variant, chosen, games_to_tell, standing, unsettled
from koloda.tune.measures import Estimate
from koloda.tune.search import Plan, SearchResult
from koloda.tune.targets import Target
from koloda.tune.trial import Outcome


def estimate_text(e: dict[str, float]) -> str:
    half = (e["high"] - e["low"]) / 2
    places = min(4, max(0, 1 - math.floor(math.log10(half)))) if half > 0 and math.isfinite(half) else 3
    return f"{e['value']:.{places}f} ({e['low']:.{places}f}…{e['high']:.{places}f})"


def _mark(t: Target, e: dict[str, float]) -> str:
    if t.objective:
        return ""
    estimate = Estimate(e["value"], e["low"], e["high"], int(e["n"]))
    return {"met": "met", "missed": "missed", "open": "not sure"}[t.verdict(estimate)]


def trial_line(plan: Plan, trial: Any) -> str:
    """`trial 3 hand=7 seven_draws=true: 400 games, pruned (advantage.max 0.21 (0.17…0.25))`."""
    params = " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in trial.params.items())
    est = trial.user_attrs.get("estimates", {})
    shown = ", ".join(f"{t.measure} {estimate_text(est[t.measure])}" for t in plan.targets if t.measure in est)
    error = trial.user_attrs.get("error")
    if "same_as" in trial.user_attrs:
        return f"trial {trial.number + 1} {params}: the same variant as trial {trial.user_attrs['same_as'] + 1}, not played again"
    state = {"missed": "pruned" if error else "pruned: a target cannot be met",
             "met": "every target clearly met"}.get(trial.user_attrs.get("verdict"), "played out")
    return (f"trial {trial.number + 1} {params}: {trial.user_attrs.get('games')} games, {state} ({shown})"
            + (f"; {error}" if error else ""))


def verdict_text(plan: Plan, variants: Sequence[Variant]) -> str:
    """What the answer shows, said plainly: whether some variant's intervals lie within every
    target, or the variants meet them by their estimates only (and what more games would tell)."""
    stands = [standing(plan, v.outcome) for v in variants]
    if not plan.constraints:
        return "The objectives' best, none beaten on every objective by another:"
    if SHOWN in stands:
        ranks = ", ".join(str(v.rank) for v, s in zip(variants, stands) if s == SHOWN)
        return (f"Shown: variant{'s' if ',' in ranks else ''} {ranks} meet{'' if ',' in ranks else 's'} every "
                "target, with every 95% interval within it.")
    if ESTIMATED not in stands:
        return "No variant met every target: the nearest follow."
    games = max(v.outcome.games for v in variants)
    open_in_all = [t.text for t in plan.constraints
                   if all(t in unsettled(plan, v.outcome) for v, s in zip(variants, stands) if s == ESTIMATED)]
    best = next(v for v, s in zip(variants, stands) if s == ESTIMATED)
    need = games_to_tell(plan, best.outcome)
    said = (f"Not shown: no variant's 95% intervals lie within every target after {games} games"
            + (f" ({'; '.join(open_in_all)}: not sure in every one)" if open_in_all else "") + ". "
            f"The variants below meet the targets by their estimates only, ")
    if need is None:
        return said + "which no number of games could show (an estimate sits on its bound)."
    return (said + f"and were chosen for it among many: to tell, variant {best.rank} would need about {need:,} "
            f"games if its estimates held (koloda compare -n {need} on other deals, or tune with -n {need}).")


def render_answer(plan: Plan, result: SearchResult, variants: Sequence[Variant], bases: dict[int, Outcome],
                  weights: dict[str, float], full: bool = False) -> RenderableType:
    parts: list[RenderableType] = []
    played = [t for t in result.trials if "same_as" not in t.user_attrs]
    pruned = sum(t.user_attrs.get("verdict") == "missed" for t in played)
    early = sum(t.user_attrs.get("verdict") == "met" for t in played)
    repeated = sum("same_as" in t.user_attrs for t in result.trials)
    parts.append(Text(f"{len(result.trials)} trials, {result.games} games ({pruned} pruned as unable to meet a "
                      f"target, {early} stopped as clearly meeting them all"
                      + (f", {repeated} the same variant as an earlier trial, not played again" if repeated else "")
                      + f"), sampler {plan.kind()}"))
    if result.exhausted:
        parts.append(Text("The sampler proposed only variants already played, many times in a row: the search ended "
                          "there (narrow the space, or it has been searched)."))
    if not variants:
        near = chosen(plan, result.trials, 3)
        parts.append(Text("No variant could meet every target" + (": the nearest, as their trials measured them:"
                                                                 if near else "."), style="bold"))
        parts += [Text(trial_line(plan, t)) for t in near]
    else:
        parts.append(Text(verdict_text(plan, variants), style="bold"))
    for v in variants:
        base = bases[v.players]
        title = " ".join(f"{k}={val}" for k, val in v.options.items()) or "(the base's own options)"
        table = Table(title=f"Variant {v.rank}: {title}, {v.players} players — {v.outcome.games} games"
                            + (f" → {v.file}" if v.file else ""),
                      title_justify="left", title_style="bold", box=None, pad_edge=False)
        for k, name in enumerate(["target", "variant (95% interval)", "", "base"]):
            table.add_column(name, justify="left" if k != 1 and k != 3 else "right")
        for t in plan.targets:
            e, b = v.outcome.estimates.get(t.measure), base.estimates.get(t.measure)
            if e is None or b is None:
                continue
            d = e.as_dict()
            table.add_row(t.text, estimate_text(d), _mark(t, d), estimate_text(b.as_dict()))
        parts.append(table)
        rows = [r for r in v.comparison.get("measures", []) if r["n"] and r["holm"]]
        if full:
            parts.append(render_comparison(v.comparison))
        elif rows:
            parts.append(Text("differs from the base (paired, significant after Holm's correction): "
                              + "; ".join(f"{r['measure']} {r['diff']:+.3g} ({r['low']:+.3g}…{r['high']:+.3g})"
                                          for r in rows)))
        else:
            parts.append(Text("no difference from the base is significant after Holm's correction"))
    if weights:
        parts.append(Text("dimensions that mattered most (Optuna's PED-ANOVA importance): "
                          + ", ".join(f"{k} {w:.2f}" for k, w in sorted(weights.items(), key=lambda kv: -kv[1]))))
    return Group(*parts)
