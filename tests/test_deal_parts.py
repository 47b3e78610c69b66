"""A deal's totals with their parts (`score:` with `parts:`), a meld called by its size (`named:`), and the
rulebook's words for both."""
from __future__ import annotations

import random
import re

from click.testing import CliRunner
from rich.console import Console

import koloda
from koloda.cli.main import main
from koloda.ui.table import deal_summary, render


def _text(renderable) -> str:
    console = Console(width=200, record=True, force_terminal=False)
    console.print(renderable)
    return console.export_text()


def _first_deal_end(name: str, seed: int, choose=None):
    g = koloda.load(name)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    ended = []
    stop = g.on_deal_scored(lambda st: ended.append(st.clone()) if st is s else None)
    try:
        while not s.is_terminal() and not ended:
            legal = s.legal_actions()
            s.apply_action(choose(g, legal, rng) if choose else rng.choice(legal))
    finally:
        stop()
    return g, ended[0]


def _melding(g, legal, rng):
    melds = [a for a in legal if g.action_to_string(a).startswith(("meld", "add", "lay"))]
    return rng.choice(melds or legal)


def test_canasta_s_deal_end_tells_each_side_s_total_part_by_part_in_the_rule_file_s_order():
    order = ["melds", "natural canastas", "mixed canastas", "cards left in hand", "going out"]
    g, ended = _first_deal_end("canasta", 3, _melding)
    side = g.layout.var_base["score"]
    lines = [line for line in _text(deal_summary(g, ended)).splitlines() if " score " in line]
    assert len(lines) == 2
    for t, line in enumerate(lines):
        head, told = line.split(": ", 1)
        total = int(head.rsplit(" ", 1)[1].replace("−", "-"))
        assert total == ended.vars[side + t]            # the first deal: the score is the deal's total
        named = [re.sub(r" [+−]\d+$", "", part) for part in told.split(", ")]
        assert named == [p for p in order if p in named]
        assert sum(int(v.replace("−", "-")) for v in re.findall(r"[+−]\d+", told)) == total
    assert any("melds +" in line for line in lines)


def test_a_meld_of_seven_is_called_a_canasta_at_the_table():
    g = koloda.load("canasta")
    for seed in range(60):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal() and s.deal_number == 1:
            s.apply_action(_melding(g, s.legal_actions(), rng))
            sizes = [len(s.zones[z]) for z in g.layout.slot_zone if s.zones[z]]
            if any(n >= 7 for n in sizes):
                text = _text(render(g, s, 0))
                rows = re.findall(r"^\s+\d+\s+(\w+)\s+(.+)$", text, flags=re.M)
                for kind, cards in rows:
                    n = len(cards.split())
                    assert kind == ("canasta" if n >= 7 else "set"), (kind, cards)
                return
    raise AssertionError("no meld reached seven cards")


def test_the_rulebook_says_the_parts_of_a_score():
    result = CliRunner().invoke(main, ["explain", "canasta"])
    assert result.exit_code == 0, result.output
    assert "part by part" in result.output
    assert "natural canastas:" in result.output and "going out:" in result.output
