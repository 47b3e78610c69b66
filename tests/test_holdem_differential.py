"""koloda/rules/holdem.yaml against OpenSpiel's `universal_poker` (the ACPC's poker): the same cards, the
same random choices, the same legal moves at every decision and the same chips won, deal by deal.

Each koloda deal is played against a fresh `universal_poker` game set to that deal's table: the stacks
the players have when it begins (unequal after the first deal, so that players go all in for different
amounts and the pot splits into side pots), the blinds on the seats koloda puts them on, and the first
player of each round (`firstPlayer`, 1-based). OpenSpiel's chance nodes are fed the cards koloda dealt:
the hole cards player by player, then the board as koloda will turn it up from its stock (a card burnt
before each street). OpenSpiel's cards are `rank * 4 + suit`, ranks 2..A, suits clubs, diamonds,
hearts, spades. Its actions: 0 fold, 1 check or call, and a raise: no-limit (`bettingAbstraction=fullgame`)
the action is the amount raised to; limit (`fchpa`, the abstraction OpenSpiel's limit games take) action
2, with `HalfPot` (4) offered beside it as the same fixed raise. A choice is made by kind first (fold,
check or call, raise) and then, for a no-limit raise, by amount, so that deals run deep.

OpenSpiel splits a tied pot into fractions of a chip where koloda gives the odd chip to the first tied
player left of the dealer: a deal's chips agree exactly, or within one chip where OpenSpiel's share has a
fraction. The rules koloda's side pots follow are the same (`valueOfState` of the ACPC's game.c).

At limit the stacks are deep enough that nobody runs short (at most 48 chips a deal go in): the ACPC lets
a limit player short of a full raise "raise" all in even below the bet, where koloda offers no raise to a
player who cannot more than call (a player all in at limit is tested by scenarios, tests/test_holdem.py).
No-limit tables are short (20 to 60 chips), so that players go all in and side pots are split often.

Outside the suite, 1,000 games of each configuration (7,000 in all, 2, 3, 6 and 10 players, limit and
no-limit, up to four deals each):
    python tests/test_holdem_differential.py 1000
    -> {'games': 7000, 'deals': 14920, 'decisions': 89395, 'mismatches': 0}
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import koloda  # noqa: E402
from helpers import get_var, zone_index  # noqa: E402

pyspiel = pytest.importorskip("pyspiel")

RANKS = "23456789TJQKA"
SUITS = "CDHS"

# (players, betting, stack, small blind, big blind, deals)
CONFIGS = [
    (2, "limit", 400, 1, 2, 3),
    (2, "no_limit", 60, 1, 2, 4),
    (3, "no_limit", 40, 1, 2, 4),
    (3, "limit", 200, 1, 2, 3),          # deep: at most 48 chips a deal go in at limit
    (6, "no_limit", 20, 1, 2, 3),
    (2, "no_limit", 200, 1, 2, 2),       # the default table
    (10, "no_limit", 30, 1, 2, 2),
]


class Mismatch(AssertionError):
    pass


def _acpc_ids(game) -> dict[int, int]:
    """koloda's card id -> OpenSpiel's."""
    ids = {}
    for r, rank in enumerate(RANKS):
        for s, suit in enumerate(SUITS):
            ids[game.cards.parse(("10" if rank == "T" else rank) + suit)[0]] = r * 4 + s
    return ids


def _spiel_game(n: int, betting: str, stacks: list[int], dealer: int, small: int, big: int):
    sb = dealer if n == 2 else (dealer + 1) % n
    bb = (sb + 1) % n
    blinds = [0] * n
    blinds[sb], blinds[bb] = small, big
    first = [(bb + 1) % n + 1] + [(dealer + 1) % n + 1] * 3
    params = {"betting": "limit" if betting == "limit" else "nolimit",
              "bettingAbstraction": "fchpa" if betting == "limit" else "fullgame",
              "numPlayers": n, "numRounds": 4, "numSuits": 4, "numRanks": 13, "numHoleCards": 2,
              "numBoardCards": "0 3 1 1", "blind": " ".join(map(str, blinds)),
              "firstPlayer": " ".join(map(str, first)), "stack": " ".join(map(str, stacks))}
    if betting == "limit":
        params["raiseSize"] = f"{big} {big} {2 * big} {2 * big}"
        params["maxRaises"] = "3 4 4 4"
    return pyspiel.load_game("universal_poker", params)


def _koloda_moves(state) -> dict[str, int]:
    return {state.action_to_string(a, plain=True): a for a in state.legal_actions()}


def _expected(spiel_actions: list[int], betting: str, facing: bool) -> set[str]:
    """OpenSpiel's legal actions in koloda's words."""
    words = set()
    for a in spiel_actions:
        if a == 0:
            words.add("fold")
        elif a == 1:
            words.add("call" if facing else "check")
        elif betting == "limit":
            words.add("raise")
        else:
            words.add(f"raise to {a}")
    return words


def play_match(config: tuple, seed: int) -> tuple[int, int]:
    """One koloda match against OpenSpiel deal by deal; (deals, decisions). Raises Mismatch."""
    n, betting, stack, small, big, deals = config
    game = koloda.load("holdem", {"betting": betting, "stack": stack, "small_blind": small, "big_blind": big,
                                  "hands": deals}, players=n)
    to_acpc = _acpc_ids(game)
    rng = random.Random(f"holdem/{config}/{seed}")
    state = game.new_initial_state(seed)
    stock = zone_index(game, "stock")
    played = decisions = 0
    while not state.is_terminal():
        stacks = [get_var(state, ("stack", p)) + get_var(state, ("put", p)) for p in range(n)]
        if min(stacks) < big:        # a blind all in for less: OpenSpiel's blinds are posted whole
            break
        deal_no, dealer = state.deal_number, state.dealer
        spiel = _spiel_game(n, betting, stacks, dealer, small, big).new_initial_state()
        top_first = state.zones[stock][::-1]
        board = top_first[1:4] + [top_first[5], top_first[7]]
        hole = [list(state.zones[zone_index(game, ("hand", p))]) for p in range(n)]
        feed = [c for p in range(n) for c in sorted(hole[p])] + board
        while not spiel.is_terminal():
            if spiel.is_chance_node():
                card = to_acpc[feed.pop(0)]
                if card not in [a for a, _ in spiel.chance_outcomes()]:
                    raise Mismatch(f"deal {deal_no}: OpenSpiel cannot be dealt card {card}")
                spiel.apply_action(card)
                continue
            if state.is_terminal() or state.deal_number != deal_no:
                raise Mismatch(f"deal {deal_no}: koloda's deal is over, OpenSpiel's is not: {spiel}")
            if state.current_player() != spiel.current_player():
                raise Mismatch(f"deal {deal_no}: koloda's P{state.current_player() + 1} to move, "
                               f"OpenSpiel's player {spiel.current_player()}")
            mine = _koloda_moves(state)
            facing = "call" in mine
            legal = spiel.legal_actions()
            if betting == "limit" and (2 in legal) != (4 in legal):
                raise Mismatch(f"deal {deal_no}: OpenSpiel's limit raise and its HalfPot disagree: {legal}")
            raises = [a for a in legal if a >= 2 and not (betting == "limit" and a == 4)]
            theirs = _expected([a for a in legal if a < 2] + raises, betting, facing)
            words = {("raise" if betting == "limit" and w.startswith("raise") else w) for w in mine}
            if words != theirs or len(words) != len(mine):
                raise Mismatch(f"deal {deal_no}, decision {decisions}: koloda {sorted(mine)} v OpenSpiel "
                               f"{sorted(theirs)} ({legal[:6]}...)")
            kinds = [k for k in ([a for a in legal if a < 2], raises) if k]
            action = rng.choice(rng.choice(kinds))
            word = _expected([action], betting, facing).pop()
            state.apply_action(next(a for w, a in mine.items() if w == word or (word == "raise" and
                                                                              w.startswith("raise"))))
            spiel.apply_action(action)
            decisions += 1
        if not state.is_terminal() and state.deal_number == deal_no:
            raise Mismatch(f"deal {deal_no}: OpenSpiel's deal is over, koloda's is not")
        after = [get_var(state, ("stack", p)) + (get_var(state, ("put", p)) if not state.is_terminal() else 0)
                 for p in range(n)]
        won = [a - b for a, b in zip(after, stacks)]
        for p, (mine_won, theirs_won) in enumerate(zip(won, spiel.returns())):
            exact = float(theirs_won).is_integer()
            if (exact and mine_won != theirs_won) or (not exact and abs(mine_won - theirs_won) >= 1):
                raise Mismatch(f"deal {deal_no}: P{p + 1} won {mine_won} in koloda, {theirs_won} in OpenSpiel")
        if sum(won) != 0:
            raise Mismatch(f"deal {deal_no}: koloda's chips do not add up: {won}")
        played += 1
    return played, decisions


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}p-{c[1]}")
def test_holdem_agrees_with_universal_poker(config):
    deals = decisions = 0
    for seed in range(12):
        d, k = play_match(config, seed)
        deals, decisions = deals + d, decisions + k
    assert deals >= 12 and decisions > 2 * deals


def main(games: int) -> None:
    totals = {"games": 0, "deals": 0, "decisions": 0, "mismatches": 0}
    for config in CONFIGS:
        for seed in range(games):
            try:
                d, k = play_match(config, seed)
                totals["deals"] += d
                totals["decisions"] += k
            except Mismatch as exc:
                totals["mismatches"] += 1
                print(config, seed, exc)
            totals["games"] += 1
    print(totals)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
