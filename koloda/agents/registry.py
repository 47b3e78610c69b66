"""Seats by name: `--seat human --seat ismcts:iterations=400 --seat greedy`."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from koloda.agents.base import Agent
from koloda.agents.greedy import GreedyAgent
from koloda.agents.human import HumanAgent
from koloda.agents.ismcts import IsmctsAgent
from koloda.agents.random_agent import RandomAgent

if TYPE_CHECKING:
    from rich.console import Console


class UnknownAgent(ValueError):
    pass


class _OutOfRange(ValueError):
    pass


def _within(convert: Callable[[str], int | float], low: float, high: float) -> Callable[[str], int | float]:
    """A setting's reader: a number from `low` to `high`. A seat may come from a save anyone could
    edit: `time=inf` would have a bot think for ever, `samples=0` guess nothing."""
    def read(text: str) -> int | float:
        value = convert(text)
        if not low <= value <= high:        # NaN fails both comparisons
            raise _OutOfRange(f"from {_text(low)} to {_text(high)}")
        return value
    return read


def _text(x: float) -> str:
    return f"{int(x):,}" if x == int(x) else str(x)


AGENT_KINDS = ("human", "random", "greedy", "ismcts")
_SECONDS = _within(float, 0.001, 3600)
_SETTINGS: dict[str, dict[str, Callable[[str], int | float]]] = {
    "random": {},
    "greedy": {"samples": _within(int, 1, 10_000)},
    "ismcts": {"iterations": _within(int, 1, 100_000_000), "seconds": _SECONDS, "time": _SECONDS,
               "depth": _within(int, 0, 1_000_000), "exploration": _within(float, 0, 100), "cap": _SECONDS},
    "human": {},
}


def parse_seat(spec: str) -> tuple[str, dict[str, Any]]:
    """`ismcts:iterations=200,depth=20` -> ("ismcts", {"iterations": 200, "depth": 20})."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind not in _SETTINGS:
        raise UnknownAgent(f"unknown seat `{spec}`: choose from {', '.join(AGENT_KINDS)}")
    # Any: each value is a keyword argument of the agent, of the type its converter above gives
    settings: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in _SETTINGS[kind]:
            known = ", ".join(f"{k}=" for k in _SETTINGS[kind]) or "no settings"
            raise UnknownAgent(f"seat `{spec}`: `{item}` is not a setting of {kind} ({known})")
        try:
            settings["seconds" if key == "time" else key] = _SETTINGS[kind][key](value)
        except _OutOfRange as exc:
            raise UnknownAgent(f"seat `{spec}`: `{key}` is a number {exc}, not `{value}`") from None
        except ValueError:
            raise UnknownAgent(f"seat `{spec}`: `{key}` takes a number, not `{value}`") from None
    return kind, settings


def make_agent(spec: str, seed: int, console: Console | None = None, interactive: bool = False) -> Agent:
    """An agent from a seat description such as `random`, `human` or `ismcts:iterations=200`."""
    kind, settings = parse_seat(spec)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(seed, **settings)
    if kind == "ismcts":
        if interactive and "seconds" not in settings and "cap" not in settings:
            settings["cap"] = 2.0       # at the table, a bot never keeps a person waiting long
        return IsmctsAgent(seed, **settings)
    return HumanAgent(console)
