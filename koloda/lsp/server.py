"""`koloda lsp`: the language server, on pygls. It checks a rule file as it is typed and answers
completion, hover, go-to-definition and the outline from the checked file; the answers themselves
are worked out in the modules beside this one, which know nothing of the protocol; what arrives on
the pipe is read by connection.py. A check runs in a thread of its own, so that hover and completion
are answered while a long file is checked."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
import functools
from importlib.metadata import PackageNotFoundError, version
import logging
from pathlib import Path
import re
import sys
from urllib.parse import unquote
from typing import Any, BinaryIO, Callable, TypeVar

from lsprotocol import types as T
from pygls.exceptions import FeatureNotificationError, JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition as Spot, ServerTextRange as Stretch

from koloda.dsl import resolved as R
from koloda.dsl.errors import NOWHERE, RuleError
from koloda.dsl.loader import display_name
from koloda.dsl.model import Spec
from koloda.dsl.pipeline import TextCheck, check_text
from koloda.lsp import names as N
from koloda.lsp.connection import Connection, first_line, log_on_one_line
from koloda.lsp.complete import complete
from koloda.lsp.navigate import Symbol, definition, hover, symbols

_COMPLETION_KINDS = {
    N.ZONE_KIND: T.CompletionItemKind.Field, N.VARIABLE: T.CompletionItemKind.Variable,
    N.OPTION: T.CompletionItemKind.Property, N.FUNCTION: T.CompletionItemKind.Function,
    N.PROCEDURE: T.CompletionItemKind.Method, N.BUILTIN: T.CompletionItemKind.Function,
    N.STATE: T.CompletionItemKind.Variable, N.CONSTANT: T.CompletionItemKind.Constant,
    N.KEYWORD: T.CompletionItemKind.Keyword, N.ATTRIBUTE: T.CompletionItemKind.Property,
}
_SYMBOL_KINDS = {
    "phase": T.SymbolKind.Namespace, "action": T.SymbolKind.Method, "function": T.SymbolKind.Function,
    "procedure": T.SymbolKind.Function, "zone": T.SymbolKind.Field, "variable": T.SymbolKind.Variable,
    "option": T.SymbolKind.Property, "event": T.SymbolKind.Event,
}
_WORD_END = re.compile(r"\w*")
TYPING_PAUSE = 0.15     # seconds without a change before a changed text is checked
logger = logging.getLogger("koloda.lsp")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Checked:
    """The last check of a document: its Spec and rules are those of the last text that had them, so
    that completion keeps working while a line is half typed."""
    spec: Spec | None = None
    rules: R.Rules | None = None


class KolodaServer(LanguageServer):
    def __init__(self) -> None:
        try:
            own = version("koloda")
        except PackageNotFoundError:       # run from a source tree
            own = "0"
        self.converter = default_converter()
        super().__init__("koloda", own, converter_factory=lambda: self.converter)
        self.checked: dict[str, Checked] = {}
        self.wanted: dict[str, int | None] = {}          # the version of each document a check is due for
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="koloda-lsp-check")

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None,
                 stall: float | None = None) -> int:                     # type: ignore[override]
        """Serve over two streams (standard input and output) until `exit`; the exit code."""
        connection = Connection(self, self.converter) if stall is None else Connection(self, self.converter, stall)
        try:
            return connection.run(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        self.checker.shutdown(wait=False, cancel_futures=True)
        super().shutdown()

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls has logged a failed request already (on one line: connection.OneLine); a failed
        # notification it only reports here
        if source is FeatureNotificationError:
            logger.warning("%s", first_line(error))

    def document(self, uri: str) -> TextDocument:
        """An open document; asking of one the editor has not opened is an error of the request."""
        doc = self.open_document(uri)
        if doc is None:
            raise JsonRpcInvalidParams(f"{uri[:200]} is not open (textDocument/didOpen comes first)")
        return doc

    def open_document(self, uri: str) -> TextDocument | None:
        return self.workspace.text_documents.get(unquote(uri))

    async def check(self, uri: str) -> None:
        """Check the document's text in the checker's thread and publish what it finds, unless the
        text has changed meanwhile (its own check is then on its way)."""
        doc = self.open_document(uri)
        if doc is None:
            return
        checked_version, path, source = doc.version, doc.path, doc.source
        self.wanted[doc.uri] = checked_version
        result = await asyncio.get_running_loop().run_in_executor(
            self.checker, self._check_text, doc.uri, checked_version, path, source)
        if result is None or self.open_document(uri) is not doc or doc.version != checked_version:
            return
        self.publish(doc, source, result)

    def _check_text(self, uri: str, wanted: int | None, path: str, source: str) -> TextCheck | Exception | None:
        """In the checker's thread: the check of one text, or None if a later text is waiting."""
        if self.wanted.get(uri) != wanted:
            return None
        try:
            return check_text(str(Path(path)), source)
        except Exception as exc:          # shown as a diagnostic, for the user to report
            return exc

    def publish(self, doc: TextDocument, source: str, result: TextCheck | Exception) -> None:
        lines = source.split("\n")
        if isinstance(result, Exception):
            logger.error("the check of %s failed: %s", doc.uri, first_line(result))
            top = Stretch(Spot(0, 0), Spot(0, len(lines[0]) if lines else 0))
            failed = T.Diagnostic(doc.range_to_client_units(top), f"koloda could not check this text: "
                                  f"internal error ({first_line(result)})", severity=T.DiagnosticSeverity.Error,
                                  source="koloda")
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(doc.uri, [failed], doc.version))
            return
        last = self.checked.setdefault(doc.uri, Checked())
        if result.spec is not None:
            last.spec, last.rules = result.spec, result.rules
        own = display_name(Path(doc.path))
        diagnostics = [self.diagnostic(doc, lines, own, e, T.DiagnosticSeverity.Error) for e in result.errors]
        diagnostics += [self.diagnostic(doc, lines, own, w, T.DiagnosticSeverity.Warning) for w in result.warnings]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(doc.uri, diagnostics, doc.version))

    @staticmethod
    def diagnostic(doc: TextDocument, lines: list[str], own: str, error: RuleError,
                   severity: T.DiagnosticSeverity) -> T.Diagnostic:
        message = error.message + (f" ({error.hint})" if error.hint else "")
        span = error.span
        if span is NOWHERE or span.file != own or not 0 < span.line <= len(lines):
            # an error of the file it extends, or of no place: shown at the top, saying where it is
            if span is not NOWHERE:
                message = f"{span}: {message}"
            line, start, end = 0, 0, len(lines[0]) if lines else 0
        else:
            line, start = span.line - 1, max(span.col - 1, 0)
            text = lines[line]
            if span.end_col is not None and span.end_col > span.col:
                end = span.end_col - 1
            else:
                word = _WORD_END.match(text, start)
                end = word.end() if word and word.end() > start else min(start + 1, len(text))
        where = Stretch(Spot(line, start), Spot(line, max(end, start)))
        return T.Diagnostic(doc.range_to_client_units(where), message, severity=severity, code=error.category,
                            source="koloda")

    def at(self, uri: str, position: T.Position) -> tuple[TextDocument, list[str], int, int, Checked]:
        doc = self.document(uri)
        here = doc.position_from_client_units(position)
        return doc, doc.source.split("\n"), here.line, here.character, self.checked.get(uri) or Checked()


