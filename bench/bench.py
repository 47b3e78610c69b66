#!/usr/bin/env python3
"""Random-playout throughput benchmark: koloda's shipped games beside peer engines.

Every game is played N times with a seeded uniform-random policy.  Game i of a
run uses seed ``S + i`` both for the engine's own deal and for the
``random.Random`` that picks the actions, so a run is repeatable.

Measured per game:

* games/s      -- completed games divided by wall time (``time.perf_counter``)
* decisions/s  -- player decisions (actions chosen by a player) per second
* dec/game     -- mean player decisions per game

Chance events (deals, random trump, ...) that an engine exposes as separate
nodes (OpenSpiel) are sampled from the engine's own outcome distribution with
the same ``random.Random`` and counted in their own column: they are never
counted as decisions.  Engines that shuffle internally (koloda, RLCard) do that
work inside their reset/step calls, which is timed all the same.

What the timed region holds, for every engine alike: creating the initial state
of each game (with its seed), every legal-action query, every action applied
and the terminal check.  Loading/compiling a game definition happens once,
before the clock starts.

Peers are optional: OpenSpiel (``pyspiel``) and RLCard are only used when they
can be imported, and are reported as "not installed" otherwise.

Usage::

    python bench/bench.py --games 200
    python bench/bench.py --games 50 --only peklo pony
    python bench/bench.py --profile pony --games 100
"""
from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import sys
import time
import traceback
from dataclasses import dataclass, field

# A game that runs past this many applied actions is abandoned and reported:
# it protects the run from an engine that never reaches a terminal state.
DEFAULT_MAX_STEPS = 100_000


@dataclass
class Result:
    label: str  # e.g. "koloda:pony", "openspiel:oh_hell"
    games: int = 0
    decisions: int = 0
    chance: int | None = 0  # None: the engine deals inside its own calls
    seconds: float = 0.0
    error: str | None = None  # set when the game could not be benched at all
    note: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else float("nan")

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games if self.games else float("nan")

    @property
    def chance_per_game(self) -> float:
        if self.chance is None or not self.games:
            return float("nan")
        return self.chance / self.games


class StepLimit(RuntimeError):
    pass


# --------------------------------------------------------------------------- koloda


def koloda_available() -> tuple[bool, str]:
    try:
        import koloda  # noqa: F401
    except Exception as exc:  # pragma: no cover - depends on the environment
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""


def koloda_games() -> list[str]:
    import koloda

    return list(koloda.shipped_games())


def _koloda_chance_marker():
    """The value ``current_player()`` returns at a chance node, if koloda has one."""
    import koloda

    return getattr(koloda, "CHANCE", None)


def play_koloda(name: str, n: int, seed: int, max_steps: int, game=None) -> Result:
    """Random playouts of one koloda game; ``game`` skips loading when given."""
    import koloda

    res = Result(f"koloda:{name}")
    if game is None:
        try:
            game = koloda.load(name)
        except Exception as exc:
            res.error = f"koloda.load failed: {type(exc).__name__}: {exc}"
            return res

    chance_marker = _koloda_chance_marker()
    decisions = chance = 0
    games = 0
    t0 = time.perf_counter()
    try:
        for i in range(n):
            rng = random.Random(seed + i)
            state = game.new_initial_state(seed=seed + i)
            steps = 0
            while not state.is_terminal():
                if chance_marker is not None and state.current_player() == chance_marker:
                    outcomes = getattr(state, "chance_outcomes", None)
                    if outcomes is not None:
                        acts, probs = zip(*outcomes())
                        state.apply_action(rng.choices(acts, probs)[0])
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
                    chance += 1
                else:
                    acts = state.legal_actions()
                    state.apply_action(rng.choice(acts))
                    decisions += 1
                steps += 1
                if steps > max_steps:
                    raise StepLimit(
                        f"game {i} (seed {seed + i}) not terminal after {max_steps} actions"
                    )
            games += 1
    except Exception as exc:
        res.error = _play_error(exc, games)
    res.seconds = time.perf_counter() - t0
    # koloda deals inside new_initial_state(seed=...): no chance steps to show
    # unless a state reported the chance player.
    res.games, res.decisions, res.chance = games, decisions, chance or None
    return res


def _play_error(exc: Exception, games_done: int) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (
        f"failed after {games_done} complete games: {type(exc).__name__}: {exc} "
        f"({where.filename.rsplit('/', 1)[-1]}:{where.lineno})"
    )


