"""A meld kind's `min:` and `max:` given as `option.NAME`: each table reads its own value."""
from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

import koloda
from koloda.cli.main import main
from koloda.dsl.errors import RuleError
from koloda.dsl.meldkinds import MeldKind
from koloda.interpreter.game import compile_expression

RULES = textwrap.dedent("""\
    game: probe
    players: 2
    deck: standard52
    options:
      longest: {default: 13, min: 3, max: 13}
      shortest: {default: 3, min: 1, max: 13}
    zones:
      stock: {}
      hand: {each: player}
      table: {each: player, melds: true}
    melds:
      run: {of: suit, min: option.shortest, max: option.longest}
    deal: [gather into stock, shuffle stock, deal 6 to each hand]
    phases:
      main:
        actions:
          noop: {do: end turn}
    """)


@pytest.fixture()
def rules(tmp_path):
    path = tmp_path / "probe.yaml"
    path.write_text(RULES, encoding="utf-8")
    return str(path)


def run_sizes(game) -> list:
    state = game.new_initial_state(0, hands={"P1 hand": "3S 4S 5S 6S 7S 8S", "P2 hand": "3H 4H 5H 6H 7H 8H"})
    sizes, _ = compile_expression(game, "[m.size for m in melds_in(my hand)]")
    return sorted(sizes(state, {}))


def test_each_table_reads_its_options(rules):
    assert max(run_sizes(koloda.load(rules))) == 6               # no limit by default
    assert set(run_sizes(koloda.load(rules, {"longest": 5}))) == {3, 4, 5}
    assert set(run_sizes(koloda.load(rules, {"shortest": 5}))) == {5, 6}


def test_the_unbound_kind_allows_every_table():
    """Before a table binds it, the kind holds the widest sizes its options allow, for the layout."""
    kind = MeldKind("run", "suit", 1, None, "distinct", "low", None, min_option="shortest", max_option="longest")
    assert kind.bound({"shortest": 4, "longest": 6}) == MeldKind("run", "suit", 4, 6, "distinct", "low", None,
                                                                  min_option="shortest", max_option="longest")


def test_max_below_min_at_a_table_is_a_clear_error(rules):
    with pytest.raises(RuleError, match="with these options `max` 4 is below `min` 5"):
        koloda.load(rules, {"shortest": 5, "longest": 4})


def test_the_command_line_refuses_such_a_table_with_a_message(rules):
    result = CliRunner().invoke(main, ["simulate", rules, "-n", "1", "-o", "shortest=5", "-o", "longest=4"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "meld `run`: with these options `max` 4 is below `min` 5" in result.output


GROWING = textwrap.dedent("""\
    game: probe
    players: 2
    deck: standard52
    options:
      longest: {default: 13, min: 3, max: 13}
    zones:
      stock: {}
      hand: {each: player}
      table: {each: player, melds: true}
    melds:
      run: {of: suit, min: 3, max: option.longest, layoffs past max: true}
    deal: [gather into stock, shuffle stock, deal 6 to each hand]
    phases:
      main:
        actions:
          lay: {with: m in melds_in(my hand), text: "lay {m}", do: [meld m]}
          off: {with: m in layoffs(my hand), text: "off {m}", do: [meld m]}
          noop: {do: end turn}
    """)


def test_layoffs_past_max_bound_only_the_melds_put_down(tmp_path):
    """`layoffs past max: true`: a run put down has at most `max` cards, and layoffs lengthen it
    past that, card after card (Gin Rummy's `longest_run`, as OpenSpiel plays it)."""
    path = tmp_path / "grows.yaml"
    path.write_text(GROWING, encoding="utf-8")
    game = koloda.load(str(path), {"longest": 3})
    state = game.new_initial_state(0, hands={"P1 hand": "3S 4S 5S 6S 7S 8S", "P2 hand": "3H 4H 5H 6H 7H 8H"})

    def moves() -> dict[str, int]:
        """P2's moves (P1, who melds nothing here, passes its turns)."""
        while state.current_player() != 1:
            state.apply_action(next(a for a in state.legal_actions() if game.action_to_string(a) == "noop"))
        return {game.action_to_string(a, plain=True): a for a in state.legal_actions()}

    lays = [m for m in moves() if m.startswith("lay")]
    assert lays and all(len(m.split()) == 4 for m in lays)          # runs of three only
    state.apply_action(moves()["lay 5H 6H 7H"])
    for card in ("8H", "4H", "3H"):                                  # past three cards, one by one
        offs = [m for m in moves() if m.startswith("off " + card)]
        assert offs, f"{card} cannot be laid off: {sorted(moves())}"
        state.apply_action(moves()[offs[0]])
    assert state.legal_actions() and not [m for m in moves() if m.startswith("off")]