def answering(handler: F) -> F:
    """A request's handler whose unforeseen failure is answered as an internal error naming it, not
    with the traceback pygls would send."""
    @functools.wraps(handler)
    def guarded(ls: KolodaServer, params: Any) -> Any:
        try:
            return handler(ls, params)
        except JsonRpcException:
            raise
        except Exception as exc:
            raise JsonRpcInternalError(f"internal error ({first_line(exc)})") from None
    return guarded  # type: ignore[return-value]


async def did_open(ls: KolodaServer, params: T.DidOpenTextDocumentParams) -> None:
    await ls.check(params.text_document.uri)


async def did_change(ls: KolodaServer, params: T.DidChangeTextDocumentParams) -> None:
    # a check takes a tenth of a second or more on a long file: while keys are still being struck,
    # only the text they stop at is checked
    await asyncio.sleep(TYPING_PAUSE)
    doc = ls.open_document(params.text_document.uri)
    if doc is not None and doc.version == params.text_document.version:
        await ls.check(doc.uri)


async def did_save(ls: KolodaServer, params: T.DidSaveTextDocumentParams) -> None:
    await ls.check(params.text_document.uri)


def did_close(ls: KolodaServer, params: T.DidCloseTextDocumentParams) -> None:
    ls.checked.pop(params.text_document.uri, None)
    ls.wanted.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(params.text_document.uri, []))


