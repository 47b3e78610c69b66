"""Parse koloda text with grammar.lark and turn Lark trees into AST nodes.

lark.Tree never leaves this module: callers get frozen `koloda.dsl.ast` nodes
or a RuleError that points into the rule file.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from koloda.dsl import ast
from koloda.dsl.errors import RuleError, Span

START_RULES = ("expr_start", "effect_start", "binding_start", "signature_start")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("koloda.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", start=list(START_RULES), propagate_positions=True,
                maybe_placeholders=True)


# Tokens shown to users in "expected ..." messages, by Lark's terminal names.
_TOKEN_WORDS = {
    "LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "COMMA": ",", "DOT": ".",
    "COLON": ":", "NAME": "a name", "NUMBER": "a number", "STRING": "a string",
    "COMP_OP": "a comparison", "ADD_OP": "+ or -", "MUL_OP": "*, // or %",
    "ASSIGN_OP": "= or +=", "MINUS": "-", "$END": "the end of the text", "EQUAL": "=",
}


def _word(terminal: str) -> str:
    if terminal in _TOKEN_WORDS:
        return _TOKEN_WORDS[terminal]
    return terminal.lower() if terminal.isupper() else terminal


class _Builder(Transformer):
    """Lark tree -> AST; spans are computed relative to the YAML string."""

    def __init__(self, origin: Span, text: str):
        super().__init__()
        self.origin = origin
        self.text = text
        self.locate = locator(origin, text)

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.origin
        return self.locate(meta.line, meta.column, meta.end_column if meta.end_line == meta.line else None)

    def _tspan(self, tok: Token) -> Span:
        return self.locate(tok.line, tok.column, tok.end_column)

    # start rules just unwrap
    def expr_start(self, items):
        return items[0]

    effect_start = expr_start

    @v_args(meta=True)
    def binding(self, meta, items):
        return ast.Binding(self._span(meta), str(items[0]), items[1])

    @v_args(meta=True)
    def signature(self, meta, items):
        params = tuple(p for p in items[1:] if p is not None)
        return ast.Signature(self._span(meta), str(items[0]), params)

    @v_args(meta=True)
    def param(self, meta, items):
        return ast.Param(self._span(meta), str(items[1]), items[0])

    def type_name(self, items):
        return str(items[0])

    # ---------------------------------------------------------- expressions
    @v_args(meta=True)
    def number(self, meta, items):
        return ast.Number(self._span(meta), int(items[0]))

    @v_args(meta=True)
    def string(self, meta, items):
        return ast.String(self._span(meta), str(items[0])[1:-1])

    @v_args(meta=True)
    def name(self, meta, items):
        return ast.Name(self._span(meta), str(items[0]))

    @v_args(meta=True)
    def my(self, meta, items):
        return ast.My(self._span(meta), str(items[0]))

    @v_args(meta=True)
    def attr(self, meta, items):
        return ast.Attr(self._tspan(items[1]), items[0], str(items[1]))

    @v_args(meta=True)
    def index(self, meta, items):
        return ast.Index(self._span(meta), items[0], items[1])

    @v_args(meta=True)
    def call(self, meta, items):
        args = tuple(a for a in items[1:] if a is not None)
        return ast.Call(self._tspan(items[0]), str(items[0]), args)

    @v_args(meta=True)
    def aggregate(self, meta, items):
        func, elem, var, iterable, cond = items
        return ast.Aggregate(self._tspan(func), str(func), elem, str(var), iterable, cond)

    @v_args(meta=True)
    def list_(self, meta, items):
        return ast.ListLit(self._span(meta), tuple(i for i in items if i is not None))

    @v_args(meta=True)
    def listcomp(self, meta, items):
        elem, var, iterable, cond = items
        return ast.ListComp(self._span(meta), elem, str(var), iterable, cond)

    @v_args(meta=True)
    def arith(self, meta, items):
        return ast.Arith(self._tspan(items[1]), str(items[1]), items[0], items[2])

    @v_args(meta=True)
    def compare(self, meta, items):
        return ast.Compare(self._tspan(items[1]), str(items[1]), items[0], items[2])

    @v_args(meta=True)
    def in_(self, meta, items):
        return ast.In(self._span(meta), items[0], items[1], False)

    @v_args(meta=True)
    def not_in(self, meta, items):
        return ast.In(self._span(meta), items[0], items[1], True)

    @v_args(meta=True)
    def range_(self, meta, items):
        return ast.Range(self._span(meta), items[0], items[1])

    @v_args(meta=True)
    def and_(self, meta, items):
        return ast.And(self._span(meta), items[0], items[1])

    @v_args(meta=True)
    def or_(self, meta, items):
        return ast.Or(self._span(meta), items[0], items[1])

    @v_args(meta=True)
    def not_(self, meta, items):
        return ast.Not(self._span(meta), items[0])

    @v_args(meta=True)
    def neg(self, meta, items):
        return ast.Neg(self._span(meta), items[0])

    @v_args(meta=True)
    def ifelse(self, meta, items):
        return ast.IfElse(self._span(meta), items[0], items[1], items[2])

    # ---------------------------------------------------------- effects
    @v_args(meta=True)
    def move(self, meta, items):
        face = items[2]
        return ast.Move(self._span(meta), items[0], items[1], face is not None and str(face).endswith("down"))

    @v_args(meta=True)
    def move_under(self, meta, items):
        return ast.Move(self._span(meta), items[0], items[1], False, True)

    @v_args(meta=True)
    def meld(self, meta, items):
        return ast.Meld(self._span(meta), items[0])

    @v_args(meta=True)
    def shuffle(self, meta, items):
        return ast.Shuffle(self._span(meta), items[0])

    @v_args(meta=True)
    def deal(self, meta, items):
        return ast.Deal(self._span(meta), items[0], str(items[1]), items[2])

    @v_args(meta=True)
    def gather(self, meta, items):
        return ast.Gather(self._span(meta), items[0])

    @v_args(meta=True)
    def assign(self, meta, items):
        return ast.Assign(self._span(meta), items[0], str(items[1]), items[2])

    @v_args(meta=True)
    def target_var(self, meta, items):
        return ast.TargetVar(self._span(meta), str(items[0]))

    @v_args(meta=True)
    def target_attr(self, meta, items):
        return ast.TargetAttr(self._tspan(items[1]), items[0], str(items[1]))

    @v_args(meta=True)
    def target_my(self, meta, items):
        span = self._span(meta)
        return ast.TargetAttr(span, ast.Name(span, "me"), str(items[0]))

    @v_args(meta=True)
    def let(self, meta, items):
        return ast.Let(self._span(meta), str(items[0]), items[1])

    @v_args(meta=True)
    def goto(self, meta, items):
        return ast.Goto(self._tspan(items[0]), str(items[0]))

    @v_args(meta=True)
    def turn_to(self, meta, items):
        return ast.TurnTo(self._span(meta), items[0])

    @v_args(meta=True)
    def skip(self, meta, items):
        return ast.Skip(self._span(meta), items[0])

    @v_args(meta=True)
    def ask(self, meta, items):
        return ast.Ask(self._span(meta), items[0], str(items[1]))

    @v_args(meta=True)
    def end_deal(self, meta, items):
        return ast.EndDeal(self._span(meta))

    @v_args(meta=True)
    def end_turn(self, meta, items):
        return ast.EndTurn(self._span(meta))


def locator(origin: Span, text: str):
    """(line, column) inside a rule-file string -> a Span in the file."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    # text that did not come from a file: later lines start at column 1 of the following lines
    segments = getattr(text, "segments", None) or \
        [(0, origin.line, origin.col)] + [(start, origin.line + k, 1) for k, start in enumerate(starts[1:], 1)]

    def locate(line: int, col: int, end_col: int | None = None) -> Span:
        offset = starts[min(line, len(starts)) - 1] + col - 1
        seg_offset, seg_line, seg_col = segments[0]
        for seg in segments:
            if seg[0] <= offset:
                seg_offset, seg_line, seg_col = seg
        at = seg_col + offset - seg_offset
        return Span(origin.file, seg_line, at, None if end_col is None else at + end_col - col)
    return locate


