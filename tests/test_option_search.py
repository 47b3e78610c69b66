"""An option's `search:` (docs/language.md, options): the values a design search tries, checked
against the values the option takes, with located errors; it changes nothing in play."""
from __future__ import annotations

from pathlib import Path

import pytest

from koloda.api import load, load_spec
from koloda.dsl.errors import RuleError, RuleErrors
from tests.test_tune_search import DUEL


def _spec(tmp_path: Path, option: str):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL.replace("options:\n", f"options:\n  {option}\n"), encoding="utf-8")
    return load_spec(str(path))[0]


def _errors(tmp_path: Path, option: str) -> list[str]:
    with pytest.raises((RuleError, RuleErrors)) as caught:
        _spec(tmp_path, option)
    found = caught.value.errors if isinstance(caught.value, RuleErrors) else [caught.value]
    return [e.format(with_source=False) for e in found]


def test_a_range_or_a_list_of_values_to_search(tmp_path):
    spec = _spec(tmp_path, "bonus: {default: 3, min: 0, search: 1..5}")
    assert spec.options["bonus"].search == (1, 5) and spec.options["bonus"].high is None
    assert _spec(tmp_path, "bonus: {default: 3, choices: [3, 4, 6], search: [3, 6]}").options["bonus"].search == [3, 6]
    assert _spec(tmp_path, "flag: {default: false, search: [true]}").options["flag"].search == [True]
    assert _spec(tmp_path, "bonus: {default: 3}").options["bonus"].search is None


@pytest.mark.parametrize("option, words", [
    ("flag: {default: false, search: 0..1}", "a range is for a whole-number option"),
    ("bonus: {default: 5, choices: [5, 7], search: 5..7}", "a range is for a whole-number option without `choices:`"),
    ("bonus: {default: 3, min: 0, search: -1..5}", "reaches -1, a value the option does not take (at least 0)"),
    ('bonus: {default: 3, search: "5..1"}', "the low end is above the high end"),
    ("bonus: {default: 3, choices: [3, 4], search: [3, 5]}", "5 is not a value of the option (one of 3, 4)"),
    ("bonus: {default: 3, search: abc}", "`options.bonus.search` cannot be 'abc'"),
])
def test_a_search_the_option_cannot_take_is_refused_where_it_is(tmp_path, option, words):
    errors = _errors(tmp_path, option)
    assert len(errors) == 1 and words in errors[0] and errors[0].startswith(f"{tmp_path / 'duel.yaml'}:6:"), errors


def test_pony_searches_its_limit_and_takes_any_limit_as_before():
    spec, _ = load_spec("pony")
    limit = spec.options["limit"]
    # the rules take any limit from 1 (as -o limit=1000 did); a search tries 30..150
    assert (limit.default, limit.low, limit.high, limit.search) == (100, 1, None, (30, 150))
    game = load("pony", {"limit": "1000"})
    assert game.options["limit"] == 1000
