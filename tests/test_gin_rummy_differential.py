"""Gin Rummy against OpenSpiel's `gin_rummy`: the same deal and the same moves give the same legal
moves and the same points.

OpenSpiel is not a dependency of koloda; without `pyspiel` this file is skipped. With it:

    PYTHONPATH=. python -m pytest -q tests/test_gin_rummy_differential.py

How the two are matched, read from pyspiel itself: `gin_rummy` deals ten cards to player 0 (the
non-dealer, koloda's P1 with P2 dealing), ten to player 1, then the upcard, and draws every later
stock card by chance when it is drawn; the test chooses the whole order first, gives it to koloda as
the stock (top first) and plays OpenSpiel's chance nodes in that order. OpenSpiel plays one hand
(koloda's `single_hand`), an equal deadwood is no undercut (`tie_undercuts=false`), and its limits
on a hand (the 50th draw of the upcard, a card taken and thrown back twice in a row, the wall) are
koloda's rules too.

OpenSpiel names its moves by phase, koloda by action; both are read here as (what, cards):
`Draw upcard` is koloda's `take X` (`take X and knock` at the wall), a card is `discard X` or, while
the defender lays off, `lay off X` (koloda says on which meld: a card that fits two melds is two
koloda moves and one OpenSpiel move, so layoffs are compared by card), a meld is `meld ...` for the
knocker and `put down ...` for the defender (compared as sets of cards), and each `Pass` is the
move koloda names for that moment.

Where OpenSpiel's rules differ from the common ones, the rule file's options say so, and every
legal-move set is compared whole: `longest_run=5` (a run is put down with at most five cards, a
longer one as two) and `layoff_list` (OpenSpiel's `AllLayoffs`: a card goes on a run next to its
ends as put down, or next to a card laid off there, whichever meld that card was laid on; so after
5♦ goes on 5♠ 5♣ 5♥, 4♦ goes on 6♦ 7♦ 8♦).
"""
from __future__ import annotations

import functools
import random

import pytest

import koloda

pyspiel = pytest.importorskip("pyspiel")

# 31 reaches a run of six in hand (put down as at most five), 295 and 689 a third layoff at one
# end of a run (which OpenSpiel refuses), 102 a layoff next to a card laid off on another meld
SEEDS = [*range(8), 31, 102, 295, 689]
SUITS = {"s": "S", "c": "C", "d": "D", "h": "H"}


@functools.lru_cache(maxsize=None)
def gin():
    return koloda.load("gin-rummy", {"single_hand": True, "tie_undercuts": False, "longest_run": 5, "layoff_list": True}, 2)


def card_name(text: str) -> str:
    """OpenSpiel's `Tc` (rank, then suit) as koloda's `10C`."""
    rank, suit = text[0], text[1]
    assert rank in "A23456789TJQK" and suit in SUITS, f"not a card: {text}"
    return ("10" if rank == "T" else rank) + SUITS[suit]


