"""No seat of a web table is sent a card it may not see. Every message of seeded playouts of every
shipped game is compared with what the engine lets that seat see (State.observation(seat), the
cards it knows the place of), partners and onlookers included: the leak test the tensors have
(tests/test_tensors.py), for the web's messages."""
from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("starlette")

from koloda.api import shipped_games  # noqa: E402
from koloda.web.messages import WATCHER  # noqa: E402
from koloda.web.rooms import Room, Rooms  # noqa: E402

MOVES = 120              # per game: enough for deals to end in the quick games, and melds in the rummies


def _observed(obs: dict) -> set[str]:
    """The card names an observation shows."""
    names: set[str] = set()
    for z in obs["zones"]:
        for c in z.get("cards") or []:
            if c is not None:
                names.add(c.split("=")[0])
        if z.get("top"):
            names.add(z["top"])
    for m in obs["moved"]:
        names |= {c for c in m["cards"] if c is not None}
    return names


def _told(room: Room, obs: dict) -> set[str]:
    """The cards the rules' own messages name (`say`, in the observation): the rule file decided
    that the seat is told them."""
    game = room.game
    text = "\n".join(obs.get("said", []) + obs.get("facts", []))
    return {game.cards.names[i] for i, label in enumerate(game.cards.labels) if _mentions(text, label)}


def _mentions(text: str, label: str) -> bool:
    # a wild card's declared identity (`🃏=4♠`) names no card
    return re.search(r"(?<![\w=])" + re.escape(label) + r"(?![\w])", text) is not None


def _allowed_now(room: Room, seat: int) -> set[str]:
    """What the seat may be shown now: what it observes, what the rules told it, and as a deal has
    just ended, its last view of that deal and every hand (all are shown then, as at the terminal)."""
    obs = room.state.observation(seat)
    names = _observed(obs) | _told(room, obs)
    game = room.game
    for ended in room.ended:
        names |= _observed(ended.observation(seat)) | _told(room, ended.observation(seat))
        for zi, z in enumerate(game.layout.zones):
            if z.owner is not None and z.cell is None and z.slot is None:
                names |= {game.cards.names[c] for c in ended.zones[zi]}
    return names


def _known(room: Room, seat: int) -> set[str]:
    """The cards whose place the seat knows now (the engine's own record); an onlooker, those whose
    place every player knows."""
    s, game = room.state, room.game
    bits = (1 << s.n) - 1 if seat < 0 else 1 << seat
    return {game.cards.names[c] for c in range(game.cards.size) if s.known[c] & bits == bits}


def _named(message: dict) -> set[str]:
    """The card names in a message's places for cards."""
    names: set[str] = set()
    table = message["table"]
    for pile in table["piles"]:
        names |= {c for c in pile.get("cards") or [] if c is not None}
        if pile.get("top"):
            names.add(pile["top"])
    for grid in table["grids"]:
        names |= {cell["top"] for row in grid["rows"] for cell in row if cell["top"]}
    for meld in table["melds"]:
        names |= {c.split("=")[0] for c in meld["cards"]}
    for ended in message.get("ended", []):
        names |= {c for h in ended["hands"] for c in h["cards"]}
    for t in message.get("moves", {}).get("tokens", []):
        if "card" in t:
            names.add(t["card"])
    return names


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def leaks(room: Room, seat: int, message: dict, ever: set[str]) -> list[str]:
    """What the message shows that the seat may not see: a card in a card's place that it does not
    observe now, or a card's label in a text that it has never been able to see."""
    game = room.game
    now = _allowed_now(room, seat)
    found = [f"card {c}" for c in sorted(_named(message) - now)]
    seen_labels = {game.cards.labels[game.cards.names.index(n)] for n in ever | now}
    labels = set(game.cards.labels)
    text = "\n".join(_texts({k: v for k, v in message.items() if k != "table"}) + _texts(message["table"]))
    for label in labels - seen_labels:
        if _mentions(text, label):
            found.append(f"label {label}")
    return found


def _playout(game: str, seed: int) -> list[str]:
    rooms = Rooms({game: game}, None)
    n = None
    room = rooms.create(game, {}, ["human"] * _players(game), seed=seed)
    n = room.game.num_players
    rng = random.Random(seed)
    ever: dict[int, set[str]] = {s: set() for s in range(WATCHER, n)}
    problems = []
    for _ in range(MOVES):
        for seat in range(WATCHER, n):
            ever[seat] |= _allowed_now(room, seat) | _known(room, seat)
            message = json.loads(json.dumps(room.message(seat, "en")))
            for leak in leaks(room, seat, message, ever[seat]):
                problems.append(f"{game} seed {seed} move {len(room.session.moves)} seat {seat}: {leak}")
        if room.state.is_terminal() or problems:
            break
        room.go_on()
        room.play(room.state.current_player(), rng.choice(room.state.legal_actions()))
    return problems


def _players(game: str) -> int:
    from koloda.api import load_spec
    return load_spec(game)[0].default_players


@pytest.mark.parametrize("game", shipped_games())
def test_no_message_shows_a_card_its_seat_may_not_see(game):
    assert _playout(game, 3) == []


def test_the_check_finds_a_hand_sent_to_the_wrong_seat():
    """The check can fail: the other player's hand put in a message is found, in its place and as text."""
    rooms = Rooms({"pony": "pony"}, None)
    room = rooms.create("pony", {}, ["human", "human"], seed=1)
    message = json.loads(json.dumps(room.message(0, "en")))
    theirs = room.state.observation(1)["zones"]
    hand = next(z for z in theirs if z["zone"] == "hand" and z["owner"] == 1)["cards"]
    pile = next(p for p in message["table"]["piles"] if p["label"] == "hand" and not p["mine"])
    pile["cards"] = hand
    assert leaks(room, 0, message, set()) != []
    message = json.loads(json.dumps(room.message(0, "en")))
    label = room.game.cards.labels[room.game.cards.names.index(hand[0])]
    message["log"].append(f"P2 holds {label}")
    assert leaks(room, 0, message, set()) != []
