"""Word parameters: an action's parameter over a fixed list of words (`g in ["grand", "null_game"]`),
numbered by its word's place in the list (interpreter/core/codec.py, checked by dsl/params.py).

Played on tests/games/declare.yaml, a small game made to show them (not a real card game)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.compact import CompactGame

GAME = Path(__file__).parent / "games" / "declare.yaml"


def texts(s) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def test_a_word_parameter_is_its_words_place_in_its_list():
    game = koloda.load(str(GAME), players=3)
    declare = game.codec.actions[0]
    assert (declare.size, declare.params[0].words) == (3, ("grand", "null_game", "clubs_game"))
    s = game.new_initial_state(seed=1)
    assert texts(s) == ["declare grand", "declare null_game", "declare clubs_game"]
    assert s.legal_actions() == [0, 1, 2]
    assert game.decode(1)[1] == {"g": "null_game"}
    s.apply_action(s.string_to_action("declare clubs"))        # a word typed by its start
    assert texts(s) == ["clubs_game for 40", "clubs_game for 80", "pass"]
    assert game.observe(s, 0)["vars"][0] == {"var": "contract", "owner": None, "value": "clubs_game"}


def test_the_compact_view_spells_words_and_reads_them_back():
    cg = CompactGame(koloda.load(str(GAME), players=3))
    cs = cg.new_initial_state(seed=2)
    shown = [cs.action_to_string(t) for t in cs.legal_actions()]
    assert shown == ["declare grand", "declare null_game", "declare clubs_game"]
    token = cs.legal_actions()[0]
    cs.apply_action(token)
    for t in cs.legal_actions():
        native = cg.native(cg.spell(cg.native((t,))))
        assert native is not None and cg.spell(native) == (t,)
    assert [cs.action_to_string(t) for t in cs.legal_actions()] == ["grand for 40", "grand for 80", "pass"]


def test_word_parameters_play_the_same_fast_and_checked(monkeypatch):
    from test_generated import both
    for seed in (1, 2, 3):
        fast, slow = both(monkeypatch, str(GAME), seed=seed, moves=20, players=3)
        assert fast == slow and len(fast) >= 3


def test_every_bot_plays_a_word_parameter_to_the_end():
    for seat in ("random", "greedy", "ismcts:iterations=20"):
        done = CliRunner().invoke(main, ["simulate", str(GAME), "-n", "4", "-j", "1", "--seed", "5"]
                                  + ["--seat", seat] * 3)
        assert done.exit_code == 0, done.output
        assert "4 games played, 4 ended" in done.output


def test_the_table_offers_the_words_and_refuses_one_not_listed():
    done = CliRunner().invoke(main, ["play", str(GAME), "--seat", "human", "--seat", "random", "--seat", "random",
                                     "--fast", "--seed", "3"], input="declare foo\nd gr\n")
    assert "Traceback" not in done.output
    assert "1  declare grand" in done.output and "3  declare clubs_game" in done.output
    assert "`declare foo` cannot be made: foo is not one of grand, null_game, clubs_game" in done.output
    assert "P1 declare grand" in done.output


def test_a_word_in_a_move_of_many_ids_is_a_token_of_its_words_block(tmp_path):
    """A card, a number of 1000..9000 and a word: too many ids for one token each, so the word is a
    token of the block of its words, shown as the word and read back."""
    text = GAME.read_text(encoding="utf-8").replace("""          - n in [40, 80]""", """          - n in 1000..9000
          - c in my hand""").replace('text: "{g} for {n}"', 'text: "{g} for {n} with {c}"')
    path = tmp_path / "declare.yaml"
    path.write_text(text, encoding="utf-8")
    cg = CompactGame(koloda.load(str(path), players=3))
    cs = cg.new_initial_state(seed=2)
    cs.apply_action(cs.legal_actions()[0])           # declare grand
    native = next(a for a in cs.native.legal_actions() if " for 4321 " in cs.native.action_to_string(a))
    tokens = cg.spell(native)
    assert len(tokens) == 4 and cg.native(tokens) == native
    assert cs.action_to_string(tokens[1]) == "grand" and cs.action_to_string(tokens[2]) == "4321"
    assert cg.native(tokens[:1] + (tokens[1] + 1,) + tokens[2:]) is not None         # clubs_game, the next word
