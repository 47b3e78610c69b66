"""Rule files from the lobby (`koloda serve --allow-upload`): checked, every error at its line:col,
and nothing read outside the file but shipped games."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
# Starlette 1.x asks for httpx2 in its test client; httpx works the same for these tests
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from starlette.testclient import TestClient  # noqa: E402

from koloda.web.app import make_app  # noqa: E402
from koloda.web.rooms import Rooms  # noqa: E402

GOOD = "game: short-pony\nextends: pony\ntitle: {en: Short Pony}\noptions:\n  limit: {default: 10, min: 1}\n"


def _client(tmp_path, allow=True):
    rooms = Rooms({"pony": "pony"}, tmp_path)
    return rooms, TestClient(make_app(rooms, bot_delay=0, allow_upload=allow))


def test_a_server_takes_no_rule_file_unless_told(tmp_path):
    _, client = _client(tmp_path, allow=False)
    with client:
        assert client.get("/api/games").json()["upload"] is False
        assert client.post("/api/rules", json={"text": GOOD}).status_code == 403


def test_a_rule_file_that_checks_is_offered_and_played(tmp_path):
    rooms, client = _client(tmp_path)
    with client:
        answer = client.post("/api/rules", json={"text": GOOD, "name": "short.yaml"})
        assert answer.status_code == 200, answer.json()
        name = answer.json()["game"]
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert games[name]["title"] == "Short Pony"
        assert client.post("/api/rules", json={"text": GOOD}).json()["game"] == name      # the same file once
        room = client.post("/api/rooms", json={"game": name, "seats": ["human", "random"]})
        assert room.status_code == 200 and rooms.get(room.json()["room"]).game.options["limit"] == 10


def test_every_error_is_shown_at_its_place_under_the_name_given(tmp_path):
    _, client = _client(tmp_path)
    bad = "game: broken\nextends: pony\nzones:\n  hand: {each: player, visible: sometimes}\nvars:\n  x: {type: nothing}\n"
    with client:
        answer = client.post("/api/rules", json={"text": bad, "name": "mine.yaml"})
    errors = answer.json()["errors"]
    assert answer.status_code == 400 and errors and all(e.startswith("mine.yaml:") for e in errors)
    assert not any(str(tmp_path) in e for e in errors)


@pytest.mark.parametrize("reference", ["/etc/passwd", "../../secret", "../web/uploads/x/rules"])
def test_an_uploaded_file_reads_no_file_but_shipped_ones(tmp_path, reference):
    secret = tmp_path / "secret.yaml"
    secret.write_text("game: secret\n", encoding="utf-8")
    _, client = _client(tmp_path)
    with client:
        answer = client.post("/api/rules", json={"text": f"game: x\nextends: {reference}\n"})
    assert answer.status_code == 400
    assert "secret" not in " ".join(answer.json()["errors"]).replace(reference, "")


def test_too_large_or_empty_files_are_refused(tmp_path):
    _, client = _client(tmp_path)
    with client:
        assert client.post("/api/rules", json={"text": ""}).status_code == 400
        assert client.post("/api/rules", json={"text": "#" * 1_100_000}).status_code == 400
        assert client.post("/api/rules", content=b"x" * 3_000_000).status_code == 413
