"""The fields of a State (state.py), declared once.

Each field says how a clone takes it, whether and how a save holds it, and how a save is read back
into it. `State.__slots__`, `State._json` and `State.from_json` are made from this list, so a new field
is one entry here, its first value in `State.__init__` and its line in `State.clone`, not five edits
that must agree. The order is the order of a save's keys, so saves come out as they always did.

`clone` runs thousands of times a decision (every playout copies the state), so it is not a loop over
this list but straight assignments, one line per field: `clone_source` writes them from this list, and
`State.clone` holds that text as it is (tests/test_state_fields.py checks it), so that mypyc compiles
it with the rest of the class (a function made at run time would not be).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from koloda.interpreter.base import exact
from koloda.interpreter.core.history import History
from koloda.interpreter.core.window import copy_waiting

SAME = "c.{0} = self.{0}"               # a value, or one never changed in place: the clone shares it
LIST = "c.{0} = self.{0}[:]"            # a list of values: the clone's own copy
REQUIRED = object()                     # a save always holds it


@dataclass(frozen=True)
class Field:
    name: str
    clone: str = SAME                   # the clone's statement (`c` the clone, `self` the original)
    saved: bool = True                  # written in a save under its name
    # the value a save holds (None: the attribute as it is)
    dump: Callable[[Any], Any] | None = None
    omit_empty: bool = False            # left out of a save while it is empty (saves from before it had one)
    # the attribute made from a save (`data`) and the state being read (`s`, the fields above it read
    # already); None: the saved value as it is, or `default` where the save lacks it
    load: Callable[[dict, Any], Any] | None = None
    default: Any = REQUIRED
    # newer than the save format: a save written before it was added lacks it, and its state is compared
    # with the replayed one without it (koloda/session/session.py)
    later: bool = False


def _known_list(name: str) -> Callable[[dict, Any], Any]:
    """A list that saves from before it was kept lack: the new state's own then."""
    return lambda data, s: list(data[name]) if name in data else getattr(s, name)


def _locations(data: dict, s: Any) -> list[int]:
    loc = [-1] * s.game.cards.size
    for zi, zone in enumerate(s.zones):
        for card in zone:
            loc[card] = zi
    return loc


def _history(data: dict, s: Any) -> History:
    return History(tuple(h) for h in data["history"])


def _waiting(data: dict, s: Any) -> list:
    return [copy_waiting(w) for w in data.get("waiting", [])]


