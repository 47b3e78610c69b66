"""The loops bench.py times, one per engine: koloda, the hand-written engines, OpenSpiel and RLCard,
each counting games, decisions, forced decisions and chance events between two readings of both
clocks (see bench/README.md for what each loop calls and why)."""
from __future__ import annotations

import random
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from handwritten import ENGINES as HAND_ENGINES  # noqa: E402  (a package beside this script)

# A game that runs past this many applied actions is abandoned and reported:
# it protects the run from an engine that never reaches a terminal state.
DEFAULT_MAX_STEPS = 100_000

class StepLimit(RuntimeError):
    pass


@dataclass
class Round:
    """One round of one game type."""
    games: int = 0
    decisions: int = 0
    forced: int = 0             # of the decisions, those with one legal move
    chance: int | None = 0      # None: the engine deals inside its own calls
    cpu: float = 0.0            # seconds of process time
    wall: float = 0.0           # seconds of wall time
    error: str | None = None

    @property
    def unforced(self) -> int:
        """Decisions with more than one legal move."""
        return self.decisions - self.forced

    def rate(self, what: str, clock: str) -> float:
        seconds = self.cpu if clock == "cpu" else self.wall
        return getattr(self, what) / seconds if seconds > 0 and getattr(self, what) else float("nan")


@dataclass
class Series:
    """A game type over the rounds of a run."""
    label: str                  # e.g. "koloda:pony", "openspiel:oh_hell"
    rounds: list[Round] = field(default_factory=list)
    error: str | None = None    # could not be benched at all (not installed, does not load)
    chance: str = ""            # how its chance nodes were sampled, where it has them

    @property
    def failed(self) -> bool:
        return self.error is not None or any(r.error for r in self.rounds)

    @property
    def games(self) -> int:
        return sum(r.games for r in self.rounds)

    def per_game(self, what: str) -> float:
        values = [getattr(r, what) for r in self.rounds]
        if not self.games or any(v is None for v in values):
            return float("nan")
        return sum(values) / self.games

    def rates(self, what: str, clock: str) -> list[float]:
        return [r.rate(what, clock) for r in self.rounds if not r.error and r.games]


Setup = Callable[[int], Any]                                 # base seed -> a loaded game
Play = Callable[[Any, int, int, int], Round]                # game, games, base seed, max steps -> a round


Counts = tuple[int, int, int, int | None]                   # games, decisions, forced decisions, chance


def _timed(run: Callable[[], Counts]) -> Round:
    """Run `run` (-> games, decisions, forced, chance) between two readings of both clocks."""
    res = Round()
    c0, w0 = time.process_time(), time.perf_counter()
    try:
        res.games, res.decisions, res.forced, res.chance = run()
    except _Partial as partial:
        res.games, res.decisions, res.forced, res.chance = partial.counts
        res.error = partial.message
    res.cpu, res.wall = time.process_time() - c0, time.perf_counter() - w0
    return res


class _Partial(Exception):
    """A round stopped by an engine's exception: the counts of the games completed before it."""

    def __init__(self, exc: BaseException, counts: Counts):
        where = traceback.extract_tb(exc.__traceback__)[-1]
        self.message = (f"failed after {counts[0]} complete games: {type(exc).__name__}: {exc} "
                        f"({where.filename.rsplit('/', 1)[-1]}:{where.lineno})")
        self.counts = counts


def _limit(steps: int, max_steps: int, i: int, seed: int) -> None:
    if steps > max_steps:
        raise StepLimit(f"game {i} (seed {seed}) not terminal after {max_steps} actions")


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


def koloda_setup(name: str, options: dict[str, Any] | None = None, players: int | None = None) -> Setup:
    import koloda

    return lambda base: koloda.load(name, options, players)


def play_koloda(game: Any, n: int, base: int, max_steps: int) -> Round:
    import koloda

    # the value current_player() has at a chance node
    return play_states(game, n, base, max_steps, getattr(koloda, "CHANCE", None))


def play_states(game: Any, n: int, base: int, max_steps: int, chance_marker: int | None) -> Round:
    """koloda's loop, which the hand-written engines are driven by too: the deal inside
    ``new_initial_state(seed=...)``, then legal actions, a random one applied, until terminal."""

    def run() -> Counts:
        games = decisions = forced = chance = 0
        try:
            for i in range(n):
                rng = random.Random(base + i)
                state = game.new_initial_state(seed=base + i)
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
                        legal = state.legal_actions()
                        forced += len(legal) == 1
                        state.apply_action(rng.choice(legal))
                        decisions += 1
                    steps += 1
                    _limit(steps, max_steps, i, base + i)
                games += 1
        except Exception as exc:
            raise _Partial(exc, (games, decisions, forced, chance or None)) from None
        # koloda deals inside new_initial_state(seed=...): no chance steps unless a state reported one
        return games, decisions, forced, chance or None

    return _timed(run)


# ---------------------------------------------------------------- hand-written engines


def hand_setup(name: str) -> Setup:
    """A fresh engine every round (they keep nothing between games, but are made afresh all the same)."""
    return lambda base: HAND_ENGINES[name]()


def play_hand(game: Any, n: int, base: int, max_steps: int) -> Round:
    """The hand-written engines in koloda's loop, current_player() asked at every step as there (it
    is never the chance marker: they deal inside new_initial_state, as koloda does)."""
    from handwritten.cards import CHANCE

    return play_states(game, n, base, max_steps, CHANCE)


