"""The loop the differential tests (tests/test_*_differential.py) share: koloda's state and OpenSpiel's
played move for move on the same random choices, and the long run that counts the games that differ.

Each side's moves are named by a function of the test (`ours`, `theirs`: state, player -> {name: action},
where the names are what the two sides have in common: OpenSpiel's action string, a bid's worth, a
word); at every decision the same player is to move, no two moves of a side share a name, and the two
sets of names are equal. One name, drawn by the test's seeded `rng` among the sorted names, is then
played on both sides. At a simultaneous node every player's moves are compared so, and each player's
drawn in turn. The test compares the returns itself, at the end.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

Moves = Callable[[Any, int], dict[Hashable, int]]
SIMULTANEOUS = -2           # pyspiel.PlayerId.SIMULTANEOUS, without importing pyspiel here


def _same_moves(ours: dict[Hashable, int], theirs: dict[Hashable, int], ours_count: int, theirs_count: int,
                where: str) -> None:
    assert len(ours) == ours_count, f"{where}: two koloda moves read alike"
    assert len(theirs) == theirs_count, f"{where}: two OpenSpiel moves read alike"
    assert set(ours) == set(theirs), \
        f"{where}: only koloda {sorted(map(str, set(ours) - set(theirs)))[:8]}, " \
        f"only OpenSpiel {sorted(map(str, set(theirs) - set(ours)))[:8]}"


def play_in_step(k: Any, o: Any, rng: random.Random, ours: Moves, theirs: Moves,
                 chance: Callable[[Any], int] | None = None, players: int = 0) -> int:
    """Plays koloda's state `k` and OpenSpiel's `o` to OpenSpiel's end, comparing every decision; returns
    the number of decisions (a simultaneous node is one). `chance` gives OpenSpiel's chance outcome
    (the card koloda dealt), where OpenSpiel has chance nodes after the start; `players` is the number
    of players asked at a simultaneous node."""
    decisions = 0
    while not o.is_terminal():
        where = f"decision {decisions + 1}"
        if o.is_chance_node():
            assert chance is not None, f"{where}: a chance node OpenSpiel was not expected to have"
            o.apply_action(chance(o))
            continue
        assert not k.is_terminal(), f"koloda ended before OpenSpiel, after {decisions} decisions"
        player = o.current_player()
        assert k.current_player() == player, f"{where}: who is to move"
        if player == SIMULTANEOUS:
            joint_k, joint_o = [], []
            for p in range(players):
                mine, spiel = ours(k, p), theirs(o, p)
                _same_moves(mine, spiel, len(k.legal_actions(p)), len(o.legal_actions(p)), f"{where}, P{p + 1}")
                name = rng.choice(sorted(spiel))
                joint_k.append(mine[name])
                joint_o.append(spiel[name])
            o.apply_actions(joint_o)
            k.apply_actions(joint_k)
        else:
            mine, spiel = ours(k, player), theirs(o, player)
            _same_moves(mine, spiel, len(k.legal_actions()), len(o.legal_actions()), where)
            name = rng.choice(sorted(spiel))
            o.apply_action(spiel[name])
            k.apply_action(mine[name])
        decisions += 1
    assert k.is_terminal(), "OpenSpiel ended before koloda"
    return decisions


def count_mismatches(games: int, play: Callable[[int], object], label: Callable[[int], str] = str) -> int:
    """The long run of a differential test: `play(i)` for each of `games` games, each failed comparison
    printed; the exit status (1 if any game differed)."""
    mismatches = 0
    for i in range(games):
        try:
            play(i)
        except AssertionError as failure:
            mismatches += 1
            print(f"game {label(i)}: {failure}")
    print(f"{games} games, {mismatches} mismatches")
    return 1 if mismatches else 0
