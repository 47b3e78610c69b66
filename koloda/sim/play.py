"""One simulated game, played to a record: the moves, how long it lasted, how the standings went."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from koloda.agents.judge import standing
from koloda.agents.registry import make_agent
from koloda.interpreter.base.errors import RuleRuntimeError
from koloda.interpreter.game import Game, Hands
from koloda.interpreter.core.state import State
from koloda.report.quality import measure
from koloda.report.records import ENDED, RULE_ERROR, STEP_CAP, GameRecord


@dataclass(frozen=True)
class Position:
    """What every game of a simulation starts from besides its seed (see Game.new_initial_state)."""
    deck: list[list[int]] | None = None
    dealer: int | None = None
    hands: Hands | None = None

    def orders(self, game: Game, seed: int) -> list[list[int]] | None:
        """Every deck order of the game with this seed: the hands as the orders that deal them,
        then the deck's (a save keeps these, and replays without the hands)."""
        dealt = game.opening_orders(seed, self.hands, self.dealer) if self.hands is not None else []
        return dealt + (self.deck or []) or None


def game_seed(master: int, number: int) -> int:
    """Game `number` of a run: its deals depend on the run's seed and its number only, never on
    which worker plays it or when, and `koloda play --seed` deals it again."""
    return master + number


def seating(seats: Sequence[str], players: int, number: int, rotate: bool) -> tuple[str, ...]:
    """The agent at each seat in game `number`: with `rotate`, the list turns one seat a game, so
    over any `players` games in a row every agent sits at every seat once."""
    table = list(seats) + ["random"] * (players - len(seats))
    if not rotate:
        return tuple(table)
    shift = number % players
    return tuple(table[(p - shift) % players] for p in range(players))


def play_game(game: Game, number: int, master: int, seats: Sequence[str], max_moves: int = 100_000,
              position: Position = Position(), rotate: bool = False) -> GameRecord:
    """Play game `number` of a run with seed `master`; a rule error ends this game only."""
    n = game.num_players
    seed = game_seed(master, number)
    agents = seating(seats, n, number, rotate)
    players = [make_agent(agents[p], master * 7919 + number * n + p) for p in range(n)]
    counts = dict.fromkeys(game.counters, 0)
    state: State | None = None

    def tally(s: State) -> None:
        # the flow calls back for every state, the bots' imagined ones too: this game's only
        if s is state:
            for name, held in game.counters.items():
                if held(s, {}):
                    counts[name] += 1

    points: list[list[float]] = []
    decisions = legal_moves = forced = 0
    stop = game.on_deal_scored(tally)
    try:
        state = game.new_initial_state(seed, position.deck, position.dealer, position.hands)
        while not state.is_terminal() and decisions < max_moves:
            legal = len(state.legal_actions())
            legal_moves += legal
            forced += legal == 1
            points.append(standing(state))
            state.apply_action(players[state.current_player()].choose(state))
            decisions += 1
    except RuleRuntimeError as exc:         # this game's fault; the others go on
        return GameRecord(number, seed, agents, RULE_ERROR, exc.format(with_source=False), decisions=decisions,
                          legal_moves=legal_moves, forced=forced)
    finally:
        stop()
    if not state.is_terminal():
        return GameRecord(number, seed, agents, STEP_CAP, deals=state.deal_number, turns=state.turn_no,
                          decisions=decisions, legal_moves=legal_moves, forced=forced, counts=counts)
    points.append(standing(state))
    returns = tuple(state.returns())
    return GameRecord(number, seed, agents, ENDED, returns=returns, scores=tuple(float(x) for x in state.scores()),
                      deals=state.deal_number, turns=state.turn_no, decisions=decisions, legal_moves=legal_moves,
                      forced=forced, quality=measure(points, [game.side_of(p) for p in range(n)], returns),
                      counts=counts, capped=state.capped)