def card_of(card: int) -> str:
    """OpenSpiel's card number (suit * 13 + rank, suits s c d h, the ace lowest) as koloda's name."""
    return card_name("A23456789TJQK"[card % 13] + "scdh"[card // 13])


def spiel_cards(text: str) -> frozenset:
    return frozenset(card_name(text[i:i + 2]) for i in range(0, len(text), 2))


def spiel_move(state, action: int):
    """An OpenSpiel move as (what, cards)."""
    text = state.action_to_string(state.current_player(), action).split("Action: ")[1]
    phase = str(state.current_phase()).split(".")[-1].lower()
    upcard = state.upcard()
    if text == "Draw upcard":
        return ("take", frozenset([card_of(upcard)]))
    if text == "Draw stock":
        return ("draw", frozenset())
    if text == "Knock":
        if "wall" in phase:
            return ("take and knock", frozenset([card_of(upcard)]))
        return ("knock", frozenset())
    if text == "Pass":
        if "first" in phase:
            return ("pass", frozenset())
        if "wall" in phase:
            return ("end the hand", frozenset())
        if "knock" in phase:
            return ("show deadwood", frozenset())
        return ("done", frozenset()) if state.finished_layoffs() else ("done laying off", frozenset())
    if len(text) == 2:
        return ("lay off" if "layoff" in phase else "discard", frozenset([text and card_name(text)]))
    return ("put down" if "layoff" in phase else "meld", spiel_cards(text))


def koloda_move(text: str):
    """A koloda move (plain text) as (what, cards)."""
    words = text.split()
    if words[0] == "take":
        return ("take and knock" if "knock" in words else "take", frozenset(words[1:2]))
    if words[0] == "lay":
        return ("lay off", frozenset(words[2:3]))
    if words[0] == "put":
        return ("put down", frozenset(words[2:]))
    if words[0] in ("meld", "discard"):
        return (words[0], frozenset(words[1:]))
    return (text, frozenset())


def choose(spiel, moves: dict, rng: random.Random):
    """A player that mostly plays to knock, so that hands reach the knock, the layoffs and the
    undercut: it knocks when it may, takes the discard now and then, and mostly discards the card
    that leaves the least deadwood (read from OpenSpiel); otherwise it chooses at random."""
    choices = sorted(moves, key=str)
    knocks = [m for m in choices if m[0] in ("knock", "take and knock")]
    if knocks and rng.random() < 0.8:
        return knocks[0]
    if any(m[0] == "draw" for m in choices) and any(m[0] == "take" for m in choices):
        wanted = "take" if rng.random() < 0.3 else "draw"
        return next(m for m in choices if m[0] == wanted)
    discards = [m for m in choices if m[0] == "discard"]
    if discards and not knocks and rng.random() < 0.8:
        player = spiel.current_player()

        def left(move):
            after = spiel.clone()
            after.apply_action(moves[move])
            return after.deadwood()[player]
        return min(discards, key=lambda m: (left(m), rng.random()))
    return rng.choice(choices)


def play_both(seed: int, kinds: set | None = None) -> tuple[int, list[float]]:
    """One hand played in both engines with the same random choices; returns the moves compared and
    the returns."""
    rng = random.Random(f"gin/{seed}")
    spiel = pyspiel.load_game("gin_rummy").new_initial_state()
    order = [a for a, _ in spiel.chance_outcomes()]
    rng.shuffle(order)
    names = [card_of(a) for a in order]
    hands = {"P1 hand": names[:10], "P2 hand": names[10:20], "pile": names[20:21], "stock": names[21:]}
    state = gin().new_initial_state(seed, dealer=1, hands=hands)
    deck = iter(order)
    moves = 0
    while not spiel.is_terminal():
        if spiel.is_chance_node():
            spiel.apply_action(next(deck))
            continue
        assert not state.is_terminal(), f"after {moves} moves"
        assert state.current_player() == spiel.current_player(), f"after {moves} moves"
        theirs = {spiel_move(spiel, a): a for a in spiel.legal_actions()}
        ours: dict = {}
        for a in state.legal_actions():
            move = koloda_move(state.action_to_string(a, plain=True))
            ours.setdefault(move, a)
        assert set(ours) == set(theirs), \
            f"after {moves} moves: koloda only {sorted(set(ours) - set(theirs))}, " \
            f"OpenSpiel only {sorted(set(theirs) - set(ours))}"
        choice = choose(spiel, theirs, rng)
        if kinds is not None:
            kinds.add(choice[0])
        spiel.apply_action(theirs[choice])
        state.apply_action(ours[choice])
        moves += 1
    assert state.is_terminal()
    returns = spiel.returns()
    assert [float(x) for x in state.scores()] == returns
    return moves, returns


def test_gin_rummy_agrees_with_openspiel():
    kinds: set = set()
    outcomes = []
    for seed in SEEDS:
        moves, returns = play_both(seed, kinds)
        assert moves >= 3
        outcomes.append(returns[0])
    # the seeds reach knocks with melds, layoffs and the defender's melds, and hands won by each
    # player, and a bonus (gin or an undercut)
    assert {"knock", "meld", "show deadwood", "lay off", "put down", "done"} <= kinds
    assert min(outcomes) < 0 < max(outcomes) and max(abs(x) for x in outcomes) > 25
