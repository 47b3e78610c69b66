"""Cribbage against OpenSpiel's `cribbage`: the same deals and the same moves give the same legal
moves, the same points after every move and the same final returns, over whole games to 121, for
two, three and four players.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_cribbage_differential.py

How the two are matched, read from OpenSpiel's source (open_spiel/games/cribbage/cribbage.cc):
P1 (OpenSpiel's player 0) deals first and the deal passes to the left. Each deal's chance nodes
give six cards to player 0, six to player 1 (three players: five each, then one to the crib; four: five each),
then, once all have laid away their cards (player 0 first, as koloda's discards go in seat
order), the starter; koloda is handed the same cards as deck orders. Two players lay away two
cards as one move, `Choose 3C 5D`, as koloda's `discard 3C 5D` (three players: one card); a player who
cannot play says `Pass` (koloda's `go`). OpenSpiel counts both hands and the crib before it looks
for a winner (koloda's `whole_show`), counts a four-card flush in the crib (`crib_four_flush`),
and adds `winner_bonus_reward` to the winner's points and takes it from the loser's
(`winner_bonus`): so its returns are koloda's scores. Four players are two sides of partners,
who share their points, and the winners' bonus (half each) and the losers' loss.
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda
from helpers import spiel_card_name

pyspiel = pytest.importorskip("pyspiel")

SEEDS = range(3)
BONUS = 1000


@functools.lru_cache(maxsize=None)
def cribbage(players: int):
    return koloda.load("cribbage", {"whole_show": True, "crib_four_flush": True, "winner_bonus": BONUS}, players)


def move_text(state, action: int, discarding: bool) -> str:
    """An OpenSpiel move as koloda writes it: `Choose 3C 5D` as `discard 3C 5D`, `Choose 3C` as
    `discard 3C` while discarding and `play 3C` after, `Pass` as `go`."""
    text = state.action_to_string(state.current_player(), action)
    if text == "Pass":
        return "go"
    cards = " ".join(spiel_card_name(t, rank_first=True) for t in text.split()[1:])
    return f"discard {cards}" if discarding else f"play {cards}"


def koloda_order(dealer: int, hands: list[list[str]], after: list[str]) -> list[str]:
    """The deck order, top first, that deals `hands` (player 0's first) and then the cards `after`
    (three players: the crib's card; then the starter): koloda deals one card at a time from the
    dealer's left, then takes the next cards from the top of the stock."""
    n, size = len(hands), len(hands[0])
    return [hands[(dealer + 1 + k) % n][k // n] for k in range(n * size)] + after


def play_both(seed: int, players: int = 2) -> int:
    """One game played in both engines with the same random choices; returns the moves compared."""
    rng = random.Random(f"cribbage/{players}/{seed}")
    spiel = pyspiel.load_game("cribbage", {"players": players,
                                           "winner_bonus_reward": float(BONUS)}).new_initial_state()
    size = 6 if players == 2 else 5
    per_deal = players * size + (players == 3) + 1           # the hands, the crib's card, the starter
    # each deal's cards, drawn here in advance, in the order they are dealt
    # (OpenSpiel writes a chance outcome `Deal AC`)
    chance_ids = {spiel_card_name(spiel.action_to_string(a).split()[-1], rank_first=True): a
                  for a, _ in spiel.chance_outcomes()}
    packs = []
    for _ in range(60):
        pack = sorted(chance_ids)
        rng.shuffle(pack)
        packs.append(pack)
    ours = cribbage(players)
    orders = [koloda_order(d % players, [p[k * size:(k + 1) * size] for k in range(players)],
                           p[players * size:]) for d, p in enumerate(packs)]
    state = ours.new_initial_state(seed, deck=orders, dealer=0)
    deal, dealt, moves = 0, 0, 0
    while not spiel.is_terminal():
        if spiel.is_chance_node():
            if dealt == per_deal:                          # a new deal
                deal, dealt = deal + 1, 0
            spiel.apply_action(chance_ids[packs[deal][dealt]])
            dealt += 1
            continue
        assert not state.is_terminal(), f"after {moves} moves"
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        assert [float(x) for x in state.scores()] == spiel.returns(), f"after {moves} moves"
        theirs = {move_text(spiel, a, dealt < per_deal): a for a in spiel.legal_actions()}
        mine = sorted(state.action_to_string(a, plain=True) for a in state.legal_actions())
        assert mine == sorted(theirs), f"after {moves} moves"
        text = rng.choice(mine)
        spiel.apply_action(theirs[text])
        state.apply_action(state.string_to_action(text))
        moves += 1
    assert state.is_terminal(), f"after {moves} moves"
    assert [float(x) for x in state.scores()] == spiel.returns()
    return moves


@pytest.mark.parametrize("seed", SEEDS)
def test_cribbage_agrees_with_openspiel(seed):
    assert play_both(seed) > 100


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_player_cribbage_agree_with_openspiel(players):
    assert play_both(0, players) > 100
