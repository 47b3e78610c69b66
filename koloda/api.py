"""koloda as a library: load a game by name or path, with options."""
from __future__ import annotations

from koloda.dsl.errors import RuleError, did_you_mean
from koloda.dsl.loader import shipped_names
from koloda.dsl.limits import MAX_CARDS, MAX_NUMBER
from koloda.dsl.model import Spec
from koloda.dsl.pipeline import load_checked
from koloda.interpreter.base.errors import IllegalAction, PositionError, RuleRuntimeError
from koloda.interpreter.game import Game
from koloda.interpreter.core.state import CHANCE, TERMINAL

__all__ = ["load", "load_spec", "shipped_games", "TERMINAL", "CHANCE", "bind_options", "IllegalAction",
           "PositionError"]


def shipped_games() -> list[str]:
    return shipped_names()


def load_spec(name_or_path: str):
    """Read, schema-check, parse and statically check a rule file. Raises RuleErrors with all errors."""
    return load_checked(name_or_path)


def bind_options(spec: Spec, given: dict[str, object] | None) -> dict[str, object]:
    """The table's options: declared defaults overridden by `given`, each checked against its type."""
    values = {name: opt.default for name, opt in spec.options.items()}
    for name, raw in (given or {}).items():
        opt = spec.options.get(name)
        if opt is None:
            known = ", ".join(spec.options) or "none"
            raise RuleError(f"unknown option `{name}` for {spec.name}",
                            hint=did_you_mean(name, spec.options) or f"options: {known}")
        values[name] = _convert(opt, raw)
    return values


def _convert(opt, raw):
    text = str(raw).strip()
    if opt.type == "bool":
        if isinstance(raw, bool):
            return raw
        if text.lower() in ("true", "yes", "on", "1"):
            return True
        if text.lower() in ("false", "no", "off", "0"):
            return False
        raise RuleError(f"option `{opt.name}` is true or false, not `{text}`")
    if opt.type == "int":
        if len(text.lstrip("+-")) > len(str(MAX_NUMBER)):
            raise RuleError(f"option `{opt.name}` is at most {MAX_NUMBER:,}")
        try:
            value = int(text)
        except ValueError:
            raise RuleError(f"option `{opt.name}` is a whole number, not `{text}`") from None
        if opt.choices and value not in opt.choices:
            raise RuleError(f"option `{opt.name}` is one of {', '.join(map(str, opt.choices))}, not {value}")
        if opt.low is not None and value < opt.low:
            raise RuleError(f"option `{opt.name}` must be at least {opt.low}, not {value}")
        if opt.high is not None and value > opt.high:
            raise RuleError(f"option `{opt.name}` must be at most {opt.high}, not {value}")
        return value
    if opt.choices and text not in opt.choices:
        raise RuleError(f"option `{opt.name}` is one of {', '.join(opt.choices)}, not `{text}`")
    return text


def load(name_or_path: str, options: dict | None = None, players: int | None = None) -> Game:
    """Load a game: a shipped name (`"pony"`) or a path to a rule file."""
    spec, rules = load_spec(name_or_path)
    if spec.library:
        raise RuleError(f"`{spec.name}` is a library for `import:`, not a game to play")
    options = dict(options or {})
    if "players" in options and "players" not in spec.options:
        # every game takes the number of players as a table option too
        raw = options.pop("players")
        try:
            count = int(str(raw))
        except ValueError:
            raise RuleError(f"option `players` is a whole number, not `{raw}`") from None
        if players is not None and players != count:
            raise RuleError(f"--players {players} and option players={count} disagree")
        players = count
    bound = bind_options(spec, options)
    n = players if players is not None else spec.default_players
    if not spec.min_players <= n <= spec.max_players:
        allowed = str(spec.min_players) if spec.min_players == spec.max_players else \
            f"{spec.min_players} to {spec.max_players}"
        raise RuleError(f"{spec.name} is played by {allowed} players, not {n}")
    _check_deck_size(spec, bound, n)
    game = Game(rules, bound, n)
    _first_deal(game)
    return game


def _check_deck_size(spec: Spec, options: dict[str, object], players: int) -> None:
    """The cards of this table, with its options and players, within the limit (checked before any is made)."""
    d = spec.deck
    size = d.size(options, players)
    if size is not None and size > MAX_CARDS:
        given = ", ".join(f"{k}={v}" for k, v in options.items())
        raise RuleError(f"this table would have {size:,} cards (options {given}); a game has at most {MAX_CARDS:,}",
                        d.span, category="limit")


def _first_deal(game: Game) -> None:
    """Deal once at load, so a table that cannot even start (too many cards for the deck with
    these options and players) is reported now, as a rule error, not in the middle of play."""
    try:
        game.new_initial_state(seed=0)
    except RuleRuntimeError as exc:
        options = ", ".join(f"{k}={v}" for k, v in game.options.items())
        n = game.num_players
        table = f"{n} player{'' if n == 1 else 's'}" + (f"; options {options}" if options else "")
        raise RuleError(f"{exc.message} (with {table})", exc.span,
                        exc.hint, category="runtime") from None
