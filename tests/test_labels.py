"""Labels: zones, variables, phases and actions named for people, in the player's language; helper
variables kept off the table. Labels change what people read, never the rules, the moves or their texts."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import koloda
from koloda.api import load_spec
from koloda.agents.human import HumanAgent
from koloda.agents.registry import make_agent
from koloda.cli.main import main
from koloda.dsl.labels import Label, label_text, readable
from koloda.ui import names
from koloda.ui.safe import console
from koloda.ui.table import deal_summary, render

LABELLED = """\
game: labelled
title: {en: Labelled, ru: С подписями}
players: 2
deck: piquet32
zones:
  stock: {visible: nobody, label: {en: stock, ru: колода}}
  trump_card: {visible: all}
  hand: {each: player, visible: owner, label: {en: hand, ru: рука}}
  discards: {visible: all, label: Discards}
vars:
  named_suit: {type: suit, start: hearts, label: {en: named suit, ru: заказанная масть}}
  turn_points: {each: player, start: 0}
  secret_count: {each: player, start: 7, visible: nobody}
  helper_count: {each: player, start: 3, internal: true}
  only_russian: {start: 1, label: {ru: только по-русски}}
deal: [gather into stock, shuffle stock, deal 3 to each hand, move stock.top to trump_card]
phases:
  play:
    label: {en: the play, ru: розыгрыш}
    actions:
      discard:
        label: {en: throw away, ru: сбросить}
        help: any card
        with: c in my hand
        do: [move c to discards, my secret_count -= 1, goto after_discard]
      pass:
    steps:
      first_turn: [discard]
      after_discard: [pass]
