"""Each built-in has one entry of the interpreter's facts (koloda/interpreter/runtime/builtin_entries.py), beside its
signature in koloda/dsl/builtins.py; what reads the facts reads them from the entry. Every fact of every
entry is checked here: a missing or wrong one would otherwise fail silently (a wrong refusal, a condition
not asked again, slower play)."""
from __future__ import annotations

import inspect
import re
import string

import pytest

from koloda.dsl import builtins as signatures
from koloda.dsl import reference
from koloda.dsl import resolved as R
from koloda.dsl.errors import NOWHERE
from koloda.interpreter.runtime import builtin_entries
from koloda.interpreter.codegen import gen_frag
from koloda.interpreter.core import watch
from koloda.interpreter.runtime.builtin_entries import ATTRIBUTES, ENTRIES, NAMES, PURE_READS, READS
from koloda.interpreter.codegen.gen_expr import ExprGen
from koloda.rulebook import en, ru


def _params(name):
    sig = signatures.FUNCTIONS[name]
    return len(sig.params), len(sig.params) - sig.optional


def test_every_built_in_has_an_entry():
    assert set(ENTRIES) == set(signatures.FUNCTIONS)
    assert set(NAMES) == set(signatures.STATE_NAMES)
    tables = {kind: getattr(signatures, kind.upper() + "_ATTRS") for kind in ATTRIBUTES}
    assert {kind: set(entries) for kind, entries in ATTRIBUTES.items()} == {k: set(t) for k, t in tables.items()}


@pytest.mark.parametrize("name", sorted(signatures.FUNCTIONS))
def test_an_entry_says_how_its_built_in_is_worked_out(name):
    entry = ENTRIES[name]
    # a function of plain values, or text written in place of the call, or both
    assert entry.runtime is not None or entry.template is not None
    # generated code writes it from the template, or a method of the generator names it
    assert entry.template is not None or hasattr(ExprGen, "call_" + name)
    assert entry.reads <= READS
    if entry.runtime is not None:
        params = list(inspect.signature(entry.runtime).parameters)
        # the state is taken only to read or spend from it what the entry says it reads
        assert ("s" in params) == bool(entry.reads & {builtin_entries.BUDGET, builtin_entries.TABLE}), params
        assert all(not p.startswith("_") for p in params)
    if entry.template is not None:
        most, least = _params(name)
        fields = {f for _, f, _, _ in string.Formatter().parse(entry.template) if f is not None}
        # each argument written once at most, and no other field than the table of values
        assert fields <= {str(k) for k in range(most)} | {"table"}, fields
        if "s.direction" in entry.template:
            assert builtin_entries.DIRECTION in entry.reads
        if "s.n" in entry.template:
            assert builtin_entries.SEATS in entry.reads


@pytest.mark.parametrize("name", sorted(signatures.FUNCTIONS))
def test_the_flags_of_an_entry_agree(name):
    entry = ENTRIES[name]
    if entry.pure:        # reads only its arguments and what marks every condition when it changes
        assert entry.reads <= PURE_READS
    if entry.cheap:       # worked out again rather than kept: never a search or a listing
        assert entry.pure
    if entry.static:      # what `wild:` may call reads the card alone (it may spend from the budget)
        assert entry.reads <= {builtin_entries.BUDGET}
    assert entry.static == (name in signatures.STATIC_FUNCTIONS)


def test_the_static_attributes_are_the_checkers():
    assert {n for n, e in ATTRIBUTES["card"].items() if e.static} == signatures.STATIC_CARD_ATTRS
    # a card's attribute the watch knows the changes of reads the card alone
    assert {n for n, e in ATTRIBUTES["card"].items() if e.watched} <= signatures.STATIC_CARD_ATTRS
    assert not any(e.static for kind, table in ATTRIBUTES.items() if kind != "card" for e in table.values())


def test_a_cheap_built_in_is_not_kept_in_a_cell():
    for name, entry in ENTRIES.items():
        call = R.BuiltinCall(NOWHERE, "int", name, ())
        assert gen_frag.costly(call) is not entry.cheap, name


def test_the_watch_reads_its_facts_from_the_entries():
    assert watch._PURE_CALLS == {name for name, entry in ENTRIES.items() if entry.pure}
    assert watch._CONSTANT_NAMES == {name for name, entry in NAMES.items() if entry.watched}
    assert watch._CARD_ATTRS == {name for name, entry in ATTRIBUTES["card"].items() if entry.watched}
    assert watch._ZONE_ATTRS == {name for name, entry in ATTRIBUTES["zone"].items() if entry.watched}
    # the facts as they were before the entries held them: the same conditions are watched (and `combos`,
    # added since, reads only the cards it is given)
    assert builtin_entries.PURE == {"value", "abs", "next", "prev", "player", "top", "winner", "count", "sum", "any",
                                    "all", "max", "min", "hand_pattern", "hand_compare", "best_hand", "pot_shares",
                                    "combos"}
    assert builtin_entries.CHEAP == {"value", "abs", "next", "prev", "top"}
    assert watch._CONSTANT_NAMES == {"players", "player_count", "suits", "ranks", "deck_size", "sides", "all_cards"}
    assert watch._CARD_ATTRS == {"rank", "suit", "color", "deck"}
    assert watch._ZONE_ATTRS == {"top", "bottom", "size", "cards", "free", "rank", "grid", "row", "column"}


def test_every_built_in_has_a_line_of_reference():
    assert set(reference.FUNCTIONS) == set(ENTRIES) and all(reference.FUNCTIONS.values())


@pytest.mark.parametrize("book", [en, ru], ids=["en", "ru"])
def test_the_rulebook_words_every_call_of_every_built_in(book):
    """A call's phrase is keyed `call.<name>.<number of arguments>`: each a built-in's, each number one its
    signature takes, and every number it takes has its phrase."""
    phrased, missing = {}, set()
    for key in book.PHRASES:
        found = re.fullmatch(r"call\.(\w+)\.(\d+)", key)
        if found:
            phrased.setdefault(found.group(1), set()).add(int(found.group(2)))
    assert set(phrased) <= set(ENTRIES)
    for name in ENTRIES:
        most, least = _params(name)
        takes = set(range(least, most + 1))
        if signatures.FUNCTIONS[name].several:
            takes |= {2}
        assert phrased.get(name, set()) <= takes, name
        missing.update(f"{name}.{k}" for k in takes - phrased.get(name, set()))
    assert sorted(missing) == [], missing
