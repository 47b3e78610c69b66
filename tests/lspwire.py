"""An editor's end of `koloda lsp`, down to the bytes: it can send malformed frames as well as
messages, reads the server's frames, and keeps what the server writes on standard error. Used by
tests/test_lsp_wire.py and by bench/lsp_fuzz.py (the long fuzz), which share the frames made here."""
from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator

import koloda

RULES = Path(koloda.__file__).parent / "rules"
WAIT = 60.0                      # only to catch a hang
HOVERED = "any(playable"         # the ping hovers here in pony.yaml and expects the reference of any()


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encoded(message: dict) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")



def read_frames(out: BinaryIO) -> Iterator[Any]:
    """The server's messages, one frame at a time, until its output ends."""
    while True:
        length = None
        while True:
            header = out.readline()
            if not header:
                return
            if header.strip() == b"":
                break
            name, _, value = header.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        assert length is not None
        yield json.loads(out.read(length))

class Wire:
    """Bytes to the server; its frames back, parsed, on a queue; its standard error kept."""

    def __init__(self, to_server: BinaryIO, from_server: BinaryIO, errors: BinaryIO | None = None) -> None:
        self.to_server = to_server
        self.messages: queue.Queue = queue.Queue()
        self.stderr = bytearray()
        self.next_id = 0
        threading.Thread(target=self._read, args=(from_server,), daemon=True).start()
        if errors is not None:
            threading.Thread(target=self._keep, args=(errors,), daemon=True).start()

    def _keep(self, errors: BinaryIO) -> None:
        while chunk := errors.read1(65536):
            self.stderr += chunk

    def _read(self, out: BinaryIO) -> None:
        for message in read_frames(out):
            self.messages.put(message)
        self.messages.put(None)

    def raw(self, data: bytes) -> None:
        self.to_server.write(data)
        self.to_server.flush()

    def send(self, message: dict) -> None:
        self.raw(frame(encoded(message)))

    def request(self, method: str, params: Any, ident: int | str | None = None) -> dict:
        """The server's whole answer (result or error) to one request."""
        if ident is None:
            self.next_id += 1
            ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == ident and "method" not in m)

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def wait(self, wanted: Callable[[dict], bool], timeout: float = WAIT) -> dict:
        while True:
            message = self.messages.get(timeout=timeout)
            if message is None:
                raise EOFError("the server closed its output")
            if wanted(message):
                return message

    def drain(self) -> list[dict]:
        found = []
        while True:
            try:
                message = self.messages.get_nowait()
            except queue.Empty:
                return found
            if message is not None:
                found.append(message)

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.resolve().as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": version,
            "text": path.read_text("utf-8") if text is None else text}})
        return uri

    def initialize(self, folder: Path) -> dict:
        answer = self.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        return answer


def start_process(folder: Path) -> tuple[subprocess.Popen, Wire]:
    """`koloda lsp --stdio` as an editor starts it, its three streams held by a Wire."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(koloda.__file__).parent.parent),
                                                       os.environ.get("PYTHONPATH", "")]))
    process = subprocess.Popen([sys.executable, "-m", "koloda.cli.main", "lsp", "--stdio"], cwd=folder,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdin and process.stdout and process.stderr
    return process, Wire(process.stdin, process.stdout, process.stderr)  # type: ignore[arg-type]


def ping(wire: Wire, uri: str, text: str, ident: str) -> dict:
    """A hover the server must answer with any()'s reference: the proof that it still serves."""
    at = text.index(HOVERED) + 1
    position = {"line": text.count("\n", 0, at), "character": at - (text.rfind("\n", 0, at) + 1)}
    return wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position}, ident)


# ---------------------------------------------------------------- malformed frames
_METHODS = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
            "textDocument/documentSymbol", "textDocument/didOpen", "textDocument/didChange",
            "textDocument/didClose", "textDocument/didSave", "$/cancelRequest", "$/setTrace",
            "initialize", "no/such/method", "$/ping", "workspace/symbol", "textDocument/formatting"]
_ODD = [None, True, 1.5, -1, 2 ** 40, 10 ** 30, "", "x" * 300, [], [1, [2]], {}, {"a": {"b": None}}, "é☃\U0001F600"]


def _odd(rng: random.Random) -> Any:
    return rng.choice(_ODD)


def _position(rng: random.Random) -> Any:
    pick = rng.randrange(5)
    if pick == 0:
        return {"line": rng.choice([-1, -10 ** 9, 10 ** 9, 2 ** 31, 2 ** 63]), "character": rng.randrange(5)}
    if pick == 1:
        return {"line": 0, "character": rng.choice([-1, 10 ** 12, 2 ** 31 - 1])}
    if pick == 2:
        return {"line": _odd(rng), "character": _odd(rng)}
    if pick == 3:
        return _odd(rng)
    return {"line": rng.randrange(0, 10 ** 6), "character": rng.randrange(0, 10 ** 6)}


