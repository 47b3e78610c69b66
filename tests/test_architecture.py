"""The package's shape: layers that import only downwards, no import cycles, one registry per built-in kind.

Imports are read from the source (every `import`, at any depth, including
those only for type checking), so a cycle cannot hide behind a deferred import.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import koloda
from koloda.dsl import builtins as signatures
from koloda.dsl import reference
from koloda.dsl import resolved as R
from koloda.interpreter.runtime import builtin_entries
from koloda.interpreter.codegen.gen_frag import UnknownNode
from koloda.interpreter.codegen.generate import expressions
from koloda.interpreter.codegen.gen_expr import ExprGen

PACKAGE = Path(koloda.__file__).parent
ROOT = Path(__file__).resolve().parent.parent

# What each part of the package may import (besides itself). `dsl` is the language, `interpreter`
# the engine; the table, the bots, sessions, simulations and the command line sit above them.
ALLOWED = {
    "dsl": set(),
    "interpreter": {"dsl"},
    "api": {"dsl", "interpreter"},
    "ui": {"dsl", "interpreter"},
    "agents": {"dsl", "interpreter", "ui"},
    "session": {"dsl", "interpreter", "api", "agents"},     # a save's seats are checked as agent kinds
    "report": set(),         # pure: records in, summaries out, so that it is tested on records made by hand
    "sim": {"dsl", "interpreter", "api", "agents", "report"},
    # the design search: variants played by sim, measured by report
    "tune": {"dsl", "interpreter", "api", "sim", "report"},
    "cli": {"dsl", "interpreter", "api", "ui", "agents", "session", "sim", "report", "rulebook", "lsp", "authoring",
            "tune", "web"},
    # the table in a browser: the engine, the bots, saves and the table's words, served (cli starts it)
    "web": {"dsl", "interpreter", "api", "ui", "agents", "session", "compact"},
    # the rules read back in words (`koloda explain`): the checked tree and its options, nothing that plays
    "rulebook": {"dsl", "api"},
    # the language server: the checker's answers for an editor (the engine is not needed to edit rules)
    "lsp": {"dsl"},
    # the formatter and the starter for people writing rule files: the starter loads what it writes
    "authoring": {"dsl", "interpreter", "api"},
    # each seat's record of a match's moves, as it saw them: the research tools' information states
    "seen": {"dsl", "interpreter"},
    # the research tools' view: loads a game, spells its moves, resamples hidden cards as the bots do
    "compact": {"dsl", "interpreter", "api", "agents", "seen"},
    # the research tools' adapters, each on the compact view and one match's record (episode),
    # which draws the table as the terminal does
    "episode": {"dsl", "interpreter", "api", "ui", "agents", "compact", "seen"},
    # explicit chance: a match whose shuffles are dealt card by card at chance nodes
    "dealing": {"dsl", "interpreter", "episode"},
    "openspiel": {"dsl", "interpreter", "api", "agents", "compact", "episode", "dealing"},
    "pettingzoo": {"dsl", "interpreter", "api", "agents", "compact", "episode"},
    "gymnasium": {"dsl", "interpreter", "api", "agents", "compact", "episode"},
    # many matches of one seat in one process, with the Gymnasium adapter's spaces
    "vector": {"dsl", "interpreter", "api", "agents", "compact", "episode", "gymnasium"},
    # the batch as Stable-Baselines3's VecEnv (the rl extra)
    "sb3": {"vector"},
    "__init__": {"dsl", "api"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _for_types_only(tree: ast.Module) -> set[ast.AST]:
    """The imports under `if TYPE_CHECKING:`, which only the check of types reads."""
    return {inner for node in ast.walk(tree) if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING" for inner in ast.walk(node)}


def imports(for_types: bool = True) -> dict[str, set[str]]:
    """Module -> the koloda modules it imports (`for_types=False`: those it imports when it runs)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        found: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = set() if for_types else _for_types_only(tree)
        for node in ast.walk(tree):
            if node in skipped:
                continue
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("koloda")}
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("koloda"):
                for a in node.names:       # `from koloda.dsl import ast` imports the module koloda.dsl.ast
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if (PACKAGE.parent / (sub.replace(".", "/") + ".py")).exists() else node.module)
        graph[name] = found - {name}
    return graph


