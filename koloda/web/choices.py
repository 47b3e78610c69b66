"""The choices of the seat to move: the legal next tokens of the compact spelling after what it has
clicked so far (koloda/interpreter/words/spelling.py), each with the card and the zone it names so that
the page can make those clickable, and the grouped move list as the terminal shows it."""
from __future__ import annotations

from typing import Any

from koloda.dsl.types import CARD, ZONE
from koloda.interpreter.game import Game
from koloda.interpreter.words.spelling import Spelling
from koloda.interpreter.core.state import State
from koloda.ui.moves import listed_moves, move_groups


def make_spelling(game: Game) -> Spelling:
    """The compact spelling of a game's moves, as koloda.compact builds it (without its tensors)."""
    return Spelling(game.codec, game.layout, game.cards, game.melds, [k.name for k in game.spec.meld_kinds],
                    game.view.render, game.action_to_string)


def spelled(spelling: Spelling, state: State) -> list[tuple[tuple[int, ...], int]]:
    """(tokens, native id) of each legal move."""
    return [(spelling.spell(a), a) for a in state.legal_actions()]


def next_tokens(spelling: Spelling, state: State, prefix: tuple[int, ...]) -> list[int]:
    at = len(prefix)
    return sorted({tokens[at] for tokens, _ in spelled(spelling, state) if tokens[:at] == prefix and len(tokens) > at})


def completes(spelling: Spelling, state: State, typed: tuple[int, ...]) -> int | None:
    """The native move `typed` spells whole, if it is a legal one."""
    for tokens, native in spelled(spelling, state):
        if tokens == typed:
            return native
    return None


def token_choice(game: Game, spelling: Spelling, state: State, token: int, seat: int) -> dict[str, Any]:
    """`{"token": 12, "text": "play Q♠", "card": "QS", "zone": 7}`: what a click on a card or a zone means.
    A card the seat may not know is not named (it is the seat's own move, so this does not happen in
    the shipped games; the leak test would tell)."""
    bit = 1 << seat

    def known(c: int) -> bool:
        return bool(state.known[c] & bit)
    out: dict[str, Any] = {"token": token}
    for index, start in spelling.whole.items():
        action = game.codec.actions[index]
        if start <= token < start + action.size:
            native = action.offset + token - start
            out["text"] = game.describe(state, native, seat)
            _, values = game.codec.decode(native, state)
            for p in action.params:
                if p.type == CARD and "card" not in out and known(values[p.var]):
                    out["card"] = game.cards.names[values[p.var]]
                elif p.type == ZONE and "zone" not in out:
                    out["zone"] = values[p.var]
            return out
    card = spelling.card
    if card >= 0 and card <= token < card + game.cards.size:
        c = token - card
        if known(c):
            out["card"] = game.cards.names[c]
            out["text"] = game.cards.labels[c]
        else:
            out["text"] = "a card"
        return out
    out["text"] = spelling.token_to_string(token)
    return out


def choices(game: Game, spelling: Spelling, state: State, seat: int, prefix: tuple[int, ...]) -> dict[str, Any]:
    """What the seat to move is sent: the tokens it may click next, and every legal move, grouped."""
    tokens = [token_choice(game, spelling, state, t, seat) for t in next_tokens(spelling, state, prefix)]
    listed = listed_moves(state)
    groups = []
    for g in move_groups(state):
        groups.append({"head": g.head, "moves": [{"id": str(listed[n - 1]), "number": n, "words": w}
                                                 for n, w in g.moves]})
    spelled_so_far = " ".join(token_choice(game, spelling, state, t, seat)["text"] for t in prefix)
    return {"prefix": list(prefix), "prefix_text": spelled_so_far, "tokens": tokens, "groups": groups}
