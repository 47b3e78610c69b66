"""`koloda lsp`: the language server, on pygls. It checks a rule file as it is typed and answers
completion, hover, go-to-definition and the outline from the checked file; the answers themselves
are worked out in the modules beside this one, which know nothing of the protocol."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
import re

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition as Spot, ServerTextRange as Stretch

from koloda.dsl import resolved as R
from koloda.dsl.errors import NOWHERE, RuleError
from koloda.dsl.loader import display_name
from koloda.dsl.model import Spec
from koloda.dsl.pipeline import check_text
from koloda.lsp import names as N
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
        super().__init__("koloda", own)
        self.checked: dict[str, Checked] = {}

    def check(self, doc: TextDocument) -> None:
        path = Path(doc.path)
        result = check_text(str(path), doc.source)
        last = self.checked.setdefault(doc.uri, Checked())
        if result.spec is not None:
            last.spec, last.rules = result.spec, result.rules
        own = display_name(path)
        lines = doc.source.split("\n")
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
        doc = self.workspace.get_text_document(uri)
        here = doc.position_from_client_units(position)
        return doc, doc.source.split("\n"), here.line, here.character, self.checked.get(uri) or Checked()


server = KolodaServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: KolodaServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.check(ls.workspace.get_text_document(params.text_document.uri))


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: KolodaServer, params: T.DidChangeTextDocumentParams) -> None:
    # a check takes a tenth of a second or more on a long file: while keys are still being struck,
    # only the text they stop at is checked
    await asyncio.sleep(TYPING_PAUSE)
    doc = ls.workspace.get_text_document(params.text_document.uri)
    if doc.version == params.text_document.version:
        ls.check(doc)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KolodaServer, params: T.DidSaveTextDocumentParams) -> None:
    ls.check(ls.workspace.get_text_document(params.text_document.uri))


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KolodaServer, params: T.DidCloseTextDocumentParams) -> None:
    ls.checked.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(params.text_document.uri, []))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", " "]))
def completion(ls: KolodaServer, params: T.CompletionParams) -> T.CompletionList:
    _, lines, line, col, last = ls.at(params.text_document.uri, params.position)
    items = [T.CompletionItem(n.name, kind=_COMPLETION_KINDS.get(n.kind), detail=n.detail,
                              documentation=n.doc or None, sort_text=f"{k:04d}")
             for k, n in enumerate(complete(lines, line, col, last.spec, last.rules))]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def on_hover(ls: KolodaServer, params: T.HoverParams) -> T.Hover | None:
    _, lines, line, col, last = ls.at(params.text_document.uri, params.position)
    text = hover(lines, line, col, last.spec, last.rules)
    if text is None:
        return None
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: KolodaServer, params: T.DefinitionParams) -> T.Location | None:
    doc, lines, line, col, last = ls.at(params.text_document.uri, params.position)
    found = definition(lines, line, col, Path(doc.path), last.spec, last.rules)
    if found is None:
        return None
    path, at_line, at_col = found
    spot = T.Position(at_line, at_col)
    return T.Location(from_fs_path(str(path.resolve())) or path.as_uri(), T.Range(spot, spot))


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: KolodaServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    doc = ls.workspace.get_text_document(params.text_document.uri)
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


def serve() -> None:
    """Speak the protocol over standard input and output until the editor says exit."""
    server.start_io()
