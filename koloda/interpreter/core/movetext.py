"""A move as people write it: `play 10♥`, `PLAY th` and `play 10H` are one move; so are `bid 2 no trump`,
`bid 2nt` and `2NT`.

Moves are shown with suit symbols (`play Q♠`) and can be typed in plain
ASCII (`play QS`); both forms, any case, and `T` for ten name the same move.
The cards of a meld may be typed in any order (`meld KH KD KS`).

A typed line is read against the legal moves' texts in three passes, each
used only when the one before finds nothing:
1. the whole text, as the move reads (the cards of a meld in any order);
2. word by word, each word as the move's or a short form of it: a word's
   start (`pa` for `pass`, `h` or `hea` for `hearts`, `clubs` for `clubs_game`), a conventional short
   form (`nt` for `no trump`, `x` or `dbl` for `double`, `♣` for `clubs`),
   a card's rank alone (`j` for `J♠`), `my` for the player to move, and a
   number and a word run together (`2c`, `7nt`);
3. the same, for words that are only a part of the move: from its start
   (`place 9s on my square` for `place 9♠ on P1 square 9`) or from any word
   (`2nt` for `bid 2 no trump`, `QS` for `play Q♠`).
Nothing here is learnt per game: the short forms are those of suits, ranks and
the words of bidding, and the rest is the moves' own words.
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Callable

from koloda.interpreter.base.cards import normalize_card_name
from koloda.interpreter.base.errors import IllegalAction

_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
# conventional short forms of words moves use (what players write on a score sheet)
_SHORT = {"nt": ("no", "trump"), "notrump": ("no", "trump"), "notrumps": ("no", "trump"),
          "no-trump": ("no", "trump"), "n.t.": ("no", "trump"), "sans": ("no", "trump"),
          "x": ("double",), "dbl": ("double",), "xx": ("redouble",), "rdbl": ("redouble",),
          "redbl": ("redouble",), "♣": ("clubs",), "♦": ("diamonds",), "♥": ("hearts",), "♠": ("spades",)}
_ME = ("my", "me", "mine", "myself")
_RUN_TOGETHER = re.compile(r"(\d+)([^\d=].*)")      # `2c`, `7nt`, `6♠`: a level and a strain
MAX_READINGS = 64        # ways of reading one line tried (words run together can be read two ways)

Tokens = tuple[str, ...]


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


def _is_card(word: str) -> bool:
    return looks_like_card(word.split("=")[0])


def _cards_in_any_order(words: list[str]) -> Tokens:
    """The words with each run of card names sorted: the cards of a meld name one move in any order."""
    out: list[str] = []
    run: list[str] = []
    for w in words + [""]:
        if w and _is_card(w):
            run.append(w)
            continue
        out.extend(sorted(run))
        run = []
        if w:
            out.append(w)
    return tuple(out)


def move_forms(action: int, to_string: Callable[..., str]) -> set[str]:
    """The normal spellings of an action's shown text and of its plain text."""
    return {normal_move(to_string(action)), normal_move(to_string(action, plain=True))}


def _folded(text: str) -> str:
    """Without accents: `misere` is typed for `misère`."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def _move_tokens(action: int, to_string: Callable[..., str]) -> set[Tokens]:
    return {_cards_in_any_order(_folded(f).split()) for f in move_forms(action, to_string)}


def _readings(text: str, me: int | None) -> list[Tokens]:
    """The ways the typed words can be read: each word as typed, as its short form's words, and a number
    run together with a word (`2c`) also as the two (a `2c` is the 2♣ as well as `2 clubs`)."""
    choices: list[list[Tokens]] = []
    for w in _folded(normal_move(text)).split():
        low = w.lower()
        ways: list[Tokens] = [(w,)]
        if low in _SHORT:
            ways = [_SHORT[low]]
        elif low in _ME and me is not None:
            ways = [(f"p{me + 1}",)]
        split = _RUN_TOGETHER.fullmatch(low)
        if split:
            rest = split.group(2)
            ways.append((split.group(1),) + _SHORT.get(rest, (rest,)))
        choices.append(ways)
    out = []
    for combo in itertools.islice(itertools.product(*choices), MAX_READINGS):
        out.append(_cards_in_any_order([w for part in combo for w in part]))
    return out


def _word_fits(typed: str, word: str) -> bool:
    """A typed word for a move's word: the word itself, its start (for a word of letters), or a card's rank."""
    if typed == word:
        return True
    if _is_card(word):
        if "=" in word or _is_card(typed):
            return False
        rank = normalize_card_name(typed + "S")[:-1]     # `j`, `10`, `t`: the rank of the card
        return rank in _RANKS and word[:-1] == rank
    # (a word of a word parameter may join words with `_`: `clubs` starts `clubs_game`)
    return word.replace("_", "").isalpha() and typed.isalpha() and word.startswith(typed)


def _fits_at(typed: Tokens, move: Tokens, start: int) -> bool:
    """Do the typed words fit the move's from `start` on? A part of a move never cuts a run of cards:
    `meld 2S 3S 4S` is not the start of `meld 2♠ 3♠ 4♠ 5♠`."""
    end = start + len(typed)
    if end > len(move) or not all(_word_fits(t, m) for t, m in zip(typed, move[start:])):
        return False
    return all(k <= 0 or k >= len(move) or not (_is_card(move[k - 1]) and _is_card(move[k])) for k in (start, end))


def read_move(text: str, legal: list[int], to_string: Callable[..., str],
              me: int | None = None, known: dict[int, set[Tokens]] | None = None) -> tuple[list[int], bool]:
    """The legal actions the typed text names, and whether they were found by the whole text (passes 1
    and 2: a move it fits) or by a part (pass 3: moves it starts or is a part of). `me`: the player to
    move, whom `my` names; `known`: the moves' words worked out before, kept for the next call."""
    readings = _readings(text, me)
    if not readings or not readings[0]:
        return [], False
    known = {} if known is None else known
    forms: dict[int, set[Tokens]] = {}
    for a in legal:
        words = known.get(a)
        if words is None:
            words = known[a] = _move_tokens(a, to_string)
        forms[a] = words
    exact = set(readings)
    found = [a for a, fs in forms.items() if fs & exact]
    if found:
        return found, True
    found = [a for a, fs in forms.items()
             if any(len(r) == len(f) and _fits_at(r, f, 0) for r in readings for f in fs)]
    if found:
        return found, True
    found = [a for a, fs in forms.items()
             if any(_fits_at(r, f, k) for r in readings for f in fs for k in range(len(f)))]
    return found, False


def action_named(text: str, legal: list[int], to_string: Callable[..., str], me: int | None = None) -> int:
    """The legal action whose text is `text` (symbols or ASCII, any case, `T` for ten, the short forms of
    read_move), if it names one move.

    Raises IllegalAction, listing the legal moves, if no legal move reads so or several do."""
    found, _ = read_move(text, legal, to_string, me)
    if len(found) == 1:
        return found[0]
    moves = ", ".join(to_string(a, plain=True) for a in legal) or "none (the game is over)"
    if found:
        named = ", ".join(to_string(a, plain=True) for a in found[:6]) + (", …" if len(found) > 6 else "")
        raise IllegalAction(f"`{text}` names {len(found)} moves now ({named}); legal moves: {moves}")
    raise IllegalAction(f"`{text}` is not a legal move now; legal moves: {moves}")
