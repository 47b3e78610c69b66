"""koloda.dsl.loader: marks, duplicate keys, `extends:`, schema errors located at the key."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from koloda.api import load_spec
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.loader import load_file, merge, parse_yaml, resolve, validate

GAME = """\
game: base
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  pile: {visible: top}
  hand: {each: player, visible: owner}
vars:
  score: {each: player, start: 0}
  bonus: 5
phases:
  main:
    actions:
      pass: {do: end turn}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def rule_errors(path) -> list[RuleError]:
    with pytest.raises(RuleErrors) as info:
        load_file(str(path))
    return info.value.errors


# ------------------------------------------------------------------ marks
def test_mappings_lists_and_strings_remember_where_they_are():
    doc = parse_yaml("a:\n  b: [x, 'y', 3]\n  c: |\n    text\n", "f.yaml")
    assert (doc.span.line, doc.span.col) == (1, 1)
    assert doc.key_spans["a"].line == 1
    inner = doc["a"]
    assert (inner.key_spans["b"].line, inner.key_spans["b"].col) == (2, 3)
    items = inner["b"]
    assert (items.span.line, items.span.col) == (2, 6)
    assert (items[0].span.line, items[0].span.col) == (2, 7)
    assert items[0].plain and not items[1].plain
    assert (items[1].span.line, items[1].span.col) == (2, 11), "a quoted string starts after its quote"
    assert items[2] == 3 and (items[2].span.line, items[2].span.col) == (2, 15)
    assert inner["c"].span.line == 4, "a block scalar starts on the next line"
    assert doc.span.file == "f.yaml"


def test_a_folded_string_maps_each_line_back_to_the_file():
    text = ("a: >-\n  x and\n  (y if z\n      else w)\n\n  and v\n")
    value = parse_yaml(text, "f.yaml")["a"]
    lines = text.split("\n")
    for word in ("x", "(y", "else w", "and v"):
        offset = value.index(word)
        at, line, col = [seg for seg in value.segments if seg[0] <= offset][-1]
        col += offset - at
        assert lines[line - 1][col - 1:col - 1 + len(word)] == word, "a more indented line keeps its spaces"


