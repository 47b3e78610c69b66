#!/usr/bin/env python3
"""Random-playout throughput benchmark: koloda's shipped games beside peer engines.

A run is `--rounds R` rounds. In every round each game type plays `--games N`
fresh seeded random games: round r plays the seeds ``S + r*N`` to
``S + r*N + N - 1`` (``--seed S``), each seed used both for the engine's own
deal and for the ``random.Random`` that picks the actions, so a run is
repeatable and no game is played twice. Every round loads each game afresh
(outside the clock), so no round starts with what an earlier one left in the
engine's caches; the game types run interleaved, the two sides of each
ratio one after the other, in the reverse order every other round.

Measured per game type and round:

* decisions/s  -- player decisions (actions chosen by a player) per second of
                  CPU time (``time.process_time``) and of wall time
                  (``time.perf_counter``);
* games/s      -- completed games per CPU second;
* dec/game     -- mean player decisions per game.

Chance events that an engine exposes as separate nodes (OpenSpiel's deals)
are sampled from the engine's own outcome distribution with the same
``random.Random`` and counted in their own column, never as decisions.
Engines that shuffle internally (koloda, RLCard) do that work inside their
reset/step calls, which are timed all the same.

The clock covers, for every engine alike, creating each game's initial state,
every legal-action query, every action applied and every terminal check.
Ratios koloda / peer are taken round by round and reported as the median
with the least and the most.

Peers are optional: OpenSpiel (``pyspiel``) and RLCard are used when they can
be imported, and reported as "not installed" otherwise.
The hand-written engines of bench/handwritten (``hand:oh_hell``,
``hand:crazy_eights``, ``hand:gin_rummy``), plain Python on the rules of the
twins they pair with, are always there, and run in koloda's own loop.

Usage::

    python bench/bench.py --games 200 --rounds 5
    python bench/bench.py --games 50 --rounds 3 --only peklo pony oh_hell uno crazy_eights
    python bench/bench.py --games 20 --rounds 3 --json
    python bench/bench.py --profile pony --games 100
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engines  # noqa: E402  (modules beside this script, which is not a package)
from engines import (DEFAULT_MAX_STEPS, HAND_ENGINES, Play, Round, Series, Setup, SpielGame,  # noqa: E402,F401
                     hand_setup, koloda_available, koloda_games, koloda_setup, openspiel_available, openspiel_setup,
                     play_hand, play_koloda, play_openspiel, play_rlcard, play_rlcard_game, rlcard_available,
                     rlcard_setup, uniform_chance)
from same_rules import TWINS  # noqa: E402


# (koloda game, peer label) pairs for the ratio section: the shipped games at their defaults beside
# the peer game most like them, then the games both play on the same rules (same_rules.py).
PAIRS = [
    ("peklo", "openspiel:oh_hell-default"),
    ("pony", "rlcard:uno"),
    ("pony", "rlcard:uno/game"),
    ("pony", "openspiel:crazy_eights"),
    ("kunkin", "rlcard:gin-rummy"),
    ("kunkin", "rlcard:gin-rummy/game"),
    ("kunkin", "openspiel:gin_rummy"),
    # the same game on both sides: koloda's Gin Rummy (its rule file) against RLCard's own
    ("gin-rummy", "rlcard:gin-rummy"),
    ("gin-rummy", "rlcard:gin-rummy/game"),
] + [(twin.label, f"{engine}:{twin.openspiel}") for twin in TWINS
      for engine in ("openspiel", "hand") if engine == "openspiel" or twin.openspiel in HAND_ENGINES]

# Peers benched in every run, with the OpenSpiel parameters they are loaded with: OpenSpiel's
# `oh_hell` at its defaults (the number of tricks chosen by chance) for Peklo, and every twin's game
# at the twin's parameters (so `crazy_eights` sits at Pony's default table of two rather than its own
# five). RLCard's games through its environment and, `/game`, on its bare game engine.
PEERS: list[tuple[str, str, str]] = [
    ("openspiel", "oh_hell-default", "oh_hell"),
    *(("openspiel", twin.openspiel, twin.spec()) for twin in TWINS),
    ("rlcard", "uno", "uno"),
    ("rlcard", "uno/game", "uno/game"),
    ("rlcard", "gin-rummy", "gin-rummy"),
    ("rlcard", "gin-rummy/game", "gin-rummy/game"),
    # the hand-written Python engines (bench/handwritten), each on its twin's rules
    *(("hand", twin.openspiel, twin.openspiel) for twin in TWINS if twin.openspiel in HAND_ENGINES),
]


# ------------------------------------------------------------------------------ run


def round_order(labels: list[str]) -> list[str]:
    """The two sides of each ratio next to each other: every pair's koloda game, then its peers;
    then whatever pairs with nothing."""
    order: list[str] = []
    for kname, peer in PAIRS:
        for label in (f"koloda:{kname}", peer):
            if label in labels and label not in order:
                order.append(label)
    return order + [label for label in labels if label not in order]


def bench(entries: dict[str, tuple[Setup, Play]], series: dict[str, Series], games: int, rounds: int, seed: int,
          max_steps: int, progress: Callable[[str], None]) -> None:
    """Play every round; a game type that fails is not played in later rounds."""
    order = round_order(list(entries))
    for r in range(rounds):
        base = seed + r * games                    # fresh seeds every round
        for label in order if r % 2 == 0 else order[::-1]:
            s = series[label]
            if s.failed:
                continue
            setup, play = entries[label]
            try:
                game = setup(base)
            except Exception as exc:
                s.error = f"load failed: {type(exc).__name__}: {exc}"
                continue
            if isinstance(game, SpielGame):
                s.chance = "choice(legal_actions), checked uniform" if game.uniform else "weighted chance_outcomes"
            s.rounds.append(play(game, games, base, max_steps))
        progress(f"round {r + 1}/{rounds} done")


def summary(values: list[float]) -> dict[str, float] | None:
    values = [v for v in values if v == v]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def ratios(series: dict[str, Series], koloda_names: set[str], koloda_missing: str | None,
           peer_missing: dict[str, str]) -> list[dict[str, Any]]:
    """koloda / peer, round by round, for every pair; `why` says why a pair has no figures."""
    out = []
    for kname, plabel in PAIRS:
        engine = plabel.split(":", 1)[0]
        k, p = series.get(f"koloda:{kname}"), series.get(plabel)
        why = None
        if koloda_missing is not None:
            why = f"koloda not usable ({koloda_missing})"
        elif kname not in koloda_names:
            why = f"koloda has no game {kname!r}"
        elif k is None:
            why = "koloda game not run (see --only)"
        elif engine in peer_missing:
            why = f"{engine} not installed"
        elif p is None:
            why = "peer not run (see --only)"
        elif k.failed or not k.rounds:
            why = "koloda game failed (see table)"
        elif p.failed or not p.rounds:
            why = "peer failed (see table)"
        entry: dict[str, Any] = {"koloda": kname, "peer": plabel, "why": why}
        if why is None:
            assert k is not None and p is not None
            pairs = list(zip(k.rounds, p.rounds))
            for what, clock, key in (("decisions", "cpu", "decisions_cpu"), ("decisions", "wall", "decisions_wall"),
                                     ("unforced", "cpu", "unforced_cpu"), ("games", "cpu", "games_cpu")):
                entry[key] = summary([a.rate(what, clock) / b.rate(what, clock) for a, b in pairs])
        out.append(entry)
    return out


# ------------------------------------------------------------------------ reporting


def _fmt(x: float, digits: int = 1) -> str:
    return "-" if x != x else f"{x:,.{digits}f}"


def _spread(s: dict[str, float] | None, digits: int = 0, suffix: str = "") -> str:
    if s is None:
        return "-"
    return (f"{s['median']:,.{digits}f}{suffix} ({s['min']:,.{digits}f}-{s['max']:,.{digits}f})")


def print_table(series: list[Series]) -> None:
    header = (f"{'game':<26} {'games':>6} {'dec/game':>9} {'forced':>7} {'chance/game':>12}  {'decisions/s CPU':>26}  "
              f"{'decisions/s wall':>26}  {'games/s CPU':>11}")
    print(header)
    print("-" * len(header))
    for s in series:
        if s.error is not None and not s.rounds:
            tag = "-" if s.error == "not installed" else "ERROR"
            print(f"{s.label:<26} {tag:>6}  {s.error}")
            continue
        games_cpu = summary(s.rates("games", "cpu"))
        decided = sum(r.decisions for r in s.rounds)
        forced = f"{100 * sum(r.forced for r in s.rounds) / decided:.0f}%" if decided else "-"
        print(f"{s.label:<26} {s.games:>6} {_fmt(s.per_game('decisions')):>9} {forced:>7} "
              f"{_fmt(s.per_game('chance')):>12}  "
              f"{_spread(summary(s.rates('decisions', 'cpu'))):>26}  "
              f"{_spread(summary(s.rates('decisions', 'wall'))):>26}  "
              f"{_fmt(games_cpu['median'] if games_cpu else float('nan')):>11}")
        if s.chance:
            print(f"{'':<26}   chance nodes sampled by {s.chance}")
        for r in s.rounds:
            if r.error:
                print(f"{'':<26}   partial: {r.error}")
        if s.error is not None:
            print(f"{'':<26}   {s.error}")


def print_ratios(entries: list[dict[str, Any]]) -> None:
    print()
    print("ratio koloda / peer (above 1: koloda faster): median over rounds (least-most)")
    print("(unforced: decisions with more than one legal move, per CPU second)")
    print(f"{'koloda game':<24} {'peer':<26} {'decisions/s CPU':>22} {'unforced/s CPU':>22} "
          f"{'decisions/s wall':>22} {'games/s CPU':>12}")
    for e in entries:
        if e["why"]:
            print(f"{e['koloda']:<24} {e['peer']:<26} {e['why']}")
            continue
        games = e["games_cpu"]
        print(f"{e['koloda']:<24} {e['peer']:<26} {_spread(e['decisions_cpu'], 2, 'x'):>22} "
              f"{_spread(e['unforced_cpu'], 2, 'x'):>22} "
              f"{_spread(e['decisions_wall'], 2, 'x'):>22} {games['median']:>11.2f}x")


def versions() -> dict[str, str]:
    from importlib.metadata import version

    found = {"python": platform.python_version()}
    for dist in ("koloda", "open-spiel", "rlcard"):
        try:
            found[dist] = version(dist)
        except Exception:
            found[dist] = "not installed"
    try:
        import koloda
        from koloda.interpreter.compiled import MODULES, compiled
        if found["koloda"] == "not installed":          # run from a checkout (PYTHONPATH), not installed
            found["koloda"] = f"{koloda.__version__} from {koloda.__file__.rsplit('/', 2)[0]}"
        done = compiled()       # setup.py compiles the meld search where it can: the figures depend on it
        found["koloda"] += f" ({len(done)} of {len(MODULES)} modules compiled)" if done else " (plain Python)"
    except Exception:
        pass
    return found


def _number(x: float) -> float | None:
    return None if x != x else x


def as_json(args: argparse.Namespace, series: list[Series], ratio_entries: list[dict[str, Any]]) -> str:
    games = {s.label: {"error": s.error, "rounds": [asdict(r) for r in s.rounds],
                       "decisions_per_game": _number(s.per_game("decisions")),
                       "forced_per_game": _number(s.per_game("forced")), "chance_sampling": s.chance or None,
                       "decisions_per_s_cpu": summary(s.rates("decisions", "cpu")),
                       "decisions_per_s_wall": summary(s.rates("decisions", "wall")),
                       "games_per_s_cpu": summary(s.rates("games", "cpu"))} for s in series}
    settings = {"games": args.games, "rounds": args.rounds, "seed": args.seed, "max_steps": args.max_steps}
    return json.dumps({"settings": settings, "versions": versions(), "games": games, "ratios": ratio_entries},
                      indent=1)


# ------------------------------------------------------------------------- profile


def profile_koloda(name: str, n: int, seed: int, max_steps: int, top: int = 25) -> int:
    """Profile the playouts only: the game is loaded before profiling starts."""
    import koloda

    try:
        game = koloda.load(name)
    except Exception as exc:
        print(f"cannot profile: koloda.load failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    prof = cProfile.Profile()
    prof.enable()
    res = play_koloda(game, n, seed, max_steps)
    prof.disable()
    print(f"profile of koloda:{name}, {res.games} games, {res.decisions} decisions"
          + (f" -- {res.error}" if res.error else ""))
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    print(out.getvalue())
    return 0


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per game type and round (default 200)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds, each on fresh seeds, interleaving all game types (default 3)")
    ap.add_argument("--seed", type=int, default=0,
                    help="master seed: round r plays seeds seed+r*games ... (default 0)")
    ap.add_argument(
        "--only", nargs="+", metavar="NAME",
        help="run only these games: a koloda name (pony), a peer name (oh_hell, uno, "
             "gin-rummy, crazy_eights) or a full label (openspiel:gin_rummy)",
    )
    ap.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS,
                    help="abandon a game after this many applied actions (default %(default)s)")
    ap.add_argument("--json", action="store_true", help="print every round's figures and the ratios as JSON")
    ap.add_argument("--profile", metavar="GAME", nargs="?", const="",
                    help="cProfile one koloda game (default: the first shipped) and print "
                         "the top 25 functions by cumulative time, instead of the table")
    ap.add_argument("--chance-outcomes", action="store_true",
                    help="sample OpenSpiel's chance nodes from chance_outcomes() by weight, as runs before did, "
                         "instead of rng.choice(legal_actions()) where they were checked uniform")
    args = ap.parse_args(argv)
    engines.WEIGHTED_CHANCE = args.chance_outcomes
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")

    ok, why = koloda_available()
    koloda_missing = None if ok else why
    names: list[str] = []
    if ok:
        try:
            names = koloda_games()
        except Exception as exc:
            koloda_missing = f"koloda.shipped_games failed: {type(exc).__name__}: {exc}"

    if args.profile is not None:
        if koloda_missing:
            print(f"cannot profile: {koloda_missing}", file=sys.stderr)
            return 1
        target = args.profile or (names[0] if names else "")
        if not target:
            print("cannot profile: koloda ships no games", file=sys.stderr)
            return 1
        return profile_koloda(target, args.games, args.seed, args.max_steps)

    only = set(args.only) if args.only else None

    def wanted(engine: str, name: str) -> bool:
        return only is None or name in only or f"{engine}:{name}" in only

    entries: dict[str, tuple[Setup, Play]] = {}
    series: dict[str, Series] = {}
    listed: list[Series] = []
    if koloda_missing:
        listed.append(Series("koloda", error=f"not usable: {koloda_missing}"))
    for name in names:
        if wanted("koloda", name):
            entries[f"koloda:{name}"] = (koloda_setup(name), play_koloda)
    twins = [twin for twin in TWINS if twin.koloda in names]
    for twin in twins:
        if only is None or only & {twin.label, twin.openspiel, f"koloda:{twin.label}", "twins"}:
            entries[f"koloda:{twin.label}"] = (koloda_setup(twin.koloda, twin.options, twin.players), play_koloda)
    if only is not None and "twins" in only:     # the twins' OpenSpiel games and hand-written engines
        only |= {twin.openspiel for twin in TWINS}
    peer_missing: dict[str, str] = {}
    checks = {"openspiel": openspiel_available, "rlcard": rlcard_available}
    setups: dict[str, Callable[[str], Setup]] = {
        "openspiel": lambda spec: openspiel_setup(spec, args.max_steps), "rlcard": rlcard_setup, "hand": hand_setup}
    plays: dict[str, Play] = {"openspiel": play_openspiel, "rlcard": play_rlcard, "hand": play_hand}
    for engine, check in checks.items():
        ok, why = check()
        if not ok:
            peer_missing[engine] = why
    for engine, name, spec in PEERS:
        label = f"{engine}:{name}"
        if not wanted(engine, name):
            continue
        if engine in peer_missing:
            series[label] = Series(label, error="not installed")
            continue
        entries[label] = (setups[engine](spec), play_rlcard_game if name.endswith("/game") else plays[engine])
    for label in entries:
        series[label] = Series(label)
    listed += [series[label] for label in [*(f"koloda:{n}" for n in names), *(f"koloda:{t.label}" for t in twins),
                                           *(f"{e}:{n}" for e, n, _ in PEERS)]
               if label in series]

    progress = (lambda text: print(text, file=sys.stderr)) if args.json else (lambda text: None)
    if not args.json:
        print(f"koloda bench: {args.rounds} rounds of {args.games} random games of each game type, master seed "
              f"{args.seed} (round r plays seeds {args.seed}+r*{args.games} on)")
        print(", ".join(f"{k} {v}" for k, v in versions().items()))
        print()
    bench(entries, series, args.games, args.rounds, args.seed, args.max_steps, progress)
    ratio_entries = ratios(series, set(names) | {t.label for t in twins}, koloda_missing, peer_missing)
    if args.json:
        print(as_json(args, listed, ratio_entries))
    else:
        print_table(listed)
        print_ratios(ratio_entries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
