"""The compiled modules (setup.py compiles the meld search, the state and the flow with mypyc) play
exactly as the Python source they are built from: the installed koloda, where it is compiled from this
checkout, replays the recorded transcripts of every game type (tests/golden/transcripts.json), since
every game runs through the compiled state and flow.

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
# every game recorded: each plays through the compiled state and flow, the meld games through the search too
GAMES = sorted(GOLDEN["digests"])

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


def _argv_of(hook: str, tmp_path: Path, monkeypatch) -> list[str]:
    """The command line setuptools' build backend runs setup.py with for a PEP 517/660 hook (what pip
    calls): the run of setup.py is stopped before it builds anything."""
    from setuptools import build_meta

    class Stopped(Exception):
        pass

    seen: list[list[str]] = []

    def run_setup(setup_script: str = "setup.py") -> None:
        seen.append(list(sys.argv))
        raise Stopped

    monkeypatch.setattr(sys, "argv", ["setup.py"])       # the backend sets it; restored after the test
    backend = build_meta._BuildMetaBackend()
    monkeypatch.setattr(backend, "run_setup", run_setup)
    with pytest.raises(Stopped):
        getattr(backend, hook)(str(tmp_path))
    return seen[0]


@pytest.fixture
def mypyc_calls(monkeypatch) -> list:
    """mypyc replaced by a recorder: what setup.py would compile, without compiling it."""
    import types
    calls: list = []
    fake = types.ModuleType("mypyc.build")
    fake.mypycify = lambda sources, **options: calls.append(sources) or ["compiled"]     # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mypyc", types.ModuleType("mypyc"))
    monkeypatch.setitem(sys.modules, "mypyc.build", fake)
    monkeypatch.delenv("KOLODA_PURE", raising=False)
    return calls


def test_an_editable_install_compiles_nothing(tmp_path, monkeypatch, mypyc_calls):
    # `pip install -e .` calls the backend's build_editable: modules compiled in place would shadow the source
    argv = _argv_of("build_editable", tmp_path, monkeypatch)
    setup = _setup()
    assert setup.editable(argv), argv
    assert setup.compiled_modules(argv) == [] and mypyc_calls == []
    assert setup.compiled_modules(["setup.py", "develop"]) == [] and mypyc_calls == []
    # nor does pip's first step, the metadata, for either kind of install: it builds no extension
    for hook in ("prepare_metadata_for_build_editable", "prepare_metadata_for_build_wheel"):
        argv = _argv_of(hook, tmp_path, monkeypatch)
        assert not setup.builds_extensions(argv), argv
        assert setup.compiled_modules(argv) == [] and mypyc_calls == []


def test_an_install_compiles_the_modules_named(tmp_path, monkeypatch, mypyc_calls):
    # `pip install .` calls build_wheel: that build compiles, as before
    argv = _argv_of("build_wheel", tmp_path, monkeypatch)
    setup = _setup()
    assert not setup.editable(argv), argv
    assert setup.compiled_modules(argv) == ["compiled"]
    assert mypyc_calls == [[_source(name) for name in MODULES]]
