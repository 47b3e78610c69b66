"""How the table tells each player's result in a game against the house."""
from __future__ import annotations

from koloda.dsl.labels import Label, label_text
from koloda.ui.names import language


def against_house_text(label: Label | None, returns: list[float]) -> str:
    """`P1 beat the dealer; P2 is level with the dealer`: each player's result against the house alone
    (1 won, 0.5 level, 0 lost; see koloda/interpreter/core/house.py)."""
    house = label_text(label, "house", language())
    parts = []
    for p, result in enumerate(returns):
        said = (f"beat the {house}" if result == 1 else f"lost to the {house}" if result == 0
                else f"is level with the {house}")
        parts.append(f"P{p + 1} {said}")
    return "; ".join(parts) + "."
