"""Generated source (koloda/interpreter/codegen/generate.py): fast code plays as checked code does, no rule text as code.

Each game is played twice, once by its fast generated code and once by the same flow written checked
throughout (generate.ALL_CHECKED: every operator testing its operands, as a failing fast function's
recovery is written), and the two must agree on every legal move, text, score and error (message and
place). Names and strings from a hostile file must end up as mangled names and string literals only.
"""
from __future__ import annotations

import ast
import random
import re

import pytest

import koloda
from koloda.interpreter.codegen import codecache, generate
from koloda.interpreter.codegen.gen_source import unsafe_names
from koloda.interpreter.core.watch import ALL


def play(game, seed: int, moves: int) -> list:
    """What a seeded random playout shows: legal moves, their texts, the heuristic, scores, and the
    error that ends it."""
    seen: list = []
    rng = random.Random(seed)
    try:
        s = game.new_initial_state(seed=seed)
        for _ in range(moves):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            # the heuristic too: it is generated with the flow, and bots and reports read it at every move
            judged = [game.heuristic(s, {"p": p, "viewer": p}) for p in range(s.n)] if game.heuristic is not None else None
            seen.append((s.current_player(), legal, [s.action_to_string(a) for a in legal], judged))
            if rng.random() < 0.1:
                twin = s.clone()
                twin.apply_action(legal[-1])
                seen.append(("clone", twin.is_terminal() or twin.legal_actions()))
            s.apply_action(rng.choice(legal))
        seen.append((s.is_terminal(), s.scores(), s.returns(), str(s)))
    except koloda.RuleError as exc:
        seen.append((type(exc).__name__, exc.message, exc.span.line, exc.span.col))
    return seen


def both(monkeypatch, name: str, seed: int = 1, moves: int = 150, **kw) -> tuple[list, list]:
    """A seeded playout by the fast code, and by the checked."""
    fast = koloda.load(name, **kw)
    monkeypatch.setattr(generate, "ALL_CHECKED", True)
    checked = koloda.load(name, **kw)
    monkeypatch.setattr(generate, "ALL_CHECKED", False)
    assert "_ck_" in checked.generated.source and "_ck_" not in fast.generated.source
    return play(fast, seed, moves), play(checked, seed, moves)


# ------------------------------------------------------------------ the shipped games
@pytest.mark.parametrize("name", koloda.shipped_games())
def test_fast_code_plays_as_checked_code_does(monkeypatch, name):
    fast, slow = both(monkeypatch, name)
    assert fast == slow


@pytest.mark.parametrize("name", koloda.shipped_games())
def test_generated_source_names_nothing_but_the_engine(name):
    done = koloda.load(name).generated
    assert done is not None
    assert unsafe_names(done.source, done.namespace) == []


def test_listing_loops_leave_out_checks_that_cannot_fail():
    source = koloda.load("kunkin").generated.source
    # the hand's cards are looked up by kind only where the deck has a copy of them (the jokers)
    assert "if _copied" in source
    # the plans of melds_in, layoffs and swaps are their codes, each once and never none
    meld_loop = source.split("# action 'meld'")[1].split("# action")[0]
    assert "_seen" not in meld_loop and "int(v_m)" not in meld_loop and "if v_m is None" not in meld_loop


def test_a_function_of_the_rules_that_is_a_constant_is_written_as_its_value():
    # Kun-kin's `opening_points(): 40` and `keep(): 0`, read in the opening question
    source = koloda.load("kunkin").generated.source
    reaches = source.split("# the function 'reaches' of the rules")[1].split("\ndef ")[0]
    assert "(40 - _V[" in reaches and "_memo(" not in reaches and ", s, 0, v_m" in reaches


def test_a_list_moved_that_reads_nothing_of_the_play_is_worked_out_once_for_the_game():
    # Goofspiel's setup hands out `[c for c in all_cards if c.suit == clubs and value(c) <= option.cards]`:
    # the same list in every match, kept after the first; a round's `[c for c in prizes if ...]` is not
    game = koloda.load("goofspiel", {"points_order": "ascending"})
    setup = game.generated.source.split("# action 'bid'")[1]
    assert setup.count("if not _once") == 6 and "_move_cards(s, _once" in setup
    assert "_move_cards(s, _t" in setup          # the round's prize, read from the zone each time
    first = [game.new_initial_state(seed=s).to_json(history=False)["zones"] for s in range(3)]
    again = koloda.load("goofspiel", {"points_order": "ascending"})
    assert [again.new_initial_state(seed=s).to_json(history=False)["zones"] for s in range(3)] == first


