"""The expression parser's tables are kept in the cache folder, and a bad cache costs only time."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from koloda.dsl import grammar_cache, to_ast
from koloda.dsl.errors import RuleError, Span

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = 'start: NAME ("+" NAME)*\n%import common.CNAME -> NAME\n%import common.WS\n%ignore WS\n'
OPTIONS = {"parser": "lalr", "propagate_positions": True}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("KOLODA_CACHE", str(folder))
    return folder


def the_file() -> Path:
    path = grammar_cache.cache_file(grammar_cache.cache_key(GRAMMAR, OPTIONS))
    assert path is not None
    return path


def no_building(monkeypatch):
    """From here on, building a parser from the grammar fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("the parser was built, not read from the cache")
    monkeypatch.setattr(grammar_cache, "Lark", type("NoLark", (), {"__new__": refuse, "load": grammar_cache.Lark.load}))


def works(parser) -> bool:
    return parser.parse("a + b").children[1] == "b"


def test_the_tables_are_written_once_and_read_after(cache, monkeypatch):
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))
    assert the_file().parent == cache and the_file().is_file()
    no_building(monkeypatch)
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))


def test_the_cache_is_private(cache):
    grammar_cache.cached_parser(GRAMMAR, **OPTIONS)
    if hasattr(os, "getuid"):
        assert cache.stat().st_mode & 0o777 == 0o700
        assert the_file().stat().st_mode & 0o077 == 0
    assert [p.name for p in cache.iterdir()] == [the_file().name]     # no temporary file left behind


def test_another_grammar_or_options_have_their_own_file(cache):
    grammar_cache.cached_parser(GRAMMAR, **OPTIONS)
    grammar_cache.cached_parser(GRAMMAR + "// changed\n", **OPTIONS)
    grammar_cache.cached_parser(GRAMMAR, parser="lalr")
    assert len(list(cache.iterdir())) == 3


@pytest.mark.parametrize("damage", [b"", b"not a key\n", b"garbage" * 100, "key only", "cut short", "flipped"])
def test_a_damaged_file_is_passed_over_and_written_again(cache, damage, monkeypatch):
    grammar_cache.cached_parser(GRAMMAR, **OPTIONS)
    good = the_file().read_bytes()
    key_line = good.split(b"\n", 1)[0] + b"\n"
    if damage == "key only":
        damage = key_line
    elif damage == "cut short":
        damage = good[:len(good) // 2]
    elif damage == "flipped":
        damage = key_line + bytes(b ^ 0x5A for b in good[len(key_line):])
    the_file().write_bytes(damage)
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))
    assert the_file().read_bytes().startswith(key_line)
    no_building(monkeypatch)                     # written again whole: the next start reads it
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))


def test_a_folder_that_cannot_be_made_is_passed_over(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("KOLODA_CACHE", str(blocker / "cache"))
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0, reason="the superuser writes anywhere")
def test_a_folder_that_cannot_be_written_is_passed_over(cache):
    cache.mkdir()
    cache.chmod(0o500)
    try:
        assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))
        assert list(cache.iterdir()) == []
    finally:
        cache.chmod(0o700)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_file_others_could_write_is_not_read(cache, monkeypatch):
    grammar_cache.cached_parser(GRAMMAR, **OPTIONS)
    the_file().chmod(0o666)
    built = []
    real = grammar_cache.Lark
    monkeypatch.setattr(grammar_cache, "Lark", lambda *a, **k: built.append(1) or real(*a, **k))
    monkeypatch.setattr(grammar_cache.Lark, "load", real.load, raising=False)
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))
    assert built == [1]
    assert the_file().stat().st_mode & 0o077 == 0          # replaced by a private one


def test_an_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("KOLODA_CACHE", "")
    monkeypatch.chdir(tmp_path)
    assert grammar_cache.cache_dir() is None
    assert works(grammar_cache.cached_parser(GRAMMAR, **OPTIONS))
    assert list(tmp_path.iterdir()) == []


def test_the_folder_follows_xdg_without_koloda_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("KOLODA_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert grammar_cache.cache_dir() == tmp_path / "xdg" / "koloda"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert grammar_cache.cache_dir() == tmp_path / "home" / ".cache" / "koloda"


def test_the_rule_parser_reads_its_tables_from_the_cache(cache, monkeypatch):
    build = to_ast._parser.__wrapped__          # the parser of a new process
    first = build()
    no_building(monkeypatch)
    again = build()
    where = Span("x.yaml", 3, 5)
    for text, start in [("sum(value(c) for c in p.hand) * (2 if finished() else 1)", "expr_start"), ("move c to pile", "effect_start")]:
        assert first.parse(text, start=start) == again.parse(text, start=start)
        assert to_ast.parse(text, start, where) is not None


def test_a_damaged_cache_still_parses_rules_in_a_new_process(cache):
    script = ("import koloda; koloda.load('pony'); "
              "from koloda.dsl.grammar_cache import cache_dir; print(sorted(p.name for p in cache_dir().iterdir()))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    (file,) = cache.glob("parser-*")          # (the compiled generated code is kept beside it, in generated/)
    file.write_bytes(b"\x80\x05damaged")
    shutil.rmtree(cache / "checked")          # else the checked rules are taken from the cache, unparsed
    second = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0 and second.stderr == "", second.stderr
    assert second.stdout == first.stdout
    assert file.read_bytes().startswith(grammar_cache.cache_key(
        (ROOT / "koloda" / "dsl" / "grammar.lark").read_text(encoding="utf-8"), dict(
            parser="lalr", start=list(to_ast.START_RULES), propagate_positions=True,
            maybe_placeholders=True)).encode())


def test_a_text_parsed_twice_is_placed_where_each_was_written():
    text = "sum(value(c) for c in p.hand) * 2"
    one = to_ast.parse(text, "expr_start", Span("a.yaml", 3, 7))
    two = to_ast.parse(text, "expr_start", Span("b.yaml", 10, 2))
    assert (one.span.file, one.span.line, two.span.file, two.span.line) == ("a.yaml", 3, "b.yaml", 10)
    assert one.span.col - 7 == two.span.col - 2 > 0           # the `*`, in each place
    assert type(one) is type(two)


def test_a_bad_text_is_reported_every_time_it_is_parsed():
    for where in (Span("a.yaml", 1, 1), Span("b.yaml", 4, 4)):
        with pytest.raises(RuleError) as caught:
            to_ast.parse("move c to", "effect_start", where)
        assert caught.value.span.file == where.file


def test_a_deep_text_is_refused_every_time_it_is_parsed():
    deep = "not " * 300 + "true"
    for where in (Span("a.yaml", 1, 1), Span("b.yaml", 4, 4)):
        with pytest.raises(RuleError, match="nested more than") as caught:
            to_ast.parse(deep, "expr_start", where)
        assert caught.value.span.file == where.file
