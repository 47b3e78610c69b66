"""Each built-in function has one entry of the interpreter's facts (koloda/interpreter/builtin_entries.py),
beside its signature in koloda/dsl/builtins.py; what reads the facts reads them from the entry."""
from __future__ import annotations

from koloda.dsl import builtins as signatures
from koloda.interpreter import builtin_entries, gen_frag, watch
from koloda.dsl import resolved as R
from koloda.dsl.errors import NOWHERE


def test_every_built_in_has_an_entry():
    assert set(builtin_entries.ENTRIES) == set(signatures.FUNCTIONS)


def test_a_cheap_built_in_is_not_kept_in_a_cell():
    for name, entry in builtin_entries.ENTRIES.items():
        call = R.BuiltinCall(NOWHERE, "int", name, ())
        assert gen_frag.costly(call) is not entry.cheap, name


def test_the_watch_asks_again_only_for_pure_built_ins():
    assert watch._PURE_CALLS == {name for name, entry in builtin_entries.ENTRIES.items() if entry.pure}
    # the facts as they were before the entries held them: the same conditions are watched
    assert builtin_entries.PURE == {"value", "abs", "next", "prev", "player", "top", "winner", "count", "sum", "any",
                                    "all", "max", "min", "hand_pattern", "hand_compare"}
    assert builtin_entries.CHEAP == {"value", "abs", "next", "prev", "top"}