def test_a_plan_that_may_be_none_has_its_attributes_read_in_place():
    # in Kun-kin's `reaches(plan m, ...)`, `m.points` is read in place, none still giving none
    source = koloda.load("kunkin").generated.source
    reaches = source.split("# the function 'reaches' of the rules")[1].split("\ndef ")[0]
    assert "(None if v_m is None else v_m.points)" in reaches and "_plan(" not in reaches


@pytest.mark.parametrize("name", ["peklo", "pony"])
def test_trick_and_shedding_games_are_generated_whole(name):
    done = koloda.load(name).generated
    assert "_ck_" not in done.source         # nothing checked in the fast module


def test_the_check_of_names_finds_what_escapes():
    source = "import os\ndef _run1(s, b):\n    return __import__('os').system(s.zones)\n"
    found = unsafe_names(source, {})
    assert "Import" in found and "__import__" in found and ".system" in found


# ------------------------------------------------------------------ hostile names and strings
HOSTILE = """\
game: hostile
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
  pile: {visible: all}
vars:
  __import__: {start: 0}
  exec: {each: player, start: 0}
define:
  __builtins__(card _): _.rank > 2 and "'); __import__('os').system('echo pwned'); ('" != 'x"y\\\\'
  eval(int globals): globals + 1
deal: [gather into stock, shuffle stock, deal 3 to each hand]
phases:
  "main'); import os; ('":
    actions:
      "pl'ay\\n#x":
        with: _t1 in my hand
        if: __builtins__(_t1) and eval(__import__) > 0 or _t1.rank == 3
        do:
          - let s = _t1
          - let found = [c for c in my hand if c != s]
          - move s to pile
          - __import__ += 1
          - my exec = eval(my exec)
          - for: b in found
            do: [let deadline = b, let _h0 = deadline, let __class__ = _h0]
      "pass\\"\\n  import sys":
        do: [__import__ += 1]
match: {ends: "deal_number >= 2", score: "p.exec"}
"""


def test_hostile_names_and_strings_stay_names_and_strings(tmp_path, monkeypatch):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    game = koloda.load(str(path))
    done = game.generated
    assert done is not None
    assert unsafe_names(done.source, done.namespace) == []
    tree = ast.parse(done.source)
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert any("__import__('os')" in text for text in strings), "the rule's string is a string literal"
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"__import__", "__builtins__", "exec", "eval", "os", "globals", "s_", "__class__"}
    assert {"v_s", "v_found", "v_b", "v_deadline"} <= names, "rule names are mangled, not dropped"
    for line in done.source.splitlines():
        stripped = line.strip()
        assert not stripped.startswith(("import", "from")), line
    fast, slow = both(monkeypatch, str(path), moves=60)
    assert fast == slow


# ------------------------------------------------------------------ failures: the same message at the same place
GAME = """\
game: failing
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
  pile: {{visible: all}}
vars:
  x: {{start: 0}}
  y: {{type: int, start: none}}
  who: {{type: player, start: none}}
  t: {{each: player, start: 0}}
deal: [gather into stock, shuffle stock, deal {deal} to each hand]
events:
  tick:
    when: "{when}"
    do: [x += 1]
phases:
  main:
    ends: "{ends}"
    actions:
      play:
        with: c in my hand
        if: "{guard}"
        do: ["{effect}", move c to pile]
      pass:
        do: [x += 1]
match: {{ends: "deal_number >= 3", score: "{score}"}}
"""
def written(tmp_path, case: dict) -> str:
    """GAME with the parts a case gives (the others doing nothing), as a rule file."""
    parts = dict(guard="true", effect="x += 0", ends="false", when="false", score="p.t", deal="10")
    parts.update(case)
    path = tmp_path / "case.yaml"
    path.write_text(GAME.format(**parts), encoding="utf-8")
    return str(path)


