"""`koloda lsp` and an editor that sends garbage: every malformed frame or message gets a JSON-RPC
error (or a one-line warning on standard error, never a traceback), the server keeps answering, and
header lines and bodies are read within bounds. Also: a check does not hold up the answers."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from koloda.lsp import wire
from lspwire import RULES, Wire, encoded, frame, fuzz, ping, start_process


# ---------------------------------------------------------------- the framing, without a server
class Chunks:
    """A source that hands out its pieces one by one (None: nothing came in time), and keeps the
    largest buffer the framer held while reading them."""

    def __init__(self, pieces) -> None:
        self.pieces = iter(pieces)
        self.framer: wire.Framer | None = None
        self.most = 0

    def read(self, timeout):
        if self.framer is not None:
            self.most = max(self.most, len(self.framer.buffer))
        return next(self.pieces, b"")


def framer_of(pieces) -> tuple[wire.Framer, Chunks]:
    source = Chunks(pieces)
    framer = wire.Framer(source, stall=0.0)        # type: ignore[arg-type]
    source.framer = framer
    return framer, source


def test_a_50_mb_header_line_is_skipped_within_bounds_and_the_next_frame_is_read():
    endless = (b"X" * wire.CHUNK for _ in range(50 * 1024 * 1024 // wire.CHUNK))
    body = encoded({"id": 1, "method": "shutdown"})
    framer, source = framer_of([*endless, b"\r\n", frame(body)])
    got = framer.next()
    assert got is not None and got.body == body
    assert got.skipped >= 50 * 1024 * 1024
    assert source.most <= wire.MAX_LINE + wire.CHUNK            # never the whole line in memory
    assert framer.next() is None


def test_a_header_line_without_its_end_is_read_from_the_next_content_length_on_it():
    body = encoded({"id": 1, "method": "shutdown"})
    framer, _ = framer_of([b"Y" * 100_000, b"Content-Le", frame(body)])
    got = framer.next()
    assert got is not None and got.body == body and got.skipped == 100_000 + len("Content-Le")


def test_a_content_length_of_a_terabyte_is_refused_at_once_and_the_next_frame_is_read():
    body = encoded({"id": 1, "method": "shutdown"})
    framer, source = framer_of([b"Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\": ", frame(body)])
    refused = framer.next()
    assert refused is not None and refused.body is None and "1,000,000,000,000 bytes" in (refused.problem or "")
    got = framer.next()
    assert got is not None and got.body == body
    assert source.most < 1000


def test_a_body_that_stops_arriving_is_given_up_and_the_message_inside_it_is_recovered():
    body = encoded({"id": 7, "method": "shutdown"})
    # the first frame claims 500 bytes more than it sends; the next frame falls inside its body
    framer, _ = framer_of([b"Content-Length: %d\r\n\r\n{\"a\": " % (500 + 6), frame(body), None])
    cut = framer.next()
    assert cut is not None and cut.body is None and "cut short" in (cut.problem or "")
    got = framer.next()
    assert got is not None and got.body == body


def test_a_body_claiming_a_few_bytes_too_many_gives_back_the_next_message():
    body = encoded({"id": 7, "method": "shutdown"})
    framer, _ = framer_of([b"Content-Length: 20\r\n\r\n[1, 2, ", frame(body)])
    first = framer.next()
    assert first is not None and first.body is not None
    assert isinstance(wire.decode(first.body), wire.Refusal)
    framer.recover(first.body)                       # as the server does with a body it cannot read
    got = framer.next()
    assert got is not None and got.body == body


@pytest.mark.parametrize("body, code, said", [
    (b"not json", wire.PARSE_ERROR, "not JSON"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "textDocument/ho', wire.PARSE_ERROR, "cut short"),
    (b"[]", wire.INVALID_REQUEST, "not a list"),
    (b"1", wire.INVALID_REQUEST, "not a number"),
    (b"null", wire.INVALID_REQUEST, "not null"),
    (b'"hello"', wire.INVALID_REQUEST, "not a string"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "x\xff"}', wire.PARSE_ERROR, "not UTF-8 (byte 0xff"),
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}', wire.INVALID_REQUEST, "not an object"),
    (b"[" * 100_000 + b"]" * 100_000, wire.PARSE_ERROR, "nested more than"),
    (b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "shutdown"}', wire.PARSE_ERROR, "given twice"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "shutdown", "params": NaN}', wire.PARSE_ERROR, "`NaN`"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": 5}', wire.INVALID_REQUEST, "method must be a string"),
    (b'{"jsonrpc": "1.0", "id": 1, "method": "shutdown"}', wire.INVALID_REQUEST, '"jsonrpc": "2.0"'),
])
def test_a_body_that_is_no_message_is_refused_with_its_json_rpc_error(body, code, said):
    refused = wire.decode(body)
    assert isinstance(refused, wire.Refusal) and refused.code == code and said in refused.message
    assert refused.answered


def test_a_well_formed_request_is_taken_and_a_malformed_notification_is_not_answered():
    assert wire.decode(encoded({"id": 3, "method": "shutdown", "params": None})) == {
        "jsonrpc": "2.0", "id": 3, "method": "shutdown"}
    refused = wire.decode(encoded({"method": "textDocument/didChange", "params": 5}))
    assert isinstance(refused, wire.Refusal) and refused.code == wire.INVALID_PARAMS and not refused.answered


# ---------------------------------------------------------------- the server, as an editor starts it
@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("lsp-wire")
    shutil.copy(RULES / "pony.yaml", where / "pony.yaml")
    (where / "fuzz.yaml").write_text("game: fuzz\n", encoding="utf-8")
    return where


class Session:
    def __init__(self, folder: Path) -> None:
        self.process, self.wire = start_process(folder)
        self.wire.initialize(folder)
        self.text = (folder / "pony.yaml").read_text("utf-8")
        self.uri = self.wire.open(folder / "pony.yaml")
        self.target = self.wire.open(folder / "fuzz.yaml")
        self.pings = 0

    def still_serves(self) -> None:
        self.pings += 1
        answer = ping(self.wire, self.uri, self.text, f"ping-{self.pings}")
        assert "any(" in answer["result"]["contents"]["value"], answer

    def error_for(self, ident) -> dict:
        return self.wire.wait(lambda m: "error" in m and m.get("id") == ident)["error"]

    def end(self) -> int:
        self.wire.request("shutdown", None)
        self.wire.notify("exit", None)
        return self.process.wait(timeout=60)

    def stderr(self) -> str:
        return self.wire.stderr.decode("utf-8", "replace")


def assert_no_traceback(text: str) -> None:
    assert "Traceback" not in text and "File \"" not in text
    assert all(line.startswith("koloda lsp: ") for line in text.splitlines()), text[:2000]


@pytest.fixture
def session(folder):
    pytest.importorskip("pygls")
    s = Session(folder)
    try:
        yield s
    finally:
        if s.process.poll() is None:
            s.process.kill()
            s.process.wait(timeout=60)


def test_garbage_of_every_kind_is_answered_and_the_server_keeps_serving(session):
    s = session
    bodies = [b"not json", b'{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hov', b"[]", b"1", b"null",
              b'"a string"', b'{"jsonrpc": "2.0", "id": 2, "method": "shut\xffdown"}']
    for body in bodies:
        s.wire.raw(frame(body))
        assert s.error_for(None)["code"] in (wire.PARSE_ERROR, wire.INVALID_REQUEST)
        s.still_serves()
    s.wire.send({"id": {"an": "object"}, "method": "textDocument/hover", "params": {}})
    assert s.error_for(None)["code"] == wire.INVALID_REQUEST
    s.still_serves()
    s.wire.raw(b"Z" * (50 * 1024 * 1024))                         # a header line of 50 MB, no newline
    s.still_serves()
    s.wire.raw(b"Content-Length: 1000000000000\r\n\r\n")
    s.still_serves()
    assert s.end() == 0
    errors = s.stderr()
    assert_no_traceback(errors)
    assert "1,000,000,000,000 bytes" in errors and "52,428,800 bytes that belong to no message" in errors


def test_positions_out_of_range_and_unknown_documents_get_errors_not_tracebacks(session):
    s = session
    for n, position in enumerate([{"line": -1, "character": 0}, {"line": 0, "character": -5},
                                  {"line": 2 ** 40, "character": 0}, {"line": "one", "character": 0}]):
        answer = s.wire.request("textDocument/hover", {"textDocument": {"uri": s.uri}, "position": position},
                                f"bad-{n}")
        assert answer["error"]["code"] == wire.INVALID_PARAMS and "position" in answer["error"]["message"]
        s.still_serves()
    far = s.wire.request("textDocument/completion", {"textDocument": {"uri": s.uri},
                                                     "position": {"line": 2 ** 31 - 1, "character": 2 ** 31 - 1}})
    assert "result" in far                                        # past the end: the end of the text
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        answer = s.wire.request(method, {"textDocument": {"uri": s.uri + ".nowhere"},
                                         "position": {"line": 0, "character": 0}})
        assert answer["error"]["code"] == wire.INVALID_PARAMS and "is not open" in answer["error"]["message"]
    answer = s.wire.request("textDocument/documentSymbol", {"textDocument": {"uri": "untitled:never"}})
    assert "is not open" in answer["error"]["message"]
    s.wire.notify("textDocument/didChange", {"textDocument": {"uri": s.uri + ".nowhere", "version": 2},
                                             "contentChanges": [{"text": "x"}]})
    s.still_serves()
    assert s.end() == 0
    assert_no_traceback(s.stderr())


def test_exit_before_shutdown_ends_the_server_with_code_1_and_says_so(session):
    s = session
    s.still_serves()
    answer = s.wire.request("exit", None)                          # sent as a request: it is answered first
    assert answer["result"] is None
    assert s.process.wait(timeout=60) == 1
    assert "exit came before shutdown" in s.stderr()
    assert_no_traceback(s.stderr())


def test_requests_before_initialize_and_after_shutdown_get_the_protocol_s_errors(folder):
    pytest.importorskip("pygls")
    process, w = start_process(folder)
    try:
        early = w.request("textDocument/hover", {"textDocument": {"uri": "file:///x"},
                                                 "position": {"line": 0, "character": 0}})
        assert early["error"]["code"] == wire.NOT_INITIALIZED
        w.initialize(folder)
        again = w.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert again["error"]["code"] == wire.INVALID_REQUEST
        assert w.request("shutdown", None)["result"] is None
        late = w.request("textDocument/hover", {"textDocument": {"uri": "file:///x"},
                                                "position": {"line": 0, "character": 0}})
        assert late["error"]["code"] == wire.INVALID_REQUEST and "shutting down" in late["error"]["message"]
        w.notify("exit", None)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert_no_traceback(w.stderr.decode("utf-8", "replace"))


def test_a_hundred_random_and_truncated_frames_leave_the_server_serving(session):
    s = session
    problems = fuzz(s.wire, s.uri, s.text, s.target, count=100, seed=32)
    assert problems == []
    assert s.end() == 0
    assert_no_traceback(s.stderr())


# ---------------------------------------------------------------- a check in progress
def test_hover_and_completion_are_answered_while_a_long_check_is_running(folder, monkeypatch):
    pytest.importorskip("pygls")
    from koloda.lsp import server as S
    started, release = threading.Event(), threading.Event()
    real = S.check_text

    def slow(path, text):                      # the check of a big file, held until the test lets it go
        started.set()
        assert release.wait(timeout=60)
        return real(path, text)
    monkeypatch.setattr(S, "check_text", slow)
    to_server, from_test = os.pipe()
    to_test, from_server = os.pipe()
    server_in, server_out = open(to_server, "rb", buffering=0), open(from_server, "wb", buffering=0)
    test_out, test_in = open(from_test, "wb", buffering=0), open(to_test, "rb")
    made = S.build()
    serving = threading.Thread(target=made.start_io, args=(server_in, server_out), daemon=True)
    serving.start()
    try:
        w = Wire(test_out, test_in)
        w.initialize(folder)
        text = (folder / "pony.yaml").read_text("utf-8")
        uri = w.open(folder / "pony.yaml", text)
        assert started.wait(timeout=60)
        answer = ping(w, uri, text, "while-checking")
        assert "any(" in answer["result"]["contents"]["value"]
        at = text.index("  - shuffle stock") + len("  - ")
        offered = w.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {
            "line": text.count("\n", 0, at), "character": at - (text.rfind("\n", 0, at) + 1)}})
        assert "move" in {i["label"] for i in offered["result"]["items"]}     # the effects, known before any check
        assert not [m for m in w.drain() if m.get("method") == "textDocument/publishDiagnostics"]
        release.set()
        found = w.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert found["params"]["uri"] == uri and found["params"]["diagnostics"] == []
        w.request("shutdown", None)
        w.notify("exit", None)
        serving.join(timeout=60)
        assert not serving.is_alive()
        server_out.close()
        with pytest.raises(EOFError):              # the reader has seen the end: its stream may be closed
            w.wait(lambda m: False)
    finally:
        release.set()
        test_out.close()                           # the server's input ends, if it still reads
        serving.join(timeout=60)
        for stream in (server_in, server_out, test_in):
            stream.close()
