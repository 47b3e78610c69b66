"""The compact action space: every shipped game's moves as short token sequences from a fixed vocabulary."""
from __future__ import annotations

import copy
import random

import pytest

import koloda
from koloda.compact import INT32_MAX, CompactGame
from koloda.interpreter.base.errors import IllegalAction
from koloda.interpreter.melds.melds import LAYOFF, NEW

from helpers import cards, conservation

GAMES = koloda.shipped_games()
MOVES = 150          # engine moves per playout
_loaded: dict[str, CompactGame] = {}


def compact(name: str) -> CompactGame:
    if name not in _loaded:
        _loaded[name] = CompactGame.load(name)
    return _loaded[name]


@pytest.mark.parametrize("name", GAMES)
def test_random_tokens_play_legal_moves(name):
    cg = compact(name)
    size = cg.num_distinct_actions()
    assert 0 < size <= INT32_MAX
    longest = cg.max_move_length()
    for seed in (0, 1):
        cs = cg.new_initial_state(seed=seed)
        rng = random.Random(seed)
        played = 0
        while not cs.is_terminal() and played < MOVES:
            player = cs.current_player()
            if not cs.prefix:
                # every engine move spells and reads back to itself
                for native in cs.native.legal_actions():
                    tokens = cg.spell(native)
                    assert 1 <= len(tokens) <= longest
                    assert all(0 <= t < size for t in tokens)
                    assert cg.native(tokens) == native
                    assert cg.native(tokens[:-1]) is None           # no spelling begins another
            legal = cs.legal_actions()
            assert legal and all(0 <= t < size for t in legal)
            assert legal == sorted(set(legal))
            mask = cs.legal_actions_mask()
            assert len(mask) == size and sum(mask) == len(legal) and all(mask[t] for t in legal)
            for t in legal:
                assert cs.action_to_string(t)
            token = rng.choice(legal)
            before = cs.native.moves
            typed = cs.prefix + (token,)
            cs.apply_action(token)
            if cs.native.moves > before:
                played += 1
                assert not cs.prefix
                assert cs.native.history[-1][1] == cg.native(typed)
                conservation(cs.native)
            else:
                assert cs.prefix == typed
                assert cs.current_player() == player        # one player spells the whole move
                assert len(typed) < longest
        assert played == MOVES or cs.is_terminal()
        if cs.is_terminal():
            # somebody wins, unless every player lost to the house or a goal (`won:`) was missed
            assert cs.legal_actions() == [] and (sum(cs.returns()) > 0 or cg.game.spec.house is not None
                                                 or cg.game.flow.won is not None)


@pytest.mark.parametrize("name", ["pony", "peklo", "leopard", "showdown"])
def test_games_without_melds_keep_their_ids(name):
    """Where no action takes a meld plan, every move is one token and the token is the engine's id."""
    cg = compact(name)
    assert cg.max_move_length() == 1
    assert cg.num_distinct_actions() == cg.game.num_distinct_actions
    cs = cg.new_initial_state(seed=3)
    assert cs.legal_actions() == cs.native.legal_actions()
    assert all(cg.spell(a) == (a,) for a in cs.legal_actions())


def test_ids_depend_only_on_the_rule_file():
    """Golden spellings: changing them breaks every agent trained on these games."""
    cg = compact("kunkin")
    g = cg.game
    assert cg.num_distinct_actions() == 536
    offsets = {a.name: a.offset for a in g.codec.actions}
    seven = cards(g, "7S")[0]
    melds = g.melds
    run = melds.plan(1, NEW, cards(g, "7S 8S 9S"), [], 0)
    layoff = melds.plan(1, LAYOFF, cards(g, "10S"), [], 2)
    golden = {
        "draw": (0,), "take 7S": (45,), "wait": (55,), "discard 7S": (103,),
        "meld 7S 8S 9S": (56, 149, 373, 374, 375, 535),
        "lay off 10S on meld 3": (57, 225, 376, 535),
    }
    spelled = {
        "draw": cg.spell(offsets["draw"]), "take 7S": cg.spell(offsets["take"] + seven),
        "wait": cg.spell(offsets["wait"]), "discard 7S": cg.spell(offsets["discard"] + seven),
        "meld 7S 8S 9S": cg.spell(offsets["meld"] + run), "lay off 10S on meld 3": cg.spell(offsets["lay_off"] + layoff),
    }
    assert spelled == golden
    assert [cg.token_to_string(t) for t in golden["meld 7S 8S 9S"]] == ["meld", "new run for P1", "7♠", "8♠", "9♠", "end"]
    assert CompactGame.load("kunkin").spell(offsets["meld"] + run) == golden["meld 7S 8S 9S"]


