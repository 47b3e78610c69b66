"""A move as people write it: `play 10♥`, `PLAY th` and `play 10H` are one move.

Moves are shown with suit symbols (`play Q♠`) and can be typed in plain
ASCII (`play QS`); both forms, any case, and `T` for ten name the same move.
"""
from __future__ import annotations

from typing import Callable

from koloda.interpreter.cards import normalize_card_name
from koloda.interpreter.errors import IllegalAction

_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def looks_like_card(word: str) -> bool:
    w = normalize_card_name(word)
    return w == "JK" or (len(w) in (2, 3) and w[-1] in "SHDC" and w[:-1] in _RANKS)


def _word(word: str) -> str:
    # a wild card in a meld is written with what it stands for: `🃏=5♠`, `JK=5S`
    return "=".join(normalize_card_name(part) if looks_like_card(part) else part.lower()
                    for part in word.split("="))


def normal_move(text: str) -> str:
    """One spelling of a move's text: card names in ASCII capitals, other words in lower case."""
    return " ".join(_word(w) for w in text.split())


def move_forms(action: int, to_string: Callable[..., str]) -> set[str]:
    """The normal spellings of an action's shown text and of its plain text."""
    return {normal_move(to_string(action)), normal_move(to_string(action, plain=True))}


def action_named(text: str, legal: list[int], to_string: Callable[..., str]) -> int:
    """The legal action whose text is `text` (symbols or ASCII, any case, `T` for ten).

    Raises IllegalAction, listing the legal moves, if no legal move reads so."""
    want = normal_move(text)
    found = [a for a in legal if want in move_forms(a, to_string)]
    if len(found) == 1:
        return found[0]
    moves = ", ".join(to_string(a, plain=True) for a in legal) or "none (the game is over)"
    if found:
        raise IllegalAction(f"`{text}` names {len(found)} moves now; legal moves: {moves}")
    raise IllegalAction(f"`{text}` is not a legal move now; legal moves: {moves}")