FAILURES = [
    dict(guard="10 // (value(c) - 7) > 0"),
    dict(guard="y + value(c) > 0"),
    dict(guard="[1, 2, 3][value(c) - 9] == 1"),
    dict(guard="value(c) < y or c.suit == hearts"),
    dict(guard="any(value(d) < y for d in my hand) or true"),
    dict(guard="(y or value(c)) > 3 and (who or me) == me and next(who) == me"),
    dict(effect="x = 10 // (2 - x)"),
    dict(effect="who.t += 1"),
    dict(effect="let z = y + 1"),
    dict(effect="move stock.top to pile", deal="25"),
    dict(effect="turn to next(who)"),
    dict(effect="skip who"),
    dict(ends="10 // (x - 3) > 5"),
    dict(when="10 // (4 - x) > 100"),
    dict(score="p.t // x - 1 // (x - x)"),
]


@pytest.mark.parametrize("case", FAILURES, ids=lambda c: next(iter(c.values())))
def test_a_failure_is_told_as_checked_code_tells_it(tmp_path, monkeypatch, case):
    path = written(tmp_path, case)
    fast, slow = both(monkeypatch, str(path), seed=3, moves=400)
    assert fast == slow
    assert fast[-1][0] == "RuleRuntimeError", fast[-1]


# `any`/`all` over the players is written out player by player: the same values, the same failures
OVER_PLAYERS = [
    dict(guard="any(p.t < value(c) for p in players if p != me)", effect="my t += 1"),
    dict(guard="all(p.t == 0 or value(c) > 5 for p in players)", effect="my t += 1"),
    dict(guard="not any(p.t > x for p in players)", effect="my t += 2"),
    dict(ends="any(p.t > 3 for p in players)", effect="my t += 1"),
    dict(ends="all(p.hand.size > 0 for p in players if p != who)", effect="who = me"),
    dict(ends="any(p.t > y for p in players if p.t > 2)", effect="my t += 1"),
]


@pytest.mark.parametrize("case", OVER_PLAYERS, ids=lambda c: next(iter(c.values())))
def test_any_and_all_over_the_players_are_written_out(tmp_path, monkeypatch, case):
    path = written(tmp_path, case)
    source = koloda.load(str(path)).generated.source
    assert " or " in source or " and " in source
    assert "in range(s.n)" not in source, "no loop over the players is left"
    fast, slow = both(monkeypatch, str(path), seed=3, moves=400)
    assert fast == slow


# `count`, `sum`, `max`, `min` and lists over the players are written out too: the same values, the same failures
# (a player's `t` of none, a `max` of no player, fail as the comprehension's would: told by the checked code)
VALUES_OVER_PLAYERS = [
    dict(guard="count(p.t > 1 for p in players) < 2", effect="my t += 1"),
    dict(guard="count(p for p in players if p.t >= value(c) - 9) > 0", effect="my t += 1"),
    dict(guard="count(p.t > 0 for p in players if p != me) == 0 or value(c) > 6", effect="my t += 1"),
    dict(ends="sum(p.t for p in players) > 12", effect="my t += 2"),
    dict(ends="sum(p.t for p in players if p != who) > 8", effect="who = me"),
    dict(effect="x = max(p.t for p in players) - min(p.t + value(c) for p in players)"),
    dict(effect="x = max(p.t for p in players if p.t > 4)"),
    dict(effect="x = min(p.t + y for p in players)"),
    dict(score="sum(q.t for q in players) - p.t"),
    dict(effect="x = count(p for p in players)"),
    dict(effect="who = [p for p in players if p.t > 2][0]"),
    dict(effect="x = count(q for q in [p for p in players if p != me] if q.t >= x - 3)"),
    dict(effect="x = sum([p.t * 2 for p in players])"),
]


@pytest.mark.parametrize("case", VALUES_OVER_PLAYERS, ids=lambda c: next(iter(c.values())))
def test_counts_sums_and_extremes_over_the_players_are_written_out(tmp_path, monkeypatch, case):
    path = written(tmp_path, case)
    source = koloda.load(str(path)).generated.source
    assert "in range(s.n)" not in source, "no loop over the players is left"
    fast, slow = both(monkeypatch, str(path), seed=3, moves=400)
    assert fast == slow


