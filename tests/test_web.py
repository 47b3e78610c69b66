"""The web table's server without a browser: rooms, seats and their secret links, moves by id and by
token, and bad messages, each answered with an error and nothing lost (docs/web.md)."""
from __future__ import annotations

import json
import subprocess
import sys

import warnings

import pytest

pytest.importorskip("starlette")
# Starlette 1.x asks for httpx2 in its test client; httpx works the same for these tests
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from koloda.api import shipped_games  # noqa: E402
from koloda.web.app import MAX_FRAME, make_app  # noqa: E402
from koloda.web.rooms import Rooms  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _server(folder=None, most=100):
    rooms = Rooms({g: g for g in shipped_games()}, folder, most)
    return rooms, make_app(rooms, bot_delay=0)


def _room(client, game="pony", seats=("human", "human"), **options):
    answer = client.post("/api/rooms", json={"game": game, "seats": list(seats), "options": options})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    return data["room"], [s["link"].split("#", 1)[1] for s in data["seats"]]


def _mover(rooms, room):
    """The secret of the seat to move, and of another person's seat (None if there is none)."""
    r = rooms.get(room)
    p = r.state.current_player()
    others = [t for q, t in enumerate(r.tokens) if q != p and t is not None]
    return r.tokens[p], (others[0] if others else None)


def _hello(ws, token, lang="en"):
    ws.send_json({"type": "hello", "token": token, "lang": lang})
    return ws.receive_json()


def _first_move(message):
    return message["moves"]["groups"][0]["moves"][0]["id"]


def test_a_room_gives_each_person_a_secret_and_each_seat_its_own_hand():
    rooms, app = _server()
    with TestClient(app) as client:
        room, tokens = _room(client)
        t1, t2 = _mover(rooms, room)
        assert sorted(tokens) == sorted([t1, t2]) and t1 != t2 and len(t1) >= 20
        with client.websocket_connect(f"/ws/{room}") as a, client.websocket_connect(f"/ws/{room}") as b:
            m1, m2 = _hello(a, t1), _hello(b, t2)
        hand1 = next(p for p in m1["table"]["piles"] if p["mine"])
        theirs = next(p for p in m1["table"]["piles"] if p["label"] == "hand" and not p["mine"])
        assert {m1["seat"], m2["seat"]} == {0, 1} and m1["table"]["current"] == m1["seat"]
        assert len(hand1["cards"]) == 5 and "cards" not in theirs and theirs["size"] == 5
        state = rooms.get(room).state
        assert hand1["cards"] == sorted(hand1["cards"], key=lambda n: _order(state, n))
        assert "moves" in m1 and "moves" not in m2          # only the seat to move gets its choices


def _order(state, name):
    from koloda.ui.table import sort_key
    return sort_key(state.game, name)


def test_a_wrong_token_gets_no_seat_and_a_watcher_sees_no_hand():
    _, app = _server()
    with TestClient(app) as client:
        room, _ = _room(client)
        with client.websocket_connect(f"/ws/{room}") as ws:
            ws.send_json({"type": "hello", "token": "guessed", "lang": "en"})
            assert ws.receive_json() == {"type": "error", "text": "this link is for no seat of this room"}
        with client.websocket_connect(f"/ws/{room}") as ws:
            m = _hello(ws, "watch")
        assert m["seat"] == -1 and "moves" not in m
        assert not any("cards" in p for p in m["table"]["piles"] if p["label"] == "hand")
        with client.websocket_connect("/ws/nosuchroom") as ws:
            assert "no such room" in ws.receive_json()["text"]


