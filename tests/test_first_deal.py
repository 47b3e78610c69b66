"""A table that cannot even make its first deal is refused at load, in words that fit it."""
from __future__ import annotations

import pytest

import koloda
from koloda.dsl.errors import RuleError

RULES = """\
game: short
players: 2
deck: {ranks: [J, Q, K], suits: [spades]}
zones:
  stock: {visible: nobody}
  hand: {each: player, visible: owner}
deal:
  - deal DEAL to each hand
phases:
  play:
    actions:
      pass:
"""


def _refusal(tmp_path, deal: str) -> RuleError:
    path = tmp_path / "short.yaml"
    path.write_text(RULES.replace("DEAL", deal), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        koloda.load(str(path))
    return info.value


def test_one_card_is_one_card_and_a_table_without_options_names_none(tmp_path):
    error = _refusal(tmp_path, "1")
    # the stock is empty: nothing was moved there
    assert error.message == ("dealing 1 card to each of 2 players needs 2 cards, but only 0 are left to deal "
                             "(with 2 players)")
    assert (error.span.line, error.span.col) == (8, 5)


def test_several_cards_keep_their_plural(tmp_path):
    error = _refusal(tmp_path, "2")
    assert error.message.startswith("dealing 2 cards to each of 2 players needs 4 cards")
