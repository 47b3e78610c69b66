"""koloda/rules/blackjack.yaml with OpenSpiel's rules (`naturals: false`, `double: false`, `split: false`) against
OpenSpiel's `blackjack`: the cards koloda dealt are OpenSpiel's chance outcomes, in the order OpenSpiel
deals them (the player's two, the dealer's hole card and up card, then each card drawn), and the same
random choices are made on both sides; at every decision the legal moves are the same (hit, stand), and
the game ends at the same move with the same result. OpenSpiel's returns are +1, 0 and -1; koloda's,
against the house, 1, 0.5 and 0. Without `pyspiel` this file is skipped; `python
tests/test_blackjack_differential.py N` plays N seeded games outside the suite."""
from __future__ import annotations

import random
import sys

import pytest

import koloda

pyspiel = pytest.importorskip("pyspiel")

OPTIONS = {"naturals": False, "double": False, "split": False}
SUITS, RANKS = "CDHS", "A23456789TJQK"
HIT, STAND = 0, 1          # OpenSpiel's action ids


def spiel_card(name: str) -> int:
    """koloda's `10H` as OpenSpiel's card id: suit (C D H S) * 13 + rank (A 2 .. 9 T J Q K)."""
    rank, suit = name[:-1], name[-1]
    return SUITS.index(suit) * 13 + RANKS.index("T" if rank == "10" else rank)


def cards(state, zone: int) -> list[int]:
    return [spiel_card(state.game.cards.names[c]) for c in state.zones[zone]]


def play_both(game, seed: int) -> tuple[int, float]:
    """One seeded game on both sides; returns its number of decisions and OpenSpiel's return."""
    rng = random.Random(f"blackjack/{seed}")
    state = game.new_initial_state(seed)
    hand, dealer = game.layout.zone_base["hand"], game.layout.zone_base["dealer_cards"]
    spiel = pyspiel.load_game("blackjack").new_initial_state()
    for card in cards(state, hand) + cards(state, dealer):
        assert spiel.is_chance_node()
        spiel.apply_action(card)
    moves = 0
    while not state.is_terminal():
        assert not spiel.is_chance_node() and spiel.current_player() == 0, f"seed {seed}, move {moves}"
        words = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert words == ["hit", "stand"] and spiel.legal_actions() == [HIT, STAND], f"seed {seed}, move {moves}"
        choice = rng.choice([HIT, STAND])
        held = len(state.zones[hand])
        state.apply_action(state.string_to_action("hit" if choice == HIT else "stand"))
        spiel.apply_action(choice)
        if choice == HIT:
            assert spiel.is_chance_node()
            spiel.apply_action(cards(state, hand)[held])
        moves += 1
    for card in cards(state, dealer)[2:]:          # the dealer's draws, after the player stood
        assert spiel.is_chance_node() and not spiel.is_terminal(), f"seed {seed}: OpenSpiel's dealer stood sooner"
        spiel.apply_action(card)
    assert spiel.is_terminal(), f"seed {seed}: OpenSpiel's dealer draws on"
    (result,) = spiel.returns()
    assert state.returns() == [(result + 1) / 2], f"seed {seed}"
    return moves, result


def test_blackjack_agrees_with_openspiel_move_for_move():
    game = koloda.load("blackjack", OPTIONS)
    played = [play_both(game, seed) for seed in range(150)]
    # the sample reaches every ending: a win, a push and a loss, after several decisions
    assert {r for _, r in played} == {-1.0, 0.0, 1.0}
    assert max(m for m, _ in played) >= 3


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    loaded = koloda.load("blackjack", OPTIONS)
    results = [play_both(loaded, seed) for seed in range(count)]
    print(f"{count} games, 0 mismatches; OpenSpiel's mean return {sum(r for _, r in results) / count:+.3f}")
