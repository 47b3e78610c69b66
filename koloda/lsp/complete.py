"""What may be written at a position of a rule file: keys where a key goes, attributes after a dot,
effects where an effect starts, a word variable's words where one of its values goes, and otherwise
the names in scope, the built-ins and the keywords."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
import re

from koloda.dsl import resolved as R
from koloda.dsl.model import Spec
from koloda.dsl.types import PLAYER, SIDE, enum_words, is_enum
from koloda.lsp import context
from koloda.lsp.names import (CONSTANT, KEYWORD, Name, attributes, builtin_names, local_types, options, own_names,
                              player_names, type_of_chain)

_CHAIN = re.compile(r"((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\.(\w*)$")
_MY = re.compile(r"\bmy\s+(\w*)$")
_WORD = re.compile(r"[A-Za-z_]\w*$")
# where one of a word variable's values goes: `contract == `, `my contract != `, `set p.contract to `,
# `contract in [grand, ` (the value being typed, if any, is the last group)
_VALUE_OF = re.compile(r"(?:\bset\s+((?:my\s+)?[A-Za-z_][\w.]*)\s+to\s+"
                       r"|\b((?:my\s+)?[A-Za-z_][\w.]*)\s*(?:==|!=)\s*"
                       r"|\b((?:my\s+)?[A-Za-z_][\w.]*)\s+(?:not\s+)?in\s+\[(?:\s*\w+\s*,)*\s*)\w*$")


@lru_cache(maxsize=1)
def keywords() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the words an effect starts with, every word of the language), read from its grammar so that a
    new construct is offered as soon as the grammar has it."""
    grammar = resources.files("koloda.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    words = sorted(set(re.findall(r'"([a-z]+)"', grammar)))
    block = re.search(r"^\?effect:(.*?)^\?target", grammar, re.S | re.M)
    starts: list[str] = []
    for alternative in re.split(r"^\s*\|", block.group(1) if block else "", flags=re.M):
        first = re.match(r'\s*(?:\?effect:)?\s*"([a-z]+)"', alternative)
        # a word kept free as a name is a terminal whose pattern begins with it (`_MOVE.2: /move\b…/`)
        terminal = re.match(r'\s*(?:\?effect:)?\s*(_[A-Z]+)\b', alternative)
        word = first.group(1) if first else _terminal_word(grammar, terminal.group(1)) if terminal else None
        if word and word not in starts:
            starts.append(word)
    # the effects whose first word is a name or a pattern in the grammar
    starts += [w for w in ("reverse direction", "check events") if w.split()[-1] in grammar]
    return tuple(starts), tuple(words)


def _terminal_word(grammar: str, terminal: str) -> str | None:
    found = re.search(rf"^{terminal}(?:\.\d+)?:\s*/([a-z]+)\\b", grammar, re.M)
    return found.group(1) if found else None


def complete(lines: list[str], line: int, col: int, spec: Spec | None, rules: R.Rules | None) -> list[Name]:
    where = context.place(lines, line, col)
    before = where.before
    if where.kind == context.KEY:
        return [Name(k, KEYWORD, "key") for k in where.keys]
    if where.kind == context.TEXT:
        return []
    chain = _CHAIN.search(before)
    if chain:
        return _after_dot(chain.group(1).split("."), "\n".join(lines), spec, rules)
    if _MY.search(before):
        return player_names(spec, rules)
    found = list(own_names(spec, rules).values()) + list(builtin_names().values())
    values = _words_of(before, "\n".join(lines), spec, rules)
    if values:              # a word variable's value: its words first, then whatever else may stand there
        return values + found
    effect_words, words = keywords()
    if where.kind == context.EFFECT:
        block_keys = context.effect_keys() if re.search(r"(?:^|-\s+)\w*$", before) else ()
        starts = [Name(w, KEYWORD, "effect") for w in effect_words]
        return starts + [Name(k, KEYWORD, "block") for k in block_keys] + found + \
            [Name(w, KEYWORD, "keyword") for w in words if w not in effect_words]
    return found + [Name(w, KEYWORD, "keyword") for w in words]


def _words_of(before: str, text: str, spec: Spec | None, rules: R.Rules | None) -> list[Name]:
    """The words of the word variable whose value is being written before the cursor, if it is one."""
    value = _VALUE_OF.search(before)
    if value is None:
        return []
    written = next(g for g in value.groups() if g is not None)
    chain = written.replace("my ", "my.", 1).split(".")
    name = chain[-1]
    if chain[0] == "my":
        chain = chain[1:]
    t = type_of_chain(chain, spec, rules, local_types(text, spec))
    if t is None or not is_enum(t):
        return []
    return [Name(w, CONSTANT, f"a word of `{name}`") for w in enum_words(t)]


def _after_dot(chain: list[str], text: str, spec: Spec | None, rules: R.Rules | None) -> list[Name]:
    if chain == ["option"]:
        return list(options(spec).values())
    if chain[0] == "my":
        chain = chain[1:]
    t = type_of_chain(chain, spec, rules, local_types(text, spec))
    if t in (PLAYER, SIDE):
        return player_names(spec, rules, side=t == SIDE)
    if t is not None and t.startswith("list:"):
        return attributes("list")
    if t is not None and t not in ("card", "zone", "plan", "grid"):
        return []                    # a number, a rank, a suit ... has no attributes
    return attributes(t)
