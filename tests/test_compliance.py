"""The language's compliance tests, written as data in tests/compliance/*.yaml.

File format
-----------
Each file describes one small game (`given:`) and a list of `cases:`.

    given:
      players: 3                 # table size (default 2); the file is written for exactly this many
      current: P2                # whose turn it is (default P1); `dealer:` likewise (default P1)
      zones:                     # zone contents, BOTTOM FIRST: the last card listed is `.top`
        pile: [7H, QS]           #   a list of card names: a shared zone
        hand: [[AS, KD], [2C], []]   # a list of lists: a zone with `each: player`, one list per player
        stock: {visible: nobody, cards: [9C]}   # a mapping: the zone's declaration plus `cards:`
        won: {each: player}      #   (an each-player zone declared this way starts empty)
      vars:                      # variables and their values, written like results (see below)
        trump: {type: suit, value: hearts}
        score: {type: int, each: player, value: [3, 5, 0]}
        passes: 2                # shorthand for {type: int, value: 2} (true/false: a bool)
      by: {QS: P2}               # who moved a card there (`c.by`); default none
      direction: -1              # the direction of play (default 1, to the left)
      table: {hand: 7}           # option values for this table (koloda.load(..., options=))
      actions:                   # actions of the one phase's step `main` (else it offers a trivial one)
        bid: {with: "b in [18, 20, 22]", if: b > high, text: "bid {b}", do: high = b}
      rules:                     # any further rule-file keys, copied into the file as they are
        options: {hand: {default: 5, choices: [5, 7]}}
        define: {high(card c): c.rank > 10}
        deck: piquet32
    cases:
      - expr: pile.top           # an expression, checked and compiled with compile_expression
        result: QS               # its value, rendered: cards `QS`, suits `hearts`, ranks `Q`/`7`,
                                 #   players `P1`, colours `red`, zones `pile`/`hand:P2`, none `null`,
                                 #   numbers and true/false as such (a number is never true/false), lists as lists
        type: card               # optional: the checker's type (`int`, `list:card`, ...)
      - expr: pile.frob
        error: name              # the first error's category: syntax, name, type, arity, deal, error, runtime
        message: has no          # optional substring of its message; `hint:` likewise for its hint
      - expr: c.rank
        scope: {c: card}         # local names and their types, as for an action's parameters
        bind: {c: AS}            # their values
        current: P2              # optional per case: another current player (`direction:` likewise)
        result: A
      - effect: move pile.top to my hand      # an effect, or a list of them, or an `if:`/`for:` mapping
        then:                    # what the state must look like afterwards (only what is listed)
          zones: {pile: [7H], hand: [[AS, KD, QS], [2C], []]}
          vars: {score: [3, 5, 0]}
          by: {QS: P1}           # effects run as the current player's action
          goto: other            # also: next_player, skips, deal_over, direction,
                                 #   asked ({players, step, window}),
          sizes: {stock: 52}     #   zone sizes (each-player zones: a list),
          any_order: {stock: [2C, 3C]}   # and zone contents in any order (after a shuffle)
          said: [["P2 has no 7", [P1, P2]]]  # the messages said, each with the players it is for
          scored: [["P1 score", [[melds, 30], [going out, 100]]]]   # `score:` parts, by variable
          known: {QS: [P1]}      #   who can place each card listed (State.known)
          facts: {P1: ["P2 hand holds no 7"]}   # the facts a player holds, as their view tells them
          returns: [1.0, 0.0]    # the returns were the match over now (the result of `match:`)
      - counter: made            # a `count:` condition of the file (given.rules.count), asked of the
        result: true             #   state as at the end of a deal
      - expr: "-x"
        error: runtime           # compiles, but evaluating it raises RuleRuntimeError
        xfail: "reason"          # a known bug: the case states the correct behaviour
      - moves: bid               # the legal moves of action `bid` (declared in `given.actions:`, the
        result: [bid 18, bid 20] #   actions of step `main`), as shown, in id order, each read back
      - play: bid 20             # a move typed as at the table, made by the current player
        then: {vars: {high: 20}}
      - help: "{c} is worth {value(c)}"   # a `help:` text (or {en: .., ru: ..}), its `{…}` fields checked
        scope: {c: card}         #   as an action's, with these parameters, and worked out as a refusal
        bind: {c: QS}            #   says it (in `language:`, default en)
        result: "Q♠ is worth 10"

The runner writes a real rule file around `given` (deck, zones, vars, `rules:`, one
phase `main` with steps `main` and `other` and a trivial action), loads it with
`koloda.load`, and for every case makes a fresh state, places the cards with
`State.move`, sets the variables, then evaluates. Effects are checked as inside an
action (so `goto` is allowed) unless the case says `in_action: false`.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

import koloda
from koloda.dsl import model
from koloda.dsl.check import Checker
from koloda.dsl.errors import RuleErrors, Span
from koloda.dsl.labels import read_help
from koloda.interpreter.words.explain import Explainer
from koloda.interpreter.words.refusal import filled
from koloda.dsl.loader import parse_yaml
from koloda.dsl.to_ast import parse
from koloda.dsl.types import COLORS, RANK_CONSTANTS, elem, is_list, rank_code
from koloda.interpreter.base.cards import rank_name
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.base.exact import number_text
from koloda.interpreter.game import compile_expression
from koloda.interpreter.codegen.generate import effects

HERE = Path(__file__).parent / "compliance"
FILES = sorted(HERE.glob("*.yaml"))
CASE_KEYS = {"expr", "effect", "counter", "result", "type", "error", "message", "hint", "scope", "bind", "current", "then",
             "xfail", "id", "in_action", "direction", "help", "language", "moves", "play"}
NAMED = {"card", "suit", "rank", "player", "color", "zone", "str", "fraction"}   # a fraction as written: "7/2"


# ------------------------------------------------------------------ reading the files
@lru_cache(maxsize=None)
def read(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) <= {"given", "cases"}, f"{path.name}: unknown top keys {set(data) - {'given', 'cases'}}"
    return data


def case_params():
    out = []
    for path in FILES:
        for i, case in enumerate(read(path)["cases"]):
            unknown = set(case) - CASE_KEYS
            assert not unknown, f"{path.name} case {i}: unknown keys {unknown}"
            label = case.get("id") or str(case.get("expr", case.get("effect", case.get("help"))))
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if "xfail" in case else []
            out.append(pytest.param(path, i, id=f"{path.stem}[{i}]:{label[:50]}", marks=marks))
    return out


# ------------------------------------------------------------------ the game around `given`
def each_player_contents(content) -> bool:
    return isinstance(content, list) and bool(content) and all(isinstance(x, list) for x in content)


def rule_document(given: dict) -> dict:
    n = given.get("players", 2)
    doc = {"game": "compliance", "players": {"min": n, "max": n, "default": n}, "deck": "standard52"}
    zones = {}
    for name, content in (given.get("zones") or {}).items():
        if isinstance(content, dict):
            zones[name] = {k: v for k, v in content.items() if k != "cards"}
        else:
            zones[name] = {"each": "player"} if each_player_contents(content) else {}
    variables = {}
    for name, raw in (given.get("vars") or {}).items():
        if not isinstance(raw, dict):
            raw = {"type": "bool" if isinstance(raw, bool) else "int"}
        variables[name] = {k: v for k, v in raw.items() if k in ("type", "each")}
    if zones:
        doc["zones"] = zones
    if variables:
        doc["vars"] = variables
    doc.update(given.get("rules") or {})
    actions = dict(given.get("actions") or {})
    doc["phases"] = {"main": {"actions": {**actions, "noop": {"do": "end turn"}},
                              "steps": {"main": list(actions) or ["noop"], "other": ["noop"]}}}
    return doc


_games: dict[Path, object] = {}


def game_for(path: Path, tmp_dir: Path):
    if path not in _games:
        given = read(path)["given"] or {}
        rule_file = tmp_dir / f"{path.stem}.yaml"
        rule_file.write_text(yaml.safe_dump(rule_document(given), sort_keys=False, allow_unicode=True),
                             encoding="utf-8")
        _games[path] = koloda.load(str(rule_file), options=given.get("table"), players=given.get("players", 2))
    return _games[path]


@pytest.fixture(scope="session")
def rule_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("compliance_rules")


# ------------------------------------------------------------------ values: written form <-> engine codes
def player_code(raw) -> int:
    if isinstance(raw, int):
        return raw
    assert str(raw).startswith("P"), f"a player is written P1, P2, ...: {raw!r}"
    return int(str(raw)[1:]) - 1


def card_code(game, name: str, used: set | None = None) -> int:
    ids = [i for i in game.cards.parse(str(name)) if used is None or i not in used]
    assert ids, f"no (more) card {name!r} in this deck"
    if used is not None:
        used.add(ids[0])
    return ids[0]


def code(game, t: str, raw):
    """The engine's value for a value written as in a case."""
    if raw is None:
        return None
    if is_list(t):
        return [code(game, elem(t), x) for x in raw]
    if t == "card":
        return card_code(game, raw)
    if t == "suit":
        return game.cards.suit_names.index(raw)       # a deck's own suits follow the four
    if t == "rank":
        return RANK_CONSTANTS[raw] if raw in RANK_CONSTANTS else rank_code(raw)
    if t == "player":
        return player_code(raw)
    if t == "color":
        return COLORS.index(raw)
    if t == "int":
        assert isinstance(raw, int) and not isinstance(raw, bool)
    if t == "bool":
        assert isinstance(raw, bool)
    if t == "fraction":
        made = Fraction(str(raw))
        return made.numerator if made.denominator == 1 else made
    return raw


