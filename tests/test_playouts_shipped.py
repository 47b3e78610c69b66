"""Every shipped game, at every player count `koloda list` shows and with every option's other
values, plays one seeded match to its end: no card lost or doubled after any move, a legal move in
every state that is not final, and an end within a counted bound of moves.

tests/test_playouts.py plays Pony and Peklo far more thoroughly (observations, saves and loads);
this file is the wide net: a game or an option that cannot start, gets stuck or never ends.
"""
from __future__ import annotations

import json
import random

import pytest

import koloda
from koloda.agents.greedy import GreedyAgent
from koloda.api import load_spec

from helpers import conservation, roundtrip, snapshot

# Far more moves than any match below needs with its seed (the longest, Gin Rummy to 100 points
# with random players, takes about 25,000): a match past it does not end
MAX_MOVES = 200_000
# a state saved and loaded is the same and offers the same moves, every this many moves of the first
# CHECKED (a save holds the whole history: checking it all through a long match would cost its square)
CHECK_EVERY, CHECKED = 97, 2000

# How a seat picks its move. Random players cannot finish some matches: a rubber of bridge (random
# auctions end in contracts nobody makes) and Thousand without its end at minus 1000 (random
# declarers lose more than the others gain). `passive` passes four times in five where it may,
# which keeps auctions low; `greedy` is the greedy bot, one move of look-ahead.
RANDOM, PASSIVE, GREEDY = "random", "passive", "greedy"