def test_every_seat_is_told_each_move_and_bad_messages_lose_nothing():
    rooms, app = _server()
    with TestClient(app) as client:
        room, _ = _room(client)
        t1, t2 = _mover(rooms, room)
        with client.websocket_connect(f"/ws/{room}") as a, client.websocket_connect(f"/ws/{room}") as b:
            m1, _ = _hello(a, t1), _hello(b, t2)
            bad = ["{not json", json.dumps([1, 2]), "x" * (MAX_FRAME + 1),
                   json.dumps({"type": "move", "id": _first_move(m1), "at": 0})]
            for text in bad[:3]:
                a.send_text(text)
                assert a.receive_json()["type"] == "error"
            a.send_bytes(b"\x00\x01")
            assert a.receive_json()["type"] == "error"
            b.send_text(bad[3])                       # a move for the other seat
            assert b.receive_json() == {"type": "error", "text": "it is not your turn"}
            a.send_json({"type": "move", "id": "999999", "at": 0})
            assert a.receive_json() == {"type": "error", "text": "that move is not legal now"}
            a.send_json({"type": "move", "id": _first_move(m1), "at": 5})       # a stale move
            assert "earlier move" in a.receive_json()["text"]
            a.send_json({"type": "dance"})
            assert a.receive_json()["type"] == "error"
            assert rooms.get(room).session.moves == []           # nothing was played, nothing lost
            a.send_json({"type": "move", "id": _first_move(m1), "at": 0})
            after_a, after_b = a.receive_json(), b.receive_json()
        assert after_a["at"] == after_b["at"] == 1
        assert after_a["log"] and after_a["log"] == after_b["log"][:len(after_a["log"])]
        assert rooms.get(room).session.moves == [int(_first_move(m1))]


def test_a_move_is_clicked_token_by_token():
    """Kun-kin's melds are spelled a card at a time: each click is checked against the legal next
    tokens, a click for an earlier choice is refused, and the move is played on its last token."""
    rooms, app = _server()
    with TestClient(app) as client:
        room, _ = _room(client, "kunkin", ("human", "human"))
        r = rooms.get(room)
        t1, _ = _mover(rooms, room)
        with client.websocket_connect(f"/ws/{room}") as ws:
            m = _hello(ws, t1)
            clicks = 0
            while m["at"] == 0:
                choice = m["moves"]["tokens"][-1]
                ws.send_json({"type": "token", "token": 10 ** 9, "at": m["at"], "prefix": m["moves"]["prefix"]})
                assert ws.receive_json()["text"] == "that is not one of your choices now"
                ws.send_json({"type": "token", "token": choice["token"], "at": m["at"],
                              "prefix": m["moves"]["prefix"] + [0]})
                assert "earlier choice" in ws.receive_json()["text"]
                ws.send_json({"type": "token", "token": choice["token"], "at": m["at"], "prefix": m["moves"]["prefix"]})
                m = ws.receive_json()
                clicks += 1
                assert clicks < 40
        assert len(r.session.moves) == 1 and r.prefix == ()


def test_a_refused_card_and_a_typed_move_are_told_why():
    rooms, app = _server()
    with TestClient(app) as client:
        for seed in range(50):        # a deal whose first player has a card to play and one to keep
            r = rooms.create("pony", {}, ["human", "human"], seed=seed)
            m = r.message(r.state.current_player(), "en")
            hand = next(p for p in m["table"]["piles"] if p["mine"])["cards"]
            playable = {t["card"] for t in m["moves"]["tokens"] if "card" in t}
            if playable and set(hand) - playable:
                break
        t1, _ = _mover(rooms, r.id)
        with client.websocket_connect(f"/ws/{r.id}") as ws:
            m = _hello(ws, t1)
            stuck = sorted(set(hand) - playable)
            ws.send_json({"type": "try", "card": stuck[0]})
            answer = ws.receive_json()
            assert answer["type"] == "refused" and "cannot be played now" not in answer["text"], answer
            ws.send_json({"type": "typed", "text": "fly away"})
            assert ws.receive_json()["type"] == "refused"
            card = sorted(playable)[0]
            ws.send_json({"type": "typed", "text": f"play {card}"})
            assert ws.receive_json()["at"] == 1
        assert r.state.game.action_to_string(r.session.moves[0], plain=True) == f"play {card}"


