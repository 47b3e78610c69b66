"""Klondike and FreeCell written again in plain Python, apart from the rule files, to check koloda's
legal moves and their effects against: each model holds its own piles (card names, face up or down),
lists the moves the rulebook allows in the move texts koloda uses, and plays a move on its own piles.

A model is started from a state's first deal (the shuffle is koloda's) and from then on keeps its own
table; `compare` plays a seeded game through both and stops at the first difference, in the moves
offered or in where the cards lie after a move. Used by tests/test_klondike.py, tests/test_freecell.py
and bench/solitaire_moves.py (the long run).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUITS = "CDHS"                       # the foundations, left to right
HOMES = ["clubs_home", "diamonds_home", "hearts_home", "spades_home"]


def rank(name: str) -> int:
    return RANKS.get(name[:-1]) or int(name[:-1])


def red(name: str) -> bool:
    return name[-1] in "DH"


def builds_on(a: str, b: str) -> bool:
    """Card `a` goes on card `b` in a pile built down in alternating colours."""
    return rank(a) + 1 == rank(b) and red(a) != red(b)


@dataclass
class Model:
    zones: dict[str, list[str]]
    up: dict[str, bool] = field(default_factory=dict)     # card -> face up
    moves_made: int = 0

    def home_of(self, c: str) -> str:
        return HOMES[SUITS.index(c[-1])]

    def goes_home(self, c: str) -> bool:
        return rank(c) == len(self.zones[self.home_of(c)]) + 1

    def home(self) -> int:
        return sum(len(self.zones[h]) for h in HOMES)

    def run(self, x: str, n: int) -> bool:
        """The top n cards of x are face up and built down in alternating colours."""
        z = self.zones[x]
        if n > len(z):
            return False
        cards = z[len(z) - n:]
        return all(self.up[c] for c in cards) and all(builds_on(cards[i], cards[i - 1]) for i in range(1, n))

    def shift(self, x: str, n: int, y: str) -> None:
        z = self.zones[x]
        moved = z[len(z) - n:]
        del z[len(z) - n:]
        self.zones[y].extend(moved)

    def layout(self) -> dict[str, list[tuple[str, bool]]]:
        return {name: [(c, self.up[c]) for c in z] for name, z in self.zones.items()}


class Klondike(Model):
    PILES = [f"pile{k}" for k in range(1, 8)]

    def __init__(self, zones, up, draw: int = 1, passes: int = 0, from_home: bool = True):
        super().__init__(zones, up)
        self.draw, self.passes, self.from_home = draw, passes, from_home
        self.pass_no, self.played = 1, 0

    def takes(self, y: str, c: str) -> bool:
        z = self.zones[y]
        return builds_on(c, z[-1]) if z else rank(c) == 13

    def redeal_allowed(self) -> bool:
        return (not self.zones["stock"] and bool(self.zones["waste"]) and self.played > 0
                and (self.passes == 0 or self.pass_no < self.passes))

    def plays(self) -> list[str]:
        """Every move but drawing and redealing."""
        out, waste = [], self.zones["waste"]
        for x in ["waste"] + self.PILES:
            if self.zones[x] and self.goes_home(self.zones[x][-1]):
                out.append(f"home {self.zones[x][-1]}")
        if waste:
            out += [f"waste to {y}" for y in self.PILES if self.takes(y, waste[-1])]
        for x in self.PILES:
            z = self.zones[x]
            for n in range(1, len(z) + 1):
                if not self.run(x, n):
                    break
                for y in self.PILES:
                    if y != x and self.takes(y, z[len(z) - n]) and not (not self.zones[y] and n == len(z)):
                        out.append(f"move {n} from {x} to {y}")
        if self.from_home:
            for h in HOMES:
                for y in self.PILES:
                    if self.zones[h] and self.zones[y] and builds_on(self.zones[h][-1], self.zones[y][-1]):
                        out.append(f"back from {h} to {y}")
        return out

    def legal(self) -> list[str]:
        if self.home() == 52:
            return []
        plays = self.plays()
        if self.zones["stock"]:
            return ["draw"] + plays
        return (["redeal"] if self.redeal_allowed() else []) + plays

    def apply(self, move: str) -> None:
        words, zones = move.split(), self.zones
        if move == "draw":
            for _ in range(min(self.draw, len(zones["stock"]))):
                c = zones["stock"].pop()
                zones["waste"].append(c)
                self.up[c] = True
        elif move == "redeal":
            while zones["waste"]:
                c = zones["waste"].pop()
                zones["stock"].append(c)
                self.up[c] = False
            self.pass_no, self.played = self.pass_no + 1, 0
        else:
            self.played += 1
            if words[0] == "home":
                c = words[1]
                src = next(x for x in ["waste"] + self.PILES if zones[x] and zones[x][-1] == c)
                zones[self.home_of(c)].append(zones[src].pop())
            elif words[0] == "waste":
                zones[words[2]].append(zones["waste"].pop())
            elif words[0] == "move":
                self.shift(words[3], int(words[1]), words[5])
            else:                                    # back from H to Y
                zones[words[4]].append(zones[words[2]].pop())
        for x in self.PILES:                         # an uncovered card is turned face up
            if zones[x] and not self.up[zones[x][-1]]:
                self.up[zones[x][-1]] = True
        self.moves_made += 1


class FreeCell(Model):
    CASCADES = [f"col{k}" for k in range(1, 9)]

    def __init__(self, zones, up, cells: int = 4):
        super().__init__(zones, up)
        self.cells = [f"cell{k}" for k in range(1, cells + 1)]

    def free(self) -> list[str]:
        return [z for z in self.cells if not self.zones[z]]

    def most(self, y: str) -> int:
        empty = sum(1 for x in self.CASCADES if not self.zones[x] and x != y)
        return (len(self.free()) + 1) * 2 ** empty

    def takes(self, y: str, c: str) -> bool:
        z = self.zones[y]
        return not z or builds_on(c, z[-1])

    def legal(self) -> list[str]:
        if self.home() == 52:
            return []
        out, zones = [], self.zones
        for x in self.cells + self.CASCADES:
            if zones[x] and self.goes_home(zones[x][-1]):
                out.append(f"home {zones[x][-1]}")
        if self.free():
            out += [f"{x} to a cell" for x in self.CASCADES if zones[x]]
        for z in self.cells:
            if zones[z]:
                out += [f"{z} to {y}" for y in self.CASCADES if self.takes(y, zones[z][-1])]
        for x in self.CASCADES:
            z = zones[x]
            for n in range(1, len(z) + 1):
                if not self.run(x, n):
                    break
                for y in self.CASCADES:
                    if (y != x and n <= self.most(y) and self.takes(y, z[len(z) - n])
                            and not (not zones[y] and n == len(z))):
                        out.append(f"move {n} from {x} to {y}")
        return out

    def apply(self, move: str) -> None:
        words, zones = move.split(), self.zones
        if words[0] == "home":
            c = words[1]
            src = next(x for x in self.cells + self.CASCADES if zones[x] and zones[x][-1] == c)
            zones[self.home_of(c)].append(zones[src].pop())
        elif words[1:] == ["to", "a", "cell"]:
            zones[self.free()[0]].append(zones[words[0]].pop())
        elif words[0].startswith("cell"):
            zones[words[2]].append(zones[words[0]].pop())
        else:
            self.shift(words[3], int(words[1]), words[5])
        self.moves_made += 1


def table_of(state) -> dict[str, list[tuple[str, bool]]]:
    """koloda's zones by name: each card's name and whether it lies face up, bottom first."""
    g = state.game
    return {name: [(g.cards.names[c], state.face[c]) for c in state.zones[base]]
            for name, base in g.layout.zone_base.items()}


def model_of(state, options: dict):
    """A model started from the state's deal: its piles as koloda dealt them."""
    table = table_of(state)
    zones = {name: [c for c, _ in z] for name, z in table.items()}
    up = {c: face for z in table.values() for c, face in z}
    if "pile1" in table:
        return Klondike(zones, up, **options)
    return FreeCell(zones, up, **options)


