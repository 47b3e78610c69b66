"""The scripts of bench/ as modules, for the tests of the ones the suite checks (they are not a package)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_script(name: str) -> ModuleType:
    """bench/NAME.py, loaded afresh."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def bench_package(name: str) -> ModuleType:
    """bench/NAME/, a package of modules beside the scripts, loaded afresh with its modules."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]
    spec = importlib.util.spec_from_file_location(name, BENCH / name / "__init__.py",
                                                  submodule_search_locations=[str(BENCH / name)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
