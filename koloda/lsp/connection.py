"""The server's end of the pipe: reads frames in a thread of their own (wire.py), hands each message
to pygls's protocol on the event loop, and answers whatever cannot be taken with a JSON-RPC error.

It stands in for pygls's own reading loop (`pygls.io_.run_async`), which reads a header line of any
length and a body of any claimed length, and answers nothing for a message it cannot read. Here no
message an editor can send ends the server or prints a traceback: each fault is answered (when it
is a request, or has no id to tell) and logged on one line of standard error, and the next message
is read. `exit` ends the server as the protocol says (code 1 unless `shutdown` came first); requests
before `initialize` and after `shutdown` are answered with the protocol's errors.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from typing import Any, BinaryIO, Callable
from urllib.parse import unquote

import attrs
import cattrs
from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage

from koloda.lsp import wire

logger = logging.getLogger("koloda.lsp")

MAX_SHOWN = 400             # characters of one log line


class OneLine(logging.Formatter):
    """A record as one line, `koloda lsp: warning: …`, an exception named but never its traceback:
    an editor shows the server's standard error in its log, line by line."""

    def format(self, record: logging.LogRecord) -> str:
        try:
            text = record.getMessage()
        except Exception:                        # a record whose arguments do not fit its format
            text = str(record.msg)
        text = " ".join(text.strip().splitlines()[:1])
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({first_line(record.exc_info[1])})"
        return f"koloda lsp: {record.levelname.lower()}: {text}"[:MAX_SHOWN]


def first_line(error: BaseException) -> str:
    said = str(error).strip().splitlines()
    return type(error).__name__ + (f": {said[0]}" if said else "")


