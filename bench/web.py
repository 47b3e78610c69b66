"""The web table under load: N rooms of bots playing at once on one server, and the round trip of
a person's move (sent on the socket, until the table comes back) in another room; memory a room.

    python bench/web.py [ROOMS=100] [BOT_DELAY=0.7] [--save]

--save: every room saved after every move, in a temporary folder (as `koloda serve` does).

Needs the web extra (pip install 'koloda[web]'); websockets comes with uvicorn[standard]."""
from __future__ import annotations

import asyncio
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
import websockets

from koloda.web.app import make_app
from koloda.web.rooms import Rooms

MOVES = 200


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(n: int, delay: float, folder: Path | None) -> None:
    rooms = Rooms({"pony": "pony"}, folder, most=n + 10)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = make_app(rooms, delay)
    app.state.server.most_a_second = 10 ** 6       # the measuring page moves as fast as it can
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    bots = {"game": "pony", "seats": ["random", "random"], "options": {"limit": "10000"}}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        client.post("/api/rooms", json=bots)
        one = rss_mb()
        for _ in range(n - 1):
            client.post("/api/rooms", json=bots)
        all_rooms = rss_mb()
        room = client.post("/api/rooms", json={**bots, "seats": ["human", "human"]}).json()
    print(f"memory: {one:.0f} MB with one room, {all_rooms:.0f} MB with {n}: "
          f"{(all_rooms - one) / max(n - 1, 1) * 1024:.0f} KB a room")
    times = asyncio.run(_play(port, room))
    times.sort()

    def q(p: float) -> float:
        return times[min(len(times) - 1, int(p * len(times)))] * 1000
    print(f"{len(times)} moves: round trip p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms "
          f"({n} rooms of bots, a bot's move every {delay} s in each; {'saved' if rooms.folder else 'not saved'})")
    server.should_exit = True          # its lifespan's end writes the last saves
    thread.join(120)


async def _play(port: int, room: dict) -> list[float]:
    tokens = [s["link"].split("#")[1] for s in room["seats"]]
    sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/ws/{room['room']}") for _ in tokens]
    last = []
    for ws, token in zip(sockets, tokens):
        await ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        last.append(json.loads(await ws.recv()))
    times = []
    for _ in range(MOVES):
        mover = next(i for i, m in enumerate(last) if "moves" in m)
        m = last[mover]
        move = m["moves"]["groups"][0]["moves"][0]["id"]
        start = time.perf_counter()
        await sockets[mover].send(json.dumps({"type": "move", "id": move, "at": m["at"]}))
        last[mover] = await _table(sockets[mover], m["at"] + 1)
        times.append(time.perf_counter() - start)
        last[1 - mover] = await _table(sockets[1 - mover], m["at"] + 1)
        if last[mover].get("ended"):            # the next deal, on a click
            await sockets[mover].send(json.dumps({"type": "next"}))
            last = [await _table(ws, m["at"] + 1) for ws in sockets]
        if last[0].get("result"):
            break
    for ws in sockets:
        await ws.close()
    return times


async def _table(ws, at: int) -> dict:
    while True:
        got = json.loads(await ws.recv())
        if got["type"] == "error":
            raise SystemExit(got["text"])
        if got["type"] == "table" and got["at"] >= at:
            return got


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--save"]
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as saves:
        main(int(args[0]) if args else 100, float(args[1]) if len(args) > 1 else 0.7,
             Path(saves) if "--save" in sys.argv else None)
