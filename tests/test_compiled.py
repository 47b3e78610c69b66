"""The compiled modules (setup.py compiles the meld search with mypyc) play exactly as the Python
source they are built from: the installed koloda, where it is compiled from this checkout, replays
the recorded transcripts of the meld games and of two others (tests/golden/transcripts.json).

The rest of the suite imports koloda from the checkout, as plain Python; these tests run the
installed one in a subprocess started outside the checkout."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from koloda.interpreter.compiled import MODULES, compiled

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "tests" / "golden" / "transcripts.json").read_text())
# every game with melds (the opening search, the listings) and two that use the generated code's helpers alone
GAMES = ["canasta", "funken", "gin-rummy", "kunkin", "kunkin-big", "kunkin-discard-out", "lesenka", "splin",
         "splin-29g", "peklo", "pony"]

PROBE = """
import importlib, json, os, sys
from koloda.interpreter.compiled import MODULES, compiled
sources = {}
for name in MODULES:
    path = importlib.import_module(name).__file__
    source = os.path.join(os.path.dirname(path), name.rsplit(".", 1)[1] + ".py")
    sources[name] = open(source, encoding="utf-8").read() if os.path.exists(source) else None
print(json.dumps({"file": importlib.import_module("koloda").__file__, "compiled": compiled(), "sources": sources}))
"""


def _source(name: str) -> str:
    """The source file of a module, relative to the checkout, as setup.py names it."""
    return name.replace(".", "/") + ".py"


def _outside(tmp_path: Path) -> dict:
    """The environment of a Python that imports the installed koloda, not the checkout's."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return {"cwd": tmp_path, "env": env, "capture_output": True, "text": True}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """The installed koloda, where it is compiled from this checkout's source; the tests skip otherwise."""
    where = tmp_path_factory.mktemp("outside")
    done = subprocess.run([sys.executable, "-c", PROBE], **_outside(where))
    if done.returncode != 0:
        pytest.skip("koloda is not installed apart from this checkout")
    found = json.loads(done.stdout)
    if Path(found["file"]).resolve().parent == ROOT / "koloda":
        pytest.skip("the installed koloda is this checkout itself (an editable install), not compiled")
    if not found["compiled"]:
        pytest.skip("the installed koloda is plain Python (no C compiler, or KOLODA_PURE=1 when installed)")
    for name in MODULES:
        mine = (ROOT / _source(name)).read_text(encoding="utf-8")
        if found["sources"][name] != mine:
            pytest.skip(f"the installed koloda was built from other source than this checkout ({name})")
    found["where"] = where
    return found


def test_the_compiled_modules_are_those_setup_compiles(installed):
    assert installed["compiled"] == MODULES


def test_the_checkout_is_plain_python():
    # the rest of the suite tests the source itself; an in-place build would put compiled modules before it
    assert compiled() == [], "compiled modules in the checkout: remove the *.so files an in-place build left"


def _setup():
    """setup.py as a module (it builds nothing when imported)."""
    spec = importlib.util.spec_from_file_location("koloda_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_setup_compiles_the_modules_named():
    assert _setup()._compiled_sources() == [_source(name) for name in MODULES]
    for name in MODULES:
        assert (ROOT / _source(name)).exists(), name


def test_setup_builds_plain_python_when_asked(monkeypatch):
    monkeypatch.setenv("KOLODA_PURE", "1")
    assert _setup().compiled_modules() == []


def test_the_compiled_modules_play_the_recorded_games(installed):
    command = [sys.executable, str(ROOT / "bench" / "transcripts.py"), "--games", str(GOLDEN["games"]),
               "--seed", str(GOLDEN["seed"]), "--max-moves", str(GOLDEN["max_moves"]), "--json", "--only", *GAMES]
    done = subprocess.run(command, **_outside(installed["where"]))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)["digests"]
    for name in GAMES:
        assert found[name] == GOLDEN["digests"][name], f"{name}: the compiled modules play otherwise than the source"


def test_a_failed_compile_installs_no_compiled_module(tmp_path, monkeypatch):
    """Where the C compiler fails (none on the machine), what was built is removed and nothing else is
    built: one compiled module without the others cannot be imported, so the plain Python is installed."""
    pytest.importorskip("setuptools")
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext
    from setuptools.extension import Extension

    setup = _setup()
    dist = Distribution({"name": "koloda", "ext_modules": [Extension("koloda_made", ["made.c"]),
                                                          Extension("koloda_failed", ["failed.c"])]})
    command = setup.OptionalBuild(dist)
    command.build_lib = str(tmp_path)
    command.ensure_finalized()
    made = Path(command.get_ext_fullpath("koloda_made"))

    def fails(self):            # one module built, then the compiler fails on the next
        made.parent.mkdir(parents=True, exist_ok=True)
        made.write_bytes(b"built")
        raise RuntimeError("no C compiler")
    monkeypatch.setattr(build_ext, "run", fails)
    command.run()
    assert not made.exists() and command.extensions == []
