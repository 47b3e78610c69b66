"""The search space of `koloda tune`: the rule file's options as dimensions, narrowed, widened or held.

Every option that says which values it takes is a dimension: one with `search:` (the values the
file says are worth searching), with `choices:`, a whole number with both `min:` and `max:`, a
true-or-false one. `--space KEY=LO..HI` or `--space KEY=a,b,c`
narrows a dimension or makes one of an option that has none (a number with no `max:`);
`--fix KEY=VALUE` holds an option at one value; `-p 3..5` makes the number of players one. Every
value is checked as `-o KEY=VALUE` would be (api.bind_options), before any game is played."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from koloda.api import bind_options
from koloda.dsl.errors import RuleError, did_you_mean
from koloda.dsl.model import Spec

PLAYERS = "players"          # the dimension of the number of players (not an option of the file)


class SpaceError(ValueError):
    """A --space, --fix or -p the rule file cannot take: the message says which and why."""


@dataclass(frozen=True)
class Dimension:
    name: str
    kind: str                            # "int" (a range low..high), "choice" (values), "bool"
    values: tuple[object, ...] = ()      # for choice and bool: the values in order
    low: int = 0                         # for int
    high: int = 0

    @property
    def size(self) -> int:
        return self.high - self.low + 1 if self.kind == "int" else len(self.values)

    def listed(self) -> list[object]:
        """Every value, in order (a grid's points along this dimension)."""
        return list(range(self.low, self.high + 1)) if self.kind == "int" else list(self.values)

    def text(self) -> str:
        if self.kind == "int":
            return f"{self.name}={self.low}..{self.high}"
        return f"{self.name}={','.join(_word(v) for v in self.values)}"


@dataclass(frozen=True)
class Space:
    dimensions: tuple[Dimension, ...]
    fixed: dict[str, object] = field(default_factory=dict)   # options held, as bound values
    players: int | None = None           # the number of players when it is not a dimension
    skipped: tuple[str, ...] = ()        # options left out: no bounds to search between

    @property
    def size(self) -> int:
        return math.prod(d.size for d in self.dimensions)

    def dimension(self, name: str) -> Dimension | None:
        return next((d for d in self.dimensions if d.name == name), None)


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def of_option(opt) -> Dimension | None:
    """The dimension an option declares, or None (a number without both bounds, a free word): its
    `search:` when it has one (the values worth a search, where min:/max: say what the rules take)."""
    if isinstance(opt.search, tuple):
        return Dimension(opt.name, "int", low=opt.search[0], high=opt.search[1])
    if opt.search is not None:
        return Dimension(opt.name, "bool" if opt.type == "bool" else "choice", tuple(opt.search))
    if opt.type == "bool":
        return Dimension(opt.name, "bool", (False, True))
    if opt.choices:
        return Dimension(opt.name, "choice", tuple(opt.choices))
    if opt.type == "int" and opt.low is not None and opt.high is not None:
        return Dimension(opt.name, "int", low=opt.low, high=opt.high)
    return None


def _pairs(given: Sequence[str], flag: str) -> list[tuple[str, str]]:
    out = []
    for text in given:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise SpaceError(f"{flag} {text!r}: write it as KEY=VALUE" +
                             (" (KEY=LO..HI or KEY=a,b,c)" if flag == "--space" else ""))
        out.append((key.strip(), value.strip()))
    return out


def _bound(spec: Spec, name: str, value: object, flag: str) -> object:
    try:
        return bind_options(spec, {name: value})[name]
    except RuleError as exc:
        raise SpaceError(f"{flag} {name}: {exc.message}" + (f" ({exc.hint})" if exc.hint else "")) from None


def _known(spec: Spec, name: str, flag: str) -> None:
    if name == PLAYERS or name in spec.options:
        return
    hint = did_you_mean(name, list(spec.options) + [PLAYERS])
    known = ", ".join(spec.options) or "none"
    raise SpaceError(f"{flag} {name}: {spec.name} has no option `{name}`" + (f"; {hint}" if hint else
                                                                           f" (options: {known})"))


def _range(text: str) -> tuple[str, str] | None:
    low, sep, high = text.partition("..")
    return (low.strip(), high.strip()) if sep else None


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SpaceError(f"{what}: `{text}` is not a whole number") from None


def _narrowed(spec: Spec, name: str, text: str) -> Dimension:
    flag = "--space"
    if name == PLAYERS:
        return players_dimension(spec, text)
    opt = spec.options[name]
    span = _range(text)
    if span is not None:
        if opt.type != "int":
            own = of_option(opt)
            raise SpaceError(f"{flag} {name}: a range is for a whole-number option; `{name}` takes "
                             + (", ".join(map(_word, own.values)) if own else "a word"))
        low, high = (_int(t, f"{flag} {name}") for t in span)
        if low > high:
            raise SpaceError(f"{flag} {name}={text}: the low end is above the high end")
        for v in (low, high):
            _bound(spec, name, v, flag)
        if opt.choices:           # a number with choices: the choices within the range
            values = tuple(c for c in opt.choices if low <= c <= high)
            return Dimension(name, "choice", values)
        return Dimension(name, "int", low=low, high=high)
    values = tuple(dict.fromkeys(_bound(spec, name, v.strip(), flag) for v in text.split(",") if v.strip()))
    if not values:
        raise SpaceError(f"{flag} {name}: no values")
    return Dimension(name, "bool" if opt.type == "bool" else "choice", values)


def players_dimension(spec: Spec, text: str) -> Dimension:
    """`-p 3..5` (or `--space players=3..5`) against the numbers of players the game takes."""
    span = _range(text)
    low, high = (_int(t, "--players") for t in span) if span else (_int(text, "--players"),) * 2
    if not spec.min_players <= low <= high <= spec.max_players:
        allowed = (str(spec.min_players) if spec.min_players == spec.max_players
                   else f"{spec.min_players} to {spec.max_players}")
        raise SpaceError(f"--players {text}: {spec.name} is played by {allowed} players")
    return Dimension(PLAYERS, "int", low=low, high=high)


def read_space(spec: Spec, space: Sequence[str] = (), fix: Sequence[str] = (), players: str | None = None) -> Space:
    """The dimensions of a search of `spec`'s variants: its options' own, as --space changes them,
    less those --fix holds; the number of players a dimension when `players` is a range."""
    dims: dict[str, Dimension] = {}
    skipped = []
    for name, opt in spec.options.items():
        dim = of_option(opt)
        if dim is not None:
            dims[name] = dim
        else:
            skipped.append(name)
    count: int | None = None
    if players is not None:
        dim = players_dimension(spec, players)
        if dim.size > 1:
            dims[PLAYERS] = dim
        else:
            count = dim.low
    for name, text in _pairs(space, "--space"):
        _known(spec, name, "--space")
        dims[name] = _narrowed(spec, name, text)
        if name in skipped:
            skipped.remove(name)
    fixed: dict[str, object] = {}
    for name, text in _pairs(fix, "--fix"):
        _known(spec, name, "--fix")
        dims.pop(name, None)
        if name == PLAYERS:
            count = players_dimension(spec, text).low
            continue
        fixed[name] = _bound(spec, name, text, "--fix")
        if name in skipped:
            skipped.remove(name)
    for name, dim in list(dims.items()):
        if dim.size == 1:           # one value: held, as --fix would
            del dims[name]
            if name == PLAYERS:
                count = dim.low
            else:
                fixed[name] = dim.listed()[0]
    return Space(tuple(dims.values()), fixed, count, tuple(skipped))


def option_values(point: dict[str, object]) -> dict[str, str]:
    """A point of the space as `-o KEY=VALUE` texts (the players apart)."""
    return {k: _word(v) for k, v in point.items() if k != PLAYERS}