def test_a_wild_card_is_one_token_with_what_it_stands_for():
    cg = compact("kunkin")
    g = cg.game
    joker = next(c for c in range(g.cards.size) if g.cards.names[c] == "JK")
    meld = next(a for a in g.codec.actions if a.name == "meld")
    from koloda.interpreter.melds.meldlist import identity
    plan = g.melds.plan(1, NEW, cards(g, "7S 8S") + [joker], [(joker, identity(9, 3))], 1)
    tokens = cg.spell(meld.offset + plan)
    assert [cg.token_to_string(t) for t in tokens] == ["meld", "new run for P2", "7♠", "8♠", "🃏=9♠", "end"]
    assert cg.native(tokens) == meld.offset + plan
    # only a move's own spelling reads back: not its cards in another order, nor a card twice
    assert cg.native(tokens[:2] + (tokens[3], tokens[2]) + tokens[4:]) is None
    assert cg.native(tokens[:3] + tokens[2:]) is None
    assert cg.native(tokens[:2] + tokens[-1:]) is None


def test_spelling_a_move_keeps_the_turn_and_shows_the_speller_their_prefix():
    cg = compact("kunkin")
    cs = cg.new_initial_state(seed=0)
    rng = random.Random(0)
    while not any(len(cg.spell(a)) > 2 for a in cs.native.legal_actions()):
        cs.apply_native(rng.choice(cs.native.legal_actions()))
    meld = min(cs.native.legal_actions(), key=lambda a: -len(cg.spell(a)))
    tokens = cg.spell(meld)
    player = cs.current_player()
    other = 1 - player
    seen_before = cs.observation_tensor(other)
    mine_before = cs.observation_tensor(player)
    cs.apply_action(tokens[0])
    assert cs.prefix == tokens[:1] and cs.current_player() == player
    assert set(cs.legal_native_actions()) >= {meld}
    assert cs.observation_tensor(player) != mine_before
    assert cs.observation_tensor(other) == seen_before          # a move is its speller's until played
    with pytest.raises(IllegalAction, match="being spelled"):
        cs.apply_native(meld)
    # a guess at the hidden cards keeps the move being spelled for its speller, and only for them
    mine = cs.resample(player, random.Random(1))
    assert mine.prefix == tokens[:1] and tokens[1] in mine.legal_actions()
    theirs = cs.resample(other, random.Random(1))
    assert theirs.prefix == () and theirs.observation_tensor(other) == cs.observation_tensor(other)
    assert theirs.information_state_string(other) == cs.information_state_string(other)
    clone = copy.deepcopy(cs)
    assert clone.game is cs.game and clone.native is not cs.native and clone.prefix == cs.prefix
    for t in tokens[1:]:
        clone.apply_action(t)
    assert clone.native.history[-1][1] == meld and not clone.prefix
    assert cs.prefix == tokens[:1] and len(cs.native.history) == len(clone.native.history) - 1


@pytest.mark.parametrize("name", ["kunkin", "pony"])
def test_an_illegal_token_is_refused_with_its_text(name):
    cg = compact(name)
    cs = cg.new_initial_state(seed=0)
    wrong = next(t for t in range(cg.num_distinct_actions()) if t not in cs.legal_actions())
    with pytest.raises(IllegalAction, match=rf"{wrong} \({cg.token_to_string(wrong)}\) is not legal now"):
        cs.apply_action(wrong)
    for outside in (cg.num_distinct_actions(), -1, 2 ** 40):
        with pytest.raises(IllegalAction, match=rf"not in the vocabulary \(0..{cg.num_distinct_actions() - 1}\)"):
            cs.apply_action(outside)
    with pytest.raises(ValueError, match="vocabulary"):
        cg.token_to_string(-1)


def test_the_examples_of_the_docs_run():
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "compact.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert len(blocks) == 2
    scope: dict = {}
    for block in blocks:
        exec(compile(block, "docs/compact.md", "exec"), scope)
    assert scope["cg"].num_distinct_actions() == 536 and scope["cg"].observation_tensor_shape() == [3411]
    assert scope["tokens"] == (0,) and sum(scope["returns"]) == 1.0


@pytest.mark.parametrize("name, players, options", [("kunkin", 3, {"decks": 2, "jokers": 4}), ("canasta", 2, {}),
                                                     ("pony", 5, {"deck": "standard52"})])
def test_other_tables_spell_and_observe_too(name, players, options):
    """The vocabulary and the tensors follow the options and the number of players."""
    cg = CompactGame.load(name, players=players, **options)
    default = compact(name)
    assert cg.observation_tensor_shape() != default.observation_tensor_shape()
    cs = cg.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if cs.is_terminal():
            break
        if not cs.prefix:
            assert all(cg.native(cg.spell(a)) == a for a in cs.native.legal_actions())
        for p in range(players):
            assert len(cs.observation_tensor(p)) == cg.observation_tensor_shape()[0]
        cs.apply_action(rng.choice(cs.legal_actions()))
    conservation(cs.native)
