"""The table at the terminal: one player's view of the state, drawn with rich."""
from __future__ import annotations

from rich.text import Text

from koloda.interpreter.game import Game
from koloda.interpreter.state import State

RED_SUITS = {"H", "D"}


def card_text(game: Game, name: str) -> Text:
    """`QS` -> a coloured `Q♠`."""
    ids = game.cards.parse(name)
    label = game.cards.labels[ids[0]] if ids else name
    style = "bold red" if name[-1:] in RED_SUITS else ("bold magenta" if name == "JK" else "bold")
    return Text(label, style=style)


SUIT_DISPLAY_ORDER = {3: 0, 2: 1, 0: 2, 1: 3, None: 4}   # spades, hearts, clubs, diamonds: colours alternate


def sort_key(game: Game, name: str) -> tuple:
    ids = game.cards.parse(name)
    if not ids:
        return (9, 0)
    c = ids[0]
    return (SUIT_DISPLAY_ORDER[game.cards.suits[c]], game.cards.order[game.cards.ranks[c]])


def cards_line(game: Game, names: list[str], sort: bool = False) -> Text:
    if sort:
        names = sorted(names, key=lambda n: sort_key(game, n))
    line = Text()
    for i, name in enumerate(names):
        if i:
            line.append(" ")
        line.append_text(card_text(game, name))
    return line


def player_label(p: int | None, viewer: int | None) -> str:
    if p is None:
        return ""
    return "You" if p == viewer else f"P{p + 1}"


def render(game: Game, state: State, viewer: int | None) -> Text:
    """Everything `viewer` may see (everything, if viewer is None and the game is over)."""
    obs = game.observe(state, viewer if viewer is not None else -1)
    out = Text()
    who = "game over" if obs["terminal"] else f"{player_label(obs['current'], viewer)} to move"
    header = f"{game.title} · deal {obs['deal']} · dealer {player_label(obs['dealer'], viewer)} · {who}"
    out.append(header + "\n", style="bold cyan")
    for z in obs["zones"]:
        owner = z["owner"]
        if owner is None:
            label = z["zone"]
        else:
            label = f"your {z['zone']}" if owner == viewer else f"P{owner + 1} {z['zone']}"
        out.append(f"  {label:<14}", style="dim" if owner not in (None, viewer) else "")
        if "cards" in z:
            if z["cards"]:
                out.append_text(cards_line(game, z["cards"], sort=owner is not None))
            else:
                out.append("—", style="dim")
            if z["size"] > 1 and owner is None:
                out.append(f"  ({z['size']})", style="dim")
        elif "top" in z:
            out.append_text(card_text(game, z["top"]))
            out.append(f"  on top of {z['size'] - 1}", style="dim")
        else:
            out.append(f"{z['size']} card{'s' * (z['size'] != 1)}", style="dim")
        out.append("\n")
    shared = [v for v in obs["vars"] if v["owner"] is None]
    per_player: dict[str, list] = {}
    for v in obs["vars"]:
        if v["owner"] is not None:
            per_player.setdefault(v["var"], []).append(v)
    if shared:
        out.append("  " + " · ".join(f"{v['var']}: {v['value']}" for v in shared) + "\n")
    for name, values in per_player.items():
        out.append(f"  {name}: " + ", ".join(f"{player_label(v['owner'], viewer)} {v['value']}" for v in values) + "\n")
    return out
