"""Looking far ahead in a game played alone: best-first search over positions, never met twice.

One move of look-ahead (greedy) loses a solitaire such as FreeCell by walking in circles: a card to
a free cell and back again looks as good as it did the move before. A lone player has no rival to
answer a move, so a bot may instead search the positions its moves lead to, best (by the rule file's
`heuristic:`) first, skip every position it has met before in the search or in the game, and take the
first move of the way to the best position found; a won game ends the search at once.

It reads no hidden card: it searches a world drawn from what its seat has seen (sampling.py), and
keeps a plan from one move to the next only while its seat knows where every card lies (then the
world is the state itself, and nothing it has not seen could make the plan wrong).
"""
from __future__ import annotations

import heapq
import itertools
import random
from typing import Any

from koloda.agents.judge import margin
from koloda.agents.sampling import determinize
from koloda.interpreter.core.state import State

Position = tuple[Any, ...]


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def position(s: State) -> Position:
    """What makes two states the same position: the cards where they lie and how, the variables, and
    where the turn stands (not the moves that led there)."""
    return (tuple(map(tuple, s.zones)), tuple(s.face), _frozen(s.vars), s.phase, s.step, s.current,
            s.deal_number, s.terminal)


def knows_all(s: State, player: int) -> bool:
    """The player knows where every card lies and which it is (no card hidden from them, none face down)."""
    bit = 1 << player
    known, face = s.known, s.face
    return all(known[c] & bit and face[c] for zone in s.zones for c in zone)


def best_line(root: State, me: int, budget: int, met: set[Position]) -> list[int]:
    """The moves to the best position found in `budget` positions looked through, best first (a won
    game at once). `met`: the positions not to come back to (the game's so far); the search adds its own."""
    order = itertools.count()       # equal values are searched in the order found
    frontier: list[tuple[float, int, State, list[int]]] = [(-margin(root, me), next(order), root, [])]
    met.add(position(root))
    best_value, best = float("-inf"), []
    looked = 0
    while frontier and looked < budget:
        _, _, s, line = heapq.heappop(frontier)
        looked += 1
        for action in s.legal_actions():
            after = s.clone()
            after.apply_action(action)
            key = position(after)
            if key in met:
                continue
            met.add(key)
            value = margin(after, me)
            way = line + [action]
            if after.is_terminal() and after.returns()[me] >= 1.0:
                return way              # won: nothing can be better
            if value > best_value:
                best_value, best = value, way
            if not after.is_terminal():
                heapq.heappush(frontier, (-value, next(order), after, way))
    return best


class Lookahead:
    """A lone player's plan: searched anew at each move, or followed while every card is known."""

    def __init__(self, budget: int, rng: random.Random):
        self.budget = budget
        self.rng = rng
        self.game_met: set[Position] = set()    # positions the game has been in (while every card was known)
        self.plan: list[int] = []
        self.expect: Position | None = None     # the position the plan's next move is made in
        self.match: int | None = None           # the game being planned: its history's id
        self.moves = 0                          # and the moves made in it when last asked

    def choose(self, state: State, me: int) -> int:
        legal = state.legal_actions()
        if id(state.history) != self.match or state.moves < self.moves:    # a new game
            self.match, self.game_met, self.plan, self.expect = id(state.history), set(), [], None
        self.moves = state.moves
        open_table = knows_all(state, me)
        here = position(state) if open_table else None
        if open_table:
            self.game_met.add(position(state))
            if self.plan and here == self.expect and self.plan[0] in legal:
                return self._follow(state)
        world = state.clone() if open_table else determinize(state, me, self.rng)
        met = set(self.game_met) if open_table else set()
        self.plan = best_line(world, me, self.budget, met)
        if not self.plan or self.plan[0] not in legal:
            self.plan = []
            return self.rng.choice(legal)
        if not open_table:
            return self.plan.pop(0)
        return self._follow(state)

    def _follow(self, state: State) -> int:
        action = self.plan.pop(0)
        after = state.clone()
        after.apply_action(action)
        self.expect = position(after)
        return action