def render(game, value, t: str):
    """An engine value in the written form (see the format above)."""
    if value is None:
        return None
    if is_list(t):
        assert isinstance(value, list), f"a {t} must be a list, not {value!r}"
        return [render(game, x, elem(t)) for x in value]
    if t == "card":
        return game.cards.names[value]
    if t == "suit":
        return game.cards.suit_names[value]
    if t == "rank":
        return rank_name(value)
    if t == "player":
        return f"P{value + 1}"
    if t == "color":
        return COLORS[value]
    if t == "zone":
        owner = game.layout.zone_owner[value]
        return game.layout.zone_names[value] + ("" if owner is None else f":P{owner + 1}")
    if t == "int":
        assert isinstance(value, int) and not isinstance(value, bool), f"a number must be an int, not {value!r}"
    if t == "fraction":
        assert type(value) in (int, Fraction), f"a fraction must be an int or a Fraction, not {value!r}"
        return number_text(value)
    if t == "bool":
        assert type(value) is bool, f"true/false must be a bool, not {value!r}"
    return value


def written(expected, t: str):
    """Expected values as written, normalised so that `7` and `"7"` both name the rank 7."""
    if expected is None:
        return None
    if is_list(t) and isinstance(expected, list):
        return [written(x, elem(t)) for x in expected]
    if t in NAMED:
        return str(expected)
    return expected


