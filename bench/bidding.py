"""How the bots bid Preferans and Thousand: the contracts the auctions reach, and how they fare.

    python bench/bidding.py preferans --seat greedy -n 100
    python bench/bidding.py preferans --seat ismcts:iterations=100 -n 30
    python bench/bidding.py preferans --seat tricks -n 100      # the trick-count reference below
    python bench/bidding.py thousand --seat greedy -n 100
    python bench/bidding.py thousand --seat points -n 100       # the point-count reference below
    python bench/bidding.py spades --seat greedy -n 40          # each partner's bid and the side's

Each deal is bid by the given bots at every seat; the rest of the deal (the talon, the whist,
the play) is played by greedy bots. The script prints the share of deals passed out (Preferans'
all-pass), the contracts reached (Thousand: the bid, then the contract the declarer names after
the talon), and the share made. For Spades (the whole deal by the given bots) it prints the
first and the second bidder of each side's mean bid beside the tricks their hand hopes for (the
rule file's `hoped`), and the side's bid against the tricks it took.

The references are bidders outside the engine, the simplest a player would use:
- `tricks` (Preferans) counts its tricks: in its longest suit, with four cards or more, each card
  less one for each of the ace, king and queen it lacks; in the others an ace 1, a king with
  another card ½ (1 beside the ace); and ½ for the talon. It calls the lowest game it may in that
  suit (no trump when no suit has four cards) up to the tricks it counts, 6 at least, else it
  passes. It never calls misère.
- `points` (Thousand) counts the points it can hope for: 120 shared by the three hands in
  proportion to its aces (11 each) and tens with their ace (10), plus its marriages, plus 15 for
  the talon; it raises by the least step while the bid stays at least 10 under that count.
"""
from __future__ import annotations

import argparse
import statistics
from collections import Counter

import koloda
from koloda.agents.greedy import GreedyAgent
from koloda.agents.registry import make_agent

SUITS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}


def var(state, name: str, owner: int | None = None):
    layout = state.game.layout
    return state.vars[layout.var_base[name] + (owner or 0)]


def hand_of(state, player: int) -> list[str]:
    for z in state.observation(player)["zones"]:
        if z["zone"] == "hand" and z["owner"] == player:
            return z["cards"]
    return []


def legal_texts(state) -> dict[str, int]:
    return {state.action_to_string(a, plain=True): a for a in state.legal_actions()}


class Reference:
    """A reference bidder for the bidding phase; greedy for the rest of the deal."""

    def __init__(self, seed: int):
        self.greedy = GreedyAgent(seed=seed)

    def choose(self, state) -> int:
        if state.observation(state.current_player())["phase"] != "bidding":
            return self.greedy.choose(state)
        return self.bid(state, state.current_player(), legal_texts(state))

    def bid(self, state, me: int, legal: dict[str, int]) -> int:
        raise NotImplementedError


class TrickCount(Reference):
    def bid(self, state, me, legal):
        cards = hand_of(state, me)
        by_suit = {s: {c[:-1] for c in cards if c[-1] == s} for s in "SCDH"}
        trump = max("SCDH", key=lambda s: (len(by_suit[s]), "SCDH".index(s)))
        tricks = 0.5                                            # the talon
        for s, ranks in by_suit.items():
            if s == trump and len(ranks) >= 4:                  # trumps: all but the top honours missing
                tricks += max(0, len(ranks) - sum(r not in ranks for r in ("A", "K", "Q")))
            else:
                tricks += ("A" in ranks) + ("K" in ranks and len(ranks) > 1) * (1 if "A" in ranks else 0.5)
        strain = SUITS[trump] if len(by_suit[trump]) >= 4 else "no trump"
        for n in range(6, int(tricks) + 1):
            if f"{n} {strain}" in legal:
                return legal[f"{n} {strain}"]
        return legal["pass"]


class PointCount(Reference):
    def bid(self, state, me, legal):
        cards = hand_of(state, me)
        held = {c[-1] for c in cards if c[:-1] == "K"} & {c[-1] for c in cards if c[:-1] == "Q"}
        sure = sum(11 for c in cards if c[:-1] == "A") \
            + sum(10 for c in cards if c[:-1] == "10" and "A" + c[-1] in cards)
        count = 120 * sure // 50 + sum(MARRIAGE[s] for s in held) + 15
        raises = sorted((int(t.split()[1]), a) for t, a in legal.items() if t.startswith("bid "))
        if raises and raises[0][0] <= count - 10:
            return raises[0][1]
        return legal["pass"]


REFERENCES = {"tricks": TrickCount, "points": PointCount}


def preferans_result(state) -> tuple[str, bool | None]:
    """The contract of a finished deal (`all-pass`, `misère`, `7 hearts`...) and whether it was made."""
    declarer, contract = var(state, "declarer"), var(state, "contract")
    if declarer is None:
        return "all-pass", None
    tricks = var(state, "tricks", declarer)
    if contract == 85:
        return "misère", tricks == 0
    whisted = any(var(state, "whisting", p) for p in range(state.n))
    strain = ["spades", "clubs", "diamonds", "hearts", "no trump"][contract % 10]
    return f"{contract // 10} {strain}", (not whisted) or tricks >= contract // 10


