"""Rule files read with libyaml's parser give what PyYAML's gives: the same values, the same places.

Where the two differ (a tab between tokens, `?` in a flow collection, a byte order mark), or when
libyaml finds fault, PyYAML reads the file alone, so its messages are the ones users see."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from koloda.dsl import loader
from koloda.dsl.errors import RuleError

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "koloda" / "rules").rglob("*.yaml"), *(ROOT / "tests").rglob("*.yaml")])
CHUNKS = [" ", "  ", "\n", ":", ": ", "- ", "'", '"', "[", "]", "{", "}", ",", "#", "&a ", "*a", "!", "!!str ",
          "|", ">", "|-", ">+", "%", "@", "`", "\\", "ё", "🃏", "\r\n", "---\n", "...\n", "\u00a0", "\u2028",
          "\x85", "\r", "\u0301", "%YAML 1.1\n---\n", "<<: *a\n", "&a\n", "a:b", "-x", ":x", "!x ", "*", "&", "x",
          "1", "0x1F", "~", "null"]

pytestmark = pytest.mark.skipif(loader._FastLoader is None, reason="PyYAML without libyaml")


def snapshot(value):
    """A value read from YAML with every mark it carries."""
    if isinstance(value, dict):
        return ("map", value.span, tuple((k, value.key_spans.get(k), snapshot(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", value.span, tuple(snapshot(v) for v in value))
    if isinstance(value, str):
        return ("str", str(value), value.span, tuple(value.segments), value.plain)
    return (type(value).__name__, value, getattr(value, "span", None))


def read(kind, text: str):
    try:
        return "read", snapshot(loader._read(kind(text), text, "f.yaml"))
    except Exception as exc:      # noqa: BLE001 — what each parser makes of it, error or value
        return "refused", type(exc).__name__


def mutant(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text) + 1)
        choice = rng.random()
        if choice < 0.5:
            text = text[:i] + rng.choice(CHUNKS) + text[i:]
        elif choice < 0.8:
            text = text[:i] + text[i + rng.randint(1, 5):]
        else:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[j:j + rng.randint(1, 40)] + text[i:]
    return text


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_of_the_project_reads_the_same(path):
    text = path.read_text(encoding="utf-8")
    fast = read(loader._FastLoader, text)
    if fast[0] == "read":
        assert fast == read(loader._Loader, text)


def test_damaged_files_read_the_same_whenever_libyaml_reads_them():
    rng = random.Random(20261130)
    texts = [p.read_text(encoding="utf-8") for p in FILES]
    compared = 0
    for _ in range(600):
        text = mutant(rng.choice(texts), rng)
        if loader.CONTROL_CHARACTERS.search(text.replace("\r", "")):
            continue
        fast = read(loader._FastLoader, text)
        if fast[0] == "read":
            assert fast == read(loader._Loader, text), text
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("text", ["game: g\nzones: {pile: {},\tstock: {}}\n", "game: g\nzones: {pi? le: {}}\n",
                                  "game: g\nzones:\n  main:\n\ufeff  pile: {}\n"])
def test_where_libyaml_differs_pyyaml_alone_reads(text):
    by_pyyaml = read(loader._Loader, text)
    assert read(loader._FastLoader, text) != by_pyyaml
    try:
        assert ("read", snapshot(loader.parse_yaml(text, "f.yaml"))) == by_pyyaml
    except RuleError:
        assert by_pyyaml[0] == "refused"


def test_a_fault_libyaml_finds_is_told_in_pyyaml_words():
    with pytest.raises(RuleError) as caught:
        loader.parse_yaml("game: g\nphases:\n  main:\n    actions: x\n   bad: 1\n", "f.yaml")
    assert caught.value.message == "this line is indented unlike the lines around it"
    assert (caught.value.span.line, caught.value.span.col) == (5, 4)