def test_bots_play_and_the_game_ends_with_a_result():
    rooms, app = _server()
    with TestClient(app) as client:
        room, (t1,) = _room(client, "pony", ("human", "random"))
        r = rooms.get(room)
        with client.websocket_connect(f"/ws/{room}") as ws:
            m = _hello(ws, t1)
            for _ in range(2000):
                if "result" in m:
                    break
                if m.get("ended") and "moves" not in m and m["table"]["current"] == 0 or \
                        (m.get("ended") and r.waiting()):
                    ws.send_json({"type": "next"})
                elif "moves" in m:
                    ws.send_json({"type": "move", "id": _first_move(m), "at": m["at"]})
                m = ws.receive_json()
                while m["type"] != "table":
                    m = ws.receive_json()
            assert "result" in m and r.state.is_terminal()
            assert m["result"]["winners"]


def test_rooms_are_saved_and_a_restarted_server_resumes_them(tmp_path):
    rooms, app = _server(tmp_path)
    with TestClient(app) as client:
        room, _ = _room(client)
        t1, _ = _mover(rooms, room)
        with client.websocket_connect(f"/ws/{room}") as ws:
            m = _hello(ws, t1)
            ws.send_json({"type": "move", "id": _first_move(m), "at": 0})
            before = ws.receive_json()
    assert (tmp_path / f"web-{room}.save.json").exists()
    again, app2 = _server(tmp_path)
    assert again.resume() == []
    with TestClient(app2) as client:
        with client.websocket_connect(f"/ws/{room}") as ws:
            after = _hello(ws, t1)
    assert after["at"] == 1 and after["table"] == before["table"] and after["log"] == before["log"]
    from koloda.session import Session
    assert Session.load(tmp_path / f"web-{room}.save.json").moves == again.get(room).session.moves


def test_lobby_refusals():
    _, app = _server(most=1)
    with TestClient(app) as client:
        for body, reason in (({"game": "/etc/passwd", "seats": ["human"]}, "games offered"),
                             ({"game": "pony", "seats": ["cmd:rm -rf /", "human"]}, "a seat is"),
                             ({"game": "pony", "seats": ["human"] * 9}, "played by"),
                             ({"game": "pony", "seats": ["human", "human"], "options": {"hand": "many"}}, "hand")):
            answer = client.post("/api/rooms", json=body)
            assert answer.status_code == 400 and reason in answer.json()["error"], answer.json()
        assert client.post("/api/rooms", content=b"x" * 20000).status_code == 413
        assert client.post("/api/rooms", json={"game": "pony", "seats": ["human", "human"]},
                           headers={"origin": "http://evil.example"}).status_code == 403
        _room(client)
        answer = client.post("/api/rooms", json={"game": "pony", "seats": ["human", "human"]})
        assert "at most 1 rooms" in answer.json()["error"]


def test_a_socket_from_another_site_is_refused():
    _, app = _server()
    with TestClient(app) as client:
        room, (t1, _) = _room(client)
        from starlette.websockets import WebSocketDisconnect
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(f"/ws/{room}", headers={"origin": "http://evil.example"}) as ws:
                ws.receive_json()
        with client.websocket_connect(f"/ws/{room}", headers={"origin": "http://testserver"}) as ws:
            assert _hello(ws, t1)["seat"] == 0


def test_pages_forbid_scripts_but_their_own():
    _, app = _server()
    with TestClient(app) as client:
        for path in ("/", "/table/x", "/static/table.js", "/api/games"):
            answer = client.get(path)
            assert answer.status_code == 200
            assert "script-src 'self'" in answer.headers["content-security-policy"]
        assert client.get("/static/../rooms.py").status_code == 404


