"""Whole games at a real terminal: a scripted person against bots, for the games that ask most of the table."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
ROOT = Path(__file__).resolve().parent.parent


def spawn(*args: str, home: Path):
    env = dict(os.environ, TERM="dumb", COLUMNS="120", PYTHONPATH=str(ROOT), KOLODA_HOME=str(home))
    return pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", *args], encoding="utf-8", timeout=60, env=env,
                         cwd=str(ROOT))


def moves_offered(screen: str) -> list[str]:
    """The numbered moves listed just before the prompt."""
    lines = [line.strip() for line in screen.splitlines()]
    found = []
    for line in lines:
        head, _, rest = line.partition("  ")
        if head.isdigit() and rest:
            found.append(rest.strip())
    return found


def play_out(child, choose) -> list[list[str]]:
    """Answer every prompt with choose(moves) until the game ends; return the move lists seen."""
    seen = []
    while child.expect(["your move", "Game over"]) == 0:
        if "moves, by kind" in child.before:          # a long list is grouped: ask for it one a line
            child.sendline("moves")
            child.expect("your move")
        moves = moves_offered(child.before)
        seen.append(moves)
        child.sendline(choose(moves))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return seen


def test_lesenka_a_person_builds_on_a_bots_ladder_out_of_turn(tmp_path):
    # a seed whose deals give the person a build window with a card to build (the moves as listed decide the play)
    child = spawn("play", "lesenka", "--seat", "human", "--seat", "random", "--seat", "random", "--seed", "1",
                  "--fast", "-o", "target=40", home=tmp_path)

    def choose(moves: list[str]) -> str:
        for k, move in enumerate(moves, 1):          # build whenever offered, meld when possible
            if move.startswith(("build", "meld")):
                return str(k)
        return "1"
    seen = play_out(child, choose)
    windows = [m for m in seen if m and m[-1] == "pass"]
    assert windows, "the person was never asked to build on another player's meld"
    assert any(any(x.startswith("build") for x in m) for m in windows)


def test_showdown_against_greedy_choosing_in_secret(tmp_path):
    child = spawn("play", "showdown", "--seat", "human", "--seat", "greedy", "--seed", "2", "--fast",
                  home=tmp_path)

    def choose(moves: list[str]) -> str:
        if "done" in moves:
            return str(moves.index("done") + 1)
        picks = [k for k, m in enumerate(moves, 1) if m.startswith("pick")]
        return str(picks[0])
    seen = play_out(child, choose)
    assert sum(1 for m in seen if "done" in m) == 5        # five shows, each closed with `done`


def test_kunkin_against_ismcts_at_the_terminal(tmp_path):
    child = spawn("play", "kunkin", "--seat", "human", "--seat", "ismcts:iterations=20", "--seed", "3", "--fast",
                  "-o", "limit=30", home=tmp_path)

    def choose(moves: list[str]) -> str:
        for k, move in enumerate(moves, 1):
            if move.startswith(("meld", "lay off")):
                return str(k)
        return "1"
    seen = play_out(child, choose)
    assert len(seen) > 5


def _leopard4_policy(ask: bool):
    """Build our side's square; ask the partner when we may (or keep drawing); agree when asked."""
    def choose(moves: list[str]) -> str:
        if "agree to end" in moves:
            return str(moves.index("agree to end") + 1)
        if "ask partner to end" in moves:
            return str(moves.index("ask partner to end" if ask else "draw") + 1)
        for k, move in enumerate(moves, 1):
            if move.startswith("place") and "P1+P3 square" in move:
                return str(k)
        return "1"
    return choose


def test_leopard4_a_person_asks_a_bot_partner(tmp_path):
    import io
    child = spawn("play", "leopard4", "--seat", "human", "--seat", "random", "--seat", "random", "--seat",
                  "random", "--seed", "4", "--fast", home=tmp_path)
    child.logfile_read = transcript = io.StringIO()
    seen = play_out(child, _leopard4_policy(ask=True))
    assert any("ask partner to end" in m for m in seen)
    text = transcript.getvalue()
    assert "P1 ask partner to end" in text
    assert "P3 agree to end" in text or "P3 refuse" in text      # the bot partner answered out of turn


def test_leopard4_a_bot_partner_asks_the_person(tmp_path):
    # a seed in which the random partner reaches 5 points and asks (the moves as listed decide the play)
    child = spawn("play", "leopard4", "--seat", "human", "--seat", "random", "--seat", "random", "--seat",
                  "random", "--seed", "22", "--fast", home=tmp_path)
    seen = play_out(child, _leopard4_policy(ask=False))
    answers = [m for m in seen if m == ["agree to end", "refuse"]]
    assert answers, "the partner never asked the person"


def test_oh_hell_a_person_sees_who_played_each_card_and_who_took_each_trick(tmp_path):
    import io
    import re
    child = spawn("play", "peklo", "-p", "4", "--seat", "human", "--seed", "3", "--fast", "-o", "deal_size=3",
                  home=tmp_path)
    child.logfile_read = transcript = io.StringIO()
    play_out(child, lambda moves: "1")
    text = transcript.getvalue().replace("\r", "")
    assert re.search(r"^  trick +\S+ P[234]( · \S+ P[234])*  \(\d\)$", text, re.M), \
        "a trick under way shows who played each card"
    taken = re.findall(r"^(You take|P[234] takes) the trick: (.*)$", text, re.M)
    assert len(taken) == 3, "three cards each: three tricks, each told as it is taken"
    for _, cards in taken:
        played = cards.split(", ")
        assert len(played) == 4
        assert sorted(p.split()[0] for p in played) == ["P2", "P3", "P4", "you"]


