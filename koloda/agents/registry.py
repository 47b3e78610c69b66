"""Seats by name: `--seat human --seat ismcts:iterations=400 --seat greedy --seat "cmd:python my_bot.py"`."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from koloda.agents.base import Agent
from koloda.agents.greedy import GreedyAgent
from koloda.agents.human import HumanAgent
from koloda.agents.ismcts import IsmctsAgent
from koloda.agents.outside import DEFAULT_SECONDS, OutsideAgent
from koloda.agents.policy import PolicyAgent
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


AGENT_KINDS = ("human", "random", "greedy", "ismcts", "cmd:COMMAND", "py:MODULE:CLASS")
_SECONDS = _within(float, 0.001, 3600)
_SETTINGS: dict[str, dict[str, Callable[[str], int | float]]] = {
    "random": {},
    "greedy": {"samples": _within(int, 1, 10_000), "search": _within(int, 0, 1_000_000)},
    "ismcts": {"iterations": _within(int, 1, 100_000_000), "seconds": _SECONDS, "time": _SECONDS,
               "depth": _within(int, 0, 1_000_000), "exploration": _within(float, 0, 100), "cap": _SECONDS,
               "bias": _within(float, 0, 100)},
    "human": {},
}


def parse_seat(spec: str, commands: bool = True) -> tuple[str, dict[str, Any]]:
    """`ismcts:iterations=200,depth=20` -> ("ismcts", {"iterations": 200, "depth": 20});
    `cmd:time=3:python my_bot.py` -> ("cmd", {"command": "python my_bot.py", "seconds": 3.0}).
    `py:my_agents:Trained:depth=2` -> ("py", {"module": "my_agents", "cls": "Trained", "options": {"depth": 2}}).
    commands=False: a seat that runs a program or Python code is refused (a save, which anyone
    could edit, names it)."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind in ("cmd", "py"):
        if not commands:
            what = "runs a program" if kind == "cmd" else "runs Python code"
            raise UnknownAgent(f"seat `{spec}` {what}, and a saved game does not start programs: "
                               f"start the game again with `koloda play --seat \"{kind}:…\"`")
        return kind, _command(spec, rest) if kind == "cmd" else _python(spec, rest)
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


def _command(spec: str, rest: str) -> dict[str, Any]:
    """`time=3:tensors:python my_bot.py`: the seconds the program has for each move, whether it is
    sent the compact view's tensors and tokens too (docs/ai.md), then its command."""
    seconds: float = DEFAULT_SECONDS
    tensors = False
    while True:
        head, sep, tail = rest.partition(":")
        word = head.strip().lower()
        if sep and word.startswith("time="):
            try:
                seconds = _SECONDS(head.strip()[5:])
            except _OutOfRange as exc:
                raise UnknownAgent(f"seat `{spec}`: `time` is a number of seconds {exc}") from None
            except ValueError:
                raise UnknownAgent(f"seat `{spec}`: `time` takes a number of seconds, not `{head.strip()[5:]}`") from None
        elif sep and word == "tensors":
            tensors = True
        else:
            break
        rest = tail
    if not rest.strip():
        raise UnknownAgent(f"seat `{spec}`: `cmd:` needs the command that starts the program, "
                           "as in `cmd:python my_bot.py`")
    # `tensors` only when asked: the settings of a plain `cmd:` seat stay as they were
    return {"command": rest.strip(), "seconds": seconds, **({"tensors": True} if tensors else {})}


def _python(spec: str, rest: str) -> dict[str, Any]:
    """`my_agents:Trained:depth=2,name=x`: the module, the class, then its keywords (numbers as numbers)."""
    module, _, tail = rest.partition(":")
    cls, _, settings = tail.partition(":")
    module, cls = module.strip(), cls.strip()
    if not module or not cls or not all(part.isidentifier() for part in module.split(".")) or not cls.isidentifier():
        raise UnknownAgent(f"seat `{spec}`: a Python agent is named `py:MODULE:CLASS` (options after another "
                           "`:` as `key=value,...`), as in `py:examples.my_agent:Trained`")
    options: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in settings.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise UnknownAgent(f"seat `{spec}`: `{item}` is not a setting `key=value`")
        options[key] = _number(value.strip())
    return {"module": module, "cls": cls, "options": options}


def _number(text: str) -> int | float | str:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


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
    if kind == "cmd":
        return OutsideAgent(settings["command"], settings["seconds"], settings.get("tensors", False))
    if kind == "py":
        return PolicyAgent(settings["module"], settings["cls"], settings["options"])
    return HumanAgent(console)