# ------------------------------------------------------------------ a state as `given` says
def make_state(game, given: dict, case: dict):
    s = game.new_initial_state(seed=0)
    for z in s.zones:
        assert not z, "the generated game must not deal any card"
    used: set[int] = set()
    for name, content in (given.get("zones") or {}).items():
        cards = content.get("cards", []) if isinstance(content, dict) else content
        if name in game.spec.rows:        # a row of zones: the cards of each, first to last
            base = game.layout.zone_base[f"{name} 1"]
            groups = list(enumerate(cards))
        else:
            base = game.layout.zone_base[name]
            groups = list(enumerate(cards)) if each_player_contents(cards) else [(0, cards)]
        for offset, names in groups:
            for card in names:
                s.move(card_code(game, card, used), base + offset, None)
    for card, player in (given.get("by") or {}).items():
        s.by[card_code(game, card)] = player_code(player)
    for name, raw in (given.get("vars") or {}).items():
        spec = game.spec.vars[name]
        value = raw.get("value") if isinstance(raw, dict) else raw
        base = game.layout.var_base[name]
        if spec.each_player:
            values = value if isinstance(value, list) else [value] * s.n
            for p, v in enumerate(values):
                s.vars[base + p] = code(game, game.rules.var_types[name], v)
        else:
            s.vars[base] = code(game, game.rules.var_types[name], value)
    s.dealer = player_code(given.get("dealer", "P1"))
    s.current = player_code(case.get("current", given.get("current", "P1")))
    s.direction = case.get("direction", given.get("direction", 1))
    s.goto = None
    return s


def bindings(game, case: dict) -> dict:
    scope = case.get("scope") or {}
    return {name: code(game, scope[name], raw) for name, raw in (case.get("bind") or {}).items()}


# ------------------------------------------------------------------ effects
def compile_effects(game, items, scope: dict, in_action: bool, names: list[str] = ()):
    """Check effects written as in a rule file (text, or `if:`/`for:` mappings) and generate them as an action's
    `do:` is, the values of `names` read from the bindings."""
    return effects(game.loaded, game.watch, resolve_effects(game, items, scope, in_action), names, "case")


