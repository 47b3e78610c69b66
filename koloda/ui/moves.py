"""The legal moves as a person reads them: one a line, or, when there are many, grouped.

A group is the moves of one action (for an action of two or more parameters, those that share the
first: `place K♥ on …`). It is one line: the words its moves share, `…` where they differ, then each
move's number and its own words. The numbers are those of the full list, so a number typed means the
same move whichever way the list was shown.

The legal moves in the order the table lists and numbers them.

`State.legal_actions()` goes by action id, which orders cards as the deck
does (clubs first); the table lists a decision's moves action by action and,
within an action, its cards in the order the hand is drawn (spades, hearts,
clubs, diamonds; by rank within a suit), so that a move list reads like the
hand above it. A move's number is its place in this list.

A parameter that ranges over a list the file writes out (`s in [spades, clubs, diamonds, hearts]`)
keeps the order written; and actions of a phase whose first parameter is the same number (`bid`
with `n in 1..7` and `bid_notrump` with `n in 1..7`) are listed level by level, each level's moves
action by action, so a ladder of bids reads in its order: 1♣ 1♦ 1♥ 1♠ 1NT 2♣ ...
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from rich.text import Text

from koloda.dsl import resolved as R
from koloda.dsl.types import CARD, INT, PLAN
from koloda.interpreter.core.movetext import normal_move
from koloda.interpreter.core.state import State
from koloda.interpreter.core.table import Table
from koloda.ui.safe import plain
from koloda.ui.table import card_key

GROUP_OVER = 12          # a longer list is shown grouped
HEAD_WIDTH = 32          # the heads of the groups are aligned up to this width
GAP = "   "              # between the moves of a line
LONG = 20                # grouped lines beyond which the longest groups are folded
FOLD = 3                 # the lines a folded group keeps


def listed_moves(state: State) -> list[int]:
    """The legal moves, in the order shown (and numbered from 1) at the table."""
    game = state.game
    return sorted(state.legal_actions(), key=lambda a: _key(game, state, a))


def _key(game: Table, state: State, action_id: int) -> tuple:
    action, values = game.codec.decode(action_id, state)
    ladder, orders = _orders(game)
    params = game.rules.phases[action.phase].actions[action.name].params
    parts: list[Any] = [ladder.get((action.phase, action.name), action.index)]
    parts.append(values[params[0].var] if (action.phase, action.name) in ladder and params else 0)
    parts.append(action.index)
    for p in action.params:
        value = values[p.var]
        if p.type == CARD:
            parts.append(card_key(game, value))
        elif p.type == PLAN:
            parts.append(tuple(card_key(game, c) for c in value.cards))
        else:
            written = orders.get((action.phase, action.name, p.var))
            parts.append(written.index(value) if written is not None and value in written else value)
    parts.append(action_id)       # copies of a card, and anything else alike, keep the ids' order
    return tuple(parts)


_game_orders: WeakKeyDictionary = WeakKeyDictionary()


def _orders(game: Table) -> tuple[dict[tuple[int, str], int], dict[tuple[int, str, str], list]]:
    """Per game: the actions that are steps of a ladder (phase, action -> the ladder's first action's
    index), and the values of parameters that range over a list written out, in the written order."""
    found = _game_orders.get(game)
    if found is not None:
        return found
    ladder: dict[tuple[int, str], int] = {}
    orders: dict[tuple[int, str, str], list] = {}
    first_of: dict[tuple[int, str], int] = {}
    for code in game.codec.actions:
        action = game.rules.phases[code.phase].actions[code.name]
        if action.params and action.params[0].type == INT:
            start = first_of.setdefault((code.phase, action.params[0].var), code.index)
            ladder[(code.phase, code.name)] = start
        for p in action.params:
            if isinstance(p.domain, R.ListLit) and all(isinstance(x, R.Const) for x in p.domain.items):
                orders[(code.phase, code.name, p.var)] = [x.value for x in p.domain.items
                                                         if isinstance(x, R.Const)]
    # a ladder is of two actions or more; one alone keeps its place
    starts = list(ladder.values())
    ladder = {k: v for k, v in ladder.items() if starts.count(v) > 1}
    _game_orders[game] = found = (ladder, orders)
    return found


@dataclass
class MoveGroup:
    """Moves that read alike: `discard …` and [(1, "2♠"), (2, "7♠")]. A group of one move has its
    whole text as head, and no words of its own."""
    head: str
    moves: list[tuple[int, str]]


def move_groups(state: State) -> list[MoveGroup]:
    """The legal moves, in their order, in runs of one action (and one value of its first parameter,
    if it has more than one); the steps of a ladder in runs of one level (`bid 1 …` clubs to no
    trump), so that a ladder of bids takes a line a level."""
    game = state.game
    codec = game.codec
    ladder, _ = _orders(game)
    runs: list[tuple[tuple, list[tuple[int, str]]]] = []
    for number, a in enumerate(listed_moves(state), 1):
        code, values = codec.decode(a, state)
        key: tuple
        params = game.rules.phases[code.phase].actions[code.name].params
        if (code.phase, code.name) in ladder and params:
            key = ("ladder", ladder[(code.phase, code.name)], values[params[0].var])
        else:
            inner = 1
            for p in code.params[1:]:
                inner *= p.radix
            key = (code.index, (a - code.offset) // inner if len(code.params) > 1 else 0)
        text = plain(state.action_to_string(a))
        if runs and runs[-1][0] == key:
            runs[-1][1].append((number, text))
        else:
            runs.append((key, [(number, text)]))
    return [_group(moves) for _, moves in runs]


def _group(moves: list[tuple[int, str]]) -> MoveGroup:
    """The words all the moves share at the start and at the end, and what is left of each (at least a word)."""
    if len(moves) == 1:
        return MoveGroup(moves[0][1], [(moves[0][0], "")])
    words = [text.split() for _, text in moves]
    first, shortest = words[0], min(len(w) for w in words)
    start = 0
    while start < shortest - 1 and all(w[start] == first[start] for w in words):
        start += 1
    end = 0
    while end < shortest - 1 - start and all(w[-1 - end] == first[-1 - end] for w in words):
        end += 1
    head = " ".join(first[:start] + ["…"] + first[len(first) - end:])
    return MoveGroup(head, [(number, " ".join(w[start:len(w) - end])) for (number, _), w in zip(moves, words)])


def grouped(groups: list[MoveGroup], count: int) -> bool:
    """Whether a list of `count` moves is better shown in these groups than one a line."""
    return count > GROUP_OVER and len(groups) < count


def grouped_lines(groups: list[MoveGroup], width: int, most: int = LONG) -> list[Text]:
    """Each group on a line, continued under its first move if it does not fit in `width`:
    `  discard …        1) 2♠   2) 7♠   3) 9♥`. If that makes more than `most` lines, a group is cut
    after FOLD lines, with what to type to see the rest (`moves meld`)."""
    column = min(max(len(g.head) for g in groups), HEAD_WIDTH)
    laid = [_lay(g, column, width) for g in groups]
    fold = sum(len(rows) for rows in laid) > most
    lines = []
    for g, rows in zip(groups, laid):
        if fold and len(rows) > FOLD + 1:          # a fold that hid one line would save none
            hidden = sum(len(items) for items in rows[FOLD:])
            rows = rows[:FOLD]
        else:
            hidden = 0
        for k, items in enumerate(rows):
            line = Text("  " + (g.head.ljust(column) if k == 0 else " " * column) + "  ")
            for i, item in enumerate(items):
                if i:
                    line.append(GAP)
                line.append_text(item)
            lines.append(line)
        if hidden:
            lines.append(Text(f"  {' ' * column}  … {hidden} more: `moves {g.head.split('…')[0].strip()}` "
                              "lists them", style="dim"))
    return lines


def _lay(g: MoveGroup, column: int, width: int) -> list[list[Text]]:
    """The group's moves (`12) 7♠`) in rows that fit beside the heads."""
    room = max(width - column - 4, 20)
    rows: list[list[Text]] = [[]]
    used = 0
    for number, words in g.moves:
        item = Text(f"{number})", style="bold")
        if words:
            item.append(" " + words)
        if rows[-1] and used + len(GAP) + item.cell_len > room:
            rows.append([])
            used = 0
        used += (len(GAP) if rows[-1] else 0) + item.cell_len
        rows[-1].append(item)
    return rows


def starting(state: State, words: str) -> list[tuple[int, str]]:
    """The legal moves (number, text) whose text starts with `words` (typed as a move is: `meld`,
    `place JH`)."""
    want = normal_move(words)
    return [(k, plain(state.action_to_string(a))) for k, a in enumerate(listed_moves(state), 1)
            if normal_move(state.action_to_string(a)).startswith(want)]