def test_a_function_of_the_rules_asked_twice_in_one_expression_is_worked_out_once(tmp_path):
    rules = GAME.format(guard="true", effect="x += 0", when="false", score="p.t", deal="10",
                        ends="lead() > 3 or (x > 2 and lead() < 1) or (x > 9 and alone() > 1)")
    rules = rules.replace("deal: [", "define:\n  lead(): max(p.t for p in players if p.t > -1)\n"
                                     "  alone(): min(p.t for p in players if p.t > -1)\ndeal: [")
    path = tmp_path / "twice.yaml"
    path.write_text(rules, encoding="utf-8")
    source = koloda.load(str(path)).generated.source
    ends = next(f for f in source.split("\ndef ") if "lead" not in f and "max(" in f and "min(" in f)
    # `lead()` is kept in a cell, asked for twice; `alone()`, asked for once, is written in place
    assert re.search(r"_set\(_h\d+, max\(", ends) and ends.count("min(") == 1, ends
    assert not re.search(r"_set\(_h\d+, min\(", ends), ends


def test_a_value_that_reads_nothing_of_the_play_is_kept_for_the_loaded_game(tmp_path, monkeypatch):
    path = written(tmp_path, dict(guard="value(c) >= min(value(d) for d in all_cards if d.suit == hearts)",
                                  effect="x = count(d for d in all_cards if d.suit == hearts) + x // 3"))
    source = koloda.load(path).generated.source
    assert source.count("else _set(_once") == 2, source       # the `min` and the `count`, each once
    fast, slow = both(monkeypatch, str(path), seed=3, moves=400)
    assert fast == slow


def test_a_cell_asked_for_once_is_written_back_in_place():
    from koloda.interpreter.codegen.gen_source import Function, Module
    fn = Function(Module({}), "_f", "s", True)
    inner = fn.cell("len(a)")                       # kept when first needed
    outer = fn.cell(f"g({inner})")                  # holds the inner one
    once = fn.cell("h(s)", eager=True)
    body = fn.fold_single(f"{outer} + {outer} + {once}")
    # the outer cell is asked for twice: kept; the inner one once (inside the outer's text): in place;
    # the eager one once: in place
    assert body.count("_set(") == 2 and "(len(a))" in body and "(h(s))" in body, body
    assert fn.cell_lines(body) == ["_h1 = []"]


# a card that fits is played; with none that fits, a card is drawn: the listing learns `any` from its loop
FITS = """\
game: fits
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
  pile: {{visible: all}}
vars:
  x: {{start: 0}}
define:
  fits(card c): c.suit == pile.top.suit or c.rank == pile.top.rank
deal: [gather into stock, shuffle stock, deal 5 to each hand, move stock.top to pile]
phases:
  main:
    actions:
{actions}
deal ends: any(p.hand.size == 0 for p in players) or x > 80
match: {{ends: "deal_number >= 3", score: "p.hand.size"}}
"""
PLAY = '      play: {with: c in my hand, if: "fits(c) and x >= 0", do: [move c to pile, x += 1]}\n'
DRAW = '      draw: {if: "stock.size > 0 and not any(fits(c) for c in my hand)", do: [move stock.top to my hand]}\n' \
       '      pass: {if: "stock.size == 0 and not any(fits(d) for d in my hand)", do: [x += 1]}\n'


@pytest.mark.parametrize("actions", [PLAY + DRAW, DRAW + PLAY], ids=["play first", "draw first"])
def test_a_listing_learns_whether_any_card_fits_from_its_loop(tmp_path, monkeypatch, actions):
    path = tmp_path / "fits.yaml"
    path.write_text(FITS.format(actions=actions), encoding="utf-8")
    source = koloda.load(str(path)).generated.source
    assert source.count(".append(True)") == 1, "`any` over the loop's cards, by the same name, is answered by the loop"
    for seed in (1, 2):
        fast, slow = both(monkeypatch, str(path), seed=seed, moves=300)
        assert fast == slow


def test_the_game_stopped_for_taking_too_long_names_the_action(tmp_path, monkeypatch):
    from koloda.interpreter.core import flow
    path = tmp_path / "slow.yaml"
    path.write_text(GAME.format(guard="true", effect="x += 0", ends="false", when="false", score="p.t", deal=5),
                    encoding="utf-8")
    game = koloda.load(str(path))
    monkeypatch.setattr(flow, "DECISION_SECONDS", -1.0)
    with pytest.raises(koloda.RuleError, match="listing the moves of `play` took more than") as info:
        game.new_initial_state(1).legal_actions()
    assert info.value.span.line == 22