# (game, players or None for the default, options, policy): every player count with the defaults,
# then each option's values other than its default
CONFIGS: list[tuple[str, int | None, dict, str]] = [
    ("bridge", None, {"scoring": "rubber"}, PASSIVE),
    ("bridge", None, {"scoring": "duplicate"}, RANDOM),
    ("bridge", None, {"vulnerable": "none"}, RANDOM),
    ("bridge", None, {"vulnerable": "dealer"}, RANDOM),
    ("bridge", None, {"vulnerable": "others"}, RANDOM),
    ("bridge", None, {"vulnerable": "both"}, RANDOM),
    ("bridge", None, {"deals": 2}, RANDOM),
    ("bridge", None, {"honours": False}, RANDOM),
    ("canasta", None, {"jokers": 4}, RANDOM),
    ("canasta", None, {"opening": 40}, RANDOM),
    ("canasta", None, {"deals": 1}, RANDOM),
    ("crazy-eights", None, {"limit": 30}, RANDOM),
    ("crazy-eights", None, {"deals": 2}, RANDOM),
    ("crazy-eights", None, {"draw_limit": 1}, RANDOM),
    ("crazy-eights", None, {"reshuffle": True}, RANDOM),
    ("crazy-eights", None, {"draw_anyway": True}, RANDOM),
    ("crazy-eights", None, {"max_plays": 20}, RANDOM),
    ("crazy-eights", None, {"openspiel_points": True}, RANDOM),
    ("crazy-eights", None, {"special_cards": True}, RANDOM),
    ("cribbage", None, {"target": 61}, RANDOM),
    ("cribbage", None, {"whole_show": True}, RANDOM),
    ("cribbage", None, {"crib_four_flush": True}, RANDOM),
    ("cribbage", None, {"winner_bonus": 10}, RANDOM),
    ("devyatka", None, {"ante": 0}, RANDOM),
    ("devyatka", None, {"fine": 0, "deals": 3}, RANDOM),
    ("devyatka", None, {"purse": 40}, RANDOM),
    ("devyatka", None, {"deals": 2}, RANDOM),
    ("devyatka", None, {"per_card": 2}, RANDOM),
    ("devyatka", None, {"pass_when_able": True}, RANDOM),
    ("devyatka", 5, {"start": "left_of_dealer"}, RANDOM),
    ("durak", None, {"transfer": True}, RANDOM),
    ("durak", 6, {"transfer": True}, RANDOM),
    ("euchre", None, {"goal": 3}, RANDOM),
    ("euchre", None, {"stick_the_dealer": True}, RANDOM),
    ("euchre", None, {"lone_defender": True}, RANDOM),
    ("euchre", None, {"single_hand": True}, RANDOM),
    ("euchre", None, {"keep_upcard": True}, RANDOM),
    ("freecell", None, {"cells": 1}, RANDOM),
    ("freecell", None, {"cells": 2}, RANDOM),
    ("freecell", None, {"cells": 3}, RANDOM),
    ("freecell", None, {"cap": 50}, RANDOM),
    ("funken", None, {"hand": 5}, RANDOM),
    ("funken", None, {"limit": 20}, RANDOM),
    # Gin Rummy's random hands are mostly void: options of the play are tried on one hand
    ("goofspiel", None, {"cards": 2}, RANDOM),
    ("goofspiel", 3, {"cards": 6}, RANDOM),
    ("goofspiel", None, {"points_order": "descending"}, RANDOM),
    ("goofspiel", 3, {"points_order": "ascending"}, RANDOM),
    ("gin-rummy", None, {"knock": 0, "single_hand": True}, RANDOM),
    ("gin-rummy", None, {"oklahoma": True, "single_hand": True}, RANDOM),
    ("gin-rummy", None, {"gin_bonus": 0, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"undercut_bonus": 0, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"tie_undercuts": False, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"upcard_limit": 1, "single_hand": True}, RANDOM),
    ("gin-rummy", None, {"goal": 30}, RANDOM),
    ("gin-rummy", None, {"game_bonus": 0, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"box_bonus": 0, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"single_hand": True}, RANDOM),
    ("gin-rummy", None, {"no_throw_back": True, "single_hand": True}, RANDOM),
    # runs put down of at most 3 or 4 cards: the knock counts only such runs (a run of 4 or 5 cannot
    # go down whole); each of these two matches (its seed: 1, or as SEEDS says) once left a knocker with no move
    ("gin-rummy", None, {"longest_run": 3, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"longest_run": 4, "goal": 30}, RANDOM),
    ("gin-rummy", None, {"longest_run": 5, "single_hand": True}, RANDOM),
    ("gin-rummy", None, {"layoff_list": True, "single_hand": True}, RANDOM),
    ("hearts", None, {"passing": False}, RANDOM),
    ("hearts", None, {"first_pass": "right"}, RANDOM),
    ("hearts", None, {"first_pass": "across"}, RANDOM),
    ("hearts", None, {"first_pass": "none"}, RANDOM),
    ("hearts", None, {"limit": 30}, RANDOM),
    ("hearts", None, {"deals": 2}, RANDOM),
    ("hearts", None, {"clean_first_trick": False}, RANDOM),
    ("hearts", None, {"lead_any_club": True}, RANDOM),
    ("hearts", None, {"must_break_hearts": False}, RANDOM),
    ("hearts", None, {"queen_breaks_hearts": False}, RANDOM),
    ("hearts", None, {"hearts_instead_of_queen": True}, RANDOM),
    ("hearts", None, {"jack_of_diamonds": True}, RANDOM),
    ("hearts", None, {"no_tricks_bonus": True}, RANDOM),
    ("klondike", None, {"draw": 3}, RANDOM),
    ("klondike", None, {"passes": 1}, RANDOM),
    ("klondike", None, {"draw": 3, "passes": 3}, RANDOM),
    ("klondike", None, {"from_home": False}, RANDOM),
    ("klondike", None, {"cap": 50}, GREEDY),
    ("kunkin", None, {"decks": 2}, RANDOM),
    ("kunkin", None, {"jokers": 3}, RANDOM),
    ("kunkin", None, {"jokers": 4}, RANDOM),
    ("kunkin", None, {"jokers": 6}, RANDOM),
    ("kunkin", None, {"jokers": 8, "decks": 2}, RANDOM),
    ("kunkin", None, {"hand": 6}, RANDOM),
    ("kunkin", None, {"limit": 50}, RANDOM),
    ("kunkin-big", None, {"jokers": 6}, RANDOM),
    ("kunkin-big", None, {"jokers": 8}, RANDOM),
    ("kunkin-big", None, {"hand": 12}, RANDOM),
    ("kunkin-big", None, {"limit": 50}, RANDOM),
    ("kunkin-discard-out", None, {"decks": 2}, RANDOM),
    ("kunkin-discard-out", None, {"jokers": 3}, RANDOM),
    ("kunkin-discard-out", None, {"jokers": 4}, RANDOM),
    ("kunkin-discard-out", None, {"jokers": 6}, RANDOM),
    ("kunkin-discard-out", None, {"jokers": 8, "decks": 2}, RANDOM),
    ("kunkin-discard-out", None, {"hand": 6}, RANDOM),
    ("kunkin-discard-out", None, {"limit": 50}, RANDOM),
    ("leopard", None, {"deals": 0, "target": 10}, RANDOM),
    ("leopard", None, {"deals": 1}, RANDOM),
    ("leopard", None, {"suit_line": 3}, RANDOM),
    ("leopard-2008", None, {"deals": 0, "target": 10}, RANDOM),
    ("leopard-2008", None, {"deals": 1}, RANDOM),
    ("leopard-2008", None, {"suit_line": 2}, RANDOM),
    ("leopard4", None, {"deals": 0, "target": 10}, RANDOM),
    ("leopard4", None, {"deals": 1}, RANDOM),
    ("leopard4", None, {"suit_line": 3}, RANDOM),
    ("lesenka", None, {"deck": "standard52"}, RANDOM),
    ("lesenka", 4, {"deck": "standard52"}, RANDOM),
    ("lesenka", None, {"target": 50}, RANDOM),
    ("lesenka", None, {"deals": 2}, RANDOM),
    ("peklo", None, {"missed_bid_penalty": True}, RANDOM),
    ("peklo", None, {"hook": True}, RANDOM),
    ("doppelkopf", None, {"deals": 1}, RANDOM),
    ("doudizhu", None, {"openspiel": True}, RANDOM),
    ("peklo", None, {"deal_size": 5}, RANDOM),
    ("peklo", None, {"deal_size": 5, "no_trump": True}, RANDOM),
    ("pony", None, {"deck": "standard52"}, RANDOM),
    ("pony", None, {"hand": 7}, RANDOM),
    ("pony", None, {"limit": 30}, RANDOM),
    ("pony", None, {"jack_finish_doubles": True}, RANDOM),
    ("pony", None, {"seven_draws": True}, RANDOM),
    ("pony", None, {"eight_skips": True}, RANDOM),
    ("pony", None, {"queen_needs_king": True}, RANDOM),
    ("preferans", None, {"pool": 3}, RANDOM),
    ("preferans", 4, {"pool": 3}, RANDOM),
    ("preferans", None, {"deals": 2}, RANDOM),
    ("blackjack", None, {"naturals": False, "double": False, "split": False}, RANDOM),
    ("blackjack", None, {"double": False}, RANDOM),
    ("blackjack", None, {"split": False}, RANDOM),
    ("holdem", None, {"betting": "limit"}, RANDOM),
    ("holdem", 3, {"betting": "limit", "cap": 2, "hands": 3}, RANDOM),
    ("holdem", 6, {"stack": 20, "small_blind": 0, "big_blind": 4, "hands": 4}, RANDOM),
    ("holdem", 10, {"stack": 1000, "small_blind": 5, "big_blind": 10, "hands": 2}, RANDOM),
    ("schnapsen", None, {"target": 1}, RANDOM),
    ("schnapsen", None, {"strict_exchange": True}, RANDOM),
    ("skat", None, {"deals": 1}, RANDOM),
    ("skat", None, {"seeger_fabian": False}, RANDOM),
    ("skat", None, {"first_come": True, "card_points": True, "deals": 1}, RANDOM),    # OpenSpiel's game
    ("skat", None, {"first_come": True}, RANDOM),
    ("skat", None, {"card_points": True}, RANDOM),
    ("spades", None, {"limit": 100}, RANDOM),
    ("spades", None, {"deals": 2}, RANDOM),
    ("spades", None, {"lose_at": 0, "deals": 4}, RANDOM),    # no end at minus 200: random sides never reach 500
    ("spades", None, {"lose_at": 100}, RANDOM),
    ("spades", None, {"nil": False}, RANDOM),
    ("spades", None, {"breaking": False}, RANDOM),
    ("splin", None, {"target": 50}, RANDOM),
    ("splin", None, {"deals": 2}, RANDOM),
    ("splin-29g", None, {"target": 50}, RANDOM),
    ("splin-29g", None, {"deals": 2}, RANDOM),
    ("tarot", None, {"deals": 1}, RANDOM),
    ("tarok", None, {"deals": 1}, RANDOM),
    ("tarok", 4, {"deals": 1}, RANDOM),
    ("tarok", None, {"deals": 2, "redeal": True}, RANDOM),
    ("tarok", 4, {"deals": 1, "openspiel_counts": True}, RANDOM),
    ("thousand", None, {"forced": False}, RANDOM),
    ("thousand", None, {"step": 10}, RANDOM),
    ("thousand", None, {"marriage_to_bid": False}, RANDOM),
    ("thousand", None, {"barrel": 500}, RANDOM),
    ("thousand", None, {"barrel_deals": 1}, RANDOM),
    ("thousand", None, {"fall": 0}, RANDOM),
    ("thousand", None, {"bolts": True}, RANDOM),
    ("thousand", None, {"ace_marriage": True}, RANDOM),
    ("thousand", None, {"lose_at": 0}, GREEDY),
    ("thousand", None, {"lose_at": 300}, RANDOM),
    ("thousand", None, {"dump_555": True}, RANDOM),
    ("thousand", None, {"max_raise": 30}, RANDOM),
]