def _message(rng: random.Random, uri: str) -> dict:
    """A message that is wrong in one or more ways (never a valid shutdown or exit)."""
    method = rng.choice(_METHODS)
    target = rng.choice([uri, uri + "-not-open", "untitled:x", "", "file:///nowhere/at/all.yaml", 7])
    params: Any = {"textDocument": {"uri": target, "version": rng.choice([1, -5, None, "v"]),
                                    "text": rng.choice(["game: x\n", "", "\x00", "zones: [", 5])},
                   "position": _position(rng)}
    if rng.random() < 0.3:
        params["contentChanges"] = rng.choice([[{"text": "a"}], [{"range": _odd(rng), "text": 1}], "x", None])
    if rng.random() < 0.2:
        params = _odd(rng)
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
    if rng.random() < 0.7:
        message["id"] = rng.choice([rng.randrange(10 ** 6), str(rng.random()), _odd(rng)])
    for _ in range(rng.randrange(3)):
        key = rng.choice(["jsonrpc", "method", "id", "params", "result", "error"])
        if rng.random() < 0.5:
            message.pop(key, None)
        else:
            message[key] = _odd(rng)
    return message


def _body(rng: random.Random, uri: str) -> bytes:
    pick = rng.randrange(10)
    if pick == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))      # noise, often not UTF-8
    if pick == 1:
        return rng.choice([b"[]", b"1", b"null", b'"a string"', b"true", b"{}", b"[{}]", b"", b" ",
                           b'{"jsonrpc": "2.0"}', b"\xff\xfe{}", b"NaN", b"1e400", b"9" * 5000,
                           b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "textDocument/hover"}'])
    if pick == 2:
        depth = rng.choice([65, 1000, 100_000])
        return b"[" * depth + b"]" * rng.choice([0, depth])
    body = json.dumps(_message(rng, uri), ensure_ascii=rng.random() < 0.5).encode("utf-8")
    if pick in (3, 4):
        return body[:rng.randrange(len(body))]                                       # truncated JSON
    if pick == 5:
        at = rng.randrange(len(body))
        return body[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + body[at:]
    return body


def malformed(rng: random.Random, uri: str, stalls: bool = False) -> bytes:
    """One random frame, malformed in its framing or its message; `stalls` lets it claim more bytes
    than any that follow it, so that the server must give up waiting on it (after wire.STALL s)."""
    body = _body(rng, uri)
    pick = rng.randrange(16)          # from 9 on, a frame as it should be, of a malformed message
    if pick == 0:
        return b"Content-Length: %d\r\n\r\n" % rng.choice([10 ** 12, 2 ** 64, 10 ** 30]) + body
    if pick == 1:
        return b"Content-Length: " + rng.choice([b"-5", b"abc", b"", b"1 2", b"0x10", b"9" * 40]) + b"\r\n\r\n" + body
    if pick == 2:
        return b"X" * rng.choice([100, 9000, 70_000]) + rng.choice([b"", b"\r\n"]) + frame(body)[:rng.randrange(18)]
    if pick == 3:
        return b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + body                # no length
    if pick == 4:
        whole = frame(body)                                                          # cut short
        return whole[:rng.randrange(1 if stalls else max(1, len(whole) - 150), len(whole))]
    if pick == 5:
        short = rng.randrange(1, 200) if not stalls else rng.randrange(1, 100_000)
        return b"Content-Length: %d\r\n\r\n" % (len(body) + short) + body          # claims more than it sends
    if pick == 6:
        return b"Content-Length: %d\r\n\r\n" % max(len(body) - rng.randrange(1, 20), 0) + body
    if pick == 7:
        return b"content-length: %d\r\nContent-Type: x\r\n\r\n" % len(body) + body
    if pick == 8:
        return b"Content-Length: %d\n\n" % len(body) + body
    return frame(body)


def fuzz(wire: Wire, pinged: str, text: str, target: str, count: int, seed: int, stalls: bool = False,
         progress: Callable[[int], None] | None = None) -> list[str]:
    """Send `count` malformed frames about the document `target`, each followed by a ping of the
    document `pinged` (whose text is `text`); the problems found (a ping not answered as it should
    be, with the frame before it), empty if none."""
    rng = random.Random(seed)
    problems: list[str] = []
    for n in range(count):
        data = malformed(rng, target, stalls)
        wire.raw(data)
        try:
            answer = ping(wire, pinged, text, f"ping-{seed}-{n}")
        except Exception as exc:             # a hang (queue.Empty) or the server gone
            problems.append(f"frame {n}: no answer to the ping ({type(exc).__name__}) after {data[:200]!r}")
            break
        value = (answer.get("result") or {}).get("contents", {}).get("value", "")
        if "any(" not in value:
            problems.append(f"frame {n}: the ping was answered {json.dumps(answer)[:300]} after {data[:200]!r}")
        if progress is not None:
            progress(n)
    return problems