def resolve_effects(game, items, scope: dict, in_action: bool):
    """Check effects written as in a rule file: their resolved tree."""
    text = yaml.safe_dump(items if isinstance(items, list) else [items], allow_unicode=True, sort_keys=False)
    doc = parse_yaml(text, "<effect>")
    builder = model._Builder(doc)
    nodes = builder.effects(doc, Span("<effect>", 1, 1))
    if builder.errors:
        raise RuleErrors(builder.errors)
    checker = Checker(game.spec, game.rules.var_types, game.rules.functions)
    checker.errors = []
    checker.steps = set(game.spec.phases[0].steps) if in_action else None
    checker.step_actions = {step: {name for name, _ in listed} for step, listed in game.spec.phases[0].steps.items()}
    resolved = checker.effects(nodes, dict(scope))
    if checker.errors:
        raise RuleErrors(checker.errors)
    return resolved


def resolve_expression(game, text: str, scope: dict):
    """Check an expression as compile_expression does: its resolved tree."""
    node = parse(text, "expr_start", Span("<expression>", 1, 1))
    checker = Checker(game.spec, game.rules.var_types, game.rules.functions)
    checker.errors = []
    resolved = checker.expr(node, dict(scope))
    assert not checker.errors, checker.errors
    return resolved


def check_then(game, s, then: dict):
    for name, want in (then.get("zones") or {}).items():
        base = game.layout.zone_base[name]
        if game.spec.zones[name].each_player:
            got = [[game.cards.names[c] for c in s.zones[base + p]] for p in range(s.n)]
        else:
            got = [game.cards.names[c] for c in s.zones[base]]
        assert got == want, f"zone {name}"
    for name, want in (then.get("vars") or {}).items():
        spec, base = game.spec.vars[name], game.layout.var_base[name]
        if spec.each_player:
            t = game.rules.var_types[name]
            got = [render(game, s.vars[base + p], t) for p in range(s.n)]
            assert got == [written(w, t) for w in want], f"variable {name}"
        else:
            t = game.rules.var_types[name]
            assert render(game, s.vars[base], t) == written(want, t), f"variable {name}"
    for card, player in (then.get("by") or {}).items():
        got = s.by[card_code(game, card)]
        assert got == (None if player is None else player_code(player)), f"{card}.by"
    for name, want in (then.get("sizes") or {}).items():
        base = game.layout.zone_base[name]
        if game.spec.zones[name].each_player:
            assert [len(s.zones[base + p]) for p in range(s.n)] == want, f"sizes of {name}"
        else:
            assert len(s.zones[base]) == want, f"size of {name}"
    for name, want in (then.get("any_order") or {}).items():
        got = [game.cards.names[c] for c in s.zones[game.layout.zone_base[name]]]
        assert sorted(got) == sorted(want), f"zone {name}"
    if "goto" in then:
        assert s.goto == then["goto"]
    if "next_player" in then:
        assert render(game, s.next_player, "player") == then["next_player"]
    if "skips" in then:
        assert s.skips == then["skips"]
    if "deal_over" in then:
        assert s.deal_over is then["deal_over"]
    if "scored" in then:      # the named parts of `score:`, as [variable (with its owner), [[part, value], ...]]
        lay = game.layout
        got = [[(f"P{lay.var_owner[var] + 1} " if lay.var_owner[var] is not None else "") + lay.var_names[var],
                [list(part) for part in parts]] for _, var, parts in s.scored]
        assert got == then["scored"], "scored"
    if "returns" in then:     # the result were the match over now: a copy of the state, marked over
        over = s.clone()
        over.terminal = True
        assert over.returns() == then["returns"], "returns"
    if "said" in then:        # each message as [text, [its players]]
        got = [[text, [f"P{p + 1}" for p in range(s.n) if mask >> p & 1]] for _, mask, text in s.said]
        assert got == then["said"], "said"
    for name, players in (then.get("known") or {}).items():      # who can place a card
        got = [f"P{p + 1}" for p in range(s.n) if s.known[card_code(game, name)] >> p & 1]
        assert got == players, f"who knows {name}"
    for player, texts in (then.get("facts") or {}).items():      # the facts each player holds, as told
        got = game.observe(s, player_code(player)).get("facts", [])
        assert got == texts, f"facts of {player}"
    if "direction" in then:
        assert s.direction == then["direction"]
    if "asked" in then:           # the players asked, in order, and their step (`ask`, an open window)
        assert s.asked is not None
        assert [render(game, p, "player") for p in s.asked[0]] == then["asked"]["players"]
        assert s.asked[1] == then["asked"]["step"]
        assert (len(s.asked) == 3) is then["asked"].get("window", False)
    unknown = set(then) - {"zones", "vars", "by", "goto", "next_player", "skips", "deal_over", "sizes", "any_order",
                           "said", "scored", "known", "facts", "direction", "asked", "returns"}
    assert not unknown, f"unknown keys in then: {unknown}"