# ------------------------------------------------------------------ the debug view and the cache
def test_the_generated_source_can_be_shown(monkeypatch, capsys):
    monkeypatch.setenv("KOLODA_SHOW_SOURCE", "1")
    koloda.load("peklo")
    shown = capsys.readouterr().err
    assert "# generated for peklo" in shown and "def _list" in shown


def test_compiled_code_is_cached_and_a_bad_cache_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.setenv("KOLODA_CACHE", str(tmp_path / "cache"))
    koloda.load("pony")
    files = list((tmp_path / "cache" / "generated").glob("*.code"))
    assert len(files) == 1
    assert koloda.load("pony").generated is not None          # read back
    files[0].write_bytes(b"not marshal data")
    assert koloda.load("pony").generated is not None          # corrupt: compiled again, and written again
    assert codecache._read(files[0]) is not None
    files[0].chmod(0o666)                                     # writable by others: not to be trusted
    assert codecache._read(files[0]) is None
    assert koloda.load("pony").generated is not None


def test_an_unwritable_cache_is_passed_over(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("KOLODA_CACHE", str(blocked / "cache"))     # a folder cannot be made under a file
    game = koloda.load("peklo")
    assert game.generated is not None
    assert play(game, 2, 30)


# ------------------------------------------------------------------ conditions asked again only after a change
def test_the_conditions_know_what_they_read():
    game = koloda.load("pony")
    stock, pile = game.layout.zone_base["stock"], game.layout.zone_base["pile"]
    hands = [game.layout.zone_base["hand"] + p for p in range(game.num_players)]
    (when,) = [e.when for e in game.rules.events]
    bits = game.watch.bits
    assert [z for z, dirt in enumerate(game.watch.zone_dirt) if dirt & bits[when]] == [stock, pile]
    assert [z for z, dirt in enumerate(game.watch.zone_dirt) if dirt & bits[game.rules.deal_ends]] == hands
    assert game.watch.var_dirt == {"passes": bits[game.rules.deal_ends]}


def test_a_condition_reading_the_turn_is_asked_every_time(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(guard="true", effect="x += 0", ends="me == dealer and pile.size > 3",
                                when="false", score="p.t", deal=5), encoding="utf-8")
    game = koloda.load(str(path))
    (_, turn), (_, pile) = game.watch.parts[game.rules.phases[0].ends]
    assert turn == 0 and pile != 0, "the part that reads the turn has no bit: it is asked every time"
    assert [e.when for e in game.rules.events][0] in game.watch.bits


def test_each_part_of_a_condition_has_its_bit():
    game = koloda.load("pony")
    stock, pile = game.layout.zone_base["stock"], game.layout.zone_base["pile"]
    (when,) = [e.when for e in game.rules.events]          # stock.size == 0 and pile.size > 1
    (_, stock_bit), (_, pile_bit) = game.watch.parts[when]
    assert [z for z, dirt in enumerate(game.watch.zone_dirt) if dirt & stock_bit] == [stock]
    assert [z for z, dirt in enumerate(game.watch.zone_dirt) if dirt & pile_bit] == [pile]
    s = game.new_initial_state(4)
    while s.step != "turn" or len(s.zones[pile]) < 3:
        plays = [a for a in s.legal_actions() if s.action_to_string(a).startswith("play")]
        s.apply_action(plays[0] if plays else s.legal_actions()[-1])
    assert not s.dirty & stock_bit, "found false while the stock holds cards, and not asked again"
    plays = [a for a in s.legal_actions() if s.action_to_string(a).startswith("play")] or s.legal_actions()
    s.apply_action(plays[0])
    assert not s.dirty & stock_bit


def test_a_state_changed_by_hand_asks_every_condition_again():
    game = koloda.load("pony")
    s = game.new_initial_state(4)
    s.apply_action(s.legal_actions()[0])
    assert s.dirty != ALL
    assert s.clone().dirty == s.dirty
    s.forget()
    assert s.dirty == ALL and s._listed is None
    s.apply_action(s.legal_actions()[0])
    s._legal = None                                          # as tests and bots have long said it
    assert s.dirty == ALL


def test_effects_nested_deeper_than_python_allows_are_generated_as_functions_of_their_own(tmp_path, monkeypatch):
    nest = "x += 1"
    for _ in range(24):          # in the loops below, deeper than one helper function holds, too
        nest = '{if: "x >= 0", then: [' + nest + "]}"
    path = tmp_path / "deep.yaml"
    path.write_text(f"""\
game: deep
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
vars:
  x: {{start: 0}}
deal: [gather into stock, shuffle stock, deal 2 to each hand]
deal ends: x > 30
phases:
  main:
    actions:
      go:
        do:
          - {nest}
          - for: p in players
            do: [{{for: q in players, do: [{{for: r in players, do: [{nest}]}}]}}]
match: {{ends: "deal_number >= 2"}}
""", encoding="utf-8")
    done = koloda.load(str(path)).generated
    assert done.source.count("def _deep") >= 2
    fast, slow = both(monkeypatch, str(path), moves=50)
    assert fast == slow and fast[-1][0] is True


# a plan's cards asked about item after item: read once before the loop when the plan is not the loop's own
HOISTED = """\
game: hoisted
players: 2
deck: standard52
zones:
  stock: {visible: nobody}
  hand: {each: player}
  pile: {visible: all}
  table: {each: player, melds: true}
melds:
  run: {of: suit, min: 3}
  set: {of: rank, min: 3}
vars:
  x: {start: 0}
phases:
  main:
    actions:
      meld:
        with: m in melds_in(my hand)
        if: "count([c for c in my hand if c not in m.cards]) >= x and all(c in m.cards for c in m.cards)"
        do: [meld m]
      discard:
        with: d in my hand
        if: "count([m for m in melds_in(my hand) if d in m.cards]) < 3"
        do: [move d to pile, x += 1]
      draw:
        if: stock.size > 0
        do: [move stock.top to my hand]
      boast:
        with: e in my hand
        if: "any(e in m.cards and m.size > 3 for m in melds_in(my hand)) and not all(m.size == 3 for m in melds_in(my hand))"
        do: [x += 1]
deal: [gather into stock, shuffle stock, deal 9 to each hand]
deal ends: any(p.hand.size == 0 for p in players) or stock.size == 0 or x > 60
match: {ends: "deal_number >= 2", score: "p.hand.size"}
"""


def test_a_plans_cards_are_read_once_before_a_loop_that_does_not_change_the_plan(tmp_path, monkeypatch):
    path = tmp_path / "hoisted.yaml"
    path.write_text(HOISTED, encoding="utf-8")
    source = koloda.load(str(path)).generated.source
    # `m` is the same for every card of the hand: its cards are taken once, before the loop
    assert "not in _plan_cards(v_m)" not in source and "not in v_m.cards" not in source
    # (a plan listed by a meld function is never none: its cards are read at once)
    assert source.count("in [v_m.cards] for v_c in") == 2
    # `m` is the loop's own: its cards are taken item by item
    assert "(v_d in _plan_cards(v_m))" in source
    # `any` and `all` over melds are generated, with the melds made a group at a time (for `any(e in m.cards
    # and …)`, only the groups that may hold `e`)
    assert "any(" in source and "all(" in source
    assert re.search(r"for v_m in _counted\(s, _holding\d+\(_melds\d+, .*, v_e\)\)", source)
    assert re.search(r"for v_m in _counted\(s, _each_meld\d+\(", source)
    for seed in (1, 2, 3):
        fast, slow = both(monkeypatch, str(path), seed=seed, moves=300)
        assert fast == slow


# ------------------------------------------------------------------ effects' own checks and budget, fast and checked
LOOPS = """\
game: loops
players: 2
deck: standard52
zones:
  stock: {{visible: nobody}}
  hand: {{each: player}}
  pile: {{visible: all}}
vars:
  x: {{start: 1}}
  y: {{start: 0}}
  unset: {{type: int, start: none}}
deal: [gather into stock, shuffle stock, deal 5 to each hand]
procedures:
  p0(): y += 1
{procedures}
phases:
  main:
    actions:
      go:
        do: [{effect}, "x = x * 2"]
match: {{ends: "deal_number >= 3"}}
"""
# p1 runs p0 twice, p2 runs p1 twice... : the calls double at each level
DOUBLING = "\n".join(f"  p{k}(): [p{k - 1}(), p{k - 1}()]" for k in range(1, 25))
EFFECT_FAILURES = [
    dict(effect="{repeat: x, limit: 1000, do: [{repeat: x, limit: 1000, do: [{repeat: x, limit: 1000, do: y += 1}]}]}"),
    dict(effect="{repeat: x, limit: 30, do: y += 1}"),
    dict(effect="{repeat: unset, do: y += 1}"),
    dict(effect="{while: y < x * 30, limit: 200, do: y += 1}"),
    dict(effect="{while: y < x * x * x, limit: 1000000, do: [{for: c in stock, do: y += 1}]}"),
    dict(effect="{for: c in 1..x, do: [{for: d in 1..x, do: [{for: e in 1..x, do: y += 1}]}]}"),
    dict(effect="p24()", procedures=DOUBLING),
    dict(effect="{repeat: x, limit: 1000, do: [{repeat: x, limit: 1000, do: check events}]}"),
    dict(effect="tell all that pile holds 7"),
    dict(effect="turn pile.top face up"),
    dict(effect="{score: y, parts: {a: x, b: unset}}"),
]


@pytest.mark.parametrize("case", EFFECT_FAILURES, ids=lambda c: c["effect"][:60])
def test_an_effects_own_failure_is_told_as_checked_code_tells_it(tmp_path, monkeypatch, case):
    parts = dict(procedures="")
    parts.update(case)
    path = tmp_path / "loops.yaml"
    path.write_text(LOOPS.format(**parts), encoding="utf-8")
    fast, slow = both(monkeypatch, str(path), seed=5, moves=400)
    assert fast == slow
    assert fast[-1][0] == "RuleRuntimeError", fast[-1]


def generated_function(f) -> bool:
    return getattr(getattr(f, "__code__", None), "co_filename", "").startswith("<koloda generated")


@pytest.mark.parametrize("name", koloda.shipped_games())
def test_the_flow_asks_generated_functions_only(name):
    # every condition and list of effects the flow asks of a shipped game (a phase's `if:`, the next
    # dealer, a window's end, an action whose parameters are plans, the variables' starts ...) is generated
    flow = koloda.load(name).flow
    asked = [flow.setup, flow.deal, flow.scoring, flow.deal_ends, flow.match_ends, flow.score, flow.first_dealer,
             flow.next_dealer, flow.turn_cap, flow.heuristic]
    for phase in flow.phases:
        asked += [phase.first, phase.ends, phase.start, phase.after_turn, phase.when, *phase.listings.values()]
        assert set(phase.listings) == set(phase.steps)
    asked += [f for event in flow.events for f in (event.when, event.run)]
    asked += [action.run_code or action.run for action in flow.actions]
    asked += [window.closes for window in flow.windows]
    asked += [start for _, _, start in flow.var_starts.starts]
    assert [f for f in asked if f is not None and not generated_function(f)] == []


@pytest.mark.parametrize("name", koloda.shipped_games())
def test_the_values_asked_outside_the_flow_are_generated(name):
    # `count:`, `show:` and the move texts' computed fields are functions of the game's generated module
    game = koloda.load(name)
    asked = list(game.counters.values()) + list(game.view.show.values())
    asked += [f for fields in game.view.text_values.values() for f, _, _ in fields.values()]
    assert [f for f in asked if not generated_function(f)] == []


def test_one_expression_compiled_for_a_tool_is_generated_and_fails_at_its_place():
    from koloda.interpreter.base.errors import RuleRuntimeError
    from koloda.interpreter.game import compile_expression
    game = koloda.load("pony")
    f, t = compile_expression(game, "x + 1", {"x": "int"})
    assert generated_function(f) and t == "int" and f(game.new_initial_state(1), {"x": 2}) == 3
    g, _ = compile_expression(game, "10 // x", {"x": "int"})
    assert generated_function(g)
    with pytest.raises(RuleRuntimeError) as failed:
        g(game.new_initial_state(1), {"x": 0})
    assert "division by zero" in str(failed.value) and str(failed.value).startswith("<expression>:1:4: ")


def test_wild_cards_are_found_by_generated_code(tmp_path, monkeypatch):
    # `wild:` is asked once per card at each load, by a function of its own generated module
    from koloda.interpreter import game as game_module
    from tests.test_named_decks import load
    made = []
    real = game_module.expressions

    def spy(compiler, watch, nodes, label):
        fns = real(compiler, watch, nodes, label)
        made.extend((label, f) for f in fns)
        return fns
    monkeypatch.setattr(game_module, "expressions", spy)
    assert load(tmp_path).wild_cards == set(range(32, 35))
    assert [label for label, f in made if generated_function(f)] == ["two-decks wild"]
