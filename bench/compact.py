"""What the compact view (koloda.compact) costs, in every shipped game.

    python bench/compact.py [--games 3] [--seed 0] [--moves 400] [--rounds 3] [GAME ...]

Game `i` is played twice with the same moves: the moves are the engine's, chosen by
`random.Random(S + i)` among its legal moves (beforehand, off the clock). Once on the engine
(legal_actions, apply_action), once through the compact view, spelling each move token by token as
an agent would (legal_actions before each token, then apply_action), each on a game loaded for it,
`--rounds` times, the two sides one after the other and in turn first; the medians are shown. Reported, by CPU time: microseconds per engine move on each
side and their ratio, tokens per move, and the microseconds of one observation tensor and one
information-state tensor (for the player to move, at every move of the compact run).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time


def playouts(name: str, games: int, seed: int, most: int) -> list[list[int]]:
    """The engine moves of each game, chosen beforehand, off the clock."""
    import koloda
    game = koloda.load(name)
    out = []
    for i in range(games):
        rng = random.Random(seed + i)
        state = game.new_initial_state(seed=seed + i)
        chosen: list[int] = []
        while not state.is_terminal() and len(chosen) < most:
            move = rng.choice(state.legal_actions())
            chosen.append(move)
            state.apply_action(move)
        out.append(chosen)
    return out


def engine_time(name: str, seed: int, games: list[list[int]]) -> float:
    import koloda
    game = koloda.load(name)       # loaded afresh: the engine keeps the melds it has listed
    start = time.process_time()
    for i, chosen in enumerate(games):
        state = game.new_initial_state(seed=seed + i)
        for move in chosen:
            state.legal_actions()
            state.apply_action(move)
    return time.process_time() - start


def compact_time(name: str, seed: int, games: list[list[int]]) -> tuple[float, int]:
    from koloda.compact import CompactGame
    speller = CompactGame.load(name)
    spelled = [[speller.spell(m) for m in chosen] for chosen in games]
    view = CompactGame.load(name)
    start = time.process_time()
    for i, moves in enumerate(spelled):
        cs = view.new_initial_state(seed=seed + i)
        for tokens in moves:
            for token in tokens:
                cs.legal_actions()
                cs.apply_action(token)
    return time.process_time() - start, sum(len(t) for moves in spelled for t in moves)


def tensor_times(name: str, seed: int, games: list[list[int]]) -> tuple[float, float, int]:
    from koloda.compact import CompactGame
    view = CompactGame.load(name)
    obs = info = 0.0
    count = 0
    for i, chosen in enumerate(games):
        cs = view.new_initial_state(seed=seed + i)
        for move in chosen[:100]:
            player = cs.current_player()
            start = time.process_time()
            cs.observation_tensor(player)
            obs += time.process_time() - start
            start = time.process_time()
            cs.information_state_tensor(player)
            info += time.process_time() - start
            cs.apply_native(move)
            count += 1
    return obs, info, count


def measure(name: str, games: int, seed: int, most: int, rounds: int) -> dict:
    from koloda.compact import CompactGame
    chosen = playouts(name, games, seed, most)
    moves = sum(map(len, chosen))
    native, compact = [], []
    tokens = 0
    for r in range(rounds):           # the two sides one right after the other, in turn first
        if r % 2:
            c, tokens = compact_time(name, seed, chosen)
            n = engine_time(name, seed, chosen)
        else:
            n = engine_time(name, seed, chosen)
            c, tokens = compact_time(name, seed, chosen)
        native.append(n / moves * 1e6)
        compact.append(c / moves * 1e6)
    obs, info, count = tensor_times(name, seed, chosen)
    view = CompactGame.load(name)
    return {"name": name, "native": statistics.median(native), "compact": statistics.median(compact),
            "ratio": statistics.median(c / n for c, n in zip(compact, native)),
            "tokens": tokens / moves, "obs": obs / count * 1e6, "info": info / count * 1e6,
            "vocabulary": view.num_distinct_actions(), "obs_size": view.observation_tensor_shape()[0]}


def main() -> None:
    import koloda
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="shipped games (default: all)")
    parser.add_argument("--games", type=int, default=3, dest="count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--moves", type=int, default=400, help="most engine moves a game")
    parser.add_argument("--rounds", type=int, default=3, help="timings of each side; the median is shown")
    args = parser.parse_args()
    print("| game | tokens | obs. size | µs/move engine | µs/move compact | ratio | tokens/move | µs obs. | µs info |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.games or koloda.shipped_games():
        r = measure(name, args.count, args.seed, args.moves, args.rounds)
        print(f"| {name} | {r['vocabulary']} | {r['obs_size']} | {r['native']:.0f} | {r['compact']:.0f} | "
              f"{r['ratio']:.2f} | {r['tokens']:.2f} | {r['obs']:.0f} | {r['info']:.0f} |")


if __name__ == "__main__":
    main()