_WHAT = {"expr_start": "expression", "effect_start": "effect",
         "binding_start": "binding such as `c in my hand`",
         "signature_start": "function head such as `playable(card c)`"}


def parse(text: str, start: str, origin: Span) -> ast.Node:
    """Parse `text` (one YAML string) as `start`; raise RuleError on bad syntax."""
    if not isinstance(text, str) or not text.strip():
        article = "an" if _WHAT[start][0] in "aeiou" else "a"
        raise RuleError(f"expected {article} {_WHAT[start]}, found {'nothing' if not text else repr(text)}",
                        origin, category="syntax")
    try:
        tree = _parser().parse(text, start=start)
        return _Builder(origin, text).transform(tree)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, start, origin) from None
    except VisitError as exc:  # a bug in the builder, not in the rule file
        raise exc.orig_exc


def _syntax_error(exc: UnexpectedInput, text: str, start: str, origin: Span) -> RuleError:
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        found = "the end of the text"
    elif isinstance(exc, UnexpectedToken):
        found = f"`{exc.token}`"
    elif isinstance(exc, UnexpectedCharacters):
        found = f"`{text.splitlines()[line - 1][col - 1]}`"
    else:
        found = "this"
    expected = sorted({_word(t) for t in (getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
                       if not t.startswith("__")})
    message = f"syntax error in {_WHAT[start]}: unexpected {found}"
    hint = None
    if expected and len(expected) <= 8:
        hint = "expected " + ", ".join(expected)
    return RuleError(message, locator(origin, text)(line, col, col + 1), hint, category="syntax")
