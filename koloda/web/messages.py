"""What each seat is sent. Everything here is read from the engine's view of the state for that
seat (State.observation(seat), koloda/interpreter/words/view.py) and from move texts told as that seat saw
them (Game.describe), never from the state's zones themselves; the one exception is the end of a
deal, where every hand is shown to everyone, as the terminal shows it (koloda/ui/table.py).

An onlooker (a watcher link) is seat -1: the view of someone who holds no cards."""
from __future__ import annotations

from typing import Any

from koloda.dsl.labels import label_text
from koloda.interpreter.base.exact import number_text
from koloda.interpreter.core.house import LEVEL, WON
from koloda.interpreter.game import Game
from koloda.interpreter.core.state import State
from koloda.ui import names
from koloda.ui.table import said_lines, sort_key, taken_lines

WATCHER = -1


def who(game: Game, owner: int, by_side: bool, seat: int) -> str:
    """`you`, `your side`, `P2`, `P1+P3`."""
    if seat >= 0 and game.sees(seat, owner, by_side):
        return "you" if not by_side or game.num_sides == game.num_players else "your side"
    return game.owner_label(owner, by_side)


def _zone_ids(game: Game, state: State) -> list[int]:
    """The layout's index of each entry of an observation's zones, in its order (view.py leaves out
    the meld places that hold no meld)."""
    return [zi for zi, z in enumerate(game.layout.zones) if z.slot is None or state.slot_kind[z.slot] is not None]


def table_view(game: Game, state: State, seat: int, lang: str, reveal: bool = False) -> dict[str, Any]:
    """The table as `seat` sees it, laid out for the page: piles, grids, melds, variables.
    `reveal`: every card of every zone, face down or hidden (a replay that shows all; never a table
    in play)."""
    obs = state.observation(seat)
    if reveal:
        for zi, z in zip(_zone_ids(game, state), obs["zones"]):
            if "meld" not in z:
                z["cards"] = [game.cards.names[c] for c in state.zones[zi]]
                z.pop("top", None)
    piles: list[dict[str, Any]] = []
    grids: dict[int, dict[str, Any]] = {}
    melds: list[dict[str, Any]] = []
    for zi, z in zip(_zone_ids(game, state), obs["zones"]):
        side = z.get("side", False)
        owner = z["owner"]
        owner_text = None if owner is None else who(game, owner, side, seat)
        label = names.zone(game, z["zone"], lang)
        if "meld" in z:
            melds.append({"zone": zi, "owner": owner_text, "mine": owner is not None and game.sees(seat, owner, side),
                          "number": z["meld"]["number"], "kind": z["meld"]["kind"], "cards": z["cards"]})
            continue
        if "cell" in z:
            cell = z["cell"]
            grid = grids.setdefault(cell["grid"], {"label": label, "owner": owner_text, "rows": {}})
            top = None
            if z.get("cards"):
                top = z["cards"][-1]
            grid["rows"].setdefault(cell["row"], []).append(
                {"zone": zi, "column": cell["column"], "rank": cell["rank"], "size": z["size"],
                 "top": top, "open": "cards" in z})
            continue
        pile: dict[str, Any] = {"zone": zi, "label": label, "owner": owner_text, "size": z["size"],
                                "mine": owner is not None and game.sees(seat, owner, side)}
        if "cards" in z:
            cards = z["cards"]
            if "by" in z:
                pile["by"] = [None if p is None else ("you" if p == seat else f"P{p + 1}") for p in z["by"]]
                pile["recent"] = max(0, len(cards) - game.num_players)
            elif owner is not None and None not in cards:
                cards = sorted(cards, key=lambda n: sort_key(game, n))      # a hand, as the terminal sorts it
            pile["cards"] = cards
        elif "top" in z:
            pile["top"] = z["top"]
        piles.append(pile)
    for grid in grids.values():
        grid["rows"] = [sorted(row, key=lambda c: c["column"]) for _, row in sorted(grid["rows"].items())]
    variables = []
    for v in obs["vars"]:
        if game.spec.vars[v["var"]].internal:        # the rules' own memory, not for the table
            continue
        variables.append({"label": names.variable(game, v["var"], lang),
                          "value": names.value(game, v["var"], v["value"], lang),     # `shown as:` words
                          "owner": None if v["owner"] is None else who(game, v["owner"], v.get("side", False), seat)})
    shown = [{"label": label, "value": value} for label, value in obs.get("show", {}).items()]
    current = obs["current"]
    return {"title": names.title(game, lang), "seat": seat, "players": state.n, "current": current,
            "dealer": obs["dealer"], "deal": obs["deal"], "phase": names.phase(game, state.phase, lang),
            "terminal": obs["terminal"], "piles": piles, "grids": list(grids.values()), "melds": melds,
            "vars": variables, "show": shown, "said": list(obs.get("said", [])), "facts": list(obs.get("facts", []))}


def describe(game: Game, s: State, action: int, seat: int) -> str:
    """A move's text as `seat` saw it. An onlooker knows what every player knows, and no more: a
    card passed face down from hand to hand is `a card` to them (Game.describe, given no viewer,
    would name it, as the terminal does for a table of bots alone)."""
    if seat >= 0:
        return game.describe(s, action, seat)
    everyone = (1 << s.n) - 1
    return game.action_to_string(action, hide=lambda c: s.known[c] & everyone != everyone)


def move_lines(game: Game, told: State, now: State, player: int, action: int, seat: int) -> list[str]:
    """A move as the terminal tells it to `seat`: `P2 play Q♠`, the trick taken, what the rules said.
    `told` is the state just after the move (the deal's last state, if the move ended a deal)."""
    viewer = seat if seat >= 0 else None
    lines = [f"P{player + 1} {describe(game, told, action, seat)}"]
    lines += [t.plain for t in taken_lines(game, told, viewer)]
    if viewer is not None:
        lines += [t.plain.strip() for t in said_lines(now, viewer)]
    return lines


def deal_end(game: Game, ended: State, lang: str) -> dict[str, Any]:
    """Every hand as the deal ended (shown to all, as at the terminal), and the scores."""
    layout = game.layout
    hands = []
    for zi, z in enumerate(layout.zones):
        if z.owner is None or z.cell is not None or z.slot is not None:
            continue
        cards = sorted((game.cards.names[c] for c in ended.zones[zi]), key=lambda n: sort_key(game, n))
        hands.append({"label": names.owned(game, z.name, layout.owner_label(z.owner, z.by_side), lang),
                      "cards": cards})
    return {"deal": ended.deal_number, "hands": hands, "scores": _scores(ended)}


def _scores(state: State) -> list[dict[str, Any]]:
    return [{"player": f"P{p + 1}", "score": v if type(v) is int else number_text(v)}
            for p, v in enumerate(state.scores())]


def result(game: Game, state: State) -> dict[str, Any]:
    """The match's end: the scores and who won (partners together)."""
    returns = state.returns()
    best = [p for p in range(len(returns)) if returns[p] == max(returns)]
    if game.spec.house is not None:      # each player against the house: those who beat it, else the house
        beat = [f"P{p + 1}" for p, r in enumerate(returns) if r == WON]
        text = (" and ".join(beat) if beat else "a draw" if all(r == LEVEL for r in returns)
                else label_text(game.spec.house.label, "house", "en"))
    elif len(best) == len(returns):
        text = "a draw"
    elif game.num_sides < game.num_players:
        text = " and ".join(sorted({game.owner_label(game.side_of(p), True) for p in best}))
    else:
        text = " and ".join(f"P{p + 1}" for p in best)
    return {"scores": _scores(state), "winners": text}