def test_durak_a_person_sees_each_beaten_card_beside_the_attack_it_beat(tmp_path):
    import re
    child = spawn("play", "durak", "--seat", "human", "--seat", "random", "--seed", "3", "--fast", home=tmp_path)
    pairs = []
    while child.expect(["your move", "Game over"]) == 0 and not pairs:
        screen = child.before
        pairs = re.findall(r"beaten cards +(\S+) (P2|you) / (\S+) (P2|you)", screen)
        moves = moves_offered(screen)
        beat = [k for k, m in enumerate(moves, 1) if m.startswith("beat")]
        child.sendline(str(beat[0] if beat else 1))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert pairs, "no pair of beaten cards was shown"
    _, attacker, _, defender = pairs[0]
    assert {attacker, defender} == {"P2", "you"}        # the attack card is the attacker's, not the defender's


def test_preferans_a_deal_s_end_tells_how_each_total_was_made(tmp_path):
    import re
    child = spawn("play", "preferans", "--seat", "human", "--seed", "4", "--fast", home=tmp_path)
    while child.expect(["your move", "Deal 1 is over"]) == 0:
        child.sendline("1")
    child.expect("Scores after deal 1")
    summary = child.before
    child.sendline("quit")
    child.close()
    parts = re.findall(r"P\d (pool|mountain|whists written) ([+−]\d+): (.+)", summary)
    assert parts, summary
    for _, total, told in parts:          # each total is the sum of the parts told beside it
        values = [int(v.replace("−", "-")) for v in re.findall(r"[+−]\d+", told)]
        assert sum(values) == int(total.replace("−", "-"))


def test_hearts_a_person_is_told_where_cards_pass_and_which_came_back(tmp_path):
    import re
    child = spawn("play", "hearts", "--seat", "human", "--seed", "5", "--fast", home=tmp_path)
    child.expect("your move")
    assert "this deal you pass: to the left" in child.before     # the first deal passes to the left, in words
    while True:
        child.sendline("1")
        child.expect("your move")
        if "passes you" in child.before:
            break
    told = re.search(r"» P4 passes you ((?:\S+ ?){3})\r?\n", child.before)
    assert told, child.before
    received = told.group(1).split()
    hand = re.search(r"your hand +(.+)", child.before.split("passes you", 1)[1])
    assert hand and all(card in hand.group(1).split() for card in received)
    for _ in range(8):                                          # the play: no empty rows for the cards passed
        assert "cards to pass" not in child.before
        child.sendline("1")
        child.expect("your move")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def _rows(text: str, columns: int = 80) -> int:
    """How many rows of a terminal `columns` wide the text takes (a long line wraps)."""
    return sum(max(1, -(-len(line) // columns)) for line in text.splitlines())


def test_bridge_the_auction_stands_on_the_table_and_the_hand_stays_in_view_at_80x24(tmp_path):
    import re
    env = dict(os.environ, TERM="dumb", COLUMNS="80", LINES="24", PYTHONPATH=str(ROOT), KOLODA_HOME=str(tmp_path))
    child = pexpect.spawn(sys.executable, ["-m", "koloda.cli.main", "play", "bridge", "--seat", "human", "--seed", "3",
                                           "--dealer", "P1", "--fast"], encoding="utf-8", timeout=60, env=env,
                          cwd=str(ROOT), dimensions=(24, 80))
    screens = []
    while child.expect(["your move", "Game over"]) == 0 and len(screens) < 4:
        screen = child.before.rsplit("Contract Bridge · deal", 1)[1]
        if "auction:" not in screen:
            break                                            # the play has begun
        hand = screen[screen.index("your hand"):]
        assert _rows(hand) + 1 <= 24, hand                   # the hand, the table and the moves fit, with the prompt
        assert "stock" not in screen and "trick " not in screen and "(2) or" not in screen
        assert re.search(r"doubled: (no|yes|redoubled) ", screen)
        deal = re.match(r" (\d+)", screen).group(1)
        screens.append((deal, re.search(r"auction: (.*?)\n  contract", screen, flags=re.S).group(1).replace("\n", "").strip()))
        child.sendline("pass" if screens[1:] else "bid 1 clubs")
    assert screens[0] == ("1", "—")                          # the dealer calls first: nothing called yet
    assert len(screens) > 1, "the auction ended at once"
    calls = screens[1][1].split(" · ")
    assert calls[0] == "you bid 1 clubs" and len(calls) == 4 and all(re.match(r"P[234] ", c) for c in calls[1:])
    for (deal, before), (next_deal, after) in zip(screens[1:], screens[2:]):
        if next_deal == deal:                                # each screen of a deal goes on from the last
            assert after.startswith(before + " · you pass")
        else:                                                # a new deal's auction: only its own calls
            assert "you bid 1 clubs" not in after and len(after.split(" · ")) <= 4
    child.sendline("quit")
    child.close()
