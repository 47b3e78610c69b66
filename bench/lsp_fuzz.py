"""Fuzz `koloda lsp --stdio` with malformed frames, for as long as asked.

    python bench/lsp_fuzz.py --count 1000 --seed 1 [--stalls]

A real `koloda lsp --stdio` is started as an editor starts it. Each frame is random or truncated
(see tests/lspwire.py: noise, JSON that is no message, cut JSON, bad UTF-8, odd ids, params and
positions, bad or huge Content-Length, overlong header lines, cut frames); after each, a hover on an
open rule file must still be answered with its reference. At the end the server must shut down with
code 0 and its standard error must hold no traceback, only one-line warnings. `--stalls` lets
frames claim more bytes than ever follow, so that the server must give up waiting on them (each
costs wire.STALL seconds). Exit status 1 if any problem was found.
"""
from __future__ import annotations

import argparse
import collections
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from lspwire import RULES, fuzz, start_process  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stalls", action="store_true", help="also frames that claim more bytes than follow")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="koloda-lsp-fuzz-") as where:
        folder = Path(where)
        shutil.copy(RULES / "pony.yaml", folder / "pony.yaml")
        (folder / "fuzz.yaml").write_text("game: fuzz\n", encoding="utf-8")
        process, wire = start_process(folder)
        started = time.monotonic()
        try:
            wire.initialize(folder)
            text = (folder / "pony.yaml").read_text("utf-8")
            uri = wire.open(folder / "pony.yaml", text)
            target = wire.open(folder / "fuzz.yaml")
            problems = fuzz(wire, uri, text, target, args.count, args.seed, args.stalls,
                            progress=lambda n: print(f"\r{n + 1} frames", end="", file=sys.stderr, flush=True))
            print(file=sys.stderr)
            if not problems:
                wire.request("shutdown", None)
                wire.notify("exit", None)
                code = process.wait(timeout=60)
                if code != 0:
                    problems.append(f"the server ended with code {code} after shutdown and exit")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=60)
        time.sleep(0.5)                 # the last of standard error
        errors = wire.stderr.decode("utf-8", "replace").splitlines()
    if any("Traceback" in line for line in errors):
        problems.append("standard error holds a traceback")
    problems += [f"not a one-line warning: {line[:200]}" for line in errors if not line.startswith("koloda lsp: ")]
    kinds = collections.Counter(line.split(": ", 2)[-1].split(" (")[0][:70] for line in errors)
    print(f"{args.count} frames (seed {args.seed}{', with stalls' if args.stalls else ''}) in "
          f"{time.monotonic() - started:.0f} s; {len(errors)} warnings on standard error, none a traceback"
          if not problems else f"{len(problems)} problems:")
    for line in problems[:20]:
        print(" ", line)
    print("most frequent warnings:")
    for said, n in kinds.most_common(12):
        print(f"  {n:5d}  {said}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