deal ends: all(p.hand.size == 0 for p in players)
"""


@pytest.fixture
def labelled(tmp_path):
    path = tmp_path / "labelled.yaml"
    path.write_text(LABELLED, encoding="utf-8")
    return path


def test_a_label_in_the_language_asked_else_english_else_the_name_as_words():
    both = Label(texts=(("en", "Trump card"), ("ru", "Козырь")))
    assert label_text(both, "trump_card", "ru") == "Козырь"
    assert label_text(both, "trump_card", "de") == "Trump card"
    assert label_text(Label(texts=(("ru", "Козырь"),)), "trump_card", "en") == "trump card"
    assert label_text(Label(any="Trump"), "trump_card", "ru") == "Trump"
    assert label_text(None, "turn_points", "en") == "turn points"
    assert readable("must_meld") == "must meld" and readable("ender") == "ender"


def test_labels_are_read_from_the_file(labelled):
    spec, _ = load_spec(str(labelled))
    assert spec.zones["stock"].label == Label(texts=(("en", "stock"), ("ru", "колода")))
    assert spec.zones["discards"].label == Label(any="Discards")
    assert spec.zones["trump_card"].label is None
    assert spec.vars["named_suit"].label.text("ru") == "заказанная масть"
    assert spec.phases[0].label.text("en") == "the play"
    assert spec.phases[0].actions["discard"].label.text("ru") == "сбросить"


def test_the_table_shows_labels_and_names_as_words(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    text = render(game, s, 0, lang="en").plain
    assert "trump card" in text and "trump_card" not in text
    assert "Discards" in text and "your hand" in text and "P2 hand" in text
    assert "named suit: hearts" in text and "turn points: you 0, P2 0" in text
    assert "only russian: 1" in text, "no English label: the name as words"
    assert "secret" not in text, "`visible: nobody` keeps a variable off the table"
    assert "helper" not in text, "`internal: true` keeps a variable off the table"


def test_an_internal_variable_stays_in_the_view_but_off_the_table(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    seen = {v["var"] for v in s.observation(0)["vars"]}
    assert "helper_count" in seen and "secret_count" not in seen
    assert "helper" not in render(game, s, 1, lang="ru").plain


def test_the_table_in_russian(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    text = render(game, s, 0, lang="ru").plain
    assert text.startswith("С подписями")
    assert "колода" in text and "вы · рука" not in text and "you · рука" in text and "P2 · рука" in text
    assert "заказанная масть: hearts" in text and "только по-русски: 1" in text
    assert "Discards" in text and "trump card" in text, "a plain label, and a name as words, in every language"


def test_moves_and_their_texts_do_not_follow_labels(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    assert texts and all(t.startswith("discard ") for t in texts)


def test_the_deal_summary_names_zones_by_their_labels(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    assert "P1 hand:" in deal_summary(game, s).plain
    names.set_language("ru")
    try:
        assert "P1 · рука:" in deal_summary(game, s).plain
    finally:
        names.set_language(None)


def test_a_hidden_variable_is_in_no_observation_but_the_rules_keep_it(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    s.apply_action(s.legal_actions()[0])
    for p in range(2):
        assert all(v["var"] != "secret_count" for v in s.observation(p)["vars"])
    base = game.layout.var_base["secret_count"]
    assert s.vars[base:base + 2] == [6, 7], "the rules still count"


HIDDEN = {"kunkin": {"turn_points", "turn_cards", "must_meld"}, "canasta": {"turn_points", "must_meld", "went_out"},
          "funken": {"earlier", "must_meld"}, "leopard": {"ender", "may_end"}, "leopard4": {"ender", "asker"},
          "splin": {"owes"}}


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_the_shipped_games_keep_their_helper_variables_off_the_table(name):
    game = koloda.load(name)
    s = game.new_initial_state(3)
    rng = random.Random(3)
    for _ in range(30):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    assert all(game.spec.vars[var].internal for var in HIDDEN[name])
    text = render(game, s, s.current_player()).plain
    for var in HIDDEN[name]:
        assert names.variable(game, var) + ":" not in text and var not in text


@pytest.mark.parametrize("name", ["kunkin", "leopard4"])
def test_bots_play_on_with_the_helper_variables_hidden(name):
    game = koloda.load(name)
    s = game.new_initial_state(5)
    bots = [make_agent(kind, 5) for kind in ("greedy:samples=2", "ismcts:iterations=8", "greedy:samples=2",
                                              "ismcts:iterations=8")[:s.n]]
    for _ in range(40):
        if s.is_terminal():
            break
        action = bots[s.current_player()].choose(s)
        assert action in s.legal_actions()
        s.apply_action(action)


@pytest.mark.parametrize("name", koloda.shipped_games())
def test_every_shipped_game_labels_in_english_and_russian_what_the_table_shows(name):
    spec, _ = load_spec(name)
    shown = [z.label for z in spec.zones.values()]
    shown += [v.label for v in spec.vars.values() if v.visible != "nobody" and not v.internal]
    shown += [p.label for p in spec.phases] + [a.label for p in spec.phases for a in p.actions.values()]
    for label in shown:
        assert label is not None and label.text("en") and label.text("ru") and label.text("ru") != label.text("de")


def test_help_is_headed_in_words_and_names_actions_by_their_labels(labelled):
    game = koloda.load(str(labelled))
    s = game.new_initial_state(1)
    con = console()
    with con.capture() as captured:
        HumanAgent(con).show_help(s)
    out = captured.get()
    assert out.splitlines()[0] == "Labelled · the play · first turn"
    assert "phase `" not in out and "step `" not in out
    assert "throw away: any card" in out
    names.set_language("ru")
    try:
        with con.capture() as captured:
            HumanAgent(con).show_help(s)
    finally:
        names.set_language(None)
    assert captured.get().splitlines()[0] == "С подписями · розыгрыш · first turn"
    assert "сбросить: any card" in captured.get()


def test_help_of_a_phase_of_one_step_names_no_step():
    s = koloda.load("peklo", players=3).new_initial_state(2)
    con = console()
    with con.capture() as captured:
        HumanAgent(con).show_help(s)
    assert captured.get().splitlines()[0] == "Oh Hell · bidding"


def test_play_in_russian_by_option_and_by_environment(labelled, monkeypatch, tmp_path):
    args = ["play", str(labelled), "--seat", "human", "--seat", "random", "--fast", "--seed", "1",
            "--save", str(tmp_path / "s.json")]
    out = CliRunner().invoke(main, args + ["--lang", "ru"], input="quit\n").output
    assert "заказанная масть: hearts" in out and "you · рука" in out
    assert names.language() == "en", "--lang holds for its command only"
    out = CliRunner().invoke(main, args, input="quit\n").output
    assert "named suit: hearts" in out
    monkeypatch.setenv("KOLODA_LANG", "ru_RU.UTF-8")
    out = CliRunner().invoke(main, args, input="quit\n").output
    assert "заказанная масть: hearts" in out
    out = CliRunner().invoke(main, args + ["--lang", "en"], input="quit\n").output
    assert "named suit: hearts" in out, "--lang wins over the environment"


def test_a_language_that_is_not_a_code_is_refused(labelled):
    result = CliRunner().invoke(main, ["play", str(labelled), "--lang", "[red]Russian"])
    assert result.exit_code != 0 and "is not a language code" in result.output and "Traceback" not in result.output


def test_a_label_added_or_translated_keeps_the_games_fingerprint(tmp_path):
    """Saves name the rules by fingerprint; labels are not rules, so a translation does not orphan a save."""
    plain = LABELLED
    for line in ("    label: {en: the play, ru: розыгрыш}\n", "        label: {en: throw away, ru: сбросить}\n"):
        plain = plain.replace(line, "")
    plain = plain.replace(", label: {en: stock, ru: колода}", "").replace(", label: Discards", "")
    assert "label" in plain and plain != LABELLED
    fingerprints = []
    for k, text in enumerate((LABELLED, plain, LABELLED.replace("ru: колода", "ru: прикуп"),
                              LABELLED.replace("secret_count: {each: player, start: 7, visible: nobody}",
                                               "secret_count: {each: player, start: 7}"))):
        path = tmp_path / f"v{k}.yaml"
        path.write_text(text, encoding="utf-8")
        fingerprints.append(load_spec(str(path))[0].fingerprint)
    assert fingerprints[0] == fingerprints[1] == fingerprints[2]
    assert fingerprints[3] != fingerprints[0], "who may see a variable is part of the rules"
    internal = tmp_path / "internal.yaml"
    internal.write_text(LABELLED.replace("helper_count: {each: player, start: 3, internal: true}",
                                         "helper_count: {each: player, start: 3}"), encoding="utf-8")
    assert load_spec(str(internal))[0].fingerprint == fingerprints[0], "`internal:` is for the table only"


def test_replay_and_resume_take_the_language_too(labelled, tmp_path):
    log, save = tmp_path / "game.jsonl", tmp_path / "s.json"
    played = CliRunner().invoke(main, ["play", str(labelled), "--seat", "random", "--seat", "random", "--fast",
                                       "--seed", "1", "--log", str(log), "--save", str(save)])
    assert played.exit_code == 0, played.output
    out = CliRunner().invoke(main, ["replay", str(log), "--lang", "ru"]).output
    assert "С подписями" in out and "заказанная масть" in out
    assert "discard" in out, "moves read the same in every language"
    waiting = tmp_path / "waiting.json"
    CliRunner().invoke(main, ["play", str(labelled), "--seat", "human", "--seat", "random", "--fast",
                              "--save", str(waiting)], input="quit\n")
    out = CliRunner().invoke(main, ["resume", str(waiting), "--lang", "ru", "--fast"], input="quit\n").output
    assert "Resuming С подписями" in out and "you · рука" in out
