"""Seats by name: `--seat human --seat random`."""
from __future__ import annotations

from koloda.agents.random_agent import RandomAgent

AGENT_KINDS = ("human", "random")


class UnknownAgent(ValueError):
    pass


def make_agent(spec: str, seed: int, console=None):
    """An agent from a seat description such as `random` or `human`."""
    kind, _, _args = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "random":
        return RandomAgent(seed)
    if kind == "human":
        from koloda.agents.human import HumanAgent
        return HumanAgent(console)
    raise UnknownAgent(f"unknown seat `{spec}`: choose from {', '.join(AGENT_KINDS)}")