# the seed of a match where it matters: Spades without nil once left a player no bid, after a
# partner's 13, in this one; Gin Rummy with runs of at most four once left a knocker no move
SEEDS = {"spades-defaultp-nil=False": 4, "gin-rummy-defaultp-longest_run=4-goal=30": 5}


def player_counts() -> list[tuple[str, int, dict, str]]:
    """Every shipped game at every player count it allows, with its default options."""
    out = []
    for name in koloda.shipped_games():
        spec, _ = load_spec(name)
        out += [(name, n, {}, RANDOM) for n in range(spec.min_players, spec.max_players + 1)]
    return out


def label(config) -> str:
    name, players, options, _ = config
    return f"{name}-{players or 'default'}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "default")


def chooser(policy: str, game, seed: int):
    rng = random.Random(seed)
    if policy == GREEDY:
        return GreedyAgent(seed=seed, samples=1).choose
    if policy == PASSIVE:
        def passive(s):
            legal = s.legal_actions()
            passes = [a for a in legal if game.action_to_string(a, plain=True).split()[0] == "pass"]
            return passes[0] if passes and rng.random() < 0.8 else rng.choice(legal)
        return passive
    return lambda s: rng.choice(s.legal_actions())


def play_to_the_end(name: str, players: int | None, options: dict, policy: str, seed: int = 1) -> int:
    """One seeded match with the checks after every move; the number of moves it took."""
    game = koloda.load(name, options=options, players=players)
    s = game.new_initial_state(seed)
    choose = chooser(policy, game, seed)
    for moves in range(MAX_MOVES):
        conservation(s)                                   # no card lost, none in two places
        if s.is_terminal():
            break
        legal = s.legal_actions()
        assert legal, f"move {moves}: a state that is not final offers no move"
        assert s.current_player() >= 0
        if moves % CHECK_EVERY == CHECK_EVERY - 1 and moves < CHECKED:
            json.dumps(s.observation(s.current_player()))
            restored = roundtrip(s)
            assert snapshot(restored, history=False) == snapshot(s, history=False)
            assert restored.legal_actions() == legal
        s.apply_action(choose(s))
    else:
        pytest.fail(f"{name} with {options or 'its defaults'} did not end in {MAX_MOVES:,} moves")
    assert s.legal_actions() == [] and s.current_player() == koloda.TERMINAL
    returns = s.returns()
    # somebody wins, except against the house, which every player may lose to, or with a goal
    # (`won:`) that nobody need reach: a solitaire lost
    assert len(returns) == game.num_players and all(0 <= r <= 1 for r in returns)
    assert max(returns) > 0 or game.spec.house is not None or game.flow.won is not None
    return moves


