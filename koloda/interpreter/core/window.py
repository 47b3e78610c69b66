"""Open windows (`ask LIST to STEP until all pass`): who answers next, and when the window closes.

The engine is sequential, so a window where "anyone may act, in any order, until all pass" is played
as a rotation: the players of the list are offered a decision one after another, from the first,
round and round. A player who acts does not close anything: everyone who passed before that gets
another chance, so each player may still act whenever they like before all have passed. The window
closes when every player of the list has passed since the last action (or its `or` condition holds).

A window waits on the flow's stack of questions (State.waiting) like a plain `ask`, with a fifth
entry: [window index, players, position of the one answering, passes in a row, acted in this answer].
"""
from __future__ import annotations

from typing import Any, Callable

# `end turn` in an action that asks: the asker's turn ends once the answers are in (not a step's name,
# so no step can be called this)
END_TURN = "end turn"

Fn = Callable[[Any, dict], Any]


class Window:
    """What the rule file says of one window: the action that passes, and the condition that closes it.
    `source`: the effect that opens it (its node), for the generated effect to find the window's index."""
    __slots__ = ("passing", "closes", "source")

    def __init__(self, passing: str, closes: Fn | None, source: Any = None):
        self.passing = passing
        self.closes = closes
        self.source = source


def opened(index: int, players: list[int]) -> list:
    """The record of a window just opened: nobody has answered yet."""
    return [index, players, -1, 0, False]


def note_decision(entry: list, window: Window, action_name: str) -> None:
    """A decision taken by the player answering the window: anything but the pass is an action."""
    if action_name != window.passing:
        entry[4] = True


def offer_next(s: Any, step: str, entry: list, window: Window, only_passes: Callable[[Any, str], bool]) -> bool:
    """After an answer (or on opening), hand the next decision to the next player of the window.
    False when the window closes: every player has passed since the last action, or its condition holds.
    A player who could only pass is passed over, as at the table nobody waits for a player who cannot
    act: their pass counts, without a decision (and without the pass action's effects)."""
    _, players, position, passes, acted = entry
    if position >= 0:
        passes = 0 if acted else passes + 1
    for _ in range(len(players) + 1):
        if not players or passes >= len(players) or (window.closes is not None and window.closes(s, {})):
            return False
        position = (position + 1) % len(players)
        s.current, s.step = players[position], step
        if only_passes(s, window.passing):
            passes += 1
            continue
        entry[2:] = [position, passes, False]
        return True
    return False


def copy_waiting(entry: list) -> list:
    """A copy of one question waiting on the stack (State.waiting), its lists not shared. Saves made
    before windows existed have four entries: a plain question."""
    asker, back, queue, step, *rest = entry
    window = rest[0] if rest else None
    return [asker, back, list(queue), step, None if window is None else [*window[:1], list(window[1]), *window[2:]]]