def test_layers_import_only_downwards():
    wrong = []
    for module, targets in imports().items():
        part = part_of(module)
        for target in targets:
            other = part_of(target)
            if other != part and other not in ALLOWED[part]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    # the flow names the state's type for mypyc, which compiles the two together, and the state imports
    # the flow: an import for types alone (`if TYPE_CHECKING:`) runs nothing, and makes no cycle
    graph = imports(for_types=False)
    # only edges between modules (a package's __init__ imports nothing of its own here)
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if t not in graph:
                continue
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


# Imports stand at the top of a module. Two places import inside functions on purpose, so that
# `koloda --help` and `koloda list` start without the engine: the package's __init__ (every
# `import koloda.…` runs it first) and the command line, each command importing what it uses.
# The loader imports jsonschema where it validates, as reading a file's title needs no schema;
# `koloda list` imports the YAML loader only for a file whose title is not in the cache.
# What simulate and compare do asks for plots and Ray only when told to: they are optional extras.
IMPORTS_INSIDE_FUNCTIONS = {"koloda": None, "koloda.cli.main": None, "koloda.cli.table_run": None, "koloda.cli.authoring": None,
                            "koloda.cli.serve": None,
                            # NumPy only when a `py:` seat moves: every command that seats bots imports policy
                            "koloda.agents.policy": {"numpy"},
                            "koloda.dsl.structure": {"jsonschema", "jsonschema.exceptions"}, "koloda.dsl.about": {"koloda.dsl.loader"},
                            "koloda.cli.reports": {"koloda.report", "koloda.sim"},
                            # koloda tune: Optuna (the extra) and the search, when the command runs; plots when asked
                            "koloda.cli.tune": {"optuna", "koloda.cli.tune_run"}, "koloda.cli.tune_run": {"koloda.tune"},
                            "koloda.cli.explain": {"koloda.rulebook", "koloda.rulebook.compare"}}


