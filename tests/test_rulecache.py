"""Checked rules are kept in the cache folder: used while no file read has changed, passed over when
damaged or not safely the user's own, never kept for a file with errors, and off with KOLODA_CACHE=."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from koloda.cli.main import main
from koloda.dsl import loader as loader_module
from koloda.dsl import pipeline, rulecache
from koloda.dsl.about import about
from koloda.dsl.errors import RuleErrors
from koloda.dsl.loader import shipped_path

VARIANT = "game: variant\nextends: {base}\ntitle: {title}\noptions:\n  suit_line: {{default: 3}}\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("KOLODA_CACHE", str(folder))
    return folder


@pytest.fixture
def checks(monkeypatch):
    """How many times a rule file was read and checked rather than taken from the cache."""
    count = [0]
    real = pipeline._checked

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(pipeline, "_checked", counted)
    return count


def variant(folder: Path, title: str = "Variant", base: str = "leopard") -> Path:
    path = folder / "variant.yaml"
    path.write_text(VARIANT.format(base=base, title=title), encoding="utf-8")
    return path


def entries(cache: Path) -> list[Path]:
    folder = cache / "checked"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_a_second_load_is_taken_from_the_cache(tmp_path, cache, checks):
    path = variant(tmp_path)
    spec, rules = pipeline.load_checked(str(path))
    assert checks[0] == 1 and len(entries(cache)) == 1
    again, again_rules = pipeline.load_checked(str(path))
    assert checks[0] == 1
    assert (again.title, again.fingerprint, again.options["suit_line"].default) == \
        (spec.title, spec.fingerprint, 3)
    assert again_rules is not rules and same(again_rules, rules)
    assert shared_nodes(again_rules) == shared_nodes(rules) > 0       # a node met twice is still one node


def shared_nodes(root) -> int:
    """How many nodes, lists and mappings are reached by more than one path (the engine keys some by identity)."""
    seen: dict[int, int] = {}
    stack = [root]
    while stack:
        o = stack.pop()
        if isinstance(o, type) or not (dataclasses.is_dataclass(o) or isinstance(o, (list, tuple, dict))):
            continue
        seen[id(o)] = seen.get(id(o), 0) + 1
        if seen[id(o)] > 1:
            continue
        if isinstance(o, dict):
            stack.extend(o.values())
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
        else:
            stack.extend(getattr(o, f.name) for f in dataclasses.fields(o))
    return sum(1 for n in seen.values() if n > 1)


def same(a, b) -> bool:
    """Equal field by field (the tree's nodes compare by identity)."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(same(getattr(a, f.name), getattr(b, f.name))
                                          for f in dataclasses.fields(a))
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return type(a) is type(b) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def test_a_changed_file_is_checked_again(tmp_path, cache, checks):
    path = variant(tmp_path, "Before")
    assert pipeline.load_checked(str(path))[0].title == "Before"
    variant(tmp_path, "After")
    assert pipeline.load_checked(str(path))[0].title == "After"
    assert checks[0] == 2


def test_a_changed_base_is_checked_again(tmp_path, cache, checks):
    base = tmp_path / "base.yaml"
    text = shipped_path("leopard").read_text(encoding="utf-8")
    base.write_text(text, encoding="utf-8")
    path = variant(tmp_path, base="base")
    low = pipeline.load_checked(str(path))[0].min_players
    base.write_text(text.replace("\nplayers: 2\n", "\nplayers: 2..3\n", 1), encoding="utf-8")
    spec = pipeline.load_checked(str(path))[0]
    assert checks[0] == 2 and (low, spec.max_players) == (2, 3)


def test_a_new_file_that_a_name_now_leads_to_is_read(tmp_path, cache, checks):
    """`extends: leopard` names the shipped game until a leopard.yaml stands beside the file."""
    path = variant(tmp_path)
    shipped = pipeline.load_checked(str(path))[0]
    near = shipped_path("leopard").read_text(encoding="utf-8").replace("\noptions:", "\noptions:\n  extra: 1", 1)
    (tmp_path / "leopard.yaml").write_text(near, encoding="utf-8")
    spec = pipeline.load_checked(str(path))[0]
    assert checks[0] == 2 and "extra" in spec.options and "extra" not in shipped.options


def test_file_names_in_messages_follow_the_working_folder(tmp_path, cache, checks, monkeypatch):
    path = variant(tmp_path)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    assert pipeline.load_checked("variant.yaml")[0].span.file == "variant.yaml"
    monkeypatch.chdir(tmp_path / "sub")
    assert pipeline.load_checked(str(path))[0].span.file == str(path)
    assert checks[0] == 2


