"""What the rules tell players: per-seat `show:` values, `say`, `reveal` and facts (`tell`).

The fishing game in tests/games/fishing.yaml asks for a rank; the asked gives every card of it
(shown to all) or says none. Its facts must reach the seats' views and the bots' resampling, and
nothing told to one seat may reach another."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import koloda
from koloda.agents.sampling import determinize
from koloda.interpreter.runtime.knowledge import RANK_FACT
from koloda.seen import Seen, now
from koloda.session.session import Session

FISHING = Path(__file__).parent / "games" / "fishing.yaml"


@pytest.fixture(scope="module")
def game():
    return koloda.load(str(FISHING), players=3)


def play(game, seed: int, moves: int, choose=None):
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action((choose or rng.choice)(s.legal_actions()))
    return s


def holds(game, s, zone: int, rank: int) -> bool:
    return any(game.cards.ranks[c] == rank for c in s.zones[zone])


def test_a_message_reaches_only_whom_it_is_for(game):
    s = play(game, 3, 12)
    private = [(k, mask, text) for k, mask, text in s.said if text.startswith("you drew")]
    assert private, "some player fished"
    for _, mask, text in private:
        (owner,) = [p for p in range(3) if mask >> p & 1]
        for seat in range(3):
            seen_text = json.dumps(s.observation(seat)) + Seen().history(s, seat) + now(s, seat)
            k = [m for m in s.said if m[2] == text]
            # the same text may be said to two seats (two fished the same card name): count by seat
            mine = any(m[1] >> seat & 1 for m in k)
            assert (text in Seen().history(s, seat)) == mine
            if not mine:
                assert text not in seen_text
        assert text in Seen().history(s, owner)


def test_public_messages_are_in_everyones_history(game):
    s = play(game, 3, 12)
    public = [text for _, mask, text in s.said if mask == 0b111]
    assert public
    for seat in range(3):
        history = Seen().history(s, seat)
        assert all(text in history for text in public)
        assert "  told: " + public[0] in history


def test_the_transcript_records_what_was_said(game):
    session = Session(str(FISHING), game, ["random"] * 3, 3)
    rng = random.Random(0)
    lines = []
    for _ in range(8):
        player = session.state.current_player()
        action = rng.choice(session.state.legal_actions())
        session.play(action)
        lines.append(json.loads(session.transcript_move(player, action)))
    said = [m for line in lines for m in line.get("said", [])]
    assert said and all(set(m) == {"to", "text"} for m in said)
    assert any(m["to"] == [0, 1, 2] for m in said) and any(len(m["to"]) == 1 and "you drew" in m["text"] for m in said)


def test_show_per_viewer_tells_each_seat_its_own_value(game):
    for seed in range(4):
        s = play(game, seed, 3)
        sevens = [sum(game.cards.ranks[c] == 7 for c in s.zones[game.layout.zone_base["hand"] + p]) for p in range(3)]
        for p in range(3):
            assert s.observation(p)["show"]["sevens in your hand"] == str(sevens[p])
        assert "sevens in your hand" not in s.observation(-1)["show"]      # an onlooker is no seat


def test_show_per_viewer_does_not_leak(game):
    """Two deals that P1 sees alike (same hand) but whose other hands differ give P1 the same view."""
    base = game.new_initial_state(seed=1)
    other = base.clone()
    hands = [game.layout.zone_base["hand"] + p for p in (1, 2)]
    a, b = other.zones[hands[0]][0], other.zones[hands[1]][0]
    other.own(hands[0])[0], other.own(hands[1])[0] = b, a
    other.loc[a], other.loc[b] = hands[1], hands[0]
    other.forget()
    assert base.observation(0) == other.observation(0)
    assert base.observation(1)["show"] != other.observation(1)["show"] or \
        game.cards.ranks[a] == 7 and game.cards.ranks[b] == 7 or game.cards.ranks[a] != 7 and game.cards.ranks[b] != 7


def facts_hold(game, s, facts) -> bool:
    return all(holds(game, s, zone, value) == hold for zone, kind, value, hold, _ in facts if kind == RANK_FACT)


def test_the_sampler_respects_facts(game):
    s = play(game, 5, 9)
    facts = [f for f in s.facts if f[4] & 1 and f[0] != game.layout.zone_base["hand"]]
    assert any(not f[3] for f in facts) and any(f[3] for f in facts), facts
    rng = random.Random(7)
    for _ in range(300):
        d = determinize(s, 0, rng)
        assert facts_hold(game, d, facts)
        assert sorted(map(len, d.zones)) == sorted(map(len, s.zones))
    # the same position with the facts forgotten: a plain resampling breaks them, so the test can fail
    blind = s.clone()
    blind.facts = ()
    broken = sum(not facts_hold(game, determinize(blind, 0, rng), facts) for _ in range(300))
    assert broken > 30


def test_facts_lapse_when_the_seat_cannot_follow(game):
    s = play(game, 5, 9)
    for zone, kind, value, hold, mask in s.facts:      # every fact kept is true
        assert holds(game, s, zone, value) == hold
    for seed in range(6):            # and stays true, whatever happens after
        t = play(game, seed, 40)
        for zone, kind, value, hold, mask in t.facts:
            assert holds(game, t, zone, value) == hold


def test_facts_and_messages_do_not_reach_another_seats_world(game):
    s = play(game, 3, 12)
    d = determinize(s, 1, random.Random(0))
    assert all(mask == 0b010 for *_, mask in d.facts)
    assert all(mask & 0b010 for _, mask, _ in d.said)
    assert not any(text.startswith("you drew") and not mask & 0b010 for _, mask, text in d.said)


def test_the_sample_depends_only_on_what_the_seat_knows(game):
    """Swapping two cards P1 cannot place (same facts hold) gives P1 the same resampled world."""
    s = play(game, 5, 9)
    hidden = [c for z in s.zones for c in z if not s.known[c] & 1]
    swap = next(((a, b) for a in hidden for b in hidden if s.loc[a] != s.loc[b]
                 and game.cards.ranks[a] == game.cards.ranks[b]), None)
    if swap is None:
        pytest.skip("no two hidden cards of one rank in different places")
    a, b = swap
    t = s.clone()
    za, zb = t.loc[a], t.loc[b]
    ia, ib = t.zones[za].index(a), t.zones[zb].index(b)
    t.own(za)[ia], t.own(zb)[ib] = b, a
    t.loc[a], t.loc[b] = zb, za
    t.forget()
    x, y = determinize(s, 0, random.Random(3)), determinize(t, 0, random.Random(3))
    assert x.zones == y.zones


def test_a_transcript_with_messages_reads_back(game, tmp_path):
    from koloda.session.transcript import read_transcript
    session = Session(str(FISHING), game, ["random"] * 3, 4)
    rng = random.Random(4)
    lines = [session.transcript_header()]
    for _ in range(6):
        player = session.state.current_player()
        action = rng.choice(session.state.legal_actions())
        session.play(action)
        lines.append(session.transcript_move(player, action))
    assert any('"said"' in line for line in lines)
    path = tmp_path / "fishing.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    replay = read_transcript(path)
    assert [m["action"] for m in replay.moves] == session.moves
    assert any(m.get("said") for m in replay.moves)


def test_a_searching_bot_plays_on_facts(game):
    """ISMCTS resamples at every iteration: with facts in play it keeps choosing legal moves."""
    from koloda.agents.registry import make_agent
    s = play(game, 5, 9)
    assert any(f[4] & 1 << s.current_player() for f in s.facts)
    bot = make_agent("ismcts:iterations=40", 1)
    for _ in range(3):
        if s.is_terminal():
            break
        action = bot.choose(s)
        assert action in s.legal_actions()
        s.apply_action(action)
