"""Every guard a player can fail, in every shipped game, says why in the player's words, in English and in
Russian: the condition's `help:` (an `if:` written as a list), else the action's."""
from __future__ import annotations

from pathlib import Path

import pytest

import koloda
from koloda.dsl.labels import Help

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.stem for p in (ROOT / "koloda" / "rules").glob("*.yaml"))
LANGUAGES = ("en", "ru")


def unexplained(name: str) -> list[str]:
    """The guards of a game without a help text in each language: `phase.action` (or `phase.action #2`
    for the second condition of a list), and the languages missing."""
    game = koloda.load(name)
    missing = []
    for phase, spec in zip(game.rules.phases, game.spec.phases):
        for action_name, action in phase.actions.items():
            if action.guard is None:
                continue
            written = spec.actions[action_name]
            if action.conditions:
                helps = [(f"{phase.name}.{action_name} #{k}", h) for k, (_, h) in enumerate(action.conditions, 1)]
                # a condition without help of its own is said with the action's
                helps = [(where, h if str(h) else written.help) for where, h in helps]
            else:
                helps = [(f"{phase.name}.{action_name}", written.help)]
            for where, h in helps:
                have = h.languages() if isinstance(h, Help) else set()
                lacking = [lang for lang in LANGUAGES if lang not in have]
                if lacking:
                    missing.append(f"{where}: no help in {', '.join(lacking)}")
    return missing


@pytest.mark.parametrize("name", GAMES)
def test_every_guard_says_why_in_both_languages(name):
    assert unexplained(name) == []


HALF = """\
game: half
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      play:
        help: {en: a card of rank 5 or more}
        with: c in my hand
        if: c.rank >= 5
        do: end turn
      draw:
        if:
          - {if: stock.size > 0, help: {en: the stock is empty, ru: колода пуста}}
          - my hand.size < 5
        do: [move stock.top to my hand, end turn]
      pass: {do: end turn}
deal ends: my hand.size == 0
match: {ends: "true"}
"""


def test_the_check_names_each_guard_and_language_missing(tmp_path, monkeypatch):
    path = tmp_path / "half.yaml"
    path.write_text(HALF, encoding="utf-8")
    monkeypatch.setattr(koloda, "load", lambda name, _load=koloda.load: _load(str(path)))
    assert unexplained("half") == ["main.play: no help in ru", "main.draw #2: no help in en, ru"]


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_of_a_shipped_game_is_in_words(name):
    """Moves of other positions typed in a few positions of a game: each refusal is said in the file's help
    texts, its values worked out (no `{…}` left), never as the rule's expression (`… is false`)."""
    import random

    from koloda.interpreter.words.refusal import why_refused
    game = koloda.load(name)
    states, texts, made = [], set(), 0
    # every tenth position of one game, or of several where a game is short (Blackjack's may end at the deal)
    for seed in range(3, 40):
        s, rnd = game.new_initial_state(seed), random.Random(seed)
        for k in range(60):
            if s.is_terminal():
                break
            moves = s.legal_actions()
            texts |= {game.action_to_string(a, plain=True) for a in rnd.sample(moves, min(8, len(moves)))}
            if made % 10 == 0:
                states.append(s.clone())
            made += 1
            s.apply_action(rnd.choice(moves))
        if len(states) >= 6:
            break
    told = 0
    for state in states:
        for text in sorted(texts):
            for language in LANGUAGES:
                why = why_refused(state, text, language=language)
                if why is None:
                    continue
                told += 1
                assert "{" not in why and "}" not in why, why
                assert "` is false" not in why and "` is true" not in why, why
    # (a game of few moves, such as Blackjack's hit, stand, double and split, refuses fewer)
    assert told > min(50, 2 * len(states)), "the positions refused few of the moves typed"


BAD_FIELD = """\
game: badhelp
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  main:
    actions:
      play:
        with: c in my hand
        if:
          - if: c.rank >= 5
            help: {en: "{c.rnk} is low", ru: "{c} мала"}
        do: end turn
deal ends: my hand.size == 0
match: {ends: "true"}
"""


def test_a_help_field_is_checked_with_its_place(tmp_path):
    from click.testing import CliRunner

    from koloda.cli.main import main
    path = tmp_path / "badhelp.yaml"
    path.write_text(BAD_FIELD, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{path}:15:" in result.output and "a card has no `rnk` (did you mean `rank`?)" in result.output
