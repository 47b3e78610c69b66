"""Hostile rule files that ask for too much work: lists that multiply, loops inside loops, numbers that
grow without end, and files that make the checker itself work hard.

Each case is a small rule file made in a temporary folder and run by the `koloda` command in a
process of its own: it must end with a located error (FILE:LINE:COL and a message naming the
construct) or a bounded run, and never with an internal error. The timeout only catches a hang;
no test here asserts how long anything took.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from koloda.dsl.limits import MAX_PROCEDURE_DEPTH

ROOT = Path(__file__).resolve().parent.parent
HANG = 120          # seconds: only a hang is this slow

GAME = """\
game: g
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
  pile: {{}}
vars:
  x: {{start: 1}}
{extra}
deal:
  - gather into stock
  - shuffle stock
  - deal 5 to each hand
{deal}
phases:
  main:
    actions:
      pass:
        {params}
        if: "{guard}"
        do: {do}
match: {{ends: "deal_number >= 2"}}
"""


def game_text(guard: str = "true", extra: str = "", do: str = "end deal", deal: str = "", params: str = "") -> str:
    return GAME.format(guard=guard, extra=extra, do=do, deal=deal, params=params)


def koloda(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "koloda.cli.main", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=HANG)


def assert_located(done: subprocess.CompletedProcess, message: str, line: int | None = None) -> str:
    """The command failed with a rule error at a place in g.yaml, saying `message`, and no internal error."""
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "internal error" not in out and "Traceback" not in out, out
    assert message in out, out
    first = next(row for row in out.splitlines() if row.startswith("g.yaml:") or "/g.yaml:" in row)
    where = first.split("g.yaml:", 1)[1].split(":")
    assert where[0].isdigit() and where[1].isdigit(), first
    if line is not None:
        assert int(where[0]) == line, first
    return out


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def nested(kind: str, depth: int, indent: int = 10) -> str:
    """`depth` loops of one kind inside one another, `x += 1` innermost, as an effect list's text."""
    rows = []
    for i in range(depth):
        pad = " " * (indent + 4 * i)
        head = {"repeat": "repeat: 1", "while": "while: x < 0", "for": f"for: p{i} in [me]",
                "if": "if: x > 0"}[kind]
        rows.append(f"{pad}- {head}\n{pad}  {'then' if kind == 'if' else 'do'}:")
    rows.append(" " * (indent + 4 * depth) + "- x += 1")
    return "\n" + "\n".join(rows) + "\n" + " " * indent + "- end deal"


# ------------------------------------------------------------------ the checker itself
@pytest.mark.parametrize("kind", ["repeat", "while", "for", "if"])
def test_loops_nested_as_deep_as_yaml_allows_check_and_play(tmp_path, kind):
    # 28 loops inside one another: checking them once each, not once for every kind of loop at every level
    write(tmp_path, game_text(do=nested(kind, 28)))
    done = koloda("check", "g.yaml", cwd=tmp_path)
    assert done.returncode == 0 and "g.yaml: ok" in done.stdout, done.stdout + done.stderr
    done = koloda("simulate", "g.yaml", "-n", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_effects_of_every_kind_nested_deep_check(tmp_path):
    rows, pad = [], 10
    for i, head in enumerate(["repeat: 1", "while: x < 0", "for: q in [me]", "if: x > 0"] * 7):
        rows.append(f"{' ' * (pad + 4 * i)}- {head}\n{' ' * (pad + 4 * i)}  {'then' if head.startswith('if') else 'do'}:")
    rows.append(" " * (pad + 4 * 28) + "- x += 1")
    write(tmp_path, game_text(do="\n" + "\n".join(rows) + "\n" + " " * pad + "- end deal"))
    done = koloda("check", "g.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_wrong_effect_deep_inside_loops_is_still_located(tmp_path):
    text = nested("repeat", 20).replace("- x += 1", "- x += ")
    write(tmp_path, game_text(do=text))
    assert_located(koloda("check", "g.yaml", cwd=tmp_path), "")


def procedure_chain(n: int) -> str:
    return "procedures:\n" + "\n".join(f"  p{i}(): p{i + 1}()" for i in range(n)) + f"\n  p{n}(): x += 1"


def test_a_chain_of_procedures_within_the_depth_plays(tmp_path):
    write(tmp_path, game_text(extra=procedure_chain(MAX_PROCEDURE_DEPTH - 1), do="[p0(), end deal]"))
    done = koloda("simulate", "g.yaml", "-n", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("n", [MAX_PROCEDURE_DEPTH, 500, 3000])
def test_a_long_chain_of_procedures_is_refused_where_it_starts(tmp_path, n):
    write(tmp_path, game_text(extra=procedure_chain(n), do="[p0(), end deal]"))
    out = assert_located(koloda("check", "g.yaml", cwd=tmp_path),
                         f"procedure `p0` runs procedures more than {MAX_PROCEDURE_DEPTH} deep", line=11)
    assert f"which runs … `p{MAX_PROCEDURE_DEPTH}`" in out
