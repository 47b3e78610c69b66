#!/usr/bin/env python3
"""What users wait for: loading each shipped rule file, building the parser, `koloda --help`, `koloda list`.

Every figure comes from a fresh Python process, as a user meets it:

* load        -- CPU time of ``koloda.load(name)`` once koloda is imported and its
                 expression parser is ready (imports warm), the rule file's checked
                 rules taken from the cache folder (filled by the first round; its
                 loads are each row's most);
* checked     -- the same with ``KOLODA_RULE_CACHE=0``: the file read, schema-checked,
                 parsed and checked afresh, as after an edit (the compiled code is
                 still cached);
* import      -- CPU time of importing the engine (``koloda.api``, with jsonschema, which
                 the loader imports when it first validates) in the same processes;
* parser      -- CPU time to get the expression parser ready: read from the parser
                 cache (the same processes), and built from the grammar (a process
                 with an empty cache folder);
* commands    -- wall and CPU time (user + system) of ``koloda --help`` and
                 ``koloda list``, interpreter start-up included, beside ``python -c pass``.

Rounds interleave everything measured (and every ``--root`` given, to set two
checkouts side by side); each figure is the median over the rounds, with the
least and the most. CPU time is what to compare on a busy machine: wall time
counts the time other work holds the cores.

Usage::

    python bench/loadtime.py                       # this checkout, 5 rounds
    python bench/loadtime.py --root . --root /tmp/koloda-before --rounds 7
    python bench/loadtime.py --only canasta funken --json
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOAD = """
import json, sys, time
t0 = time.process_time()
import jsonschema, koloda, koloda.api
from koloda.dsl import to_ast
t1 = time.process_time()
to_ast._parser()
t2 = time.process_time()
koloda.load(sys.argv[1])
t3 = time.process_time()
print(json.dumps({"import": t1 - t0, "parser": t2 - t1, "load": t3 - t2}))
"""

PARSER = """
import json, time
from koloda.dsl import to_ast
t0 = time.process_time()
to_ast._parser()
print(json.dumps({"build": time.process_time() - t0}))
"""

CLI = "import sys; from koloda.cli.main import main; sys.argv[0] = 'koloda'; main()"
COMMANDS = {"python -c pass": ["-c", "pass"], "koloda --help": ["-c", CLI, "--help"],
            "koloda list": ["-c", CLI, "list"]}


def child(root: Path, args: list[str], cache: str, **extra: str) -> tuple[str, float, float]:
    """Run python with `args` on the checkout at `root`: its output, wall seconds, CPU seconds."""
    env = dict(os.environ, PYTHONPATH=str(root), KOLODA_CACHE=cache, **extra)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, cwd=root)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed in {root}: python {' '.join(args)}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, wall, cpu


def shipped(root: Path) -> list[str]:
    out, _, _ = child(root, ["-c", "import koloda; print(' '.join(koloda.shipped_games()))"], "")
    return out.split()


def measure(roots: list[Path], games: list[str], rounds: int) -> dict[str, dict[str, list[float]]]:
    """root -> figure name -> one value per round (seconds)."""
    results: dict[str, dict[str, list[float]]] = {str(r): {} for r in roots}
    with tempfile.TemporaryDirectory(prefix="koloda-loadtime-") as tmp:
        warm = {str(r): str(Path(tmp) / f"cache-{i}") for i, r in enumerate(roots)}
        for root in roots:                        # fill each checkout's parser cache once
            child(root, ["-c", PARSER], warm[str(root)])
        for k in range(rounds):
            for root in roots:
                got = results[str(root)]
                for name in games:
                    out, _, _ = child(root, ["-c", LOAD, name], warm[str(root)])
                    figures = json.loads(out)
                    got.setdefault(f"load {name}", []).append(figures["load"])
                    got.setdefault("import koloda.api", []).append(figures["import"])
                    got.setdefault("parser, cached", []).append(figures["parser"])
                for name in games:
                    out, _, _ = child(root, ["-c", LOAD, name], warm[str(root)], KOLODA_RULE_CACHE="0")
                    got.setdefault(f"checked {name}", []).append(json.loads(out)["load"])
                empty = str(Path(tmp) / f"empty-{k}-{roots.index(root)}")
                out, _, _ = child(root, ["-c", PARSER], empty)
                got.setdefault("parser, built", []).append(json.loads(out)["build"])
                for label, args in COMMANDS.items():
                    _, wall, cpu = child(root, args, warm[str(root)])
                    got.setdefault(f"{label} (wall)", []).append(wall)
                    got.setdefault(f"{label} (CPU)", []).append(cpu)
            print(f"round {k + 1}/{rounds} done", file=sys.stderr)
    return results


def summary(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {"median": statistics.median(ms), "min": min(ms), "max": max(ms)}


def table(results: dict[str, dict[str, list[float]]]) -> str:
    roots = list(results)
    names = list(next(iter(results.values())))
    width = max(map(len, names)) + 2
    lines = [f"{'ms (median, min-max)':<{width}}" + "".join(f"{_short(r):>24}" for r in roots)]
    for name in names:
        cells = []
        for r in roots:
            s = summary(results[r][name])
            cells.append(f"{s['median']:8.1f} ({s['min']:.0f}-{s['max']:.0f})".rjust(24))
        lines.append(f"{name:<{width}}" + "".join(cells))
    return "\n".join(lines)


def _short(root: str) -> str:
    return root if len(root) <= 22 else "…" + root[-21:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", action="append", type=Path, metavar="DIR",
                    help="a koloda checkout to measure (default: this one); give two to compare them")
    ap.add_argument("--rounds", type=int, default=5, help="rounds, each measuring everything once (default 5)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="load only these shipped games")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON (milliseconds)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    roots = [r.resolve() for r in (args.root or [Path(__file__).resolve().parent.parent])]
    games = args.only or shipped(roots[0])
    results = measure(roots, games, args.rounds)
    if args.json:
        print(json.dumps({root: {name: summary(v) for name, v in figures.items()}
                          for root, figures in results.items()}, indent=1))
    else:
        print(f"{args.rounds} rounds, python {sys.version.split()[0]}, {os.cpu_count()} cores")
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
