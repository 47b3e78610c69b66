"""No test asserts how long something took: a machine under load may take many times as long as a
quiet one. Runaways are bounded by counting steps; a hang is caught by a guard of a minute or more
(helpers.no_hang, timeouts of subprocesses and terminals)."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
CLOCKS = {"time", "perf_counter", "monotonic", "process_time", "perf_counter_ns", "monotonic_ns", "time_ns"}
HANG = 60           # the least a timeout may be: anything shorter can be reached by a slow machine


def reads_a_clock(node: ast.AST, started: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            if isinstance(f, ast.Attribute) and f.attr in CLOCKS and isinstance(f.value, ast.Name) \
                    and f.value.id == "time":
                return True
        if isinstance(sub, ast.Name) and sub.id in started:
            return True
    return False


def clock_names(tree: ast.AST) -> set[str]:
    """Names given a clock's reading (`started = time.perf_counter()`)."""
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            # `most, started = 0, time.time()`: each name with its own value
            pairs = zip(target.elts, node.value.elts) \
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) else [(target, node.value)]
            for name, value in pairs:
                if reads_a_clock(value, set()):
                    names.update(sub.id for sub in ast.walk(name) if isinstance(sub, ast.Name))
    return names


def test_no_assertion_reads_a_clock():
    found = []
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        started = clock_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and reads_a_clock(node.test, started):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, "assertions on elapsed time: " + ", ".join(found)


def test_timeouts_only_catch_hangs():
    short = []
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "timeout" and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, (int, float)) and node.value.value < HANG:
                short.append(f"{path.name}:{node.value.lineno} timeout={node.value.value}")
    assert not short, "timeouts a slow machine can reach: " + ", ".join(short)


def test_the_check_finds_what_it_looks_for():
    tree = ast.parse("import time\nstarted = time.perf_counter()\nmost, t0 = 0, time.time()\n"
                     "assert time.perf_counter() - started < 5\nassert elapsed < 2\nassert most < 3\n")
    started = clock_names(tree)
    asserts = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert started == {"started", "t0"}
    assert [reads_a_clock(a.test, started) for a in asserts] == [True, False, False]
