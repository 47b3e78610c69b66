"""Mutants of the shipped rule files, and a judge of what koloda does with each.

A mutant is a shipped file with one change: a key deleted, duplicated or given
another's value; a scalar of another type, huge, negative, empty or in another
script; a word of an expression replaced, dropped or doubled. koloda must answer
each with a rule error (or play it), never with a Python traceback or a hang.
Used by tests/test_fuzz.py (a quick seeded run) and bench/fuzz.py (long runs).
"""
from __future__ import annotations

import random
import re
import signal
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

import koloda
from koloda.dsl.errors import MAX_MESSAGE, RuleError, RuleErrors
from koloda.dsl.loader import shipped_names, shipped_path
from koloda.interpreter.base.errors import IllegalAction, RuleRuntimeError

ODD_VALUES: list[Any] = [None, "", 0, -1, 1, 2, 10**9, 10**12, "9" * 60, -(10**6), True, False, [], {}, [1, 2],
                         {"x": 1}, "ё", "🃏", "ж" * 300, "x" * 5000, "option.nothing", "..", "/etc/passwd",
                         "stock", "hand", "players", "me", "1e400", "2024-01-05", "none", 3.5]
WORDS = ["me", "players", "stock", "hand", "pile", "row", "not", "and", "or", "+", "-", "*", "//", "(", ")", "[",
         "]", ".", ",", "==", "in", "for", "if", "else", "0", "1", "999999999999", "none", "true", "my", "sum",
         "count", "move", "to", "goto", "end turn", "ask", "melds_in", "c", "p", "x", "option.hand", "ёж", "\\"]
TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+|==|!=|<=|>=|//|[^\sA-Za-z_0-9]")


# what jsonschema says in its own words, and a value dumped into a message
SCHEMA_WORDS = ("is not valid under any of the given schemas", "should be non-empty", "does not match",
                "is a required property", "is not of type", "{'", "['")


def plain(error) -> list[str]:
    """What is wrong with an error's words: too long, or the schema's own (empty: nothing)."""
    problems = [f"{len(text)} characters: {text[:80]}…" for text in (error.message, error.hint or "")
                if len(text) > MAX_MESSAGE]
    problems += [f"schema words {w!r}: {error.message}" for w in SCHEMA_WORDS if w in error.message]
    return problems


@dataclass
class Outcome:
    name: str
    kind: str          # "ok", "rule error", "traceback", "hang"
    detail: str = ""
    seconds: float = 0.0


def mutant(text: str, rng: random.Random) -> str:
    """The rule file `text` with one random change."""
    doc = yaml.safe_load(text)
    choice = rng.random()
    if choice < 0.12:                     # a line written twice, or dropped
        lines = text.splitlines()
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines.insert(i, lines[i])
        else:
            del lines[i]
        return "\n".join(lines) + "\n"
    places = list(_places(doc, ()))
    path, value = rng.choice(places)
    if isinstance(value, str) and rng.random() < 0.6:
        new: Any = _mutate_expression(value, rng)
    elif rng.random() < 0.2 and len(path) > 0:
        _delete(doc, path)
        return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    elif rng.random() < 0.2:
        new = rng.choice(places)[1]       # another place's value
    else:
        new = rng.choice(ODD_VALUES)
    doc = _replace(doc, path, new)
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)


def _places(node: Any, path: tuple):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _places(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _places(v, path + (i,))


def _replace(node: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    node[path[0]] = _replace(node[path[0]], path[1:], new)
    return node


def _delete(node: Any, path: tuple) -> None:
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]


def _mutate_expression(text: str, rng: random.Random) -> str:
    tokens = TOKEN.findall(text)
    if not tokens:
        return rng.choice(WORDS)
    i = rng.randrange(len(tokens))
    action = rng.random()
    if action < 0.4:
        tokens[i] = rng.choice(WORDS)
    elif action < 0.6:
        del tokens[i]
    elif action < 0.8:
        tokens.insert(i, rng.choice(WORDS))
    else:
        tokens[i] = tokens[i] * rng.choice((2, 50))
    return " ".join(tokens)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def judge(path: Path, moves: int = 150, seconds: float = 10.0, seed: int = 0) -> Outcome:
    """Check and load a rule file and play a few random moves; say how it went. A hang is a load or
    one move (listing the legal moves and applying one) that takes more than `seconds`."""
    started = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        try:
            game = koloda.load(str(path))
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            for _ in range(moves):
                if s.is_terminal():
                    break
                signal.setitimer(signal.ITIMER_REAL, seconds)       # each move has the whole budget
                s.apply_action(rng.choice(s.legal_actions()))
            kind, detail = "ok", ""
        except (RuleError, RuleErrors, RuleRuntimeError, IllegalAction) as exc:
            kind, detail = "rule error", str(exc).splitlines()[0][:200]
        except _Hang:
            kind, detail = "hang", f"more than {seconds:.0f} s on one step"
        except RecursionError:
            kind, detail = "traceback", "RecursionError"
        except Exception:         # noqa: BLE001 — this is what the fuzzer looks for
            kind, detail = "traceback", traceback.format_exc(limit=-3)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return Outcome(path.name, kind, detail, time.perf_counter() - started)


def run(count: int, seed: int, folder: Path, moves: int = 150, seconds: float = 10.0,
        games: list[str] | None = None) -> list[Outcome]:
    """`count` mutants of the shipped files (seeded), each judged."""
    rng = random.Random(seed)
    names = games or shipped_names()
    texts = {n: shipped_path(n).read_text(encoding="utf-8") for n in names}      # type: ignore[union-attr]
    outcomes = []
    for k in range(count):
        name = rng.choice(names)
        text = mutant(texts[name], rng)
        sub = folder / f"m{k}"
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        outcome = judge(path, moves, seconds, seed=k)
        outcome.name = f"m{k}/{name}.yaml"
        outcomes.append(outcome)
    return outcomes