def compare(game, options: dict, seed: int, choose=None) -> int:
    """Play seed's game with random moves (or `choose(state, moves)`), checking at every position that
    koloda offers exactly the model's moves and, after every move, that the cards lie alike.
    Returns the number of moves played; raises AssertionError at the first difference."""
    state = game.new_initial_state(seed)
    model = model_of(state, {k: v for k, v in options.items() if k != "cap"})
    rng = random.Random(seed)
    cap = options.get("cap", 500)
    assert model.layout() == table_of(state), f"seed {seed}: the deal differs"
    while True:
        ours = sorted(model.legal())
        if state.is_terminal():
            assert model.moves_made >= cap or not ours, \
                f"seed {seed}, move {model.moves_made}: koloda ended the game, the model has {ours}"
            return model.moves_made
        theirs = sorted(game.action_to_string(a, plain=True) for a in state.legal_actions())
        assert theirs == ours, (f"seed {seed}, move {model.moves_made}: koloda offers "
                                f"{sorted(set(theirs) - set(ours))} the model does not, and the model "
                                f"{sorted(set(ours) - set(theirs))} koloda does not")
        actions = state.legal_actions()
        action = choose(state, actions) if choose else rng.choice(actions)
        text = game.action_to_string(action, plain=True)
        state.apply_action(action)
        model.apply(text)
        assert model.layout() == table_of(state), f"seed {seed}, after `{text}`: the cards lie differently"
