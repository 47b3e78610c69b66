"""The greedy bot's search for a lone player (koloda/agents/lookahead.py): best first over the
positions its moves lead to, never one met before, a won game taken at once; a plan kept only while
its seat knows every card."""
from __future__ import annotations

import functools

import koloda
from koloda.agents.greedy import GreedyAgent
from koloda.agents.lookahead import Lookahead, best_line, knows_all, position
from koloda.agents.registry import make_agent

from helpers import setup

import random

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


@functools.lru_cache(maxsize=None)
def freecell():
    return koloda.load("freecell", None, 1)


def nearly_won():
    """All but the spades from 10 up home; the 10 lies under the king, queen and jack."""
    s = freecell().new_initial_state(0)
    homes = {f"{suit}_home": " ".join(r + suit[0].upper() for r in RANKS)
             for suit in ("clubs", "diamonds", "hearts")}
    homes["spades_home"] = " ".join(r + "S" for r in RANKS[:9])
    return setup(s, zones={**homes, "col1": "10S KS QS JS"}, rest="stock")


def test_the_search_finds_the_way_home():
    s = nearly_won()
    line = best_line(s.clone(), 0, 200, set())
    after = s.clone()
    for action in line:
        after.apply_action(action)
    assert after.is_terminal() and after.returns() == [1.0]


def test_the_search_never_comes_back_to_a_position_met():
    s = nearly_won()
    met = {position(s)}
    here = position(s)
    line = best_line(s.clone(), 0, 200, met)
    seen = [here]
    after = s.clone()
    for action in line:
        after.apply_action(action)
        seen.append(position(after))
    assert len(set(seen)) == len(seen)
    # every position it looked at is kept, so a second search from the same place finds nothing new
    assert position(after) in met


def test_the_greedy_bot_with_search_wins_where_it_plans():
    s = nearly_won()
    bot = make_agent("greedy:samples=1,search=200", seed=3)
    assert isinstance(bot, GreedyAgent) and isinstance(bot.lookahead, Lookahead)
    for _ in range(40):
        if s.is_terminal():
            break
        s.apply_action(bot.choose(s))
    assert s.is_terminal() and s.returns() == [1.0]


def test_a_plan_is_kept_only_while_every_card_is_known():
    s = freecell().new_initial_state(4)
    assert knows_all(s, 0)                            # FreeCell: all 52 face up
    k = koloda.load("klondike", None, 1).new_initial_state(4)
    assert not knows_all(k, 0)                        # Klondike: the stock and the piles' hidden cards
    look = Lookahead(50, random.Random(1))
    action = look.choose(k, 0)
    assert action in k.legal_actions() and look.expect is None     # nothing to follow: searched anew
    look = Lookahead(50, random.Random(1))
    action = look.choose(s, 0)
    after = s.clone()
    after.apply_action(action)
    assert look.expect == position(after)            # the plan's next move is made there


def test_without_search_or_with_rivals_greedy_looks_one_move_ahead():
    assert GreedyAgent(1).lookahead is None
    bot = GreedyAgent(1, samples=1, search=50)
    s = koloda.load("pony", None, 2).new_initial_state(1)
    assert bot.choose(s) in s.legal_actions() and bot.lookahead.match is None
