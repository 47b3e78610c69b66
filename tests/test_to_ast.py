"""koloda.dsl.to_ast: every start rule, spans, syntax errors."""
from __future__ import annotations

import pytest

from koloda.dsl import ast
from koloda.dsl.errors import RuleError, Span
from koloda.dsl.to_ast import parse

ORIGIN = Span("rules.yaml", 10, 5)


def p(text, start="expr_start", origin=ORIGIN):
    return parse(text, start, origin)


def syntax_error(text, start="expr_start", origin=ORIGIN) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse(text, start, origin)
    assert info.value.category == "syntax"
    return info.value


# ------------------------------------------------------------------ start rules
def test_expr_start():
    node = p("1 + 2 * 3")
    assert isinstance(node, ast.Arith) and node.op == "+"
    assert isinstance(node.left, ast.Number) and node.left.value == 1
    assert isinstance(node.right, ast.Arith) and node.right.op == "*"


def test_effect_start():
    node = p("move pile.top to my hand", "effect_start")
    assert isinstance(node, ast.Move)
    assert isinstance(node.what, ast.Attr) and node.what.name == "top"
    assert isinstance(node.dest, ast.My) and node.dest.name == "hand"


def test_binding_start():
    node = p("c in my hand", "binding_start")
    assert isinstance(node, ast.Binding)
    assert node.var == "c" and isinstance(node.domain, ast.My)


def test_binding_over_a_range():
    node = p("n in 0..cards", "binding_start")
    assert isinstance(node.domain, ast.Range)


def test_signature_start():
    node = p("playable(card c, int n)", "signature_start")
    assert isinstance(node, ast.Signature) and node.name == "playable"
    assert [(x.type, x.name) for x in node.params] == [("card", "c"), ("int", "n")]


def test_signature_without_params():
    node = p("finished()", "signature_start")
    assert node.name == "finished" and node.params == ()


@pytest.mark.parametrize("text,cls", [
    ("shuffle stock", ast.Shuffle),
    ("deal 5 to each hand", ast.Deal),
    ("gather into stock", ast.Gather),
    ("score += 1", ast.Assign),
    ("p.score = 0", ast.Assign),
    ("my drawn = none", ast.Assign),
    ("let w = winner(trick, trump)", ast.Let),
    ("goto name", ast.Goto),
    ("turn to w", ast.TurnTo),
    ("skip next(me)", ast.Skip),
    ("end deal", ast.EndDeal),
    ("end turn", ast.EndTurn),
])
def test_every_effect(text, cls):
    assert isinstance(p(text, "effect_start"), cls)


def test_deal_from():
    node = p("deal 2 to each hand from pile", "effect_start")
    assert node.family == "hand" and isinstance(node.source, ast.Name) and node.source.name == "pile"
    assert p("deal 2 to each hand", "effect_start").source is None


def test_assign_targets():
    assert isinstance(p("x = 1", "effect_start").target, ast.TargetVar)
    mine = p("my x -= 1", "effect_start")
    assert mine.op == "-=" and isinstance(mine.target, ast.TargetAttr)
    assert isinstance(mine.target.obj, ast.Name) and mine.target.obj.name == "me"
    other = p("next(me).x *= 2", "effect_start")
    assert other.op == "*=" and isinstance(other.target.obj, ast.Call)


@pytest.mark.parametrize("text,cls", [
    ("'s'", ast.String), ("x", ast.Name), ("my hand", ast.My), ("a.b", ast.Attr), ("l[0]", ast.Index),
    ("f(1, 2)", ast.Call), ("sum(x for x in l if x > 1)", ast.Aggregate), ("[1, 2]", ast.ListLit),
    ("[x for x in l]", ast.ListComp), ("a < b", ast.Compare), ("a in b", ast.In), ("1..3", ast.Range),
    ("a and b", ast.And), ("a or b", ast.Or), ("not a", ast.Not), ("-a", ast.Neg),
    ("a if b else c", ast.IfElse),
])
def test_every_expression(text, cls):
    assert isinstance(p(text), cls)


def test_not_in_is_a_negated_in():
    node = p("a not in b")
    assert isinstance(node, ast.In) and node.negated
    assert not p("a in b").negated


