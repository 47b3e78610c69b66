"""How the bots bid: the contracts a bidding game's auctions reach, and how they fare.

    python bench/auction.py bridge --seat greedy -n 40
    python bench/auction.py bridge --seat ismcts:iterations=200 -n 20
    python bench/auction.py bridge --seat points -n 200      # the point-count reference below

Each deal is bid by the given bots at all four seats, then played out by greedy bots, and the
script prints the share of deals passed out, the contract levels reached, the share doubled,
and the share of contracts made (doubled and not). `points` is a reference bidder outside the
engine: it opens or overcalls its longest suit with 12+ high-card points (1NT with 15-17 and a
balanced hand), raises a partner's suit with support to the level the pair's points reach
(game at 25, small slam at 33, grand slam at 37) and never doubles — the simplest of systems.
"""
from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

import koloda
from koloda.agents.greedy import GreedyAgent
from koloda.agents.registry import make_agent

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
STRAINS = ["C", "D", "H", "S", "NT"]


def var(obs: dict, name: str, owner=None) -> str:
    for v in obs["vars"]:
        if v["var"] == name and v["owner"] == owner:
            return v["value"]
    raise KeyError(name)


def hand_of(state, player: int) -> list[str]:
    for z in state.observation(player)["zones"]:
        if z["zone"] == "hand" and z["owner"] == player:
            return z["cards"]
    return []


def points(cards: list[str]) -> int:
    return sum(HCP.get(c[:-1], 0) for c in cards)


class PointCount:
    """The reference bidder (see the module's text); plays cards as greedy does."""

    def __init__(self, seed: int):
        self.greedy = GreedyAgent(seed=seed)

    def choose(self, state) -> int:
        obs = state.observation(state.current_player())
        if obs["phase"] != "auction":
            return self.greedy.choose(state)
        me = state.current_player()
        cards = hand_of(state, me)
        hcp = points(cards)
        lengths = Counter(c[-1] for c in cards)
        level = int(var(obs, "level"))
        legal = {state.action_to_string(a, plain=True): a for a in state.legal_actions()}
        partner_bid = self.partner_bid(state, me)
        if partner_bid is None:
            if level == 0 or hcp >= 15:
                if 15 <= hcp <= 17 and max(lengths.values()) <= 5 and min(lengths.get(s, 0) for s in "CDHS") >= 2:
                    return legal.get("bid 1 no trump", legal["pass"])
                if hcp >= 12:
                    suit = max("CDHS", key=lambda s: (lengths.get(s, 0), "CDHS".index(s)))
                    for n in range(1, 3):
                        name = f"bid {n} {'clubs diamonds hearts spades'.split()['CDHS'.index(suit)]}"
                        if name in legal:
                            return legal[name]
            return legal["pass"]
        # partner has bid: the pair's points, partner shown as 13
        pair = hcp + 13
        target = 1 if pair < 22 else (2 if pair < 25 else (4 if pair < 33 else (6 if pair < 37 else 7)))
        strain_name = partner_bid
        if strain_name != "no trump" and lengths.get(strain_name[0].upper(), 0) < 3:
            strain_name = "no trump"
            target = min(target, 3) if target == 4 else target
        if target <= level:
            return legal["pass"]
        for n in range(level, target + 1):
            name = f"bid {n} {strain_name}"
            if name in legal:
                return legal[name]
        return legal["pass"]

    @staticmethod
    def partner_bid(state, me: int) -> str | None:
        partner = (me + 2) % state.n
        found = None
        for who, action in state.history:
            text = state.action_to_string(action, plain=True)
            if who == partner and text.startswith("bid "):
                found = text.split(" ", 2)[2]
        return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--seat", default="greedy")
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = koloda.load(args.game, options={"deals": 1})
    levels, doubled, made, made_doubled, passed = Counter(), 0, 0, 0, 0
    contracts = 0
    for i in range(args.n):
        seed = args.seed + i
        if args.seat == "points":
            agents = [PointCount(seed * 10 + k) for k in range(4)]
        else:
            agents = [make_agent(args.seat, seed=seed * 10 + k) for k in range(4)]
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and state.observation(0)["phase"] == "auction":
            state.apply_action(agents[state.current_player()].choose(state))
        obs = state.observation(0)
        level = int(var(obs, "level"))
        if level == 0:
            passed += 1
            continue
        contracts += 1
        levels[level] += 1
        dbl = int(var(obs, "doubled")) > 1
        doubled += dbl
        declarer = int(var(obs, "declarer")[1:]) - 1
        players = [GreedyAgent(seed=seed * 10 + k) for k in range(4)]
        while not state.is_terminal() and state.observation(0)["deal"] == 1:
            state.apply_action(players[state.current_player()].choose(state))
        tricks = int(var(state.observation(0), "tricks", owner=declarer % 2))
        ok = tricks >= 6 + level
        made += ok
        made_doubled += ok and dbl
    print(f"{args.game} {args.seat}: {args.n} deals, passed out {passed / args.n:.0%}")
    if contracts:
        print("levels", dict(sorted(levels.items())),
              f"mean {statistics.mean([k for k, v in levels.items() for _ in range(v)]):.2f}")
        print(f"doubled {doubled / contracts:.0%}, made {made / contracts:.0%}"
              + (f", doubled made {made_doubled / doubled:.0%}" if doubled else ""))


if __name__ == "__main__":
    main()
