"""The hand-written reference engines of bench/handwritten against koloda, move for move: each on
the twin's rule file and options (bench/same_rules.py), the same deal (koloda's, given to the
hand-written engine card by card) and the same choices of move text give the same legal moves, as
text, at every step, the same player to move, and the same scores and returns at the end.

The engines are what bench.py measures koloda against (`hand:oh_hell`, ...); this is what makes
that comparison one of the same game.
"""
from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any, Callable

import pytest

import koloda
from benchscripts import bench_package, bench_script

handwritten = bench_package("handwritten")
gin_rummy = handwritten.gin_rummy
TWINS = {twin.openspiel: twin for twin in bench_script("same_rules").TWINS}
GAMES = 30
MAX_MOVES = 5000


@functools.lru_cache(maxsize=None)
def twin(name: str) -> Any:
    t = TWINS[name]
    return koloda.load(t.koloda, t.options, t.players)


def cards_of(state: Any, zone: str, owner: int = 0) -> list[str]:
    game = state.game
    return [game.cards.names[c] for c in state.zones[game.layout.zone_base[zone] + owner]]


def hands(state: Any) -> list[list[str]]:
    return [cards_of(state, "hand", p) for p in range(state.n)]


def kind(text: str) -> str:
    """A move's text without its cards and numbers: `take 5C and knock` is `take and knock`."""
    return " ".join(w for w in text.split()
                    if w not in handwritten.cards.CARD and w not in handwritten.cards.SUIT_NAMES and not w.isdigit())


def random_text(texts: list[str], state: Any, rng: random.Random) -> str:
    return rng.choice(texts)


def play_both(name: str, seed: int, dealt: Callable[[Any], Any],
              choose: Callable[[list[str], Any, random.Random], str] = random_text,
              position: dict[str, Any] | None = None) -> tuple[Counter, list[int]]:
    """One game in both engines (koloda's deal, or the `position` given to koloda); returns the
    kinds of move played (kind()) and the scores."""
    rng = random.Random(f"{name}/{seed}")
    ours = twin(name).new_initial_state(seed, **(position or {}))
    theirs = dealt(ours)
    kinds: Counter = Counter()
    for moves in range(MAX_MOVES):
        assert theirs.is_terminal() == ours.is_terminal(), f"seed {seed}, after {moves} moves"
        if ours.is_terminal():
            break
        assert theirs.current_player() == ours.current_player(), f"seed {seed}, after {moves} moves"
        legal = {theirs.action_to_string(a): a for a in theirs.legal_actions()}
        texts = sorted(ours.action_to_string(a, plain=True) for a in ours.legal_actions())
        assert sorted(legal) == texts, f"seed {seed}, after {moves} moves"
        assert len(legal) == len(theirs.legal_actions()), "two moves of the same text"
        text = choose(texts, theirs, rng)
        kinds[kind(text)] += 1
        ours.apply_action(ours.string_to_action(text))
        theirs.apply_action(legal[text])
    else:
        pytest.fail(f"seed {seed}: not over after {MAX_MOVES} moves")
    assert theirs.scores() == list(ours.scores()), f"seed {seed}"
    assert theirs.returns() == ours.returns(), f"seed {seed}"
    assert theirs.current_player() == handwritten.cards.TERMINAL and theirs.legal_actions() == []
    return kinds, theirs.scores()


def test_oh_hell_agrees_with_peklo():
    engine = handwritten.OhHell()

    def dealt(state: Any) -> Any:
        return engine.dealt(state.dealer, hands(state), cards_of(state, "trump_card")[0])
    kinds: Counter = Counter()
    made = 0
    for seed in range(GAMES):
        k, scores = play_both("oh_hell", seed, dealt)
        kinds += k
        made += sum(s >= 10 for s in scores)
    assert kinds["bid"] == 3 * GAMES and kinds["play"] == 24 * GAMES
    assert made > 0, "no bid made: the bonus is never checked"


def test_crazy_eights_agrees_with_crazy_eights():
    engine = handwritten.CrazyEights()

    def dealt(state: Any) -> Any:
        return engine.dealt(state.dealer, hands(state), cards_of(state, "stock"), cards_of(state, "pile"))
    kinds: Counter = Counter()
    for seed in range(GAMES):
        k, _ = play_both("crazy_eights", seed, dealt)
        kinds += k
    assert {"play", "draw", "pass", "name"} <= set(kinds)


