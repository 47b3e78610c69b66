"""The table at the terminal: one player's view of the state, drawn with rich."""
from __future__ import annotations

from rich.text import Text

from koloda.dsl.labels import DEFAULT_LANGUAGE
from koloda.interpreter.core.state import State
from koloda.interpreter.core.table import Table
from koloda.ui import names, zones
from koloda.ui.safe import plain

RED_SUITS = {"H", "D"}


def card_text(game: Table, name: str) -> Text:
    """`QS` -> a coloured `Q♠`."""
    ids = game.cards.parse(name)
    label = game.cards.labels[ids[0]] if ids else name
    red = game.cards.colors[ids[0]] == 0 if ids else name[-1:] in RED_SUITS      # by colour: a red joker too
    style = "bold red" if red else ("bold magenta" if name == "JK" else "bold")
    return Text(label, style=style)


SUIT_DISPLAY_ORDER = {3: 0, 2: 1, 0: 2, 1: 3, None: 99}   # spades, hearts, clubs, diamonds: colours alternate


def card_key(game: Table, c: int) -> tuple[int, int]:
    """Where card `c` goes when cards are put in order for people: by suit as shown, then by rank."""
    suit = game.cards.suits[c]      # a deck's own suits after the four, before the cards of no suit
    return (SUIT_DISPLAY_ORDER[suit] if suit is None or suit < 4 else 4 + suit, game.cards.order[game.cards.ranks[c]])


def sort_key(game: Table, name: str) -> tuple:
    ids = game.cards.parse(name)
    if not ids:
        return (9, 0)
    return card_key(game, ids[0])


BACK = "▒▒"


def cards_line(game: Table, names: list[str | None], sort: bool = False) -> Text:
    """Cards side by side; None is a card lying face down."""
    if sort:
        names = sorted(names, key=lambda n: sort_key(game, n) if n else (8, 0))
    line = Text()
    for i, name in enumerate(names):
        if i:
            line.append(" ")
        line.append_text(card_text(game, name) if name else Text(BACK, style="blue"))
    return line


def played_line(game: Table, names: list[str | None], by: list[int | None], viewer: int | None) -> Text:
    """A shared zone's cards with who put each there, for the last round of cards (one a player):
    `Q♠ P1 · K♠ you · A♠ P3`; cards before those, and cards no player put there, stand alone."""
    recent = len(names) - game.num_players
    line = Text()
    for i, (name, p) in enumerate(zip(names, by)):
        if i:
            line.append(" · " if i >= recent else " ")
        line.append_text(card_text(game, name) if name else Text(BACK, style="blue"))
        if p is not None and i >= recent:
            line.append(f" {seat_name(p, viewer)}", style="dim")
    return line


def pairs_line(game: Table, names: list[str | None], by: list[int | None] | None, viewer: int | None) -> Text:
    """A zone whose cards lie two by two (`arrange: pairs`), each pair with who put each card:
    `8♦ P3 / 9♦ you · 10♣ P1 / J♣ you`; an odd last card lies alone."""
    line = Text()
    for i, name in enumerate(names):
        if i:
            line.append(" / " if i % 2 else " · ", style="dim" if i % 2 else "")
        line.append_text(card_text(game, name) if name else Text(BACK, style="blue"))
        p = by[i] if by is not None else None
        if p is not None:
            line.append(f" {seat_name(p, viewer)}", style="dim")
    return line


def _shared_label(game: Table, z: dict, viewer: int | None, lang: str) -> str:
    """A shared zone's row label; a zone laid out as a hand whose cards all came from one player says
    whose they are: `dummy (P2)`."""
    label = names.zone(game, z["zone"], lang)
    by = set(z.get("by") or ())
    if zones.arrangement(game, z["zone"]) == "sorted" and len(by) == 1 and None not in by:
        label += f" ({seat_name(by.pop(), viewer)})"
    return label


def seat_name(p: int, viewer: int | None) -> str:
    """A player as the viewer reads them in a sentence: `you`, `P3`."""
    return "you" if p == viewer else f"P{p + 1}"


