"""The text of a generated module, and the rules that keep rule text out of its code.

Generated code (see generate.py) is Python source built by the engine from the
checked tree. Nothing a rule file wrote becomes code: a local name of the
rules (a parameter, a loop name, a `let`) becomes `v_<name>` when it is a
plain ASCII identifier and `w<number>` otherwise; every other name is the
engine's own and starts with `_`; a value is written with `repr` when it is an
int, a bool, None or a string, and is otherwise bound in the module's
namespace under an engine-chosen name. `unsafe_names` reads the finished
source back with `ast` and lists any name or attribute outside those rules.
"""
from __future__ import annotations

import ast
import builtins
import re
from typing import Any, Callable

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_LOCAL = re.compile(r"(v_[A-Za-z][A-Za-z0-9_]*|w\d+)\Z")
_ENGINE = re.compile(r"_[A-Za-z0-9_]*\Z")
_PARAMS = ("s", "b", "code", "found", "deadline", "at")      # the generated functions' own parameters

# the built-ins generated code may call
BUILTINS = frozenset({"len", "list", "range", "int", "any", "all", "sum", "max", "min", "abs", "set", "reversed",
                      "sorted", "bool", "divmod", "True", "False", "None", "Exception"})
# the attributes generated code may read or write: the state's, and those of lists and sets
ATTRIBUTES = frozenset({
    "zones", "loc", "by", "face", "vars", "known", "stands", "slot_kind", "slot_owner", "slot_turn", "current",
    "dealer", "n", "deal_number", "last_meld", "listing", "actor", "goto", "next_player", "skips", "deal_over",
    "asked", "turn_no", "dirty", "work", "direction", "move", "move_zone", "note_leaving", "meld", "shuffle", "gather", "deal", "append", "add",
    "cards", "points",          # of a plan (melds.Plan) that is there
    "kind", "low", "high", "length", "pick",    # of a combination (combo.Combo), and its table's cards taken
    "held_codes", "cards_listed", "cards_picked",       # a combination as its code (combos.ComboTable)
})


class Module:
    """Generated functions and the namespace they run in."""

    def __init__(self, runtime: dict[str, Any]):
        self.namespace: dict[str, Any] = dict(runtime)
        self.chunks: list[str] = []
        self._consts: dict[int, str] = {}
        self._made: dict[str, str] = {}
        self._keep: list[Any] = []          # bound objects stay alive, so that their ids stay theirs
        self._count = 0
        self._locals: dict[str, str] = {}

    def name(self, prefix: str) -> str:
        """A new engine name: `_<prefix><number>` (the prefix is the engine's, never the rules')."""
        self._count += 1
        return f"_{prefix}{self._count}"

    def const(self, value: Any, prefix: str = "k") -> str:
        """A name in the namespace bound to `value` (the same object gets the same name)."""
        found = self._consts.get(id(value))
        if found is not None:
            return found
        name = self.name(prefix)
        self.namespace[name] = value
        self._consts[id(value)] = name
        self._keep.append(value)
        return name

    def made(self, key: str, make: Callable[[], Any]) -> str:
        """The name of a value made once per module (by `make`, when first asked for under `key`)."""
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = self.const(make(), key)
        return found

    def literal(self, value: Any) -> str:
        """A value as source: `repr` for the plain immutable kinds, a bound name for anything else."""
        if value is None or type(value) in (bool, int, str):
            return repr(value)
        return self.const(value)

    def local(self, rule_name: str) -> str:
        """The Python name of a local name of the rules."""
        found = self._locals.get(rule_name)
        if found is None:
            found = f"v_{rule_name}" if _PLAIN.match(rule_name) else f"w{len(self._locals)}"
            self._locals[rule_name] = found
        return found

    def add(self, chunk: str) -> None:
        self.chunks.append(chunk)

    def source(self) -> str:
        return "\n\n".join(self.chunks) + "\n"


def lazy_use(cell: str, text: str) -> str:
    """The use of a value kept in a cell (a list) when first needed: read if made, else made and kept."""
    return f"({cell}[0] if {cell} else _set({cell}, {text}))"


