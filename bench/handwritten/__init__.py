"""Hand-written reference engines: Oh Hell, Crazy Eights and Gin Rummy in plain Python, each on
exactly the rules of its twin in bench/same_rules.py, for bench.py to measure koloda against what
plain Python does for one game (bench/README.md, "Hand-written references").

Each engine is a game object with ``new_initial_state(seed)``, which picks the dealer and shuffles
with its own ``random.Random(seed)``, and ``dealt(...)``, a state after a deal given card by card
(the tests give it koloda's deal); a state has ``current_player()``, ``legal_actions()`` (ints),
``apply_action(a)``, ``is_terminal()``, ``scores()`` (koloda's match scores), ``returns()``
(koloda's: the share of the win) and ``action_to_string(a)`` (koloda's move text).
"""
from __future__ import annotations

from collections.abc import Callable

from .cards import Game
from .crazy_eights import CrazyEights
from .gin_rummy import GinRummy
from .oh_hell import OhHell

# the bench's names (hand:NAME, the twin's OpenSpiel name), each making the engine on its twin's rules
ENGINES: dict[str, Callable[[], Game]] = {"oh_hell": OhHell, "crazy_eights": CrazyEights, "gin_rummy": GinRummy}
