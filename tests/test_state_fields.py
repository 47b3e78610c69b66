"""A state's fields are declared once (koloda/interpreter/core/state_fields.py): its slots, its clone, its
save and the reading of a save all come from that one list, and agree."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import koloda
from koloda.interpreter.core import state, state_fields
from koloda.interpreter.core.state import State


def _played(name: str = "pony", moves: int = 60) -> State:
    game = koloda.load(name)
    s = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_every_slot_is_declared_once():
    names = [f.name for f in state_fields.FIELDS]
    assert len(names) == len(set(names))
    # compiled (mypyc), the class has no __slots__, and no __dict__ either: the fields are its attributes
    assert getattr(State, "__slots__", tuple(names)) == tuple(names)
    s = _played(moves=0)
    assert not hasattr(s, "__dict__") and all(hasattr(s, name) for name in names)


def test_the_clone_is_written_as_the_fields_declare():
    # State.clone holds, statement by statement, what state_fields.clone_source writes from the
    # declaration (written out in the class, not made at run time, so that mypyc compiles it too)
    def statements(function: ast.stmt) -> list[str]:
        assert isinstance(function, ast.FunctionDef)
        body = function.body
        if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]         # the docstring
        return [ast.unparse(node) for node in body]
    declared = statements(ast.parse(state_fields.clone_source()).body[0])
    # read from the file, not the class: compiled, a method has no source to show
    (cls,) = [node for node in ast.parse((Path(state.__file__).parent / "state.py").read_text(encoding="utf-8")).body
              if isinstance(node, ast.ClassDef) and node.name == "State"]
    (clone,) = [node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == "clone"]
    assert statements(clone) == declared, "State.clone should read:\n" + "\n".join(declared)


def test_a_clone_takes_every_field():
    s = _played()
    s.legal_actions()            # so that the listed moves are there to copy
    c = s.clone()
    fresh = {"listing", "work"}         # a clone's run of the rules starts afresh
    for f in state_fields.FIELDS:
        if f.name in fresh:
            continue
        assert getattr(c, f.name) == getattr(s, f.name), f.name
        if f.clone == state_fields.LIST:     # its own list: changing it leaves the original as it was
            assert getattr(c, f.name) is not getattr(s, f.name), f.name
    assert c.listing == 0


def test_a_save_holds_the_saved_fields_and_reads_back():
    s = _played("peklo", 80)
    data = s.to_json()
    held = [f.name for f in state_fields.FIELDS if f.saved and not (f.omit_empty and not getattr(s, f.name))]
    # the save's header (which game, its options, the number of players), then the fields in their order
    assert list(data) == ["format", "game", "fingerprint", "options", "players", *held]
    back = State.from_json(s.game, data)
    assert back.to_json() == data
    for f in state_fields.FIELDS:
        if f.saved:
            assert getattr(back, f.name) == getattr(s, f.name), f.name
    assert back.loc == s.loc             # not saved: worked out from the zones


def test_the_fields_newer_than_the_save_format_are_declared_there():
    # a save made before one of them was added is compared with its replay without it
    from koloda.session.session import LATER_STATE_FIELDS
    assert set(LATER_STATE_FIELDS) == {"moved", "phase_start", "scored"}
    assert all(f.saved for f in state_fields.FIELDS if f.name in LATER_STATE_FIELDS)
