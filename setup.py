"""The build of koloda: its metadata is in pyproject.toml; this file adds the compiled modules.

The meld search (the opening search, the listing of melds and plays, card masks) runs hundreds of
thousands of times a match, and the state and its flow at every move, so they are compiled to C with
mypyc from the same typed Python source (docs/decisions.md, "The meld search compiled with mypyc",
"The state and the flow compiled with mypyc"). The Python source stays the reference
and the fallback: where mypyc or a C compiler is missing, or with `KOLODA_PURE=1` in the
environment, koloda is installed as plain Python and plays the same moves, only slower.

An editable install (`pip install -e .`) compiles nothing: it runs the checkout's source, and modules
compiled in place would shadow that source, so the tests and the edits would not run what is on disk.
"""
from __future__ import annotations

import ast
import os
import re
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _compiled_sources() -> list[str]:
    """The source files of the modules koloda/interpreter/compiled.py names, read without importing koloda."""
    listed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "koloda", "interpreter", "compiled.py")
    with open(listed, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "MODULES" for t in node.targets):
            return [name.replace(".", "/") + ".py" for name in ast.literal_eval(node.value)]
    raise ValueError("koloda/interpreter/compiled.py names no MODULES")


# the commands that install the checkout itself: PEP 660's build_editable (what `pip install -e` calls)
# runs setup.py as `editable_wheel`, the older `setup.py develop` as `develop`; both build extensions in place
EDITABLE_COMMANDS = frozenset({"editable_wheel", "develop"})
# the commands that only write the metadata (pip's first step, for an install as for an editable one):
# they build no extension, so mypyc need not check and translate the source for them
METADATA_COMMANDS = frozenset({"dist_info", "egg_info"})


def _commands(argv: list[str]) -> list[str]:
    """The setup commands of a command line: its bare words (options start with '-', their values
    are paths or numbers)."""
    return [arg for arg in argv[1:] if re.fullmatch(r"[a-z_]+", arg)]


def editable(argv: list[str]) -> bool:
    """Whether this run of setup.py (its command line, as setuptools' backend sets it) is an editable install."""
    return any(command in EDITABLE_COMMANDS for command in _commands(argv))


def builds_extensions(argv: list[str]) -> bool:
    """Whether this run of setup.py may compile the modules: not for an editable install, nor for
    metadata alone; any other command (bdist_wheel, build, sdist, ...) does as it always did."""
    commands = _commands(argv)
    return not editable(argv) and not all(command in METADATA_COMMANDS for command in commands)


def compiled_modules(argv: list[str] | None = None) -> list:
    """The extension modules to build: none for an editable install, where plain Python is asked for,
    or where mypyc cannot compile."""
    if os.environ.get("KOLODA_PURE", "") not in ("", "0"):
        return []
    argv = sys.argv if argv is None else argv
    if editable(argv):
        print("koloda: an editable install runs the checkout's source, without compiled modules", file=sys.stderr)
        return []
    if not builds_extensions(argv):
        return []
    try:
        from mypyc.build import mypycify
        return mypycify(_compiled_sources(), opt_level="3")
    except (Exception, SystemExit) as exc:      # mypy missing, or its check of the source failed
        print(f"koloda: installing plain Python, without compiled modules ({exc})", file=sys.stderr)
        return []


class OptionalBuild(build_ext):
    """The compiled modules are a speed-up: where they fail to compile (no C compiler), none of them is
    installed, since one without the others cannot be imported, and the plain Python is."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            print(f"koloda: installing plain Python, the compiled modules failed to build ({exc})", file=sys.stderr)
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []


if __name__ == "__main__":          # as pip's build runs it (a test imports it to ask what it would build)
    setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuild})