class Function:
    """One generated function: its lines, and the state's lists it reads through locals."""
    ALIASES = {"_Z": "s.zones", "_V": "s.vars", "_L": "s.loc", "_F": "s.face", "_B": "s.by"}

    def __init__(self, module: Module, name: str, params: str, pure: bool):
        self.module = module
        self.name = name
        self.params = params
        self.pure = pure              # reads the state only: its lists may be held in locals
        self.lines: list[str] = []
        self.aliases: set[str] = set()
        self.cells: dict[str, tuple[str, bool]] = {}     # hoisted text -> its cell, and whether it is eager
        self._uses: set[str] = set()
        self.temps = 0

    def state(self, alias: str) -> str:
        """A list of the state: through a local where that is safe. `gather` replaces the card
        lists (loc, face, by), so effects read those through the state each time."""
        if self.pure or alias in ("_Z", "_V"):
            self.aliases.add(alias)
            return alias
        return self.ALIASES[alias]

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def cell(self, text: str, eager: bool = False) -> str:
        """A value worked out at most once per call. Eager: first thing (it must not fail), into a local;
        else when first needed, into a list that holds it from then on."""
        found = self.cells.get(text)
        if found is None:
            found = self.cells[text] = (f"_h{len(self.cells)}", eager)
        name, eager = found
        use = name if eager else lazy_use(name, text)
        self._uses.add(use)
        return use

    def is_cell(self, text: str) -> bool:
        return text in self._uses

    def cell_lines(self, body: str = "") -> list[str]:
        """The statements that make the cells, in the order they were made (a cell may use an earlier one);
        given the body, only the cells it uses (a part folded away may have made some)."""
        cells = list(self.cells.items())
        used = set()
        for text, (name, _) in reversed(cells):
            if not body or re.search(rf"\b{name}\b", body) or any(
                    re.search(rf"\b{name}\b", t) for t, (other, _) in cells if other in used):
                used.add(name)
        return [f"{name} = {text if eager else '[]'}" for text, (name, eager) in cells if name in used]

    def fold_single(self, body: str) -> str:
        """The body with each cell that it and the other cells ask for once only written back in place: a
        cell pays for being kept (a list made, a test at each use), so only a part asked for again is kept.

        A kept-when-needed cell's use holds its text, so the texts are first read with each use replaced by
        a mark (the longest uses first: they hold the shorter), then a cell's uses are its marks."""
        cells = list(self.cells.items())
        if not cells:
            return body
        uses = {name: name if eager else lazy_use(name, text) for text, (name, eager) in cells}
        eager = {name: e for _, (name, e) in cells}
        mark = {name: f"\x01{k}\x02" for k, (_, (name, _)) in enumerate(cells)}
        longest = sorted(uses, key=lambda n: -len(uses[n]))

        def marked(text: str) -> str:
            for n in longest:
                if not eager[n]:
                    text = text.replace(uses[n], mark[n])
            for n in longest:
                if eager[n]:
                    text = re.sub(rf"\b{n}\b", mark[n], text)
            return text
        texts = {name: marked(text) for text, (name, _) in cells}
        top = marked(body)
        asked = {n: top.count(mark[n]) + sum(t.count(mark[n]) for m, t in texts.items() if m != n) for n in texts}
        folded = {n for n, k in asked.items() if k == 1}
        whole: dict[str, str] = {}

        def written(text: str) -> str:
            for n in texts:
                if mark[n] in text:
                    inner = whole.get(n)
                    if inner is None:
                        inner = whole[n] = written(texts[n])
                    text = text.replace(mark[n], f"({inner})" if n in folded else n if eager[n]
                                        else lazy_use(n, inner))
            return text
        body = written(top)
        self.cells = {written(texts[n]): (n, eager[n]) for _, (n, _) in cells if n not in folded}
        self._uses = {n if e else lazy_use(n, t) for t, (n, e) in self.cells.items()}
        return body

    def clear_cells(self) -> None:
        self.cells.clear()
        self._uses.clear()

    def emit(self, line: str, indent: int) -> None:
        self.lines.append("    " * indent + line)

    def text(self, head: list[str] | None = None) -> str:
        prologue = [f"    {a} = {self.ALIASES[a]}" for a in sorted(self.aliases)]
        prologue += [f"    {line}" for line in self.cell_lines("\n".join(self.lines))]
        return "\n".join([f"def {self.name}({self.params}):"] + (head or []) + prologue
                         + (self.lines or ["    pass"]))


def unsafe_names(source: str, namespace: dict[str, Any]) -> list[str]:
    """Names and attributes in generated source that its rules do not allow (empty: none)."""
    wrong: list[str] = []
    tree = ast.parse(source)
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef, ast.Lambda,
                             ast.AsyncFunctionDef, ast.Await, ast.Yield, ast.YieldFrom, ast.Delete)):
            wrong.append(type(node).__name__)
        elif isinstance(node, ast.FunctionDef) and not _ENGINE.match(node.name):
            wrong.append(f"def {node.name}")
        elif isinstance(node, ast.Name):
            name = node.id
            if not (_LOCAL.match(name) or name in BUILTINS or name in _PARAMS
                    or (_ENGINE.match(name) and (name in namespace or name in defined or _is_engine_local(name)))):
                wrong.append(name)
            if name in BUILTINS and not hasattr(builtins, name):
                wrong.append(name)
        elif isinstance(node, ast.Attribute) and node.attr not in ATTRIBUTES:
            wrong.append(f".{node.attr}")
        elif isinstance(node, ast.arg) and not (_LOCAL.match(node.arg) or node.arg in _PARAMS):
            wrong.append(f"argument {node.arg}")
    return wrong


def _is_engine_local(name: str) -> bool:
    """The names generated functions give their own locals: aliases, temporaries, cells, loop state."""
    return name in Function.ALIASES or re.match(r"_(t|h|seen|d|c|e|key|cards|loc|leaving|who|old|p|off|w)\d*\Z",
                                                name) is not None