def mostly_knocking(texts: list[str], state: Any, rng: random.Random) -> str:
    """A player that reaches the knock, the layoffs and the defender's melds: it knocks when it may,
    takes the discard now and then, mostly discards the card that leaves the least deadwood (read
    from the hand-written engine, whose choices koloda is given as text), and lays off and melds
    when it can; otherwise it chooses at random."""
    if "knock" in texts and rng.random() < 0.8:
        return "knock"
    for text in texts:
        if text.endswith("and knock") and rng.random() < 0.8:
            return text
    if "draw" in texts and any(t.startswith("take") for t in texts):
        return next(t for t in texts if t.startswith("take")) if rng.random() < 0.3 else "draw"
    discards = [t for t in texts if t.startswith("discard")]
    if discards and "knock" not in texts and rng.random() < 0.8:
        hand = state.hands[state.player]

        def left(text: str) -> int:
            return gin_rummy.deadwood(hand ^ 1 << handwritten.cards.CARD[text.split()[1]])
        return min(discards, key=lambda t: (left(t), rng.random()))
    laying = [t for t in texts if t.startswith(("meld", "lay off", "put down"))]
    if laying and rng.random() < 0.7:
        return rng.choice(laying)
    return rng.choice(texts)


def test_gin_rummy_agrees_with_gin_rummy():
    engine = handwritten.GinRummy()

    def dealt(state: Any) -> Any:
        return engine.dealt(state.dealer, hands(state), cards_of(state, "stock"), cards_of(state, "pile"))
    kinds: Counter = Counter()
    outcomes = []
    for seed in range(GAMES):
        k, scores = play_both("gin_rummy", seed, dealt, mostly_knocking)
        kinds += k
        outcomes.append(scores[0])
    # the seeds reach knocks, melds, layoffs, the defender's melds, and hands won by each player
    assert {"knock", "meld", "show deadwood", "lay off", "put down", "done"} <= set(kinds), kinds
    assert min(outcomes) < 0 < max(outcomes)


def gin_dealt(state: Any) -> Any:
    return handwritten.GinRummy().dealt(state.dealer, hands(state), cards_of(state, "stock"), cards_of(state, "pile"))


def stacked(p1: str, p2: str, upcard: str) -> dict[str, Any]:
    """A Gin Rummy deal with P1 (the non-dealer, to move first) holding `p1`, P2 `p2`."""
    held = [*p1.split(), *p2.split(), upcard]
    stock = [name for name in handwritten.cards.NAMES if name not in held]
    return {"dealer": 1, "hands": {"P1 hand": p1.split(), "P2 hand": p2.split(), "pile": [upcard], "stock": stock}}


def scripted(*wanted: str) -> Callable[[list[str], Any, random.Random], str]:
    """A player that plays the first of `wanted` it may, in order, and otherwise mostly_knocking."""
    def choose(texts: list[str], state: Any, rng: random.Random) -> str:
        for text in wanted:
            if text in texts:
                return text
        return mostly_knocking(texts, state, rng)
    return choose


def test_gin_rummy_gin_agrees():
    """Gin: the defender lays nothing off, puts down melds, and the knocker wins the rest plus 25."""
    deal = stacked("AS 2S 3S 4C 4D 4H 7H 8H 9H QC", "5C 5D 5S JC JD JH 2C 6C 9C KD", "10H")
    kinds, scores = play_both("gin_rummy", 0, gin_dealt, scripted(
        "take 10H", "knock", "discard QC", "meld AS 2S 3S", "meld 4C 4D 4H", "meld 7H 8H 9H 10H",
        "put down 5C 5D 5S", "put down JC JD JH", "done"), deal)
    assert scores == [2 + 6 + 9 + 10 + 25, -52]
    assert "lay off" not in kinds and "done laying off" not in kinds


def test_gin_rummy_layoff_next_to_a_layoff_on_another_meld():
    """5D laid on 5C 5H 5S lets 4D go on 6D 7D 8D, and nothing goes on after it (OpenSpiel's
    layoffs); the defender's deadwood is what is left."""
    deal = stacked("5C 5H 5S 6D 7D 8D 9C 9H 9S AH", "5D 4D 3D KC KH KS QC JD 2H 10S", "2S")
    refused = []

    def choose(texts: list[str], state: Any, rng: random.Random) -> str:
        if "lay off 4D" in texts or "done laying off" in texts and "lay off 5D" not in texts:
            refused.append("lay off 3D" not in texts)
        return scripted("take 2S", "knock", "discard 2S", "meld 5C 5H 5S", "meld 6D 7D 8D", "meld 9C 9H 9S",
                        "show deadwood", "lay off 5D", "lay off 4D", "done laying off", "put down KC KH KS",
                        "done")(texts, state, rng)
    kinds, scores = play_both("gin_rummy", 0, gin_dealt, choose, deal)
    assert kinds["lay off"] == 2 and refused and all(refused)
    assert scores == [3 + 10 + 10 + 2 + 10 - 1, -34]