@pytest.mark.parametrize("config", player_counts(), ids=label)
def test_every_player_count_plays_to_the_end(config):
    assert play_to_the_end(*config) > 0


@pytest.mark.parametrize("config", CONFIGS, ids=label)
def test_every_option_plays_to_the_end(config):
    assert play_to_the_end(*config, seed=SEEDS.get(label(config), 1)) > 0


def test_every_option_of_every_shipped_game_is_played():
    """Each option's values other than its default are in CONFIGS: every choice, the other truth
    value, and at least one other number (a new option must be added there)."""
    played: dict[tuple[str, str], set] = {}
    for name, _, options, _ in CONFIGS:
        for key, value in options.items():
            played.setdefault((name, key), set()).add(value)
    missing = []
    for name in koloda.shipped_games():
        spec, _ = load_spec(name)
        for option in spec.options.values():
            seen = played.get((name, option.name), set())
            if option.type == "bool":
                wanted = {not option.default}
            elif option.choices:
                wanted = {c for c in option.choices if c != option.default}
            else:
                wanted = set() if seen - {option.default} else {"a value other than " + str(option.default)}
            if wanted - seen:
                missing.append(f"{name} {option.name}: {sorted(map(str, wanted - seen))}")
    assert not missing, "options never played:\n" + "\n".join(missing)
    assert all(name in koloda.shipped_games() for name, *_ in CONFIGS)


def test_a_match_that_cannot_end_fails(monkeypatch):
    """The bound is counted and fails the test: a rubber of bridge between random players."""
    monkeypatch.setattr(f"{__name__}.MAX_MOVES", 3000)
    with pytest.raises(pytest.fail.Exception, match="did not end in 3,000 moves"):
        play_to_the_end("bridge", None, {"scoring": "rubber"}, RANDOM)