# ------------------------------------------------------------------------ OpenSpiel


def openspiel_available() -> tuple[bool, str]:
    try:
        import pyspiel  # noqa: F401
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""


def play_openspiel(name: str, n: int, seed: int, max_steps: int) -> Result:
    """OpenSpiel game with default parameters.

    OpenSpiel has no seed argument on ``new_initial_state``: its deals are
    chance nodes, sampled here from ``chance_outcomes()`` with the game's
    ``random.Random(seed + i)``, so the run is just as repeatable.
    """
    import pyspiel

    res = Result(f"openspiel:{name}")
    try:
        game = pyspiel.load_game(name)
    except Exception as exc:
        res.error = f"pyspiel.load_game failed: {type(exc).__name__}: {exc}"
        return res
    decisions = chance = games = 0
    t0 = time.perf_counter()
    try:
        for i in range(n):
            rng = random.Random(seed + i)
            state = game.new_initial_state()
            steps = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    acts, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(acts, probs)[0])
                    chance += 1
                else:
                    # oh_hell and gin_rummy are sequential: never simultaneous nodes.
                    acts = state.legal_actions()
                    state.apply_action(rng.choice(acts))
                    decisions += 1
                steps += 1
                if steps > max_steps:
                    raise StepLimit(
                        f"game {i} (seed {seed + i}) not terminal after {max_steps} actions"
                    )
            games += 1
    except Exception as exc:
        res.error = _play_error(exc, games)
    res.seconds = time.perf_counter() - t0
    res.games, res.decisions, res.chance = games, decisions, chance
    return res


# --------------------------------------------------------------------------- RLCard


def rlcard_available() -> tuple[bool, str]:
    try:
        import rlcard  # noqa: F401
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""


def play_rlcard(name: str, n: int, seed: int, max_steps: int) -> Result:
    """RLCard environment API, no agents: ``env.reset()`` / ``env.step(id)``.

    ``env.step`` also builds the acting player's observation (a numpy
    encoding) because that is how RLCard hands out the legal actions; it is
    part of what this row measures.  Each game re-seeds the environment with
    ``env.seed(seed + i)`` (RLCard shuffles with its own numpy generator).
    """
    import rlcard

    res = Result(f"rlcard:{name}")
    try:
        env = rlcard.make(name, config={"seed": seed})
    except Exception as exc:
        res.error = f"rlcard.make failed: {type(exc).__name__}: {exc}"
        return res
    decisions = games = 0
    t0 = time.perf_counter()
    try:
        for i in range(n):
            rng = random.Random(seed + i)
            env.seed(seed + i)
            state, _pid = env.reset()
            steps = 0
            while not env.is_over():
                acts = list(state["legal_actions"])
                state, _pid = env.step(rng.choice(acts))
                decisions += 1
                steps += 1
                if steps > max_steps:
                    raise StepLimit(
                        f"game {i} (seed {seed + i}) not terminal after {max_steps} actions"
                    )
            games += 1
    except Exception as exc:
        res.error = _play_error(exc, games)
    res.seconds = time.perf_counter() - t0
    res.games, res.decisions, res.chance = games, decisions, None
    return res


# ------------------------------------------------------------------------ reporting

# (koloda game, peer label) pairs for the ratio section.
PAIRS = [
    ("peklo", "openspiel:oh_hell"),
    ("pony", "rlcard:uno"),
    ("kunkin", "rlcard:gin-rummy"),
    ("kunkin", "openspiel:gin_rummy"),
]

# Peers benched in every run, whether or not their koloda partner exists.
PEERS = [
    ("openspiel", "oh_hell"),
    ("openspiel", "gin_rummy"),
    ("rlcard", "uno"),
    ("rlcard", "gin-rummy"),
]


def _fmt(x: float, digits: int = 1) -> str:
    if x != x:  # nan
        return "-"
    return f"{x:,.{digits}f}"


def print_table(results: list[Result]) -> None:
    header = f"{'game':<24} {'games':>6} {'games/s':>10} {'decisions/s':>13} {'dec/game':>9} {'chance/game':>12}"
    print(header)
    print("-" * len(header))
    for r in results:
        if r.games == 0 and r.error:
            tag = "-" if r.error == "not installed" else "ERROR"
            print(f"{r.label:<24} {tag:>6}  {r.error}")
            continue
        print(
            f"{r.label:<24} {r.games:>6} {_fmt(r.games_per_s):>10} "
            f"{_fmt(r.decisions_per_s, 0):>13} {_fmt(r.decisions_per_game):>9} "
            f"{_fmt(r.chance_per_game):>12}"
        )
        if r.error:
            print(f"{'':<24}   partial: {r.error}")