def test_gin_rummy_random_play_agrees():
    """Uniform random choices, as the bench plays: most hands end at the wall or run long."""
    engine = handwritten.GinRummy()

    def dealt(state: Any) -> Any:
        return engine.dealt(state.dealer, hands(state), cards_of(state, "stock"), cards_of(state, "pile"))
    kinds: Counter = Counter()
    for seed in range(10):
        kinds += play_both("gin_rummy", seed, dealt)[0]
    assert {"take", "draw", "discard", "end the hand"} <= set(kinds), kinds


@pytest.mark.parametrize("name", ["oh_hell", "crazy_eights", "gin_rummy"])
def test_own_deal_is_seeded_and_plays_out(name):
    """new_initial_state(seed) shuffles with its own generator: the same seed the same game, another
    seed another deal, every card dealt once, and a random game reaches its end."""
    engine = handwritten.ENGINES[name]()

    def play(seed: int) -> list[str]:
        rng = random.Random(seed)
        state = engine.new_initial_state(seed)
        record: list[str] = []
        for _ in range(MAX_MOVES):
            if state.is_terminal():
                return record
            action = rng.choice(state.legal_actions())
            record.append(state.action_to_string(action))
            state.apply_action(action)
        pytest.fail(f"{name} seed {seed}: not over after {MAX_MOVES} moves")

    assert play(1) == play(1)
    assert len({tuple(play(seed)[:12]) for seed in range(6)}) > 1
    for seed in range(6):
        state = engine.new_initial_state(seed)
        held = [c for hand in state.hands for c in (gin_rummy.bits(hand) if isinstance(hand, int) else hand)]
        rest = [*getattr(state, "stock", []), *getattr(state, "pile", [])]
        if name == "oh_hell":
            assert len(held) == 24 and all(len(h) == 8 for h in state.hands)
        assert len(set(held + rest)) == len(held + rest)
        if name != "oh_hell":
            assert sorted(held + rest) == list(range(52))


def test_gin_rummy_meld_tables_list_every_meld():
    """The hand-written engine looks a hand's melds up in tables: they give every meld the hand holds,
    as trying each of the 52 cards' melds one by one does."""
    rng = random.Random(7)
    for _ in range(500):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randint(3, 14)))
        assert sorted(gin_rummy.melds_in(hand)) == [i for i, m in enumerate(gin_rummy.MELDS) if hand & m.mask == m.mask]
    assert len(gin_rummy.MELDS) == 13 * 5 + 4 * (11 + 10 + 9)


@pytest.mark.parametrize("name", ["oh_hell", "crazy_eights", "gin_rummy"])
def test_bench_plays_them_in_kolodas_loop(name):
    """bench.py's hand:NAME rows: the games its loop plays, and the forced decisions among them, are
    those a plain loop over the engine plays."""
    bench = bench_script("bench")
    run = bench.play_hand(bench.hand_setup(name)(0), 3, 5, 100_000)
    assert run.error is None and run.games == 3 and run.chance is None
    engine = handwritten.ENGINES[name]()
    decisions = forced = 0
    for seed in range(5, 8):
        rng, state = random.Random(seed), engine.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            forced += len(legal) == 1
            decisions += 1
            state.apply_action(rng.choice(legal))
    assert (run.decisions, run.forced) == (decisions, forced) and decisions > 0


def test_bench_pairs_each_twin_with_its_hand_written_engine(capsys):
    bench = bench_script("bench")
    pairs = {"peklo=oh_hell": "oh_hell", "crazy-eights=crazy_eights": "crazy_eights", "gin-rummy=gin_rummy": "gin_rummy"}
    only = [*pairs, *(f"hand:{name}" for name in pairs.values())]
    assert bench.main(["--games", "1", "--rounds", "1", "--only", *only]) == 0
    out = capsys.readouterr().out
    for label, name in pairs.items():
        assert any(line.startswith(f"hand:{name} ") for line in out.splitlines()), name
        line = next(text for text in out.splitlines() if text.startswith(f"{label} ") and f"hand:{name} " in text)
        assert "x (" in line, line
