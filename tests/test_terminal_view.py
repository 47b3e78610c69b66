"""What the table shows a person at a real terminal, checked against the game itself.

At every prompt the test reads the autosave, rebuilds the state the person is looking
at, and checks the screen: the person's own hand is all there, every card the seat
may see on the table is there, no card the seat does not know appears, whose turn it
is, and at the end the winner the scores make.
"""
from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

from koloda.session import Session

pexpect = pytest.importorskip("pexpect")
ROOT = Path(__file__).resolve().parent.parent
ME = 0


def spawn(*args: str, home: Path):
    env = dict(os.environ, TERM="dumb", COLUMNS="160", PYTHONPATH=str(ROOT), KOLODA_HOME=str(home))
    return pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", *args], encoding="utf-8", timeout=60, env=env,
                         cwd=str(ROOT))


def table_part(screen: str, title: str) -> str:
    """The last table drawn on the screen (from its header line on), with the moves under it."""
    start = screen.rfind(f"{title} · deal")
    assert start >= 0, f"no table was drawn before the prompt:\n{screen}"
    return screen[start:]


def check_screen(screen: str, state) -> None:
    game = state.game
    table = table_part(screen, game.title)
    header = table.splitlines()[0]
    assert "You to move" in header, header
    labels = game.cards.labels
    obs = game.observe(state, ME)
    seen: set[str] = set()
    for zone in obs["zones"]:
        cards = zone.get("cards") or []
        if "cell" in zone:                      # a square of a grid shows the top card of its stack
            cards = cards[-1:]
        for name in cards:
            if name is not None:
                seen.add(name.partition("=")[0])
        if zone.get("top"):
            seen.add(zone["top"])
    for name in seen:                           # everything the seat may see is drawn
        label = labels[game.cards.parse(name)[0]]
        assert label in table, f"{label} ({name}) is visible to the seat but not on the screen:\n{table}"
    mine = [c for zi, z in enumerate(game.layout.zones)
            if z.owner == ME and z.visible != "nobody" and z.cell is None and z.slot is None
            for c in state.zones[zi]]
    assert mine, "the person holds no cards?"
    for c in mine:
        assert labels[c] in table, f"own card {labels[c]} missing from the screen:\n{table}"
    bit = 1 << ME
    named = re.sub(r"=\S+", "", table)         # a wild card's declared identity names no real card
    unique = {label for label in labels if labels.count(label) == 1}
    for c in range(len(labels)):                # nothing the seat has not seen
        if not state.known[c] & bit and labels[c] in unique:
            assert labels[c] not in named, f"{labels[c]} is hidden from the seat but drawn:\n{table}"


def winner_line(state) -> str:
    returns = state.returns()
    best = max(returns)
    winners = [p for p, r in enumerate(returns) if r == best]
    return f"Winner: P{winners[0] + 1}" if len(winners) == 1 else "draw"


def play_and_watch(tmp_path: Path, game: str, *extra: str, seed: int, chooser=None) -> int:
    """Play a whole game as seat 1, checking every screen; returns the number of screens checked."""
    save = tmp_path / "game.save.json"
    child = spawn("play", game, "--seat", "human", *extra, "--seed", str(seed), "--fast", "--save", str(save),
                  home=tmp_path / "home")
    pick = random.Random(seed)
    screens = 0
    game = None
    while child.expect(["your move", r"Game over\."]) == 0:
        if game is None:
            game = Session.load(save).game          # the whole save checked once; then its state alone
        state = game.state_from_json(json.loads(save.read_text())["state"])
        check_screen(child.before, state)
        screens += 1
        legal = state.legal_actions()
        k = chooser(state, legal) if chooser else pick.randrange(len(legal))
        child.sendline(str(k + 1))
    tail = child.before + child.after
    child.expect(pexpect.EOF)
    tail += child.before
    child.close()
    assert child.exitstatus == 0
    final = Session.load(save).state
    assert final.is_terminal()
    for p, score in enumerate(final.scores()):
        assert f"P{p + 1} {score:g}" in tail, f"P{p + 1}'s final score {score} is not shown:\n{tail}"
    verdict = winner_line(final)
    assert verdict.lower() in tail.lower(), f"expected {verdict!r} at the end:\n{tail}"
    return screens


def test_pony_screens_show_the_hand_the_pile_and_nothing_hidden(tmp_path):
    assert play_and_watch(tmp_path, "pony", "--seat", "random", "-o", "limit=30", seed=3) > 10


def test_oh_hell_screens_show_the_hand_the_trick_and_nothing_hidden(tmp_path):
    screens = play_and_watch(tmp_path, "peklo", "--seat", "random", "--seat", "random", "-o", "deal_size=6", seed=5,
                             chooser=lambda s, legal: 0)
    assert screens >= 6


def test_kunkin_screens_show_melds_and_the_discard_pile(tmp_path):
    def meld_first(state, legal):
        texts = [state.action_to_string(a) for a in legal]
        for k, text in enumerate(texts):
            if text.startswith(("meld", "lay off")):
                return k
        return 0
    assert play_and_watch(tmp_path, "kunkin", "--seat", "random", "-o", "limit=20", seed=2,
                          chooser=meld_first) > 10


def test_leopard_screens_show_both_grids(tmp_path):
    assert play_and_watch(tmp_path, "leopard", "--seat", "random", "-o", "deals=1", seed=1) > 5
