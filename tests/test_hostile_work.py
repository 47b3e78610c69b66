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
HANG = 300          # seconds: only a hang is this slow (the machine may be busy)

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
    first = next(row for row in out.splitlines() if "g.yaml:" in row)
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


# ------------------------------------------------------------------ lists that multiply, loops inside loops
PLAY = """\
import random, sys
import koloda
from koloda.interpreter.codegen import generate
generate.ALL_CHECKED = sys.argv[2] == "checked"
try:
    game = koloda.load(sys.argv[1])
    for seed in range(2):
        s = game.new_initial_state(seed)
        pick = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(pick.choice(s.legal_actions()))
except koloda.RuleErrors as e:
    print(e.errors[0].format())
    sys.exit(1)
except koloda.RuleError as e:
    print(e.format())
    sys.exit(1)
print("played")
"""


def play(tmp_path: Path, text: str, code: str) -> subprocess.CompletedProcess:
    """Two seeded random games of the file, by its fast generated code or (`code` "checked") by the flow
    written checked throughout (generate.ALL_CHECKED), as a failing fast function's recovery is."""
    write(tmp_path, text)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", PLAY, "g.yaml", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=HANG)


def repeats(*counts: int | str, body: str = "x += 1", indent: int = 10) -> str:
    rows = []
    for i, n in enumerate(counts):
        pad = " " * (indent + 4 * i)
        rows.append(f"{pad}- repeat: {n}\n{pad}  limit: 1000000\n{pad}  do:")
    rows.append(" " * (indent + 4 * len(counts)) + f"- {body}")
    return "\n" + "\n".join(rows) + "\n" + " " * indent + "- end deal"


WORK = "would pass the work one listing of moves, action or deal may take"
RUNAWAYS = {
    # lists that multiply
    "combinations of combinations": (dict(guard="count(a for a in combinations(stock, 3) "
                                                "if count(combinations([c for c in stock if c not in a], 3)) > 0) >= 0"),
                                     WORK, 21),
    "combinations of too many": (dict(guard="count(combinations(stock, 20)) >= 0"),
                                 "`combinations` of 20 from 42 items makes more than 65536 lists", 21),
    "subsets of subsets": (dict(guard="count([t for s in subsets(top(stock, 16)) for t in subsets(s)]) >= 0"),
                           WORK, 21),
    "comprehensions inside one another": (dict(guard="count([[a, b, c, d] for a in stock for b in stock "
                                                     "for c in stock for d in stock]) >= 0"), WORK, 21),
    "a product of parameters": (dict(params="with: [a in stock, b in stock, c in stock, d in stock, e in stock]"),
                                "listing the moves of `pass` " + WORK, 19),
    "a huge range": (dict(guard="count(1..x * 999999999) > 0"), "a range of 999,999,999 numbers " + WORK, 21),
    "a huge range of a parameter": (dict(params="with: n in 0..x * 999999999", guard="n >= 0"),
                                    "a range of 1,000,000,000 numbers " + WORK, 20),
    # runaways inside one action
    "repeats inside repeats": (dict(do=repeats("deal_number * 1000", "deal_number * 1000", "deal_number * 1000")), "`repeat:` running its `do:` 1000 times " + WORK,
                               29),
    "check events a million times": (dict(extra="events:\n  never:\n    when: x < 0\n    do: [x = 1]",
                                          do=repeats(1000000, body="check events")), "`check events` " + WORK, 29),
    "a number squared each round": (dict(do="\n          - x = 2\n" + repeats(40, body="x = x * x")[1:]),
                                    "`*` gives a number of", 27),
    "a number doubled each round": (dict(do=repeats(1000000, body="x += x")), "`x +=` gives a number of", 26),
    "a sum that grows": (dict(do=repeats(100, body="x = sum([x, x, x, x])")), "`sum` gives a number of", 26),
    "repeats inside repeats in the deal": (dict(deal="  - repeat: deal_number * 100000\n    limit: 1000000\n    do:\n"
                                                     "      - repeat: deal_number * 100000\n        limit: 1000000\n"
                                                     "        do: [x += 1]"), WORK, 18),
    "procedures that each run the next twice": (
        dict(extra="procedures:\n" + "\n".join(f"  p{i}(): [p{i + 1}(), p{i + 1}()]" for i in range(30))
         + "\n  p30(): x += 1", do="[p0(), end deal]"), "running `p", None),
    "functions that each call the next twice": (
        dict(extra="define:\n" + "\n".join(f"  f{i + 1}(int a): f{i}(a) + f{i}(a)" for i in range(40))
         + "\n  f0(int a): a", guard="f40(x) > 0"), "calling `f", None),
    "for loops inside one another": (dict(do=nested("for", 27).replace("in [me]", "in players")), WORK, None),
}


@pytest.mark.parametrize("code", ["fast", "checked"])
@pytest.mark.parametrize("case", list(RUNAWAYS))
def test_a_runaway_stops_with_a_located_error(tmp_path, case, code):
    parts, message, line = RUNAWAYS[case]
    done = play(tmp_path, game_text(**parts), code)
    assert_located(done, message, line)


def test_the_work_of_each_action_is_its_own(tmp_path):
    # each action may take much of the budget; the actions of a game together take far more than one budget
    do = repeats(900, 1000)
    text = game_text(do=do).replace('deal_number >= 2', 'deal_number >= 4')
    for code in ("fast", "checked"):
        done = play(tmp_path, text, code)
        assert done.returncode == 0 and "played" in done.stdout, done.stdout + done.stderr


def test_combinations_of_more_items_than_the_list_has_are_none(tmp_path):
    done = play(tmp_path, game_text(guard="count(combinations(my hand, 999999999)) == 0"), "checked")
    assert done.returncode == 0 and "played" in done.stdout, done.stdout + done.stderr


# ------------------------------------------------------------------ what the checker and the load see
def test_a_range_written_too_long_is_refused_by_the_checker(tmp_path):
    write(tmp_path, game_text(guard="count(1..999999999) > 0"))
    assert_located(koloda("check", "g.yaml", cwd=tmp_path), "this range holds 999,999,999 numbers", line=21)


def test_repeats_written_inside_one_another_are_refused_by_the_checker(tmp_path):
    write(tmp_path, game_text(do=repeats(1000, 1000, 1000)))
    assert_located(koloda("check", "g.yaml", cwd=tmp_path),
                   "`repeat:` runs its `do:` 1,000,000,000 times in all with the `repeat:`s around it", line=29)
    write(tmp_path, game_text(do=repeats(1000, 1000)))         # a million rounds: one action may
    assert koloda("check", "g.yaml", cwd=tmp_path).returncode == 0


def test_parameters_from_fixed_ranges_that_make_too_many_moves_are_refused_at_load(tmp_path):
    write(tmp_path, game_text(params="with: [a in 0..5000, b in 0..5000]"))
    assert_located(koloda("simulate", "g.yaml", "-n", "1", cwd=tmp_path),
                   "the parameters of `pass` make 25,010,001 moves", line=19)