def test_a_damaged_entry_is_passed_over_and_replaced(tmp_path, cache, checks):
    path = variant(tmp_path)
    pipeline.load_checked(str(path))
    [entry] = entries(cache)
    entry.write_bytes(b"\x80\x05not a pickle")
    assert pipeline.load_checked(str(path))[0].title == "Variant"
    assert pipeline.load_checked(str(path))[0].title == "Variant"
    assert checks[0] == 2


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file owners and modes are POSIX")
def test_an_entry_others_may_write_is_not_read(tmp_path, cache, checks):
    path = variant(tmp_path)
    pipeline.load_checked(str(path))
    [entry] = entries(cache)
    assert entry.stat().st_mode & 0o777 == 0o600 and (cache / "checked").stat().st_mode & 0o777 == 0o700
    entry.chmod(0o666)
    pipeline.load_checked(str(path))
    assert checks[0] == 2


def test_koloda_cache_set_and_empty_keeps_nothing(tmp_path, monkeypatch, checks):
    monkeypatch.setenv("KOLODA_CACHE", "")
    monkeypatch.chdir(tmp_path)
    path = variant(tmp_path)
    pipeline.load_checked(str(path))
    pipeline.load_checked(str(path))
    assert checks[0] == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["variant.yaml"]


def test_koloda_rule_cache_0_checks_every_time(tmp_path, cache, monkeypatch, checks):
    monkeypatch.setenv("KOLODA_RULE_CACHE", "0")
    path = variant(tmp_path)
    pipeline.load_checked(str(path))
    pipeline.load_checked(str(path))
    assert checks[0] == 2 and entries(cache) == []


def test_warnings_are_kept_with_the_rules(tmp_path, cache, checks):
    path = variant(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + "deal ends: 1 == 1\n", encoding="utf-8")
    first = pipeline.load_checked(str(path))[1].warnings
    again = pipeline.load_checked(str(path))[1].warnings
    assert checks[0] == 1 and first and [w.format() for w in again] == [w.format() for w in first]
    assert "always true or always false" in again[0].format() and "variant.yaml:6:" in again[0].format()


def test_a_file_with_errors_is_never_kept(tmp_path, cache, checks):
    path = variant(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + "deal ends: nosuchthing > 1\n", encoding="utf-8")
    messages = []
    for _ in range(2):
        with pytest.raises(RuleErrors) as caught:
            pipeline.load_checked(str(path))
        messages.append([e.format() for e in caught.value.errors])
    assert checks[0] == 2 and messages[0] == messages[1] and "variant.yaml:6:" in messages[0][0]
    assert entries(cache) == []


def test_only_the_newest_entries_are_kept(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(rulecache, "MAX_ENTRIES", 2)
    path = variant(tmp_path)
    for title in ("One", "Two", "Three"):
        variant(tmp_path, title)
        pipeline.load_checked(str(path))
        if title != "Three":
            newest = max(entries(cache), key=lambda p: p.stat().st_mtime_ns)
            os.utime(newest, ns=(0, {"One": 1, "Two": 2}[title] * 10**9))     # written in that order
    assert len(entries(cache)) == 2 and pipeline.load_checked(str(path))[0].title == "Three"
    variant(tmp_path, "Two")
    assert rulecache.lookup(path) is not None
    variant(tmp_path, "One")
    assert rulecache.lookup(path) is None


def test_another_engine_has_other_entries(tmp_path, cache, monkeypatch):
    path = variant(tmp_path)
    data = path.read_bytes()
    here = rulecache.entry_path(path, data)
    monkeypatch.setattr(rulecache, "_fingerprint", rulecache.engine_fingerprint() + "changed")
    assert here is not None and rulecache.entry_path(path, data) not in (None, here)


def test_koloda_list_says_the_same_from_the_cache(cache, monkeypatch):
    """The first `koloda list` reads every file and keeps what it shows; the next reads none."""
    monkeypatch.setenv("KOLODA_CACHE", "")
    plain = CliRunner().invoke(main, ["list"])
    monkeypatch.setenv("KOLODA_CACHE", str(cache))
    first = CliRunner().invoke(main, ["list"])

    def unread(*args, **kwargs):
        raise AssertionError("a rule file was read, not taken from the cache")
    monkeypatch.setattr(loader_module, "load_document", unread)
    again = CliRunner().invoke(main, ["list"])
    assert plain.exit_code == first.exit_code == again.exit_code == 0, again.output
    assert plain.output == first.output == again.output
    assert "bridge" in again.output and len(list((cache / rulecache.ABOUT).iterdir())) == again.output.count("\n")


def test_what_list_shows_follows_a_changed_base(tmp_path, cache):
    base = tmp_path / "base.yaml"
    text = shipped_path("leopard").read_text(encoding="utf-8")
    base.write_text(text, encoding="utf-8")
    path = variant(tmp_path, base="base")
    assert (about(str(path)).title, about(str(path)).max_players) == ("Variant", 2)
    base.write_text(text.replace("\nplayers: 2\n", "\nplayers: 2..3\n", 1), encoding="utf-8")
    assert about(str(path)).max_players == 3
