"""The compact view of a loaded game for the seats that give it to their agents (`py:`, `cmd:tensors:`):
the same spelling of moves as tokens and the same tensors as koloda.compact.CompactGame's, which
the agents' layer cannot import (it sits above them)."""
from __future__ import annotations

import weakref
from typing import Any

from koloda.interpreter.words.spelling import Spelling
from koloda.interpreter.words.tensors import Observer

__all__ = ["compact_view"]

# each loaded game's spelling and observer, made once (a big vocabulary takes a moment to build)
_VIEWS: "weakref.WeakKeyDictionary[Any, tuple[Spelling, Observer]]" = weakref.WeakKeyDictionary()


def compact_view(game: Any) -> tuple[Spelling, Observer]:
    """The same spelling and tensors as koloda.compact.CompactGame's for this game."""
    found = _VIEWS.get(game)
    if found is None:
        spelling = Spelling(game.codec, game.layout, game.cards, game.melds, [k.name for k in game.spec.meld_kinds],
                            game.view.render, game.action_to_string)
        found = _VIEWS[game] = (spelling, Observer(game, spelling))
    return found