FIELDS: tuple[Field, ...] = (
    # the game's, shared by every state of it; a save names the game and its number of players instead
    Field("game", saved=False), Field("layout", saved=False), Field("flow", saved=False), Field("n", saved=False),
    # who shuffles in place of the seed (koloda/dealing.py's chance nodes): a copy shuffles as its original
    Field("shuffler", saved=False),
    # the zones' lists are shared, and each side copies one only when it changes it (State.own): a move
    # touches two zones, while a game may have dozens (a meld area's slots)
    Field("zones", LIST, load=lambda data, s: [list(z) for z in data["zones"]]),
    Field("shared", "self.shared = c.shared = (1 << len(self.zones)) - 1", saved=False),
    Field("loc", LIST, saved=False, load=_locations),          # where each card is: from the zones
    Field("by", LIST, load=lambda data, s: list(data["by"])),
    Field("face", LIST, load=lambda data, s: list(data.get("face", [True] * s.game.cards.size))),
    Field("known", LIST, load=lambda data, s: list(data.get("known", [0] * s.game.cards.size))),
    # a fraction has no JSON of its own (base/exact.py); a list variable's list is never changed in place
    Field("vars", LIST, dump=exact.saved, load=lambda data, s: exact.restored(list(data["vars"]))),
    Field("dealer"), Field("current"), Field("phase"), Field("step"), Field("turns"), Field("deal_number"),
    Field("moves"),
    Field("skips", LIST, load=lambda data, s: list(data["skips"])),
    # states saved before it had a direction play to the left
    Field("direction", load=lambda data, s: -1 if data.get("direction") == -1 else 1),
    Field("deal_turns", load=lambda data, s: int(data.get("deal_turns", 0))),
    Field("capped", load=lambda data, s: data.get("capped") is True),
    Field("next_player"), Field("goto"), Field("deal_over"), Field("terminal"), Field("seed"), Field("shuffles"),
    Field("orders", "c.orders = [o[:] for o in self.orders] if self.orders else []",      # given deck orders: rare
          load=lambda data, s: [list(o) for o in data["orders"]]),
    Field("history", "c.history = self.history.copy()", load=_history),     # shared with clones, never copied
    Field("waiting", "c.waiting = [copy_waiting(w) for w in self.waiting] if self.waiting else []", load=_waiting),
    Field("slot_kind", LIST, load=_known_list("slot_kind")), Field("slot_owner", LIST, load=_known_list("slot_owner")),
    Field("slot_turn", LIST, load=_known_list("slot_turn")), Field("stands", LIST, load=_known_list("stands")),
    Field("turn_no", default=0), Field("last_meld", default=None),
    Field("moved", later=True,                                 # never changed in place
          load=lambda data, s: tuple((source, dest, list(cards), list(players), bool(whole))
                                     for source, dest, cards, players, whole in data.get("moved", []))),
    # what the rules told players: never changed in place
    Field("said", omit_empty=True, load=lambda data, s: tuple((k, mask, text) for k, mask, text in data.get("said", []))),
    Field("facts", omit_empty=True, load=lambda data, s: tuple(tuple(f) for f in data.get("facts", []))),
    Field("scored", omit_empty=True, later=True,
          dump=lambda scored: [[deal, var, [[label, exact.saved(value)] for label, value in parts]]
                               for deal, var, parts in scored],
          load=lambda data, s: tuple((deal, var, tuple((str(label), exact.restored(value)) for label, value in parts))
                                     for deal, var, parts in data.get("scored", []))),
    # a state saved before it was kept: none listed
    Field("phase_start", later=True, load=lambda data, s: int(data.get("phase_start", s.moves))),
    Field("shown", "c.shown = dict(self.shown) if self.shown else {{}}", omit_empty=True,
          dump=lambda shown: [[c, m] for c, m in shown.items()], load=lambda data, s: {c: m for c, m in data.get("shown", [])}),
    # the run of the rules going on: not saved, and a clone starts afresh
    Field("actor", saved=False), Field("asked", saved=False),
    Field("listing", "c.listing = 0", saved=False),
    Field("settled", "c.settled = False", saved=False),           # only while the flow asks `deal ends:`               # stamped by each listing of legal moves
    Field("work", "c.work = MAX_WORK", saved=False),              # steps left to the run of the rules (work.py)
    Field("_listed", "c._listed = None if self._listed is None else self._listed[:]", saved=False),
    # the conditions to ask again, and the melds on the table (whose list is never changed in place)
    Field("dirty", saved=False), Field("table", saved=False),
)


def slots() -> tuple[str, ...]:
    return tuple(f.name for f in FIELDS)


def later() -> tuple[str, ...]:
    """The saved fields newer than the save format, which an older save may lack."""
    return tuple(f.name for f in FIELDS if f.later)


def clone_source() -> str:
    """The text of `clone(self)`: a new State, each field taken as its entry says."""
    lines = ["def clone(self):", "    c = State.__new__(State)"]
    lines += ["    " + f.clone.format(f.name) for f in FIELDS]
    lines.append("    return c")
    return "\n".join(lines) + "\n"


def saved(s: Any, history: bool) -> dict:
    """The fields a save holds, in their order (`history=False`: only the number of moves played)."""
    out: dict[str, Any] = {}
    for f in FIELDS:
        if not f.saved:
            continue
        value = getattr(s, f.name)
        if f.omit_empty and not value:
            continue
        if f.name == "history":
            out["history"] = list(value) if history else len(value)
        else:
            out[f.name] = value if f.dump is None else f.dump(value)
    return out


def load(s: Any, data: dict) -> None:
    """Set the fields of a new state `s` from a save, in their order."""
    for f in FIELDS:
        if f.load is not None:
            setattr(s, f.name, f.load(data, s))
        elif f.saved:
            setattr(s, f.name, data[f.name] if f.default is REQUIRED else data.get(f.name, f.default))
