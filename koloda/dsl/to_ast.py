"""Parse koloda text with grammar.lark and turn Lark trees into AST nodes.

lark.Tree never leaves this module: callers get frozen `koloda.dsl.ast` nodes
or a RuleError that points into the rule file.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta, Tree

from koloda.dsl import ast
from koloda.dsl.errors import RuleError, Span
from koloda.dsl.grammar_cache import cached_parser
from koloda.dsl.limits import MAX_EXPRESSION_DEPTH, MAX_NUMBER

START_RULES = ("expr_start", "effect_start", "binding_start", "signature_start")
# Distinct texts whose parse trees are kept: far more than any rule file holds, few enough that
# a long run over many files (a fuzz run, a test suite) keeps memory in bounds.
TREES_KEPT = 4096


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """Built when the first text is parsed, once per process (its tables from the cache folder)."""
    grammar = resources.files("koloda.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return cached_parser(grammar, parser="lalr", start=list(START_RULES), propagate_positions=True,
                         maybe_placeholders=True)


# Tokens shown to users in "expected ..." messages, by Lark's terminal names.
_TOKEN_WORDS = {
    "LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "COMMA": ",", "DOT": ".",
    "COLON": ":", "NAME": "a name", "NUMBER": "a number", "STRING": "a string",
    "COMP_OP": "a comparison", "ADD_OP": "+ or -", "MUL_OP": "*, /, // or %",
    "ASSIGN_OP": "= or +=", "MINUS": "-", "$END": "the end of the text", "EQUAL": "=",
    "CHECK_EVENTS": "check events", "FACE": "face up or face down", "_MOVE": "move", "_MELD": "meld",
    "_APPEND": "append", "_REMOVE": "remove",
}


def _word(terminal: str) -> str:
    if terminal in _TOKEN_WORDS:
        return _TOKEN_WORDS[terminal]
    return terminal.lower() if terminal.isupper() else terminal


@v_args(meta=True)
class _Builder(Transformer[Token, ast.Node]):
    """Lark tree -> AST; spans are computed relative to the YAML string.

    `v_args(meta=True)` on the class gives every callback (meta, items), even those that need no span."""

    def __init__(self, origin: Span, text: str):
        super().__init__()
        self.origin = origin
        self.text = text
        self.locate = locator(origin, text)

    def _span(self, meta: Meta) -> Span:
        if getattr(meta, "empty", True):
            return self.origin
        return self.locate(meta.line, meta.column, meta.end_column if meta.end_line == meta.line else None)

    def _tspan(self, tok: Token) -> Span:
        assert tok.line is not None and tok.column is not None    # lark's lexer places every token
        return self.locate(tok.line, tok.column, tok.end_column)

    # start rules just unwrap
    def expr_start(self, meta: Meta, items: list[Any]) -> ast.Node:
        return items[0]

    effect_start = expr_start

    def binding(self, meta: Meta, items: list[Any]) -> ast.Binding:
        return ast.Binding(self._span(meta), str(items[0]), items[1])

    def signature(self, meta: Meta, items: list[Any]) -> ast.Signature:
        params = tuple(p for p in items[1:] if p is not None)
        return ast.Signature(self._span(meta), str(items[0]), params)

    def param(self, meta: Meta, items: list[Any]) -> ast.Param:
        return ast.Param(self._span(meta), str(items[1]), items[0])

    def type_name(self, meta: Meta, items: list[Any]) -> str:
        return str(items[0])

    # ---------------------------------------------------------- expressions
    def number(self, meta: Meta, items: list[Any]) -> ast.Number:
        digits = str(items[0])
        if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
            raise RuleError(f"numbers in a rule file are at most {MAX_NUMBER:,}", self._span(meta), category="limit")
        return ast.Number(self._span(meta), int(digits))

    def string(self, meta: Meta, items: list[Any]) -> ast.String:
        return ast.String(self._span(meta), str(items[0])[1:-1])

    def name(self, meta: Meta, items: list[Any]) -> ast.Name:
        return ast.Name(self._span(meta), str(items[0]))

    def my(self, meta: Meta, items: list[Any]) -> ast.My:
        return ast.My(self._span(meta), str(items[0]))

    def attr(self, meta: Meta, items: list[Any]) -> ast.Attr:
        return ast.Attr(self._tspan(items[1]), items[0], str(items[1]))

    def index(self, meta: Meta, items: list[Any]) -> ast.Index:
        return ast.Index(self._span(meta), items[0], items[1])

    def call(self, meta: Meta, items: list[Any]) -> ast.Call:
        args = tuple(a for a in items[1:] if a is not None)
        return ast.Call(self._tspan(items[0]), str(items[0]), args)

    def aggregate(self, meta: Meta, items: list[Any]) -> ast.Aggregate:
        func, elem, *clauses = items
        if len(clauses) == 1:
            var, iterable, cond = clauses[0]
            return ast.Aggregate(self._tspan(func), str(func), elem, str(var), iterable, cond)
        # `sum(v for a in X for b in Y)` folds the one list the clauses make: `[v for a in X for b in Y]`
        span = self._span(meta)
        item = ast.Name(elem.span, ast.ITEM)
        return ast.Aggregate(self._tspan(func), str(func), item, ast.ITEM, _nested(span, elem, clauses), None)

    def list_(self, meta: Meta, items: list[Any]) -> ast.ListLit:
        return ast.ListLit(self._span(meta), tuple(i for i in items if i is not None))

    def listcomp(self, meta: Meta, items: list[Any]) -> ast.Node:
        elem, *clauses = items
        return _nested(self._span(meta), elem, clauses)

    def for_clause(self, meta: Meta, items: list[Any]) -> Any:
        var, iterable, cond = items
        return str(var), iterable, cond

    def arith(self, meta: Meta, items: list[Any]) -> ast.Arith:
        return ast.Arith(self._tspan(items[1]), str(items[1]), items[0], items[2])

    def compare(self, meta: Meta, items: list[Any]) -> ast.Compare:
        return ast.Compare(self._tspan(items[1]), str(items[1]), items[0], items[2])

    def in_(self, meta: Meta, items: list[Any]) -> ast.In:
        return ast.In(self._span(meta), items[0], items[1], False)

    def not_in(self, meta: Meta, items: list[Any]) -> ast.In:
        return ast.In(self._span(meta), items[0], items[1], True)

    def range_(self, meta: Meta, items: list[Any]) -> ast.Range:
        return ast.Range(self._span(meta), items[0], items[1], items[2] if len(items) > 2 else None)

    def and_(self, meta: Meta, items: list[Any]) -> ast.And:
        return ast.And(self._span(meta), items[0], items[1])

    def or_(self, meta: Meta, items: list[Any]) -> ast.Or:
        return ast.Or(self._span(meta), items[0], items[1])

    def not_(self, meta: Meta, items: list[Any]) -> ast.Not:
        return ast.Not(self._span(meta), items[0])

    def neg(self, meta: Meta, items: list[Any]) -> ast.Neg:
        return ast.Neg(self._span(meta), items[0])

    def ifelse(self, meta: Meta, items: list[Any]) -> ast.IfElse:
        return ast.IfElse(self._span(meta), items[0], items[1], items[2])

    def seat_order(self, meta: Meta, items: list[Any]) -> ast.SeatOrder:
        base = str(items[0])
        if base not in ("players", "others"):
            raise RuleError(f"`{base} from …` means nothing: `from` follows `players` or `others`",
                            self._tspan(items[0]), "`players from dealer`: every player in the order of play, "
                            "the dealer first; `others from dealer`: the same without the dealer", category="syntax")
        return ast.SeatOrder(self._span(meta), base, items[1])

    # ---------------------------------------------------------- effects
    def move(self, meta: Meta, items: list[Any]) -> ast.Move:
        face = items[2]
        return ast.Move(self._span(meta), items[0], items[1], face is not None and str(face).endswith("down"))

    def move_under(self, meta: Meta, items: list[Any]) -> ast.Move:
        return ast.Move(self._span(meta), items[0], items[1], False, True)

    def meld(self, meta: Meta, items: list[Any]) -> ast.Meld:
        return ast.Meld(self._span(meta), items[0])

    def shuffle(self, meta: Meta, items: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(self._span(meta), items[0])

    def deal(self, meta: Meta, items: list[Any]) -> ast.Deal:
        return ast.Deal(self._span(meta), items[0], str(items[1]), items[2])

    def gather(self, meta: Meta, items: list[Any]) -> ast.Gather:
        return ast.Gather(self._span(meta), items[0])

    def assign(self, meta: Meta, items: list[Any]) -> ast.Assign:
        return ast.Assign(self._span(meta), items[0], str(items[1]), items[2])

    def append(self, meta: Meta, items: list[Any]) -> ast.Assign:
        return ast.Assign(self._span(meta), items[1], "append", items[0])

    def remove(self, meta: Meta, items: list[Any]) -> ast.Assign:
        return ast.Assign(self._span(meta), items[1], "remove", items[0])

    def target_item(self, meta: Meta, items: list[Any]) -> ast.TargetItem:
        return ast.TargetItem(self._span(meta), ast.as_target(items[0]) or items[0], items[1])

    def target_var(self, meta: Meta, items: list[Any]) -> ast.TargetVar:
        return ast.TargetVar(self._span(meta), str(items[0]))

    def target_attr(self, meta: Meta, items: list[Any]) -> ast.TargetAttr:
        return ast.TargetAttr(self._tspan(items[1]), items[0], str(items[1]))

    def target_my(self, meta: Meta, items: list[Any]) -> ast.TargetAttr:
        span = self._span(meta)
        return ast.TargetAttr(span, ast.Name(span, "me"), str(items[0]))

    def let(self, meta: Meta, items: list[Any]) -> ast.Let:
        return ast.Let(self._span(meta), str(items[0]), items[1])

    def goto(self, meta: Meta, items: list[Any]) -> ast.Goto:
        return ast.Goto(self._tspan(items[0]), str(items[0]))

    def turn_to(self, meta: Meta, items: list[Any]) -> ast.TurnTo:
        return ast.TurnTo(self._span(meta), items[0])

    def skip(self, meta: Meta, items: list[Any]) -> ast.Skip:
        return ast.Skip(self._span(meta), items[0])

    def ask(self, meta: Meta, items: list[Any]) -> ast.Ask:
        return ast.Ask(self._span(meta), items[0], str(items[1]))

    def ask_window(self, meta: Meta, items: list[Any]) -> ast.AskWindow:
        return ast.AskWindow(self._span(meta), items[0], str(items[1]), str(items[2]), self._tspan(items[2]),
                             items[3])

    def end_deal(self, meta: Meta, items: list[Any]) -> ast.EndDeal:
        return ast.EndDeal(self._span(meta))

    def end_turn(self, meta: Meta, items: list[Any]) -> ast.EndTurn:
        return ast.EndTurn(self._span(meta))

    def say(self, meta: Meta, items: list[Any]) -> ast.Say:
        parts, values = self._braces(items[0])
        return ast.Say(self._span(meta), parts, values, _audience(items[1]))

    def reveal(self, meta: Meta, items: list[Any]) -> ast.Reveal:
        return ast.Reveal(self._span(meta), items[0], _audience(items[1]))

    def tell(self, meta: Meta, items: list[Any]) -> ast.Tell:
        return ast.Tell(self._span(meta), _audience(items[0]), items[1], items[2] is None, items[3])

    def reverse_direction(self, meta: Meta, items: list[Any]) -> ast.ReverseDirection:
        if str(items[0]) != "reverse":
            raise RuleError(f"unknown effect `{items[0]} direction`", self._span(meta),
                            "the direction of play is turned round with `reverse direction`", category="syntax")
        return ast.ReverseDirection(self._span(meta))

    def _braces(self, tok: Token) -> tuple[tuple[str, ...], tuple[ast.Node, ...]]:
        """A quoted text with `{expr}` values: its text parts and its values, each value parsed
        and placed in the file where it is written (`{{` and `}}` stand for braces)."""
        text = str(tok)[1:-1]
        assert tok.line is not None and tok.column is not None
        parts: list[str] = []
        values: list[ast.Node] = []
        piece, i = "", 0
        while i < len(text):
            ch = text[i]
            if ch in "{}" and text[i + 1:i + 2] == ch:
                piece += ch
                i += 2
                continue
            if ch == "}":
                raise RuleError("a `}` with no `{` before it: write `}}` for a brace in the text",
                                self.locate(tok.line, tok.column + 1 + i, tok.column + 2 + i), category="syntax")
            if ch != "{":
                piece += ch
                i += 1
                continue
            end = text.find("}", i)
            if end < 0:
                raise RuleError("a `{` with no `}` after it: write `{{` for a brace in the text",
                                self.locate(tok.line, tok.column + 1 + i, tok.column + 2 + i), category="syntax")
            inner = text[i + 1:end]
            origin = self.locate(tok.line, tok.column + 2 + i, tok.column + 2 + end)
            parts.append(piece)
            values.append(parse(inner, "expr_start", origin))
            piece, i = "", end + 1
        parts.append(piece)
        return tuple(parts), tuple(values)

    def flip(self, meta: Meta, items: list[Any]) -> ast.Flip:
        return ast.Flip(self._span(meta), items[0], str(items[1]).endswith("up"))

    def perform(self, meta: Meta, items: list[Any]) -> ast.Perform:
        return ast.Perform(self._tspan(items[0]), str(items[0]), tuple(a for a in items[1:] if a is not None))

    def check_events(self, meta: Meta, items: list[Any]) -> ast.CheckEvents:
        return ast.CheckEvents(self._span(meta))


def _nested(span: Span, elem: ast.Node, clauses: list[tuple[str, ast.Node, ast.Node | None]]) -> ast.Node:
    """`[e for a in X if C for b in Y if D]`: each `for` after the first goes over its list once per item
    of the ones before, so the list is the outer comprehension's lists joined: Flatten([[e for b in Y if D]
    for a in X if C])."""
    var, iterable, cond = clauses[0]
    if len(clauses) == 1:
        return ast.ListComp(span, elem, var, iterable, cond)
    return ast.Flatten(span, ast.ListComp(span, _nested(span, elem, clauses[1:]), var, iterable, cond))


def _audience(node: ast.Node) -> ast.Node | None:
    """`to all`: every player (None); any other name or expression: the players it names."""
    return None if isinstance(node, ast.Name) and node.name == "all" else node


def locator(origin: Span, text: str) -> Callable[[int, int, int | None], Span]:
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
        tree, too_deep = _tree(str(text), start)
        if too_deep is not None:
            line, col = too_deep
            raise RuleError(f"this is nested more than {MAX_EXPRESSION_DEPTH} deep: write it in smaller parts "
                            "(a `define:` function, or a `let`)", locator(origin, text)(line, col, col + 1),
                            category="limit")
        return _Builder(origin, text).transform(tree)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, start, origin) from None
    except VisitError as exc:  # a bug in the builder, not in the rule file
        raise exc.orig_exc


class _Prefix(str):
    """The beginning of a rule-file string, placed as the string is (`segments`, see loader)."""
    segments: list[tuple[int, int, int]] | None


def guarded_binding(text: str, origin: Span, key: str) -> tuple[ast.Binding, RuleError] | None:
    """`c in my hand if c.rank == A` in a `with:` or `for:` (`key`): a binding with a condition after
    it, which a binding cannot hold (the parser reads `if` as the start of `A if C else B`). The
    binding, and the error that says where the condition goes, at the `if`; None when the text is
    not of that shape."""
    for m in re.finditer(r"\bif\b", text):
        head, guard = _Prefix(text[:m.start()].rstrip()), " ".join(text[m.end():].split())
        if not head.strip() or not guard:
            continue
        head.segments = getattr(text, "segments", None)
        try:
            node = parse(head, "binding_start", origin)
        except RuleError:
            continue
        if isinstance(node, ast.Binding):
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            at = locator(origin, text)(line, col, col + 2)
            return node, _guard_error(key, " ".join(head.split()), node.var, guard, at)
    return None


def _guard_error(key: str, head: str, var: str, guard: str, at: Span) -> RuleError:
    shown = guard if len(guard) <= 40 else guard[:39] + "…"
    if key == "with":
        return RuleError(f"`with:` takes no condition: it says only what `{var}` ranges over", at,
                         f"put the condition under the action's `if:`: `with: {head}` and, beside it, "
                         f"`if: {shown}`", category="syntax")
    return RuleError(f"`for:` takes no condition: it says only what `{var}` runs over", at,
                     f"run over the items that qualify, `for: {var} in [{var} for {head} if {shown}]`, or put "
                     "an `if:` effect under `do:`", category="syntax")


@lru_cache(maxsize=TREES_KEPT)
def _tree(text: str, start: str) -> tuple[Tree, tuple[int, int] | None]:
    """Lark's tree of a text, and where it is nested too deep (None if it is not).

    Kept per distinct text: the same condition or effect written twice, in one file or in the
    files a process loads, is parsed once. The tree holds positions within the text only; the
    builder places them in the file (and a syntax error is raised afresh each time)."""
    tree = _parser().parse(text, start=start)
    return tree, _too_deep(tree)


def _too_deep(tree: Tree) -> tuple[int, int] | None:
    """Where an expression is nested deeper than the checker, the compiler and play can follow.

    Measured without recursion (the tree may be thousands deep), before anything walks it."""
    depth_of: dict[int, int] = {}
    for subtree in tree.iter_subtrees():          # children come before their parents
        depth = 1 + max((depth_of[id(c)] for c in subtree.children if isinstance(c, Tree)), default=0)
        depth_of[id(subtree)] = depth
        if depth > MAX_EXPRESSION_DEPTH:
            meta = subtree.meta
            return (getattr(meta, "line", 1), getattr(meta, "column", 1)) if not meta.empty else (1, 1)
    return None


def _syntax_error(exc: UnexpectedInput, text: str, start: str, origin: Span) -> RuleError:
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        found = "end of the text"
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
