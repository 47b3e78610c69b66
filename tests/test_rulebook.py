"""`koloda explain`: every shipped game read back in words in each language, the wording of conditions,
golden rulebooks, --diff of two variants, and clean errors."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import koloda
from koloda.api import load_spec
from koloda.cli import explain as explain_cli
from koloda.cli.main import main
from koloda.dsl import resolved as R
from koloda.dsl.errors import Span
from koloda.dsl.labels import label_text
from koloda.rulebook import LANGUAGES, rulebook
from koloda.rulebook import en, ru
from koloda.rulebook.phrases import Phrases
from koloda.rulebook.words import Words

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_GAMES = [("pony", "en"), ("kunkin", "ru")]


def test_the_languages_have_the_same_phrases():
    assert set(en.PHRASES) == set(ru.PHRASES)
    assert set(explain_cli.LANGUAGES) == set(LANGUAGES)


def test_every_shipped_game_reads_in_every_language_with_its_actions_and_options():
    fallbacks: Counter[str] = Counter()
    for name in koloda.shipped_games():
        spec, _ = load_spec(name)
        for language in LANGUAGES:
            book = rulebook(name, None, language)
            text = book.markdown()
            fallbacks.update(book.fallbacks)
            for phase in spec.phases:
                for action, a in phase.actions.items():
                    assert f"**{label_text(a.label, action, language)}**" in text, (name, language, action)
            for option in spec.options:
                assert f"**{option}** = " in text, (name, language, option)
    # what is not said in words is quoted from the file: none of the shipped games needs it today
    assert fallbacks == Counter(), fallbacks


def test_a_construct_without_words_is_quoted_and_counted():
    _, rules = load_spec("pony")
    words = Words(rules, Phrases("en"), {})
    said = words(R.Invalid(Span("nowhere.yaml", 1, 1), "int"))
    assert said.nom.startswith("`") and words.fallbacks == Counter({"Invalid": 1})


FOLLOW = """\
extends: hearts
game: hearts-plain-follow
define:
  follows(card c): c.suit == led() or not any(d.suit == led() for d in my hand)
"""


def test_a_follow_suit_condition_in_words(tmp_path):
    path = tmp_path / "follow.yaml"
    path.write_text(FOLLOW, encoding="utf-8")
    english = rulebook(str(path), None, "en").markdown()
    assert ("**follows**(c) is the suit of card c is “led”, or there is no card d in your hand where "
            "the suit of card d is “led”") in english
    russian = rulebook(str(path), None, "ru").markdown()
    assert ("**follows**(c): масть карты c — «led», или ни для одного d из стопки «рука» у вас не верно, что "
            "масть карты d — «led»") in russian


@pytest.mark.parametrize("name,language", GOLDEN_GAMES)
def test_golden_rulebooks(name, language):
    """A change of wording shows here; rewrite the file with `koloda explain NAME --lang L` once it reads well."""
    expected = (GOLDEN / f"explain_{name}_{language}.md").read_text(encoding="utf-8")
    assert rulebook(name, None, language).markdown() == expected


def test_options_in_force_are_said_where_the_rules_use_them():
    text = rulebook("kunkin", {"limit": "300"}, "en").markdown()
    assert "**limit** = 300 (the default is 200)" in text
    assert "is at least 300 (option “limit”)" in text


def run(*args: str):
    return CliRunner().invoke(main, ["explain", *args])


def test_diff_of_a_variant_lists_the_rules_it_changes():
    result = run("--diff", "kunkin", "kunkin-discard-out")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "### Definitions: keep" in out and "- **keep** is 0" in out and "- **keep** is 1" in out
    # the rules that read the same but use `keep` through other definitions
    for action in ("meld", "lay_off", "swap", "take", "discard"):
        assert f"### Phase “play”: action:{action}\n" in out, action
    for unchanged in ("action:draw", "action:wait", "The deal", "Scoring"):
        assert unchanged not in out


def test_diff_of_two_option_sets():
    result = run("kunkin", "--diff", "limit=200", "limit=100,hand=10", "--lang", "ru")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "### Параметры партии: limit" in out and "### Параметры партии: hand" in out
    assert "### Партия: ends" in out and "### Сдача: deal" in out
    assert "decks" not in out


def test_a_diff_of_the_same_rules_says_so():
    result = run("pony", "--diff", "hand=5", "limit=100")
    assert result.exit_code == 0 and "The two give the same rules." in result.output


@pytest.mark.parametrize("args,message", [
    (["no-such-game"], "no shipped game or rule file named `no-such-game`"),
    (["pony", "-o", "colour=red"], "unknown option `colour` for pony"),
    (["pony", "-o", "hand=6"], "option `hand` is one of 5, 7, not 6"),
    (["pony", "-o", "hand"], "`hand` is not key=value"),
    ([], "name a game or a rule file"),
    (["--diff", "pony", "no-such-game"], "no shipped game or rule file named `no-such-game`"),
])
def test_user_errors_are_clean(args, message):
    result = run(*args)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_an_unknown_language_is_refused():
    result = run("pony", "--lang", "de")
    assert result.exit_code == 2 and "'de' is not one of 'en', 'ru'" in result.output


GATED = """\
extends: pony
game: pony-gated
vars:
  gate_play: {start: 0, label: {en: play gate, ru: ворота игры}}
  gate_draw: {start: 0, label: {en: draw gate, ru: ворота взятия}}
  gate_pass: {start: 0, label: {en: pass gate, ru: ворота паса}}
  gate_name: {start: 0, label: {en: name gate, ru: ворота масти}}
phases:
  play:
    actions:
      play: {if: playable(c) and gate_play == 0}
      draw: {if: gate_draw == 0}
      pass: {if: gate_pass == 0}
      name: {if: gate_name == 0}
"""


@pytest.mark.parametrize("language, allowed, gates", [
    ("en", "allowed when", {"play": "play gate", "draw": "draw gate", "pass": "pass gate", "name": "name gate"}),
    ("ru", "можно, если", {"play": "ворота игры", "draw": "ворота взятия", "pass": "ворота паса",
                           "name": "ворота масти"}),
])
def test_every_action_condition_is_read_back(tmp_path, language, allowed, gates):
    """Each action's `if:` is told under that action: a rulebook that dropped one would not say it."""
    path = tmp_path / "gated.yaml"
    path.write_text(GATED)
    spec, _ = load_spec(str(path))
    text = rulebook(str(path), None, language).markdown()
    actions = {name: a for phase in spec.phases for name, a in phase.actions.items()}
    for name, gate in gates.items():
        head = f"- **{label_text(actions[name].label, name, language)}**"
        assert head in text, (name, language)
        for section in text.split(head)[1:]:            # every step that offers the action
            own = section.split("\n- **")[0]            # up to the next action
            condition = [line for line in own.splitlines() if allowed in line]
            assert condition and gate in condition[0], (name, language, own[:300])