def test_the_command_line_needs_no_web_extra_until_serve_runs():
    code = "import sys, koloda.cli.main; print(any(m.split('.')[0] in ('starlette', 'uvicorn') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_serve_without_the_extra_says_what_to_install(monkeypatch):
    from click.testing import CliRunner
    from koloda.cli.main import main
    monkeypatch.setitem(sys.modules, "uvicorn", None)        # as if it were not installed
    result = CliRunner().invoke(main, ["serve", "pony"])
    assert result.exit_code != 0 and "pip install 'koloda[web]'" in result.output


def test_serve_binds_to_this_machine_unless_told_and_says_so(monkeypatch, tmp_path):
    import uvicorn
    from click.testing import CliRunner
    from koloda.cli.main import main
    runs = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: runs.append(kw))
    result = CliRunner().invoke(main, ["serve", "pony", "--saves", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert runs[-1]["host"] == "127.0.0.1" and runs[-1]["port"] == 8000
    assert "http://127.0.0.1:8000/?game=pony" in result.output and "Only this machine" in result.output
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "9000", "--no-save"])
    assert runs[-1]["host"] == "0.0.0.0" and "anyone who can reach this machine" in result.output


def test_serve_reports_a_broken_rule_file_without_a_traceback(tmp_path):
    from click.testing import CliRunner
    from koloda.cli.main import main
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: bad\nextends: pony\nzones:\n  hand: {each: player, visible: sometimes}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", str(bad)])
    assert result.exit_code != 0 and "bad.yaml:" in result.output and "Traceback" not in result.output


def test_the_host_has_a_bot_stand_in_for_a_person_and_hands_the_seat_back():
    rooms, app = _server()
    with TestClient(app) as client:
        answer = client.post("/api/rooms", json={"game": "pony", "seats": ["human", "human"]}).json()
        room = rooms.get(answer["room"])
        host = answer["host"].split("#", 1)[1]
        mover = room.state.current_player()
        with client.websocket_connect(f"/ws/{room.id}") as ws, client.websocket_connect(f"/ws/{room.id}") as h:
            _hello(ws, room.tokens[1 - mover])
            m = _hello(h, host)
            assert m["host"] and m["seat"] == -1 and "moves" not in m
            assert [s["present"] for s in m["seats"]] == [p != mover for p in range(2)]
            ws.send_json({"type": "standin", "seat": mover, "bot": "random"})     # not the host
            assert ws.receive_json()["text"] == "only the host's page chooses stand-ins"
            h.send_json({"type": "standin", "seat": mover, "bot": "cmd:rm -rf /"})
            assert h.receive_json()["type"] == "error"
            h.send_json({"type": "standin", "seat": mover, "bot": "random"})
            for _ in range(20):
                m = h.receive_json()
                if m["at"] >= 1:
                    break
            assert room.session.moves and room.standins == {mover: "random"}
            h.send_json({"type": "standin", "seat": mover, "bot": None})
            for _ in range(20):
                m = h.receive_json()
                if "standin" not in m["seats"][mover]:
                    break
            assert room.standins == {}
        assert room.session.seats == ["human", "human"]          # the save still names two people


def test_a_person_out_of_time_has_a_bot_choose_for_them():
    rooms = Rooms({"pony": "pony"}, None)
    app = make_app(rooms, bot_delay=0, turn_seconds=0.2)
    with TestClient(app) as client:
        room_id, _ = _room(client)
        room = rooms.get(room_id)
        token, _ = _mover(rooms, room_id)
        with client.websocket_connect(f"/ws/{room_id}") as ws:
            m = _hello(ws, token)
            while m["at"] == 0:
                m = ws.receive_json()
        assert "time ran out" in m["log"][0] and len(room.session.moves) == 1


