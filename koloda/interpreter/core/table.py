"""A loaded game as its states, agents and views read it (the Table protocol)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from koloda.dsl.model import Spec
from koloda.dsl.resolved import Rules
from koloda.interpreter.base.cards import CardTable
from koloda.interpreter.base.layout import Layout
from koloda.interpreter.core.codec import ActionCodec
from koloda.interpreter.core.flow import Flow

if TYPE_CHECKING:       # the state holds its table, whose methods take the state
    from koloda.interpreter.core.state import State


class Table(Protocol):
    """A loaded game (koloda.interpreter.game.Game) as its states, agents and views read it.

    Declared here, not imported from game.py, so that the state does not depend on the module that builds it."""
    spec: Spec
    rules: Rules
    layout: Layout
    flow: Flow
    codec: ActionCodec
    cards: CardTable
    card_deck: list[int] | None
    heuristic: Callable[[Any, dict], Any] | None
    playouts: tuple[int | None, ...]
    name: str
    title: str
    fingerprint: str
    options: dict
    num_players: int

    @property
    def num_sides(self) -> int: ...

    def sees(self, player: int, owner: int | None, by_side: bool) -> bool: ...

    def owner_label(self, owner: int, by_side: bool) -> str: ...

    def action_to_string(self, action_id: int, plain: bool = False,
                         hide: Callable[[int], bool] | None = None) -> str: ...

    def describe(self, s: "State", action: int, viewer: int | None) -> str: ...

    def observe(self, s: "State", player: int) -> dict: ...

    def render_text(self, s: "State") -> str: ...

    def value_text(self, value: Any, t: str) -> str: ...
