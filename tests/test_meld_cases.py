"""Meld compliance cases, written as data in tests/meld_cases/*.yaml.

File format
-----------
Each file gives defaults under `given:` and a list of `cases:`; a case may override any
of the `given` keys.

    given:
      kinds:                       # the rule file's `melds:` section, as written there
        set: {of: rank, min: 3, max: 4, suits: distinct}
        run: {of: suit, min: 3, ace: wrap}
      decks: 1                     # copies of the 52 cards (default 1)
      jokers: 2                    # jokers in the pack (default 2)
      values: {A: 11, K: 10}       # card values (default: the Kun-kin values)
    cases:
      - id: a short name
        hand: 7S 8S 9S JK          # the cards to meld from (file names; `JK` a joker)
        table: ["7H 8H 9H", "KS KH JK=KC"]   # melds put on the table first, in order
                                   #   (meld 1, meld 2, ...); a joker may name its identity
        plans: ["7♠ 8♠ 9♠", ...]   # exactly these new melds (melds_in), as shown on screen
                                   #   (`plan_text`; the plain form `7S 8S 9S` is accepted too)
        has: [...]                 # these new melds are among them (others may be too)
        lacks: [...]               # and these are not
        valid: "QS KS AS"          # some new meld uses exactly these cards (a joker written
                                   #   `JK=QC` must also stand for that card; `JK` alone: for anything)
        invalid: "QS KS JK JK"     # no new meld uses exactly these cards (this identity)
        layoffs: [...]             # exactly these layoffs of the hand onto the table melds
        swaps: [...]               # exactly these joker swaps
        best: 37                   # best_points of the hand
        keep: 1                    # with `best` and `after`: cards that must stay in hand (default 0)
        first: "5♣ on meld 1"      # a new meld or a layoff of the hand, as shown on screen
        after: 11                  # best_points_after(first, the rest of the hand)
        xfail: "reason"            # a known bug: the case states the correct behaviour
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
import yaml

import koloda

from helpers import cards

HERE = Path(__file__).parent / "meld_cases"
FILES = sorted(HERE.glob("*.yaml"))
GIVEN_KEYS = {"kinds", "decks", "jokers", "values"}
CASE_KEYS = GIVEN_KEYS | {"id", "hand", "table", "plans", "has", "lacks", "valid", "invalid", "layoffs", "swaps",
                          "best", "keep", "first", "after", "xfail"}
CHECKS = {"plans", "has", "lacks", "valid", "invalid", "layoffs", "swaps", "best", "after"}
KUNKIN_VALUES = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "JK": 20}


@lru_cache(maxsize=None)
def read(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) <= {"given", "cases"}, f"{path.name}: unknown top keys"
    return data


def settings(path: Path, case: dict) -> dict:
    out = {"decks": 1, "jokers": 2, "values": KUNKIN_VALUES}
    out.update(read(path).get("given") or {})
    out.update({k: v for k, v in case.items() if k in GIVEN_KEYS})
    assert "kinds" in out, f"{path.name}: no meld kinds"
    return out


def case_params():
    out = []
    for path in FILES:
        for i, case in enumerate(read(path)["cases"]):
            unknown = set(case) - CASE_KEYS
            assert not unknown, f"{path.name} case {i}: unknown keys {unknown}"
            assert set(case) & CHECKS, f"{path.name} case {i}: nothing to check"
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if "xfail" in case else []
            label = case.get("id") or case.get("hand", "")
            out.append(pytest.param(path, i, id=f"{path.stem}[{i}]:{label[:60]}", marks=marks))
    return out


# ------------------------------------------------------------------ a small game around the meld kinds
def rule_document(s: dict) -> dict:
    return {
        "game": "meldcase", "players": {"min": 2, "max": 2, "default": 2},
        "deck": {"base": "standard52", "copies": s["decks"], "jokers": s["jokers"]},
        "values": dict(s["values"]),
        "zones": {"stock": {"visible": "nobody"}, "hand": {"each": "player", "visible": "owner"},
                  "table": {"each": "player", "melds": True, "visible": "all"}},
        "melds": s["kinds"],
        "phases": {"main": {"actions": {"noop": {"do": "end turn"}}, "steps": {"main": ["noop"]}}},
    }


_games: dict[str, object] = {}


@pytest.fixture(scope="session")
def rule_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("meld_rules")


def game_for(s: dict, rule_dir: Path):
    text = yaml.safe_dump(rule_document(s), sort_keys=True, allow_unicode=True)
    if text not in _games:
        path = rule_dir / f"meldcase{len(_games)}.yaml"
        path.write_text(text, encoding="utf-8")
        _games[text] = koloda.load(str(path))
    return _games[text]


# ------------------------------------------------------------------ plans as text
def split_token(token: str) -> tuple[str, str | None]:
    """`JK=QC` -> ("JK", "QC"); `7S` -> ("7S", None)."""
    name, _, stands = token.partition("=")
    return name, stands or None


def plan_texts(game, plan) -> set[str]:
    return {game.plan_text(plan), game.plan_text(plan, plain=True)}


def shown_as(game, plan, text: str) -> bool:
    """Is `plan` written `text`? A set's cards may be listed in any order; a run's are in table order."""
    if text in plan_texts(game, plan):
        return True
    from koloda.interpreter.melds.melds import NEW
    if plan.type == NEW and game.melds.kinds[plan.kind].of == "rank":
        return any(sorted(text.split()) == sorted(t.split()) for t in plan_texts(game, plan))
    return False


def uses_exactly(game, plan, text: str) -> bool:
    """Does the new meld `plan` use exactly the cards written in `text` (and the identities given)?"""
    from koloda.interpreter.base.cards import rank_name
    from koloda.interpreter.melds.melds import identity_parts
    stands = dict(plan.wild)
    have = []
    for c in plan.cards:
        name = game.cards.names[c]
        if c in stands:
            rank, suit = identity_parts(stands[c])
            name += "=" + rank_name(rank) + ("" if suit is None else "CDHS"[suit])
        have.append(name)
    want = text.split()
    if len(want) != len(have):
        return False
    pool = list(have)
    for token in want:
        name, stands_for = split_token(token)
        norm = game.cards.names[game.cards.parse(name)[0]]
        match = next((h for h in pool if split_token(h)[0] == norm
                      and (stands_for is None or split_token(h)[1] == normal_identity(game, stands_for))), None)
        if match is None:
            return False
        pool.remove(match)
    return True


def normal_identity(game, text: str) -> str:
    """`QC`/`Q♣`/`TC` -> `QC`; a bare rank `Q` (any suit) -> `Q`."""
    ids = game.cards.parse(text)
    if ids:
        return game.cards.names[ids[0]]
    ids = game.cards.parse(text + "C")
    assert ids, f"no identity {text!r}"
    return game.cards.names[ids[0]][:-1]


def match_texts(game, plans, expected: list[str]) -> None:
    got = sorted(game.plan_text(p) for p in plans)
    want = []
    for e in expected:
        found = [p for p in plans if shown_as(game, p, e)]
        want.append(game.plan_text(found[0]) if found else e)
    assert sorted(want) == got, f"expected {sorted(expected)}, got {got}"


# ------------------------------------------------------------------ the table
def table_state(game, melds: list[str]):
    s = game.new_initial_state(0)
    hand0 = game.layout.zone_base["hand"]
    for i, text in enumerate(melds):
        names = [split_token(t)[0] for t in text.split()]
        ids = [c for c in cards(game, names)]
        # take the cards from wherever they are (the first copies not yet on the table)
        on_table = {c for slot, z in enumerate(game.layout.slot_zone) for c in s.zones[z]}
        ids = []
        for n in names:
            free = [c for c in game.cards.parse(n) if c not in on_table and c not in ids]
            assert free, f"no more {n} for the table"
            ids.append(free[0])
        for c in ids:
            s.move(c, hand0 + 1, None)
        plans = [p for p in game.melds.melds_in(ids, 1) if sorted(p.cards) == sorted(ids)
                 and uses_exactly(game, p, text)]
        assert plans, f"table meld {text!r} is not a valid meld: {[game.plan_text(p) for p in game.melds.melds_in(ids, 1)]}"
        s.meld(plans[0], 1)
    return s


def hand_ids(game, s, text: str) -> list[int]:
    taken = {c for z in game.layout.slot_zone for c in s.zones[z]}
    out = []
    for n in text.split():
        free = [c for c in game.cards.parse(n) if c not in taken and c not in out]
        assert free, f"no more {n} for the hand"
        out.append(free[0])
    return out


# ------------------------------------------------------------------ the test
@pytest.mark.parametrize("path,index", case_params())
def test_meld_case(path, index, rule_dir):
    case = read(path)["cases"][index]
    game = game_for(settings(path, case), rule_dir)
    s = table_state(game, case.get("table") or [])
    hand = hand_ids(game, s, case.get("hand", ""))
    m = game.melds
    new = m.melds_in(hand, 0)
    if "plans" in case:
        match_texts(game, new, case["plans"])
    for text in case.get("has", []):
        assert any(shown_as(game, p, text) for p in new), \
            f"{text!r} not among {[game.plan_text(p) for p in new]}"
    for text in case.get("lacks", []):
        assert not any(shown_as(game, p, text) for p in new), f"{text!r} is offered"
    if "valid" in case:
        assert any(uses_exactly(game, p, case["valid"]) for p in new), \
            f"{case['valid']!r} is not offered; offered: {[game.plan_text(p) for p in new]}"
    if "invalid" in case:
        bad = [game.plan_text(p) for p in new if uses_exactly(game, p, case["invalid"])]
        assert not bad, f"{case['invalid']!r} is offered as {bad}"
    if "layoffs" in case:
        match_texts(game, m.layoffs(s, hand), case["layoffs"])
    if "swaps" in case:
        match_texts(game, m.swaps(s, hand), case["swaps"])
    reach = game.loaded.reach
    keep = case.get("keep", 0)
    if "best" in case:
        assert reach.best_points(hand, keep) == case["best"]
    if "after" in case:
        plays = new + m.layoffs(s, hand)
        first = [p for p in plays if shown_as(game, p, case["first"])]
        assert first, f"{case['first']!r} is not among {[game.plan_text(p) for p in plays]}"
        rest = [c for c in hand if c not in first[0].cards]
        assert reach.best_after(s, first[0], rest, keep) == case["after"]