# ------------------------------------------------------------------ the test
def assert_error(errors, case):
    first = errors[0]
    listing = "; ".join(f"[{e.category}] {e.message} ({e.hint})" for e in errors)
    assert first.category == case["error"], listing
    if "message" in case:
        assert case["message"] in first.message, listing
    if "hint" in case:
        assert first.hint and case["hint"] in first.hint, listing


def check_help(game, s, b: dict, case: dict, scope: dict):
    """A help text checked as an action's (its fields, with the case's scope as parameters) and said."""
    raw = parse_yaml(yaml.safe_dump({"help": case["help"]}, allow_unicode=True), "<help>")
    errors: list = []
    text = read_help(raw["help"], Span("<help>", 1, 1), "the case", errors)
    checker = Checker(game.spec, game.rules.var_types, game.rules.functions)
    checker.errors = list(errors)
    spec = model.ActionSpec("case", (), None, (), None, Span("<help>", 1, 1), text)
    values = checker.help_values(spec, dict(scope))
    if case.get("error"):
        assert checker.errors, "the help was accepted"
        assert_error(checker.errors, case)
        return
    assert not checker.errors, "; ".join(e.message for e in checker.errors)
    explainer = Explainer(game.loaded, game.rules, game.view, game.layout)
    said = filled(text.text(case.get("language", "en")), values,
                  lambda node: explainer.render(explainer.value(node, s, b), node.type))
    assert said == case["result"]


@pytest.mark.parametrize("path,index", case_params())
def test_case(path, index, rule_dir):
    data = read(path)
    given, case = data["given"] or {}, data["cases"][index]
    game = game_for(path, rule_dir)
    assert sum(k in case for k in ("expr", "effect", "counter", "help", "moves", "play")) == 1, \
        "a case has `expr:`, `effect:`, `counter:`, `help:`, `moves:` or `play:`"
    assert sum(k in case for k in ("result", "error", "then")) == 1, "a case expects one of result/error/then"
    scope = case.get("scope") or {}
    s = make_state(game, given, case)
    b = bindings(game, case)

    if "help" in case:
        check_help(game, s, b, case, scope)
        return

    if "moves" in case:           # the legal moves of one action of `given.actions`, as shown, in id order
        ids = [a for a in s.legal_actions() if game.decode(a)[0].name == case["moves"]]
        assert [s.action_to_string(a) for a in ids] == case["result"]
        assert [s.string_to_action(s.action_to_string(a)) for a in ids] == ids      # each read back
        return

    if "play" in case:            # a move typed as at the table, made by the current player
        s.apply_action(s.string_to_action(str(case["play"])))
        check_then(game, s, case["then"])
        return

    if case.get("error") not in (None, "runtime"):
        with pytest.raises(RuleErrors) as info:
            if "expr" in case:
                compile_expression(game, str(case["expr"]), scope)
            else:
                compile_effects(game, case["effect"], scope, case.get("in_action", True))
        assert_error(info.value.errors, case)
        return

    if "counter" in case:
        if case.get("error") == "runtime":
            with pytest.raises(RuleRuntimeError) as info:
                game.counters[case["counter"]](s, {})
            assert_error([info.value], case)
            return
        assert render(game, game.counters[case["counter"]](s, {}), "bool") == case["result"]
        return

    if "expr" in case:
        f, t = compile_expression(game, str(case["expr"]), scope)
        if "type" in case:
            assert t == case["type"]
        if case.get("error") == "runtime":
            with pytest.raises(RuleRuntimeError) as info:
                f(s, b)
            assert_error([info.value], case)
            return
        assert render(game, f(s, b), t) == written(case["result"], t)
        return

    run = compile_effects(game, case["effect"], scope, case.get("in_action", True), [n for n in scope if n in b])
    s.actor = s.current
    if case.get("error") == "runtime":
        with pytest.raises(RuleRuntimeError) as info:
            run(s, b)
        assert_error([info.value], case)
        return
    run(s, b)
    check_then(game, s, case["then"])


def test_every_topic_is_there():
    names = {p.stem for p in FILES}
    assert {"literals_and_arith", "comparisons_and_ranks", "logic_and_none", "lists_and_aggregates",
            "cards_zones_players", "functions", "effects"} <= names
    assert len(case_params()) >= 120


def test_every_checker_category_is_exercised():
    categories = {c.get("error") for p in FILES for c in read(p)["cases"]}
    assert {"syntax", "name", "type", "arity", "deal", "error", "runtime"} <= categories