def test_duplicate_key_is_an_error_at_the_second_key():
    with pytest.raises(RuleError) as info:
        parse_yaml("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert "key `a` is written twice" in info.value.message
    assert (info.value.span.line, info.value.span.col) == (3, 1)
    assert info.value.category == "yaml"


def test_nested_duplicate_key():
    with pytest.raises(RuleError) as info:
        parse_yaml("z:\n  p: {}\n  q: {}\n  p: {}\n", "f.yaml")
    assert (info.value.span.line, info.value.span.col) == (4, 3)


def test_yaml_syntax_error_is_located():
    with pytest.raises(RuleError) as info:
        parse_yaml("a: [1, 2\nb: 3\n", "f.yaml")
    assert info.value.message.startswith("YAML syntax error")
    assert info.value.span.file == "f.yaml" and info.value.span.line >= 1


def test_yaml_is_loaded_safely():
    with pytest.raises(RuleError):
        parse_yaml("a: !!python/object/apply:os.system ['true']\n", "f.yaml")


def test_a_file_must_be_a_mapping(tmp_path):
    path = write(tmp_path, "list.yaml", "- a\n- b\n")
    errors = rule_errors(path)
    assert "must be a mapping" in errors[0].message
    assert errors[0].category == "schema"


# ------------------------------------------------------------------ resolve
def test_resolve_shipped_and_paths(tmp_path):
    assert resolve("pony").name == "pony.yaml"
    path = write(tmp_path, "mine.yaml", GAME)
    assert resolve(str(path)) == path


def test_resolve_unknown_game_suggests_a_name():
    with pytest.raises(RuleError) as info:
        resolve("ponny")
    assert "no shipped game or rule file named `ponny`" in info.value.message
    assert info.value.hint == "did you mean `pony`?"


def test_resolve_missing_file(tmp_path):
    with pytest.raises(RuleError) as info:
        resolve(str(tmp_path / "nope.yaml"))
    assert "no such rule file" in info.value.message


# ------------------------------------------------------------------ extends
def test_extends_merges_deeply_and_variant_wins(tmp_path):
    write(tmp_path, "base.yaml", GAME)
    variant = write(tmp_path, "variant.yaml", """\
        game: variant
        extends: base.yaml
        players: 3
        zones:
          pile: {visible: all}
          discard: {}
        """)
    doc = load_file(str(variant))
    assert doc["game"] == "variant" and doc["players"] == 3
    assert "extends" not in doc
    assert set(doc["zones"]) == {"stock", "pile", "hand", "discard"}
    assert doc["zones"]["pile"] == {"visible": "all"}
    assert doc["zones"]["hand"] == {"each": "player", "visible": "owner"}
    # spans point into the file each key came from
    assert Path(doc["zones"].key_spans["discard"].file).name == "variant.yaml"
    assert Path(doc["zones"].key_spans["stock"].file).name == "base.yaml"


def test_extends_null_removes_a_key(tmp_path):
    write(tmp_path, "base.yaml", GAME)
    variant = write(tmp_path, "variant.yaml", """\
        game: variant
        extends: base.yaml
        vars:
          bonus: null
        zones:
          pile:
        """)
    doc = load_file(str(variant))
    assert "bonus" not in doc["vars"] and "score" in doc["vars"]
    assert "pile" not in doc["zones"] and "stock" in doc["zones"]
    spec, _ = load_spec(str(variant))
    assert "bonus" not in spec.vars


def test_extends_without_suffix_and_a_shipped_game(tmp_path):
    write(tmp_path, "base.yaml", GAME)
    variant = write(tmp_path, "v.yaml", "game: v\nextends: base\n")
    assert load_file(str(variant))["zones"]["stock"] == {"visible": "nobody"}
    shipped = write(tmp_path, "pony7.yaml", "game: pony7\nextends: pony\noptions:\n  hand: {default: 7, choices: [5, 7]}\n")
    spec, _ = load_spec(str(shipped))
    assert spec.name == "pony7" and spec.options["hand"].default == 7
    assert "limit" in spec.options


def test_extends_chain(tmp_path):
    write(tmp_path, "a.yaml", GAME)
    write(tmp_path, "b.yaml", "game: b\nextends: a.yaml\nplayers: 3\n")
    c = write(tmp_path, "c.yaml", "game: c\nextends: b.yaml\ndeck: piquet32\n")
    doc = load_file(str(c))
    assert (doc["game"], doc["players"], doc["deck"]) == ("c", 3, "piquet32")


def test_extends_loop_is_an_error(tmp_path):
    write(tmp_path, "a.yaml", "game: a\nextends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "game: b\nextends: a.yaml\n")
    errors = rule_errors(b)
    assert "`extends:` loops back" in errors[0].message


def test_extends_unknown_base_is_located_at_the_name(tmp_path):
    path = write(tmp_path, "v.yaml", "game: v\nextends: ponny\n")
    errors = rule_errors(path)
    assert "ponny" in errors[0].message
    assert (errors[0].span.line, errors[0].span.col) == (2, 10)
    assert errors[0].hint == "did you mean `pony`?"


def test_extends_must_be_a_name(tmp_path):
    path = write(tmp_path, "v.yaml", "game: v\nextends: [a, b]\n")
    errors = rule_errors(path)
    assert "`extends:` takes the name of a game or a path" in errors[0].message
    assert errors[0].span.line == 2


def test_merge_values():
    def y(text):
        return parse_yaml(text, "f.yaml")
    assert merge(y("a: 1"), y("b: 2")) == {"a": 1, "b": 2}
    assert merge(y("a: {x: 1}"), y("a: 5")) == {"a": 5}
    assert merge(y("a: {x: 1, y: 2}"), y("a: {y: null, z: 3}")) == {"a": {"x": 1, "z": 3}}
    assert merge(y("a: [1, 2]"), y("a: [3]")) == {"a": [3]}, "lists are replaced, not merged"


# ------------------------------------------------------------------ schema
def test_unknown_key_is_located_at_the_key_with_a_hint(tmp_path):
    path = write(tmp_path, "g.yaml", GAME.replace("vars:", "varz:"))
    errors = rule_errors(path)
    e = errors[0]
    assert e.message == "unknown key `varz`" and e.category == "schema"
    assert (e.span.line, e.span.col) == (8, 1)
    assert e.hint == "did you mean `vars`?"


def test_nested_unknown_key(tmp_path):
    path = write(tmp_path, "g.yaml", GAME.replace("pile: {visible: top}", "pile: {visibel: top}"))
    e = rule_errors(path)[0]
    assert "unknown key `visibel` in `zones.pile`" in e.message
    assert (e.span.line, e.span.col) == (6, 10)
    assert e.hint == "did you mean `visible`?"


def test_enum_error_at_the_value(tmp_path):
    path = write(tmp_path, "g.yaml", GAME.replace("visible: top", "visible: tpo"))
    e = rule_errors(path)[0]
    assert "`zones.pile.visible` cannot be 'tpo'" in e.message
    assert (e.span.line, e.span.col) == (6, 19)
    assert e.hint == "did you mean `top`?"


def test_type_error_in_words(tmp_path):
    path = write(tmp_path, "g.yaml", GAME.replace("deck: standard52", "deck: standard52\nace: high\nvalues: {A: eleven}"))
    e = rule_errors(path)[0]
    assert "`values.A` must be a whole number, not a string" in e.message
    assert e.span.line == 5


def test_missing_required_key(tmp_path):
    path = write(tmp_path, "g.yaml", "game: g\nplayers: 2\n")
    errors = rule_errors(path)
    messages = " ".join(e.message for e in errors)
    assert "the file needs `deck:`" in messages and "the file needs `phases:`" in messages
    assert len(errors) == 2, "every missing key is reported"


def test_all_schema_errors_are_collected(tmp_path):
    path = write(tmp_path, "g.yaml", GAME.replace("vars:", "varz:").replace("visible: top", "visible: tpo"))
    errors = rule_errors(path)
    assert len(errors) >= 2
    assert {(e.span.line) for e in errors} >= {6, 8}


def test_game_name_pattern(tmp_path):
    path = write(tmp_path, "g.yaml", GAME.replace("game: base", "game: Base Game"))
    e = rule_errors(path)[0]
    assert "game" in e.message and e.span.line == 1


def test_shipped_files_are_schema_valid():
    for name in ("pony", "peklo"):
        doc = load_file(name)
        assert validate(doc) == []


# ------------------------------------------------------------------ known bugs
@pytest.mark.parametrize("action", ["{}", ""])
def test_an_empty_action_loads(tmp_path, action):
    path = write(tmp_path, "g.yaml", GAME.replace("pass: {do: end turn}", f"pass: {{do: end turn}}\n      idle: {action}"))
    spec, _ = load_spec(str(path))
    assert "idle" in spec.phases[0].actions
