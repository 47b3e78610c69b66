"""A trained policy at koloda's table: a linear softmax over Pony's tokens, trained with NumPy alone.

Train it (a minute or so; it writes examples/my_agent.npz):

    python -m examples.my_agent                 # or: python -m examples.my_agent pony 400 weights.npz

then play against it, or simulate it against the bots, from the project's folder:

    koloda play pony --seat human --seat py:examples.my_agent:Trained
    koloda simulate pony -n 200 --seat py:examples.my_agent:Trained --seat random --rotate
    koloda simulate pony -n 200 --seat py:examples.my_agent:Trained:weights=weights.npz --seat greedy

It learns by imitation: koloda's `greedy` bot plays matches against itself, and for each token it
chose, the policy is shown the seat's observation tensor and the mask of legal tokens (exactly what
koloda.gymnasium gives a learner and what a `py:` seat gives the agent at the table); a softmax
regression fitted by gradient descent then picks, among the legal tokens, the one greedy would.
Any learner fits the same seat: only `act(view) -> token` is asked of it (docs/ai.md).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

WEIGHTS = Path(__file__).with_name("my_agent.npz")


class Trained:
    """`py:examples.my_agent:Trained` (options: `:weights=FILE`)."""

    def __init__(self, weights: str = str(WEIGHTS)):
        data = np.load(weights)
        self.w, self.b, self.scale = data["w"], data["b"], data["scale"]

    def act(self, view) -> int:
        logits = self.w @ (view.observation / self.scale) + self.b
        return int(np.argmax(np.where(view.action_mask > 0, logits, -np.inf)))


def examples(rules: str, games: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations, masks, tokens) of every token greedy chose in `games` matches against itself."""
    from koloda.agents.registry import make_agent
    from koloda.compact import CompactGame

    cg = CompactGame.load(rules)
    xs, masks, ys = [], [], []
    for g in range(games):
        cs = cg.new_initial_state(seed=seed + g)
        bots = [make_agent("greedy", seed * 1000 + g * 10 + p) for p in range(cg.num_players())]
        while not cs.is_terminal():
            player = cs.current_player()
            for token in cg.spell(bots[player].choose(cs.native)):
                xs.append(cs.observation_tensor(player))
                masks.append(cs.legal_actions_mask())
                ys.append(token)
                cs.apply_action(token)
    return np.asarray(xs, np.float32), np.asarray(masks, bool), np.asarray(ys)


def fit(x: np.ndarray, mask: np.ndarray, y: np.ndarray, steps: int = 300, rate: float = 0.5) -> dict:
    """Softmax regression over the legal tokens, by full-batch gradient descent."""
    scale = np.maximum(np.abs(x).max(axis=0), 1.0)
    x = x / scale
    w = np.zeros((mask.shape[1], x.shape[1]), np.float32)
    b = np.zeros(mask.shape[1], np.float32)
    target = np.eye(mask.shape[1], dtype=np.float32)[y]
    for _ in range(steps):
        logits = np.where(mask, x @ w.T + b, -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - target) / len(x)
        w -= rate * grad.T @ x
        b -= rate * grad.sum(axis=0)
    accuracy = float((np.where(mask, x @ w.T + b, -np.inf).argmax(axis=1) == y).mean())
    return {"w": w, "b": b, "scale": scale.astype(np.float32), "accuracy": accuracy}


def train(rules: str = "pony", games: int = 300, out: Path = WEIGHTS) -> float:
    """Fit the policy and write its weights to `out`; its accuracy on what it was shown."""
    model = fit(*examples(rules, games))
    np.savez(out, w=model["w"], b=model["b"], scale=model["scale"])
    return model["accuracy"]


if __name__ == "__main__":
    args = sys.argv[1:]
    accuracy = train(args[0] if args else "pony", int(args[1]) if len(args) > 1 else 300,
                     Path(args[2]) if len(args) > 2 else WEIGHTS)
    print(f"imitates greedy on {accuracy:.0%} of its choices")