# ------------------------------------------------------------------------ OpenSpiel


def openspiel_available() -> tuple[bool, str]:
    try:
        import pyspiel  # noqa: F401
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""


# Set by --chance-outcomes: sample OpenSpiel's chance nodes from `chance_outcomes()` as earlier runs
# did, rather than by its cheapest correct loop.
WEIGHTED_CHANCE = False


@dataclass
class SpielGame:
    """An OpenSpiel game, and whether every chance node met in a checking game outside the clock had
    equal probabilities (then `rng.choice(legal_actions())` samples it correctly, and cheaply)."""
    game: Any
    uniform: bool


def uniform_chance(game: Any, seed: int, max_steps: int) -> bool:
    """Play one random game of `game` and check every chance node's outcomes are equally likely."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(max_steps):
        if state.is_terminal():
            return True
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            if max(probs) - min(probs) > 1e-12 or sorted(acts) != sorted(state.legal_actions()):
                return False
            state.apply_action(rng.choice(acts))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return False


def openspiel_setup(spec: str, max_steps: int = DEFAULT_MAX_STEPS) -> Setup:
    import pyspiel

    def setup(base: int) -> SpielGame:
        game = pyspiel.load_game(spec)
        return SpielGame(game, not WEIGHTED_CHANCE and uniform_chance(game, base, max_steps))
    return setup


def play_openspiel(loaded: SpielGame, n: int, base: int, max_steps: int) -> Round:
    """OpenSpiel has no seed argument on ``new_initial_state``: its deals are chance nodes, sampled
    with the game's ``random.Random(seed)``, so a run is just as repeatable. Where the chance nodes
    were checked uniform they are sampled as ``rng.choice(state.legal_actions())``, the cheapest
    correct way a Python user has; otherwise from ``chance_outcomes()`` by their weights."""
    game, uniform = loaded.game, loaded.uniform

    def run() -> Counts:
        games = decisions = forced = chance = 0
        try:
            for i in range(n):
                rng = random.Random(base + i)
                state = game.new_initial_state()
                steps = 0
                while not state.is_terminal():
                    if state.is_chance_node():
                        if uniform:
                            state.apply_action(rng.choice(state.legal_actions()))
                        else:
                            acts, probs = zip(*state.chance_outcomes())
                            state.apply_action(rng.choices(acts, probs)[0])
                        chance += 1
                    else:
                        # these games are sequential: never simultaneous nodes
                        legal = state.legal_actions()
                        forced += len(legal) == 1
                        state.apply_action(rng.choice(legal))
                        decisions += 1
                    steps += 1
                    _limit(steps, max_steps, i, base + i)
                games += 1
        except Exception as exc:
            raise _Partial(exc, (games, decisions, forced, chance)) from None
        return games, decisions, forced, chance

    return _timed(run)


# --------------------------------------------------------------------------- RLCard


def rlcard_available() -> tuple[bool, str]:
    try:
        import rlcard  # noqa: F401
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
    return True, ""


def rlcard_setup(name: str) -> Setup:
    import rlcard

    return lambda base: rlcard.make(name.removesuffix("/game"), config={"seed": base})


def play_rlcard(env: Any, n: int, base: int, max_steps: int) -> Round:
    """The environment API without agents: ``env.reset()`` / ``env.step(id)``. ``env.step`` also
    builds the acting player's observation (a numpy encoding), because that is how RLCard hands out
    the legal actions; it is part of what this row measures. Each game re-seeds the environment with
    ``env.seed(seed)`` (RLCard shuffles with its own numpy generator)."""

    def run() -> Counts:
        games = decisions = forced = 0
        try:
            for i in range(n):
                rng = random.Random(base + i)
                env.seed(base + i)
                state, _pid = env.reset()
                steps = 0
                while not env.is_over():
                    legal = list(state["legal_actions"])
                    forced += len(legal) == 1
                    state, _pid = env.step(rng.choice(legal))
                    decisions += 1
                    steps += 1
                    _limit(steps, max_steps, i, base + i)
                games += 1
        except Exception as exc:
            raise _Partial(exc, (games, decisions, forced, None)) from None
        return games, decisions, forced, None

    return _timed(run)


def play_rlcard_game(env: Any, n: int, base: int, max_steps: int) -> Round:
    """RLCard's bare game engine, under its environment: ``game.init_game()``, the legal actions as
    the game gives them (``get_legal_actions()``, or its judge's), ``game.step(action)``; no
    observation is encoded. Each game seeds the game's numpy generator as ``env.seed`` does."""
    import numpy as np

    game = env.game
    legal_of = game.get_legal_actions if hasattr(game, "get_legal_actions") else game.judge.get_legal_actions

    def run() -> Counts:
        games = decisions = forced = 0
        try:
            for i in range(n):
                rng = random.Random(base + i)
                game.np_random = np.random.RandomState(base + i)
                game.init_game()
                steps = 0
                while not game.is_over():
                    legal = list(legal_of())
                    forced += len(legal) == 1
                    game.step(rng.choice(legal))
                    decisions += 1
                    steps += 1
                    _limit(steps, max_steps, i, base + i)
                games += 1
        except Exception as exc:
            raise _Partial(exc, (games, decisions, forced, None)) from None
        return games, decisions, forced, None

    return _timed(run)