def test_ifelse_fields():
    node = p("1 if c else 2")
    assert node.then.value == 1 and node.cond.name == "c" and node.orelse.value == 2


def test_aggregate_fields():
    node = p("count(c for c in pile if c.rank == A)")
    assert node.func == "count" and node.var == "c" and node.cond is not None
    assert p("sum(x for x in l)").cond is None


def test_strings_lose_their_quotes():
    assert p('"ab"').value == "ab"
    assert p("'ab'").value == "ab"


def test_precedence():
    node = p("not a == b or c and d")
    assert isinstance(node, ast.Or)
    assert isinstance(node.left, ast.Not) and isinstance(node.left.operand, ast.Compare)
    assert isinstance(node.right, ast.And)


# ------------------------------------------------------------------ spans
def test_spans_are_relative_to_the_origin():
    node = p("count + missing")
    assert node.span.file == "rules.yaml"
    assert node.span.line == 10
    # the operator token of `+` sits at column 7 of the text
    assert node.span.col == 5 + 7 - 1
    assert node.right.span.col == 5 + 9 - 1
    assert node.right.span.end_col == 5 + 16 - 1


def test_call_span_is_the_function_name():
    node = p("x + foo(1)")
    assert isinstance(node.right, ast.Call)
    assert node.right.span.col == ORIGIN.col + 4


def test_attr_span_is_the_attribute_name():
    node = p("pile.frob")
    assert node.span.col == ORIGIN.col + 5


def test_multi_line_text_moves_down():
    node = p("a and\n  bee", origin=Span("f", 3, 9))
    assert node.right.span.line == 4
    assert node.right.span.col == 3


# ------------------------------------------------------------------ syntax errors
def test_unexpected_token_is_located_and_lists_what_was_expected():
    err = syntax_error("1 + + 2")
    assert "unexpected `+`" in err.message
    assert "expression" in err.message
    assert err.span.line == 10 and err.span.col == 5 + 4
    assert err.hint and err.hint.startswith("expected ")
    assert "a number" in err.hint and "a name" in err.hint


def test_unexpected_end():
    err = syntax_error("(1 + 2")
    assert "unexpected end of the text" in err.message
    assert err.span.col == 5 + 6
    assert ")" in err.hint


def test_unexpected_character():
    err = syntax_error("a $ b")
    assert "unexpected `$`" in err.message
    assert err.span.col == 5 + 2


def test_effect_syntax_error_names_the_effect_rule():
    err = syntax_error("put c on pile", "effect_start")
    assert "syntax error in effect" in err.message


def test_binding_syntax_error():
    err = syntax_error("c of hand", "binding_start")
    assert "binding such as `c in my hand`" in err.message


def test_signature_syntax_error():
    err = syntax_error("f(card)", "signature_start")
    assert "function head" in err.message


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text(text):
    err = syntax_error(text)
    assert "expected a expression" in err.message or "expected an expression" in err.message
    assert err.span == ORIGIN


def test_error_on_a_later_line():
    err = syntax_error("a and\n b b", origin=Span("f", 3, 9))
    assert err.span.line == 4 and err.span.col == 4


@pytest.mark.parametrize("text,kind", [
    ("move = 1", ast.Assign), ("move  += 1", ast.Assign), ("move -= 1", ast.Assign), ("meld *= 2", ast.Assign),
    ("move.score = 1", ast.Assign), ("move_count += 1", ast.Assign), ("mover = 2", ast.Assign),
    ("melds_made += 1", ast.Assign), ("meld m", ast.Meld), ("meld(m)", ast.Meld),
    ("move top(stock, 2) to pile face down", ast.Move), ("move(x) to y", ast.Move), ("move move to meld", ast.Move),
])
def test_move_and_meld_begin_an_effect_unless_an_assignment_follows(text, kind):
    assert isinstance(p(text, "effect_start"), kind)


def test_a_move_of_a_thing_named_move_to_a_zone_named_meld():
    node = p("move move to meld", "effect_start")
    assert isinstance(node, ast.Move) and isinstance(node.what, ast.Name) and node.what.name == "move"
    assert isinstance(node.dest, ast.Name) and node.dest.name == "meld"