def taken_lines(game: Table, state: State, viewer: int | None) -> list[Text]:
    """What the last action took out of a zone the table shares into players' own zones, with who had
    played each card: `P3 takes the trick: P1 Q♠, P2 K♠, P3 A♠, you 2♠`; a zone emptied into several
    players' zones at once is told in one line: `The count goes back: you Q♠ 3♦, P2 5♣ 4♥`."""
    lines = []
    shared: dict[str, list[dict]] = {}
    for m in game.observe(state, viewer if viewer is not None else -1)["moved"]:
        if m["owner"] is None:
            continue
        if m.get("shared"):
            shared.setdefault(m["from"], []).append(m)
            continue
        if not m["whole"]:
            continue
        who = owner_name(game, m["owner"], m.get("side", False), viewer)
        plural = who == "you" or "+" in who
        line = Text(f"{who[:1].upper()}{who[1:]} {'take' if plural else 'takes'} {_the_zone(game, m['from'])}: ",
                    style="bold")
        for i, (name, p) in enumerate(zip(m["cards"], m["by"])):
            if i:
                line.append(", ")
            if p is not None:
                line.append(f"{seat_name(p, viewer)} ")
            line.append_text(card_text(game, name) if name else Text(BACK, style="blue"))
        lines.append(line)
    for source, moves in shared.items():
        # each card back with the player who had put it there, or shared out otherwise
        back = all(not m.get("side") and all(p == m["owner"] for p in m["by"]) for m in moves)
        zone = _the_zone(game, source)
        line = Text(f"{zone[:1].upper()}{zone[1:]} {'goes back' if back else 'is shared out'}: ", style="bold")
        for i, m in enumerate(moves):
            if i:
                line.append(", ")
            line.append(owner_name(game, m["owner"], m.get("side", False), viewer) + " ")
            line.append_text(cards_line(game, m["cards"]))
        lines.append(line)
    return lines


def _the_zone(game: Table, name: str) -> str:
    """A shared zone in a sentence, by its label: `the trick`, `the count` (a label with its own article
    keeps it); in another language the label alone, as the table's rows show it."""
    text = names.zone(game, name)
    if names.language() != DEFAULT_LANGUAGE or text.split(" ", 1)[0].lower() in ("the", "a", "an"):
        return text
    return f"the {text}"


def meld_line(game: Table, names: list[str]) -> Text:
    """A meld's cards; a wild card shows what it stands for: `🃏=Q♣`."""
    line = Text()
    for i, name in enumerate(names):
        if i:
            line.append(" ")
        card, _, stands = name.partition("=")
        line.append_text(card_text(game, card))
        if stands:
            line.append("=")
            line.append_text(card_text(game, stands).copy())
    return line


def meld_name(game: Table, kind: str | None, size: int) -> str:
    """A meld's kind as the table calls it: `set`, or from the size its rule names on, `canasta`."""
    spec = next((k for k in game.spec.meld_kinds if k.name == kind), None)
    for least, name in spec.named if spec is not None else ():
        if size >= least:
            return name
    return kind or ""


def owner_name(game: Table, owner: int, by_side: bool, viewer: int | None) -> str:
    if viewer is not None and game.sees(viewer, owner, by_side):
        return "you" if not by_side or game.num_sides == game.num_players else "your side"
    return game.owner_label(owner, by_side)