def test_a_game_saved_at_the_terminal_goes_on_in_the_browser(monkeypatch, tmp_path):
    import uvicorn
    from click.testing import CliRunner
    from koloda.api import load
    from koloda.cli.main import main
    from koloda.session import Session
    session = Session.start("pony", load("pony"), ["human", "random"], seed=5)
    for _ in range(3):
        session.play(session.state.legal_actions()[0])
    save = tmp_path / "mine.save.json"
    session.save(save)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    result = CliRunner().invoke(main, ["serve", "--resume", str(save), "--saves", str(tmp_path)])
    assert result.exit_code == 0, result.output
    link = next(line for line in result.output.splitlines() if line.startswith("P1: "))
    room_id, token = link.split("/table/")[1].split("#")
    again, app = _server(tmp_path)            # the server started again: the room goes on, saving to the same file
    assert again.resume() == []
    with TestClient(app) as client, client.websocket_connect(f"/ws/{room_id}") as ws:
        m = _hello(ws, token)
        assert m["seat"] == 0 and m["at"] == 3 and len(m["log"]) >= 3
        while "moves" not in m:
            m = ws.receive_json()
        ws.send_json({"type": "move", "id": _first_move(m), "at": m["at"]})
        while m["at"] == 3 or m["type"] != "table":
            m = ws.receive_json()
    assert len(Session.load(save).moves) >= 4
    result = CliRunner().invoke(main, ["serve", "--resume", str(tmp_path / "nothing.save.json")])
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_a_room_is_saved_as_the_command_line_saves(tmp_path):
    """The saves written beside the engine are Session.save's, byte for byte."""
    from koloda.web.saving import save_text
    rooms, _ = _server(tmp_path)
    room = rooms.create("kunkin", {}, ["human", "random"], seed=2)
    for _ in range(5):
        room.play(room.state.current_player(), room.state.legal_actions()[-1])
    assert rooms.writer.flush()
    written = (tmp_path / f"web-{room.id}.save.json").read_text(encoding="utf-8")
    room.session.save(tmp_path / "direct.save.json")
    assert written == save_text(room.session) == (tmp_path / "direct.save.json").read_text(encoding="utf-8")


def test_a_page_sending_too_fast_is_made_to_wait_and_loses_nothing():
    rooms, app = _server()
    with TestClient(app) as client:
        room, _ = _room(client)
        token, _ = _mover(rooms, room)
        with client.websocket_connect(f"/ws/{room}") as ws:
            m = _hello(ws, token)
            app.state.server.most_a_second = 2
            for _ in range(12):
                ws.send_json({"type": "typed", "text": "fly away"})
            answers = [ws.receive_json() for _ in range(12)]
        assert all(a["type"] == "refused" for a in answers)          # each answered, none dropped
        assert app.state.server.slowed >= 1 and rooms.get(room).session.moves == [] and m["at"] == 0


def test_a_full_server_forgets_a_finished_room_for_a_new_one(tmp_path):
    rooms, _ = _server(tmp_path, most=1)
    done = rooms.create("pony", {"limit": "1"}, ["random", "random"], seed=1)
    from koloda.web.rooms import RoomError
    for _ in range(5000):
        if done.state.is_terminal():
            break
        done.bot_move()
    assert done.state.is_terminal()
    fresh = rooms.create("pony", {}, ["human", "random"])
    assert rooms.get(done.id) is None and rooms.get(fresh.id) is fresh
    with pytest.raises(RoomError, match="at most 1 rooms"):
        rooms.create("pony", {}, ["human", "random"])        # a game in progress is never forgotten
    assert rooms.writer.flush() and (tmp_path / f"web-{done.id}.save.json").exists()


def test_a_variable_is_shown_in_the_rule_file_s_words():
    """`shown as:` words reach the page as they reach the terminal: bridge's `doubled` is `no`, not `1`."""
    import koloda
    from koloda.web.messages import table_view
    game = koloda.load("bridge")
    view = table_view(game, game.new_initial_state(seed=1), 0, "en")
    values = {v["label"]: v["value"] for v in view["vars"]}
    assert values["doubled"] == "no" and values["trumps"] == "no trump", values