@answering
def completion(ls: KolodaServer, params: T.CompletionParams) -> T.CompletionList:
    _, lines, line, col, last = ls.at(params.text_document.uri, params.position)
    items = [T.CompletionItem(n.name, kind=_COMPLETION_KINDS.get(n.kind), detail=n.detail,
                              documentation=n.doc or None, sort_text=f"{k:04d}")
             for k, n in enumerate(complete(lines, line, col, last.spec, last.rules))]
    return T.CompletionList(is_incomplete=False, items=items)


@answering
def on_hover(ls: KolodaServer, params: T.HoverParams) -> T.Hover | None:
    _, lines, line, col, last = ls.at(params.text_document.uri, params.position)
    text = hover(lines, line, col, last.spec, last.rules)
    if text is None:
        return None
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text))


@answering
def on_definition(ls: KolodaServer, params: T.DefinitionParams) -> T.Location | None:
    doc, lines, line, col, last = ls.at(params.text_document.uri, params.position)
    found = definition(lines, line, col, Path(doc.path), last.spec, last.rules)
    if found is None:
        return None
    path, at_line, at_col = found
    spot = T.Position(at_line, at_col)
    return T.Location(from_fs_path(str(path.resolve())) or path.as_uri(), T.Range(spot, spot))


@answering
def document_symbols(ls: KolodaServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    doc = ls.document(params.text_document.uri)
    last = ls.checked.get(doc.uri) or Checked()
    lines = doc.source.split("\n")

    def shown(s: Symbol) -> T.DocumentSymbol:
        last_line = max([s.line] + [c.line for c in s.children])     # a phase's range holds its actions
        end = len(lines[last_line]) if last_line < len(lines) else s.col
        whole = doc.range_to_client_units(Stretch(Spot(s.line, 0), Spot(last_line, end)))
        name = doc.range_to_client_units(Stretch(Spot(s.line, s.col), Spot(s.line, s.col + len(s.name))))
        return T.DocumentSymbol(s.name, _SYMBOL_KINDS[s.kind], whole, name, detail=s.detail or s.kind,
                                children=[shown(c) for c in s.children] or None)
    return [shown(s) for s in symbols(last.spec, Path(doc.path))]


_FEATURES: list[tuple[str, Any, Callable[..., Any]]] = [
    (T.TEXT_DOCUMENT_DID_OPEN, None, did_open),
    (T.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
    (T.TEXT_DOCUMENT_DID_SAVE, None, did_save),
    (T.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
    (T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", " "]), completion),
    (T.TEXT_DOCUMENT_HOVER, None, on_hover),
    (T.TEXT_DOCUMENT_DEFINITION, None, on_definition),
    (T.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, document_symbols),
]


def build() -> KolodaServer:
    """A server with koloda's features, not yet serving."""
    made = KolodaServer()
    for name, options, handler in _FEATURES:
        made.feature(name, options)(handler)
    return made


def serve() -> None:
    """Speak the protocol over standard input and output until the editor says exit."""
    log_on_one_line()
    code = build().start_io()
    if code:
        raise SystemExit(code)