def render_grid(game: Table, cells: list[dict], viewer: int | None, lang: str | None = None) -> Text:
    """A grid of cells: the top card of each, a back if face down, the cell's rank (dim) if empty."""
    first = cells[0]
    if first["owner"] is None:              # a grid the whole table shares
        title = names.zone(game, first["zone"], lang)
    else:
        who = owner_name(game, first["owner"], first.get("side", False), viewer)
        title = f"{who} · {names.zone(game, first['zone'], lang)}"
    out = Text(f"  {title}\n", style="bold")
    rows: dict[int, list[dict]] = {}
    for cell in cells:
        rows.setdefault(cell["cell"]["row"], []).append(cell)
    for r in sorted(rows):
        out.append("    ")
        for cell in sorted(rows[r], key=lambda c: c["cell"]["column"]):
            cards = cell.get("cards")
            if cell["size"] == 0 or cards is None:
                rank = cell["cell"]["rank"] or "·"
                piece = Text(f"·{rank}·".center(5) if cell["size"] == 0 else f"{cell['size']}?".center(5),
                             style="dim")
            elif cards[-1] is None:
                piece = Text(BACK.center(5), style="blue")
            else:
                piece = card_text(game, cards[-1])
                piece.pad_left((5 - len(piece)) // 2)
                piece.pad_right(5 - len(piece))
            out.append_text(piece)
            if cell["size"] > 1:
                out.append(f"+{cell['size'] - 1}", style="dim")
                out.append(" " * max(0, 2 - len(str(cell["size"] - 1))))
            else:
                out.append("   ")
        out.append("\n")
    return out


def player_label(p: int | None, viewer: int | None) -> str:
    if p is None:
        return ""
    return "You" if p == viewer else f"P{p + 1}"


def render(game: Table, state: State, viewer: int | None, reveal: bool = False, lang: str | None = None) -> Text:
    """Everything `viewer` may see (everything, if viewer is None and the game is over);
    `reveal`: every card of every zone, face down or hidden (a replay that shows all);
    `lang`: the language of the rule file's labels (default: the one chosen, see koloda.ui.names)."""
    lang = lang or names.language()
    obs = game.observe(state, viewer if viewer is not None else -1)
    if reveal:
        _reveal(game, state, obs)
    out = Text()
    who = "game over" if obs["terminal"] else f"{player_label(obs['current'], viewer)} to move"
    # against the house the seat that deals deals nothing the players should tell apart: the house is the dealer
    dealer = "" if game.spec.house is not None else f" · dealer {player_label(obs['dealer'], viewer)}"
    header = f"{names.title(game, lang)} · deal {obs['deal']}{dealer} · {who}"
    out.append(header + "\n", style="bold cyan")
    grids: dict[int, list[dict]] = {}
    melds: dict[tuple, list[dict]] = {}
    piles: list[tuple[dict, str]] = []
    for z in obs["zones"]:
        if "cell" in z:
            grids.setdefault(z["cell"]["grid"], []).append(z)
        elif "meld" in z:
            melds.setdefault((z["owner"], z.get("side", False)), []).append(z)
        elif not zones.drawn(game, z["zone"], z["size"], state.phase):
            continue
        elif z["owner"] is None:
            piles.append((z, _shared_label(game, z, viewer, lang)))
        else:
            who = "you" if z["owner"] == viewer else f"P{z['owner'] + 1}"
            piles.append((z, names.owned(game, z["zone"], who, lang)))
    width = max([13, *(len(label) for _, label in piles)]) + 1
    for z, label in piles:
        owner = z["owner"]
        out.append(f"  {label:<{width}}", style="dim" if owner not in (None, viewer) else "")
        if "cards" in z:
            arrange = zones.arrangement(game, z["zone"])
            if arrange == "pairs" and z["cards"]:
                out.append_text(pairs_line(game, z["cards"], z.get("by"), viewer))
            elif arrange == "sorted" and z["cards"]:
                out.append_text(cards_line(game, z["cards"], sort=True))
            elif "by" in z:
                out.append_text(played_line(game, z["cards"], z["by"], viewer))
            elif any(c is None for c in z["cards"]):
                out.append_text(cards_line(game, z["cards"]))
            elif z["cards"]:
                out.append_text(cards_line(game, z["cards"], sort=owner is not None))
            else:
                out.append("—", style="dim")
            if z["size"] > 1 and owner is None:
                out.append(f"  ({z['size']})", style="dim")
        elif "top" in z:
            out.append_text(card_text(game, z["top"]))
            if z["size"] > 1:
                out.append(f"  on top of {z['size'] - 1}", style="dim")
        else:
            out.append(f"{z['size']} card{'s' * (z['size'] != 1)}", style="dim")
        out.append("\n")
    out.append_text(phase_moves(game, state, viewer, lang))
    for cells in grids.values():
        out.append_text(render_grid(game, cells, viewer, lang))
    if any(cell["size"] > 1 for cells in grids.values() for cell in cells):
        out.append("  +N: N more cards lie under the top card\n", style="dim")
    for (owner, by_side), group in sorted(melds.items(), key=lambda kv: kv[0][0]):
        who = owner_name(game, owner, by_side, viewer)
        out.append(f"  {who}'s melds\n" if who not in ("you", "your side") else f"  {who} · melds\n", style="bold")
        called = [meld_name(game, z["meld"]["kind"], z["size"]) for z in group]
        width = max(6, *(len(c) for c in called))
        for z, kind in zip(group, called):
            out.append(f"    {z['meld']['number']:>2}  {kind:<{width}} ", style="dim")
            out.append_text(meld_line(game, z["cards"]))
            out.append("\n")
    for label, value in obs.get("show", {}).items():
        out.append(f"  {label}: ")
        if isinstance(value, list) and len(value) in (game.num_sides, state.n):
            by_side = len(value) == game.num_sides and game.num_sides != state.n
            out.append(", ".join(f"{owner_name(game, k, by_side, viewer)} {v}" for k, v in enumerate(value)))
        else:
            out.append(str(value))
        out.append("\n")
    # a variable marked `internal:` is the rules' own memory, not for the table
    drawn = [v for v in obs["vars"] if not game.spec.vars[v["var"]].internal]
    shared = [v for v in drawn if v["owner"] is None]
    per_player: dict[str, list] = {}
    for v in drawn:
        if v["owner"] is not None:
            per_player.setdefault(v["var"], []).append(v)
    if shared:
        out.append("  " + " · ".join(f"{names.variable(game, v['var'], lang)}: {names.value(game, v['var'], v['value'], lang)}"
                                     for v in shared) + "\n")
    rows = [f"{names.variable(game, name, lang)}: "
            + ", ".join(f"{owner_name(game, v['owner'], v.get('side', False), viewer)} "
                        f"{names.value(game, name, v['value'], lang)}" for v in values)
            for name, values in per_player.items()]
    for row in _packed(rows):
        out.append(f"  {row}\n")
    return out


ROW_WIDTH = 76      # an 80-column terminal, less the indent: short rows share a line, so the hand stays in view


def _packed(rows: list[str]) -> list[str]:
    """Rows of values, two or more to a line where they fit, in their order."""
    lines: list[str] = []
    for row in rows:
        if lines and len(lines[-1]) + 3 + len(row) <= ROW_WIDTH:
            lines[-1] += " · " + row
        else:
            lines.append(row)
    return lines


def phase_moves(game: Table, state: State, viewer: int | None, lang: str | None = None) -> Text:
    """The moves of the phase under way, for a phase the rules mark `show moves:` (an auction):
    `auction: P4 bid 1 clubs · you pass · P2 double`."""
    out = Text()
    if state.terminal or not game.spec.phases[state.phase].show_moves:
        return out
    count = state.moves - state.phase_start
    moves = list(state.history)[-count:] if count > 0 else []
    out.append(f"  {names.phase(game, state.phase, lang)}: ", style="bold")
    if not moves:
        out.append("—", style="dim")
    for i, (p, action) in enumerate(moves):
        if i:
            out.append(" · ", style="dim")
        out.append(f"{seat_name(p, viewer)} ", style="dim")
        out.append(plain(game.describe(state, action, viewer)))
    out.append("\n")
    return out


def said_lines(state: State, viewer: int | None) -> list[Text]:
    """The messages of the last move for `viewer` (`say`); with no viewer (bots alone), every message
    with the players it was for."""
    out = []
    for k, mask, text in state.said:
        if k != state.moves:
            continue
        if viewer is None:
            to = "all" if mask == (1 << state.n) - 1 else "+".join(f"P{p + 1}" for p in range(state.n) if mask >> p & 1)
            out.append(Text(f"  » {text}  (to {to})", style="italic"))
        elif mask >> viewer & 1:
            out.append(Text(f"  » {text}", style="italic"))
    return out


def deal_summary(game: Table, state: State) -> Text:
    """How a deal ended: every card each player (or side) holds, open, with how many."""
    out = Text(f"Deal {state.deal_number} is over", style="bold cyan")
    out.append("\n")
    layout = game.layout
    # a kind of zone every player has emptied and the last phase does not use (cards to pass, once
    # passed) is not listed; a hand played out is
    held = {z.name for zi, z in enumerate(layout.zones) if state.zones[zi]}
    for zi, z in enumerate(layout.zones):
        if z.owner is None or z.cell is not None or z.slot is not None:
            continue
        if z.name not in held and not zones.drawn(game, z.name, 0, state.phase):
            continue
        cards = state.zones[zi]
        out.append(f"  {names.owned(game, z.name, layout.owner_label(z.owner, z.by_side))}: ", style="bold")
        if cards:
            out.append_text(cards_line(game, [game.cards.names[c] for c in cards], sort=True))
        else:
            out.append("—", style="dim")
        out.append(f"  ({len(cards)} card{'s' * (len(cards) != 1)})\n", style="dim")
    out.append_text(score_parts(game, state))
    return out


def score_parts(game: Table, state: State) -> Text:
    """How the deal's totals were made, from the rules' `score:` parts: `P1+P3 score +1230: melds 430,
    natural canastas 500, going out 100, cards left in hand −0`; parts that add nothing are left out."""
    out = Text()
    layout = game.layout
    for deal, var, parts in state.scored:
        if deal != state.deal_number:
            continue
        name = layout.var_names[var]
        owner = layout.var_owner[var]
        label = names.variable(game, name)
        if owner is not None:
            label = names.owned_value(game, label, layout.owner_label(owner, game.spec.vars[name].per_side))
        total = sum(value for _, value in parts)
        shown = [(part, value) for part, value in parts if value] or list(parts[:1])
        out.append(f"  {label} {_signed(total)}", style="bold")
        if len(parts) > 1 or shown[0][0] != label:
            out.append(": " + ", ".join(f"{part} {_signed(value)}" for part, value in shown))
        out.append("\n")
    return out


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _reveal(game: Table, state: State, obs: dict) -> None:
    """Fill the observation's zones with all their cards: its entries follow the layout's zones,
    leaving out the meld places (which are public anyway)."""
    places = [zi for zi, z in enumerate(game.layout.zones) if z.slot is None]
    entries = [z for z in obs["zones"] if "meld" not in z]
    for entry, zi in zip(entries, places):
        entry["cards"] = [game.cards.names[c] for c in state.zones[zi]]
        entry.pop("top", None)

