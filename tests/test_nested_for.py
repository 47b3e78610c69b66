"""Several `for` clauses in one comprehension: fast and checked generated code agree, and the
generated form is really made (compliance cases in tests/compliance/nested_for.yaml cover the values)."""
from __future__ import annotations

from test_generated import GAME, both

from koloda.dsl import ast
from koloda.dsl.errors import Span
from koloda.dsl.to_ast import parse

NESTED = dict(guard="count(d for p in players for d in p.hand if d.suit == c.suit) > 1 or c.rank > 9",
              effect="x += sum(1 for p in players for d in p.hand if d.rank == c.rank)",
              score="p.t + count(d for q in [p] for d in q.hand)")


def test_a_game_with_nested_for_clauses_plays_the_same_generated_and_closed(tmp_path, monkeypatch):
    parts = dict(ends="false", when="false", deal="10", **NESTED)
    path = tmp_path / "nested.yaml"
    path.write_text(GAME.format(**parts), encoding="utf-8")
    fast, slow = both(monkeypatch, str(path), seed=2, moves=60)
    assert fast == slow
    assert len(fast) > 20 and all(len(step[1]) > 0 for step in fast[:10] if step[0] != "clone")


def test_nested_clauses_are_generated_and_checked_alike(tmp_path, monkeypatch):
    import koloda
    path = tmp_path / "nested.yaml"
    path.write_text(GAME.format(ends="false", when="false", deal="10", **NESTED), encoding="utf-8")
    done = koloda.load(str(path)).generated
    assert done is not None
    assert "for" in done.source and done.source.count(" in ") > 3
    from test_generated import both
    fast, checked = both(monkeypatch, str(path), seed=2, moves=60)       # fast code plays as checked code does
    assert fast == checked and len(fast) > 2


def test_one_for_clause_reads_as_it_always_did():
    node = parse("[c for c in pile if c.rank > 9]", "expr_start", Span("f", 1, 1))
    assert isinstance(node, ast.ListComp) and node.var == "c" and node.cond is not None
    two = parse("[a for a in x for b in y]", "expr_start", Span("f", 1, 1))
    assert isinstance(two, ast.Flatten) and isinstance(two.lists, ast.ListComp)
    assert two.lists.var == "a" and isinstance(two.lists.elem, ast.ListComp) and two.lists.elem.var == "b"
    total = parse("sum(v for a in x for b in y)", "expr_start", Span("f", 1, 1))
    assert isinstance(total, ast.Aggregate) and total.var == ast.ITEM and isinstance(total.iterable, ast.Flatten)