def log_on_one_line(stream: Any = None) -> logging.Handler:
    """Every warning and error of the server (pygls's, asyncio's, Python's warnings) on one line of
    `stream` (standard error); the handler, so that a test can remove it."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(OneLine())
    handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.captureWarnings(True)
    return handler


class Writer:
    """Frames out: pygls writes whole frames; a lock keeps a check's thread and the loop apart, and a
    closed pipe (the editor gone) ends the server instead of raising in every handler."""

    def __init__(self, stream: BinaryIO, gone: Callable[[], None]) -> None:
        self.stream, self.gone = stream, gone
        self.lock = threading.Lock()
        self.broken = False

    def write(self, data: bytes) -> None:
        with self.lock:
            if self.broken:
                return
            try:
                self.stream.write(data)
                self.stream.flush()
            except (OSError, ValueError):
                self.broken = True
                self.gone()

    def close(self) -> None:
        with self.lock:
            try:
                self.stream.close()
            except (OSError, ValueError):
                pass


class Unfit(ValueError):
    """A message that cannot be handled as it stands, with the JSON-RPC error it gets."""

    def __init__(self, message: str, code: int = wire.INVALID_PARAMS) -> None:
        super().__init__(message)
        self.code = code


class Connection:
    """One editor's session with a server, over two streams."""

    def __init__(self, server: LanguageServer, converter: cattrs.Converter, stall: float = wire.STALL) -> None:
        self.server, self.converter, self.stall = server, converter, stall
        self.protocol = server.protocol
        self.initialized = False
        self.shut_down = False
        self.code = 0
        self.writer: Writer | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ended: asyncio.Future[int] | None = None

    def run(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        """Serve until `exit` or the end of the input; the exit code."""
        self.writer = Writer(stdout, lambda: self._post(self._end, 0))
        self.protocol.set_writer(self.writer)
        try:
            return asyncio.run(self._serve(stdin))
        except SystemExit as exc:                   # pygls's `exit` handler ends the loop so
            return exc.code if isinstance(exc.code, int) else 0
        except KeyboardInterrupt:
            return 130

    async def _serve(self, stdin: BinaryIO) -> int:
        self.loop = asyncio.get_running_loop()
        self.ended = self.loop.create_future()
        framer = wire.Framer(wire.Source(stdin), self.stall)
        threading.Thread(target=self._read, args=(framer,), name="koloda-lsp-reader", daemon=True).start()
        return await self.ended

    # ---------------------------------------------------------------- the reading thread
    def _read(self, framer: wire.Framer) -> None:
        try:
            while (frame := framer.next()) is not None:
                if frame.skipped:
                    self._post(logger.warning, f"{frame.skipped:,} bytes that belong to no message were skipped")
                if frame.body is None:
                    if frame.problem:
                        self._post(logger.warning, frame.problem)
                    continue
                got = wire.decode(frame.body)
                if isinstance(got, wire.Refusal):
                    if got.code == wire.PARSE_ERROR:
                        framer.recover(frame.body)
                    self._post(self._refuse, got)
                else:
                    self._post(self._deliver, got)
        except Exception as exc:       # the reader must end the server cleanly whatever happens to it
            self._post(logger.error, f"reading stopped: {first_line(exc)}")
        finally:
            self._post(self._end, 0)

    def _post(self, call: Callable[..., Any], *args: Any) -> None:
        loop = self.loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(call, *args)
        except RuntimeError:            # the loop has closed: the server is ending
            pass

    # ---------------------------------------------------------------- on the event loop
    def _end(self, code: int) -> None:
        if self.ended is not None and not self.ended.done():
            self.ended.set_result(code)

    def _answer(self, ident: int | str | None, code: int, message: str) -> None:
        if self.writer is None:
            return
        body = json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}})
        data = body.encode("utf-8")
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)

    def _refuse(self, refusal: wire.Refusal) -> None:
        logger.warning("%s", refusal.message + ("; answered with an error" if refusal.answered else ""))
        if refusal.answered:
            self._answer(refusal.id, refusal.code, refusal.message)

    def _deliver(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        request = method is not None and "id" in message
        ident = message.get("id")
        if method is None:
            self._deliver_answer(message)
            return
        if method == T.EXIT:
            self._exit(message, request)
            return
        if request and self.shut_down:
            self._answer(ident, wire.INVALID_REQUEST, f"{method}: the server is shutting down")
            return
        if request and method == T.INITIALIZE and self.initialized:
            self._answer(ident, wire.INVALID_REQUEST, "initialize came twice")
            return
        if request and not self.initialized and method != T.INITIALIZE:
            self._answer(ident, wire.NOT_INITIALIZED, f"{method}: the server is not initialized yet")
            return
        if not request and (self.shut_down or not self.initialized):
            logger.warning("%s %s: ignored", method, "after shutdown" if self.shut_down else "before initialize")
            return
        try:
            structured = self._structured(message, method, request)
            if method.startswith("textDocument/") and method != T.TEXT_DOCUMENT_DID_OPEN:
                self._check_open(structured)
        except Unfit as exc:
            text = f"{method}: {exc}"
            if request:
                self._answer(ident, exc.code, text)
            logger.warning("%s", text + ("; answered with an error" if request else "; ignored"))
            return
        if method == T.INITIALIZE:
            self.initialized = True
        elif method == T.SHUTDOWN:
            self.shut_down = True
        self._handle(structured, ident if request else None, method)

    def _handle(self, structured: Any, ident: int | str | None, method: str) -> None:
        try:
            self.protocol.handle_message(structured)
        except Exception as exc:       # pygls answers its handlers' errors; this is for its own
            logger.error("%s: %s", method, first_line(exc))
            if ident is not None:
                self._answer(ident, wire.INTERNAL_ERROR, f"{method}: {first_line(exc)}")

    def _structured(self, message: dict[str, Any], method: str, request: bool) -> Any:
        """The message as pygls's protocol takes it (lsprotocol's types), or Unfit saying what is
        wrong with it."""
        kind = self.protocol.get_message_type(method)
        if kind is None:
            kind = JsonRPCRequestMessage if request else JsonRPCNotification
            message = {"params": None, **message}
        elif request != ("id" in attrs.fields_dict(kind)):
            raise Unfit("it is a request: it needs an id" if not request else "it is a notification: it takes no id",
                        wire.INVALID_REQUEST)
        try:
            return self.converter.structure(message, kind)
        except cattrs.ClassValidationError as exc:
            raise Unfit("; ".join(cattrs.transform_error(exc, path="message")[:3])) from None
        except Exception as exc:
            raise Unfit(f"the params cannot be read ({first_line(exc)})") from None

    def _check_open(self, structured: Any) -> None:
        document = getattr(getattr(structured, "params", None), "text_document", None)
        uri = getattr(document, "uri", None)
        if isinstance(uri, str) and unquote(uri) not in self.server.workspace.text_documents:
            raise Unfit(f"{uri[:200]} is not open (textDocument/didOpen comes first)")

    def _deliver_answer(self, message: dict[str, Any]) -> None:
        try:
            structured = self.protocol.structure_message(message)
        except JsonRpcException as exc:
            logger.warning("an answer from the editor cannot be read: %s", exc.message)
            return
        self._handle(structured, None, "an answer")

    def _exit(self, message: dict[str, Any], request: bool) -> None:
        if not self.shut_down:
            logger.warning("exit came before shutdown: the server ends with code 1, as the protocol says")
        if request:             # exit is a notification; an editor that waits for an answer gets one
            assert self.writer is not None
            data = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}).encode("utf-8")
            self.writer.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.code = 0 if self.shut_down else 1
        self._end(self.code)
