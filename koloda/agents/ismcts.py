"""Information-set Monte Carlo tree search (single observer).

Each iteration samples a full state from what the bot's seat has seen
(`determinize`), walks down one shared tree of moves — counting, for each
move, how often it was available — and plays the rest out at random, to the
end of the deal or `depth` moves, where the position is judged for every
player. The bot plays the move of the root that was visited most.

Progressive bias (`bias`): a node's untried moves are judged once, one move ahead by the
heuristic's margin for their player, in the world that first offers them; the best is tried
first, and selection adds `bias * prior / (visits + 1)`, which fades as the move is visited.

In a phase whose `playout:` is 0 (random moves there say nothing, as in an
auction) it does not search: it judges each move by the heuristic on a few
guesses of the hidden cards, as the greedy bot does.
"""
from __future__ import annotations

import math
import random
import time

from koloda.agents.greedy import GreedyAgent
from koloda.agents.judge import margin, rewards, standing
from koloda.agents.sampling import determinize
from koloda.interpreter.core.state import State


class _Node:
    __slots__ = ("player", "children", "visits", "available", "reward", "prior", "priors")

    def __init__(self, player: int, prior: float = 0.0):
        self.player = player          # who chose the move that leads here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 1
        self.reward = 0.0
        self.prior = prior            # the heuristic's view of this move, 0..1 (progressive bias)
        self.priors: dict[int, float] = {}      # the moves from here judged so far, by action


class IsmctsAgent:
    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 400, seconds: float | None = None,
                 depth: int | None = None, exploration: float = 0.7, cap: float | None = None,
                 bias: float = 3.0):
        """`iterations` per move, or `seconds` per move instead; `cap`: never think longer than this.
        `bias`: the weight of progressive bias, the heuristic's one-move view of each move, which
        fades as the move is visited (0: none, moves are expanded in random order)."""
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.cap = cap
        self.depth = depth
        self.c = exploration
        self.bias = bias
        self.searched = 0           # iterations of the last search: whether the cap cut it short

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.game.playouts[state.phase] == 0:
            # the tree's rewards rank the players by the sign of their gain alone, and with no
            # playout a move that gains a little ranks as one that gains much: judge by the margin
            self.searched = 0
            return GreedyAgent(seed=self.rng.getrandbits(32)).choose(state)
        me = state.current_player()
        root = _Node(me)
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        stop = None if self.cap is None else start + self.cap
        done = 0
        while (done < self.iterations if deadline is None else time.perf_counter() < deadline) \
                and (stop is None or done < 8 or time.perf_counter() < stop):
            self._iterate(root, determinize(state, me, self.rng), me)
            done += 1
        self.searched = done
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1,
                                         self.rng.random()))

    def _best_untried(self, node: _Node, world: State, untried: list[int], player: int) -> int:
        """The untried move the heuristic likes best for its player, one move ahead in this world.
        A move is judged once, in the first world that offers it (an opponent's moves differ
        between worlds: those first seen later are judged then, against each other)."""
        fresh = [a for a in untried if a not in node.priors]
        if fresh:
            values = []
            for a in fresh:
                after = world.clone()
                after.apply_action(a)
                values.append(margin(after, player))
            low, high = min(values), max(values)
            for a, v in zip(fresh, values):
                node.priors[a] = 0.5 if high == low else (v - low) / (high - low)
        return max(untried, key=lambda a: (node.priors[a], self.rng.random()))

    def _iterate(self, root: _Node, world: State, me: int) -> None:
        # judged by what each player gains from here, in this sampled world: a heuristic may read
        # cards this seat cannot see, and a standing built up over the match would drown the gain
        before = standing(world, me)
        node, path = root, [root]
        deal = world.deal_number
        # selection and expansion
        while not world.is_terminal() and world.deal_number == deal:
            legal = world.legal_actions()
            untried = [a for a in legal if a not in node.children]
            player = world.current_player()
            if untried:
                if self.bias:
                    action = self._best_untried(node, world, untried, player)
                else:
                    action = self.rng.choice(untried)
                child = node.children[action] = _Node(player, node.priors.get(action, 0.0))
                for a in legal:
                    if a in node.children and a != action:
                        node.children[a].available += 1
                world.apply_action(action)
                path.append(child)
                break
            log_total = None
            best, best_score = None, float("-inf")
            for a in legal:
                child = node.children[a]
                child.available += 1
                log_total = math.log(child.available)
                score = child.reward / child.visits + self.c * math.sqrt(log_total / child.visits)
                if self.bias:
                    score += self.bias * child.prior / (child.visits + 1)
                if score > best_score:
                    best, best_score = a, score
            assert best is not None     # a state that is not over has a legal move
            world.apply_action(best)
            node = node.children[best]
            path.append(node)
        # playout, to the end of the deal or `depth` moves
        steps = 0
        limit = self.depth if self.depth is not None else (30 if world.game.heuristic is not None else None)
        # a phase's `playout:` bounds the random moves played in it (an auction's random calls say nothing)
        playouts, phase, in_phase = world.game.playouts, world.phase, 0
        while not world.is_terminal() and world.deal_number == deal and (limit is None or steps < limit):
            if world.phase != phase:
                phase, in_phase = world.phase, 0
            bound = playouts[phase]
            if bound is not None:
                if in_phase >= bound:
                    break
                in_phase += 1
            world.apply_action(self.rng.choice(world.legal_actions()))
            steps += 1
        result = rewards(world, before, me)
        for n in path[1:]:
            n.visits += 1
            n.reward += result[n.player]