def inner_imports(tree: ast.Module) -> set[str]:
    """What a module imports inside functions and classes (not at its top, nor under a top-level `if` or `try`)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    found |= {a.name for a in inner.names}
                elif isinstance(inner, ast.ImportFrom):
                    found.add(inner.module or ".")
    return found


def test_imports_stand_at_the_top():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        found = inner_imports(ast.parse(path.read_text(encoding="utf-8")))
        allowed = IMPORTS_INSIDE_FUNCTIONS.get(name, set())
        if allowed is not None and found - allowed:
            wrong.append(f"{name} imports {', '.join(sorted(found - allowed))} inside a function")
    assert not wrong, "\n".join(wrong)


def test_no_module_is_too_long():
    long = {module_name(p): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


# ------------------------------------------------------------------ the interpreter's wings
# koloda/interpreter/ is laid out by role (docs/architecture.md draws it); each wing imports only the
# wings below it: the meld search knows nothing of the generated code nor of words, the state of play
# nothing of the generator that writes its code, the generator nothing of what tells the rules in words.
WINGS = {
    "base": set(),                                  # cards, the table's layout, located errors, the work budget
    "melds": {"base"},                              # the meld and pattern search (mostly compiled with mypyc)
    "runtime": {"base", "melds"},                   # the built-ins' semantics on plain values, called by generated code
    "core": {"base", "melds", "runtime"},           # the state of play, its flow, action ids, watched conditions
    "codegen": {"base", "melds", "runtime", "core"},                # the resolved tree as generated Python
    "words": {"base", "melds", "runtime", "core", "codegen"},       # what a seat sees and is told, in words and tensors
}
# the modules at the top of koloda/interpreter/, beside the wings: the game assembled from every wing,
# and the list of compiled modules (setup.py reads it without importing koloda)
INTERPRETER_TOP = {"koloda.interpreter": set(), "koloda.interpreter.game": set(WINGS),
                   "koloda.interpreter.compiled": set()}
INTERPRETER = PACKAGE / "interpreter"


def wing_of(module: str) -> str | None:
    parts = module.split(".")
    top = ".".join(parts[:3])
    return parts[2] if len(parts) > 2 and parts[:2] == ["koloda", "interpreter"] and top not in INTERPRETER_TOP else None


def test_every_interpreter_module_is_in_a_wing():
    stray = [name for p in INTERPRETER.rglob("*.py")
             if (name := module_name(p)) not in INTERPRETER_TOP and wing_of(name) not in WINGS]
    assert not stray, stray
    assert {p.name for p in INTERPRETER.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(WINGS)


def test_no_wing_imports_back_up():
    wrong = []
    for module, targets in imports().items():
        if not module.startswith("koloda.interpreter"):
            continue
        wing = wing_of(module)
        allowed = INTERPRETER_TOP[module] if wing is None else WINGS.get(wing, set())
        for target in targets:
            if not target.startswith("koloda.interpreter"):
                continue
            other = wing_of(target)
            if other is None and target != "koloda.interpreter":
                wrong.append(f"{module} imports {target} (the top of the interpreter)")
            elif other is not None and other != wing and other not in allowed:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_no_interpreter_module_passes_500_lines():
    long = {module_name(p): n for p in INTERPRETER.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


# the modules of core/ compiled with the meld search: the state, the flow that drives it, the moves of
# cards generated code makes and the history of moves, compiled together so that each reads the other's attributes directly
# (docs/decisions.md, "The state and the flow compiled with mypyc")
COMPILED_CORE = {"koloda.interpreter.core.state", "koloda.interpreter.core.flow", "koloda.interpreter.core.cardmoves",
                 "koloda.interpreter.core.history"}


def test_the_compiled_modules_are_the_meld_search_the_runtime_the_state_and_the_flow():
    # "compiled = melds/ + the runtime + state and flow": what setup.py compiles is a unit no other wing subclasses
    from koloda.interpreter.compiled import MODULES
    assert MODULES and all(wing_of(name) in ("melds", "runtime") or name in COMPILED_CORE for name in MODULES)
    assert COMPILED_CORE <= set(MODULES)


def test_no_class_derives_from_a_compiled_one():
    # a compiled class cannot be subclassed by plain Python (an install then fails at import): a
    # variation of the state is a part it holds, as its shuffler (koloda/dealing.py, words/arrange.py)
    from koloda.interpreter.compiled import MODULES
    wrong = []
    for path in sorted([*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # the names this file binds to a class of a compiled module (exceptions aside: raised, not derived from)
        compiled = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and node.module in MODULES for a in node.names
                    if a.name[:1].isupper() and not a.name.endswith(("Listing", "Error"))}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {b.id for b in node.bases if isinstance(b, ast.Name)} & compiled
                if bases:
                    wrong.append(f"{path.relative_to(ROOT)}: class {node.name}({', '.join(sorted(bases))})")
    assert not wrong, "\n".join(wrong)


# ------------------------------------------------------------------ built-ins: two entries each
@pytest.mark.parametrize("kind", ["FUNCTIONS", "STATE_NAMES", "CARD_ATTRS", "ZONE_ATTRS", "GRID_ATTRS", "PLAN_ATTRS", "COMBO_ATTRS",
                                  "PLAYER_ATTRS", "SIDE_ATTRS", "LIST_ATTRS"])
def test_every_built_in_has_a_signature_an_implementation_and_a_line_of_reference(kind):
    declared = getattr(signatures, kind)
    implemented = (builtin_entries.ENTRIES if kind == "FUNCTIONS" else builtin_entries.NAMES if kind == "STATE_NAMES"
                   else builtin_entries.ATTRIBUTES[kind[:-len("_ATTRS")].lower()])
    assert set(declared) == set(implemented)
    documented = getattr(reference, kind)          # what an editor shows on hover
    assert set(declared) == set(documented) and all(documented.values())


def _leaves(cls):      # the classes of resolved.py that nothing derives from
    subs = [s for s in cls.__subclasses__() if getattr(R, s.__name__, None) is s]
    return [cls] if not subs else [leaf for s in subs for leaf in _leaves(s)]


def test_every_expression_class_and_built_in_function_has_a_generator_method():
    # what has none cannot run (the generator is the only executor)
    expressions = [c for c in _leaves(R.Expr) if c is not R.Invalid]
    assert expressions and [c.__name__ for c in expressions if not hasattr(ExprGen, "_" + c.__name__)] == []
    # a built-in function is written from its entry's template, or by a method naming it (`call_<name>`)
    from koloda.interpreter.runtime.builtin_entries import ENTRIES
    assert [name for name in signatures.FUNCTIONS
            if ENTRIES[name].template is None and not hasattr(ExprGen, "call_" + name)] == []
    assert all(isinstance(getattr(ExprGen, m), type(ExprGen.gen)) for m in dir(ExprGen) if m.startswith("call_"))
    assert {m[len("call_"):] for m in dir(ExprGen) if m.startswith("call_")} <= set(signatures.FUNCTIONS)

def leaf_classes(cls):
    """The classes of resolved.py derived from `cls` that nothing derives from."""
    subs = [s for s in cls.__subclasses__() if getattr(R, s.__name__, None) is s]
    return [cls] if not subs else [leaf for s in subs for leaf in leaf_classes(s)]


def test_the_generator_names_its_methods_after_resolved_classes():
    # a misspelt method would never be called: its nodes would fail to load
    from koloda.interpreter.codegen.generate import Generator
    expressions = [m[1:] for cls in ExprGen.__mro__ for m in vars(cls) if m.startswith("_") and m[1:2].isupper()]
    effects = [m[4:] for cls in Generator.__mro__ for m in vars(cls) if m.startswith("_do_")]
    assert expressions and effects
    assert all(isinstance(getattr(R, name, None), type) and issubclass(getattr(R, name), R.Expr) for name in expressions)
    assert all(isinstance(getattr(R, name, None), type) and issubclass(getattr(R, name), R.Effect) for name in effects)


def test_every_effect_class_has_a_generator_method():
    # the generator is complete for effects
    from koloda.interpreter.codegen.generate import Generator
    missing = [c.__name__ for c in leaf_classes(R.Effect) if not hasattr(Generator, "_do_" + c.__name__)]
    assert missing == []


def test_an_unknown_resolved_node_fails_loudly_at_load():
    from dataclasses import dataclass
    from koloda.dsl.errors import NOWHERE

    @dataclass(frozen=True, slots=True, eq=False)
    class Newcomer(R.Expr):
        pass

    game = koloda.load("pony")
    with pytest.raises(UnknownNode, match="no method for Newcomer"):
        expressions(game.loaded, game.watch, [Newcomer(NOWHERE, "int")], "test")
    with pytest.raises(UnknownNode, match="rejected"):
        expressions(game.loaded, game.watch, [R.Invalid(NOWHERE, "int")], "test")


def test_an_unknown_attribute_fails_loudly_at_load():
    from koloda.dsl.errors import NOWHERE
    game = koloda.load("pony")
    card = R.Local(NOWHERE, "card", "c")
    for node, message in ((R.CardAttr(NOWHERE, "player", card, "owner"), "CardAttr attribute `owner`"),
                          (R.ZoneAttr(NOWHERE, "side", R.ZoneRef(NOWHERE, "zone", "pile"), "colour"),
                           "ZoneAttr attribute `colour`"),
                          (R.BuiltinCall(NOWHERE, "int", "shout", ()), "built-in function `shout`")):
        with pytest.raises(UnknownNode, match=message):
            expressions(game.loaded, game.watch, [node], "test")