def play_deal(game, name: str, seat: str, seed: int) -> tuple[str, bool | None, list[str]]:
    if seat in REFERENCES:
        bidders = [REFERENCES[seat](seed * 10 + k) for k in range(game.num_players)]
    else:
        bidders = [make_agent(seat, seed=seed * 10 + k) for k in range(game.num_players)]
    players = [GreedyAgent(seed=seed * 10 + k) for k in range(game.num_players)]
    state = game.new_initial_state(seed=seed)
    calls = []
    while not state.is_terminal() and state.observation(0)["phase"] == "bidding":
        action = bidders[state.current_player()].choose(state)
        calls.append(state.action_to_string(action, plain=True))
        state.apply_action(action)
    if name == "preferans":
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].choose(state))
        contract, made = preferans_result(state)
        return contract, made, calls
    declarer = var(state, "declarer")
    if declarer is None:
        return "thrown in", None, calls
    before = var(state, "score", declarer)
    bid = var(state, "bid")
    contract = bid
    while not state.is_terminal() and state.observation(0)["deal"] == 1:
        if var(state, "contract") is not None:
            contract = var(state, "contract")
        state.apply_action(players[state.current_player()].choose(state))
    return f"{bid}/{contract}", var(state, "score", declarer) > before, calls


def spades(seat: str, n: int, seed: int) -> None:
    from koloda.interpreter.game import compile_expression
    game = koloda.load("spades", {"deals": 1})
    hoped, _ = compile_expression(game, "[hoped(q) for q in players]")
    first, second, sides, over, made = [], [], [], [], 0
    for i in range(n):
        state = game.new_initial_state(seed=seed + i)
        agents = [make_agent(seat, seed=(seed + i) * 10 + k) for k in range(4)]
        hopes, order = hoped(state, {}), []
        while state.observation(0)["phase"] == "bidding":
            order.append(state.current_player())
            state.apply_action(agents[state.current_player()].choose(state))
        bids = [var(state, "bid", p) for p in range(4)]
        first += [(bids[p], hopes[p] / 10) for p in order[:2]]
        second += [(bids[p], hopes[p] / 10) for p in order[2:]]
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))
        for t in range(2):
            bid, took = bids[t] + bids[t + 2], var(state, "tricks", t) + var(state, "tricks", t + 2)
            sides.append(bid)
            over.append(took - bid)
            made += took >= bid
    for name, calls in (("first", first), ("second", second)):
        print(f"{name} bidder of a side: mean bid {statistics.mean(b for b, _ in calls):.2f},"
              f" its hand hopes for {statistics.mean(h for _, h in calls):.2f}")
    print(f"side's bid: mean {statistics.mean(sides):.2f}; tricks taken less the bid: mean"
          f" {statistics.mean(over):.2f}, sd {statistics.pstdev(over):.2f}; made {made} of {len(sides)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", choices=["preferans", "thousand", "spades"])
    parser.add_argument("--seat", default="greedy")
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calls", action="store_true", help="print each deal's calls")
    args = parser.parse_args()
    if args.game == "spades":
        spades(args.seat, args.n, args.seed)
        return
    game = koloda.load(args.game, options={"deals": 1} if args.game == "preferans" else {})
    contracts: Counter[str] = Counter()
    made = played = 0
    raised = [0, 0]                  # Thousand: deals bid above 100, and those made
    for i in range(args.n):
        contract, ok, calls = play_deal(game, args.game, args.seat, args.seed + i)
        contracts[contract] += 1
        if args.game == "thousand" and contract[0].isdigit() and int(contract.split("/")[0]) > 100:
            raised[0] += 1
            raised[1] += bool(ok)
        if args.calls:
            print(args.seed + i, contract, "made" if ok else ("" if ok is None else "set"), "·", ", ".join(calls))
        if ok is not None:
            played += 1
            made += ok
    print(f"{args.game} {args.seat}: {args.n} deals")
    if args.game == "preferans":
        print(f"all-pass {contracts['all-pass'] / args.n:.0%}")
        levels = [int(c.split()[0]) for c, k in contracts.items() for _ in range(k) if c[0].isdigit()]
    else:
        bids = [int(c.split("/")[0]) for c, k in contracts.items() for _ in range(k) if c[0].isdigit()]
        levels = [int(c.split("/")[1]) for c, k in contracts.items() for _ in range(k) if c[0].isdigit()]
        print(f"bid above 100 {sum(v > 100 for v in bids) / max(1, len(bids)):.0%}, mean bid "
              f"{statistics.mean(bids):.1f}, bids {dict(sorted(Counter(bids).items()))}")
        print(f"contracts (after the talon) {dict(sorted(Counter(levels).items()))}")
        contracts = Counter()
    if contracts:
        print("contracts", dict(sorted(contracts.items())))
    if levels:
        print(f"mean {statistics.mean(levels):.2f}")
    if played:
        print(f"made {made / played:.0%} of {played}")
    if raised[0]:
        print(f"bid above 100: made {raised[1] / raised[0]:.0%} of {raised[0]}")


if __name__ == "__main__":
    main()