def print_ratios(
    results: dict[str, Result],
    koloda_names: set[str],
    koloda_missing: str | None,
    peer_missing: dict[str, str],
) -> None:
    print()
    print("ratio koloda / peer (above 1: koloda faster)")
    if koloda_missing is not None:
        print(f"  no ratios: koloda not usable ({koloda_missing})")
        return
    print(f"{'koloda game':<14} {'peer':<22} {'decisions/s':>12} {'games/s':>9}")
    for kname, plabel in PAIRS:
        if kname == "kunkin" and kname not in koloda_names:
            continue  # optional pairing: only when koloda ships kunkin
        engine = plabel.split(":", 1)[0]
        kres = results.get(f"koloda:{kname}")
        pres = results.get(plabel)
        if kname not in koloda_names:
            why = f"koloda has no game {kname!r}"
        elif kres is None:
            why = "koloda game not run (see --only)"
        elif kres.games == 0:
            why = "koloda game failed (see table)"
        elif engine in peer_missing:
            why = f"{engine} not installed"
        elif pres is None:
            why = "peer not run (see --only)"
        elif pres.games == 0:
            why = "peer failed (see table)"
        else:
            why = None
        if why:
            print(f"{kname:<14} {plabel:<22} {why}")
            continue
        dr = kres.decisions_per_s / pres.decisions_per_s
        gr = kres.games_per_s / pres.games_per_s
        print(f"{kname:<14} {plabel:<22} {dr:>11.2f}x {gr:>8.2f}x")


def versions() -> str:
    parts = [f"python {platform.python_version()}"]
    from importlib.metadata import version

    for dist in ("koloda", "open-spiel", "rlcard"):
        try:
            parts.append(f"{dist} {version(dist)}")
        except Exception:
            parts.append(f"{dist} not installed")
    return ", ".join(parts)


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
    res = play_koloda(name, n, seed, max_steps, game=game)
    prof.disable()
    print(f"profile of koloda:{name}, {res.games} games, {res.decisions} decisions"
          + (f" -- {res.error}" if res.error else ""))
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    print(out.getvalue())
    return 0


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per game type (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="base seed; game i uses seed+i (default 0)")
    ap.add_argument(
        "--only", nargs="+", metavar="NAME",
        help="run only these games: a koloda name (pony), a peer name (oh_hell, uno, "
             "gin-rummy) or a full label (openspiel:gin_rummy)",
    )
    ap.add_argument("--repeat", type=int, default=1, metavar="R",
                    help="time each game type R times over the same seeds and keep the "
                         "fastest (default 1); use 3 or more on a busy machine")
    ap.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS,
                    help="abandon a game after this many applied actions (default %(default)s)")
    ap.add_argument("--profile", metavar="GAME", nargs="?", const="",
                    help="cProfile one koloda game (default: the first shipped) and print "
                         "the top 25 functions by cumulative time, instead of the table")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

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

    def best_of(play, name: str) -> Result:
        # Same seeds every time, so the same games: keep the fastest timing.
        best = None
        for _ in range(args.repeat):
            res = play(name, args.games, args.seed, args.max_steps)
            if res.error:
                return res
            if best is None or res.seconds < best.seconds:
                best = res
        return best

    print(f"koloda bench: {args.games} random games each, seed {args.seed}"
          + (f", best of {args.repeat} runs" if args.repeat > 1 else ""))
    print(versions())
    print()

    results: list[Result] = []
    if koloda_missing:
        results.append(Result("koloda", error=f"not usable: {koloda_missing}"))
    for name in names:
        if wanted("koloda", name):
            results.append(best_of(play_koloda, name))

    peer_missing: dict[str, str] = {}
    checks = {"openspiel": openspiel_available, "rlcard": rlcard_available}
    players = {"openspiel": play_openspiel, "rlcard": play_rlcard}
    for engine, check in checks.items():
        ok, why = check()
        if not ok:
            peer_missing[engine] = why
    for engine, name in PEERS:
        if not wanted(engine, name):
            continue
        if engine in peer_missing:
            results.append(Result(f"{engine}:{name}", error="not installed"))
            continue
        results.append(best_of(players[engine], name))

    print_table(results)
    print_ratios({r.label: r for r in results}, set(names), koloda_missing, peer_missing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
