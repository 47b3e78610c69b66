"""Replays in the browser's server: a transcript stepped through as a seat, an onlooker, or with
every card shown, each deal's start marked."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
# Starlette 1.x asks for httpx2 in its test client; httpx works the same for these tests
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from koloda.cli.main import main  # noqa: E402
from koloda.web.app import make_app  # noqa: E402
from koloda.web.replays import Replayed  # noqa: E402
from koloda.web.rooms import Rooms  # noqa: E402


@pytest.fixture
def transcript(tmp_path):
    path = tmp_path / "pony.jsonl"
    result = CliRunner().invoke(main, ["play", "pony", "--seat", "random", "--seat", "random", "--log", str(path),
                                       "--fast", "--seed", "3", "-o", "limit=30"])
    assert result.exit_code == 0, result.output
    return path


def _hands(message):
    return [p.get("cards") for p in message["table"]["piles"] if p["label"] == "hand"]


def test_a_replay_is_seen_as_a_seat_or_with_every_card(transcript):
    r = Replayed(transcript)
    assert r.deals[0] == {"deal": 1, "at": 0} and len(r.deals) > 1
    assert all(a["at"] < b["at"] for a, b in zip(r.deals, r.deals[1:]))
    mine, theirs = _hands(r.message("P1", 5, "en"))
    assert mine is not None and theirs is None
    both = _hands(r.message("all", 5, "en"))
    assert both[0] == mine and both[1] is not None
    assert _hands(r.message("watch", 5, "en")) == [None, None]
    last = r.message("all", len(r.moves), "en")
    assert "result" in last and last["replay"]["total"] == len(r.moves)
    deal_end = r.deals[1]["at"]
    assert r.message("P2", deal_end, "en").get("ended")      # the deal's end, with every hand
    odd = r.message("<script>", 10 ** 9, "en")                # an unknown viewer, a move past the end
    assert odd["replay"]["viewer"] == "all" and odd["at"] == 0


def test_a_replay_is_stepped_over_its_socket(transcript):
    r = Replayed(transcript)
    app = make_app(Rooms({}, None), bot_delay=0, replays=(r,))
    with TestClient(app) as client:
        assert client.get(f"/replay/{r.id}").status_code == 200
        with client.websocket_connect(f"/ws-replay/{r.id}") as ws:
            ws.send_json({"type": "show", "viewer": "P2", "at": 3, "lang": "ru"})
            m = ws.receive_json()
            assert m["at"] == 3 and m["seat"] == 1 and len(m["log"]) >= 3 and m["table"]["title"] != "Pony"
            ws.send_json({"type": "move", "id": "1", "at": 3})
            assert ws.receive_json()["type"] == "error"
        with client.websocket_connect("/ws-replay/nothing") as ws:
            assert ws.receive_json()["text"] == "there is no such replay"


def test_serve_prints_a_replays_link_and_refuses_a_bad_transcript(monkeypatch, transcript, tmp_path):
    import uvicorn
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    result = CliRunner().invoke(main, ["serve", "--no-save", "--replay", str(transcript)])
    assert result.exit_code == 0 and "/replay/" in result.output and "#all" in result.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text(transcript.read_text(encoding="utf-8").replace('"action": ', '"action": 1', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", "--no-save", "--replay", str(bad)])
    assert result.exit_code != 0 and "bad.jsonl" in result.output and "Traceback" not in result.output
