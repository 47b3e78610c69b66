"""koloda games as OpenSpiel games (the `koloda[openspiel]` extra).

    import koloda.openspiel             # registers the game "koloda" with pyspiel
    game = pyspiel.load_game("koloda", {"rules": "kunkin", "players": 2, "options": "limit=50"})

or, with a rule file's options as parameters of their own:

    name = koloda.openspiel.register("kunkin")          # "koloda_kunkin"
    game = pyspiel.load_game(name, {"limit": 50})

The game is sequential, of imperfect information, with one explicit chance node at the start
that picks the match's seed among `seeds` equally likely ones (every later shuffle is decided by
that seed); with `chance_base` B > 1 (and `seeds` a power of B) the seed is drawn instead as its
digits in base B, one chance node of B outcomes each, the same uniform seed for a cost that does
not grow with `seeds` (OpenSpiel's samplers list every outcome of a chance node each time). With
`chance` "cards" there is no seed: every shuffle is dealt card by card at chance nodes (and a first
dealer drawn by lot is a chance node of its own), as OpenSpiel's own games deal, so that the game
tree is the real one for exact solvers (koloda/dealing.py). A `turns: together` phase is a
simultaneous node a round; with `together` "in_turn" its choosers move one at a time in the engine's
order instead (nobody can learn of another's choice of the round, the checker has made sure), so
that the game is sequential for the algorithms that search only such games (OpenSpiel's MCTS and
ISMCTS bots). Actions are the tokens of koloda's compact view, so every game's
`num_distinct_actions` fits. The returns are koloda's shares of the win (1 for a sole winner,
split among tied winners, 0 otherwise; partners share their side's), so the utility lies in
[0, 1] and the sum of the returns is the number of players of a side. In a game against the
house each player's return is their own result against it (1 won, 0.5 level, 0 lost): the game
is then general-sum. A match still going after
`max_moves` steps is cut and scored as a draw.
"""
from __future__ import annotations

import functools
import random
from typing import Any, Literal

import numpy as np
import pyspiel

from koloda import dealing
from koloda.api import load
from koloda.episode import DEFAULT_MAX_STEPS, Episode, Round, Table
from koloda.interpreter.game import Game
from koloda.interpreter.core.state import TERMINAL

__all__ = ["register", "load_game", "KolodaGame", "KolodaState", "parse_options"]

DEFAULT_SEEDS = 1 << 16
_MAX_PLAYERS = 64


def parse_options(text: str) -> dict[str, str]:
    """`"hand=7, limit=50"` -> {"hand": "7", "limit": "50"}: the table's options in one parameter.
    `hand:7;limit:50` too: the form a game's serialization keeps (OpenSpiel's game strings cannot
    hold `=` or `,` in a value)."""
    options = {}
    for item in filter(None, (part.strip() for part in text.replace(";", ",").split(","))):
        eq, colon = item.find("="), item.find(":")
        at = eq if eq >= 0 and (colon < 0 or eq < colon) else colon
        key, value = (item[:at], item[at + 1:]) if at >= 0 else (item, "")
        if at < 0 or not key.strip():
            raise ValueError(f"options are written `name=value, name=value`, not `{item}`")
        options[key.strip()] = value.strip()
    return options


def options_text(options: dict[str, str]) -> str:
    """The options as `hand:7;limit:50`, which survives OpenSpiel's game strings (serialize,
    deserialize_game_and_state, pickled states)."""
    return ";".join(f"{k}:{v}" for k, v in options.items())


def _game_type(short_name: str, long_name: str, parameters: dict[str, Any], low: int, high: int,
               together: bool = False, goal: bool = False) -> pyspiel.GameType:
    """`together`: the rule file has a `turns: together` phase, whose rounds are simultaneous nodes;
    `goal`: it has a goal (`won:`), so each player's return is 1 or 0 on its own."""
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if together else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # the returns always add up to the number of players of a side (sides are equal); with a
        # goal (`won:`) each player's is 1 or 0 on its own, a solitaire's too
        utility=pyspiel.GameType.Utility.GENERAL_SUM if goal else pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)


_PARAMETERS = {"rules": "pony", "players": 0, "options": "", "seeds": DEFAULT_SEEDS, "max_moves": DEFAULT_MAX_STEPS,
               "chance_base": 0, "chance": "seed", "together": "simultaneous"}
CHANCE_MODES = ("seed", "cards")
TOGETHER_MODES = ("simultaneous", "in_turn")


def _retyped(t: pyspiel.GameType, general_sum: bool, sequential: bool) -> pyspiel.GameType:
    """The game type `t` of a game against the house or with a goal (`won:`), whose returns have no
    fixed sum since each player's is their own result; or of one whose `turns: together` rounds are
    played in turn (`sequential`)."""
    return pyspiel.GameType(
        short_name=t.short_name, long_name=t.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL if sequential else t.dynamics, chance_mode=t.chance_mode,
        information=t.information, utility=pyspiel.GameType.Utility.GENERAL_SUM if general_sum else t.utility,
        reward_model=t.reward_model,
        max_num_players=t.max_num_players, min_num_players=t.min_num_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=t.parameter_specification)


def _digits(seeds: int, base: int) -> int:
    """How many base-`base` digits draw one of `seeds` seeds (0: one node of `seeds` outcomes)."""
    if base == 0 or base == seeds:
        return 0
    if base < 2:
        raise ValueError(f"`chance_base` is 0 (one chance node) or at least 2, not {base}")
    digits, size = 0, 1
    while size < seeds:
        size *= base
        digits += 1
    if size != seeds:
        raise ValueError(f"with `chance_base` {base}, `seeds` is a power of it (such as {base ** max(digits, 1)}), "
                         f"not {seeds}: each seed must stay equally likely")
    return digits


class KolodaGame(pyspiel.Game):
    """A rule file at a table: its options and number of players are the game's parameters."""

    def __init__(self, params: dict[str, Any] | None = None, game_type: pyspiel.GameType | None = None,
                 rules: str | None = None):
        given: dict[str, Any] = dict(_PARAMETERS)
        given.update(params or {})
        options = parse_options(str(given.pop("options", "")))
        named = given.pop("rules")       # a game made by `register` has its rule file already
        rules = rules or str(named)
        players = int(given.pop("players")) or None
        self.seeds = int(given.pop("seeds"))
        self.max_moves = int(given.pop("max_moves"))
        base = int(given.pop("chance_base", 0))
        self.chance = str(given.pop("chance", "seed"))
        together = str(given.pop("together", "simultaneous"))
        if together not in TOGETHER_MODES:
            raise ValueError(f"`together` is `simultaneous` (a `turns: together` round is one simultaneous node) "
                             f"or `in_turn` (its choosers move one at a time), not `{together}`")
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"`chance` is `seed` (one seed decides every shuffle) or `cards` (each shuffle dealt "
                             f"card by card at chance nodes), not `{self.chance}`")
        if self.seeds < 1 or self.max_moves < 1:
            raise ValueError("`seeds` and `max_moves` are at least 1")
        self.digits = _digits(self.seeds, base)
        self.base = base if self.digits else self.seeds
        # made once: every chance node asks for them (65,536 pairs by default, B with chance_base)
        self.outcomes = [(s, 1.0 / self.base) for s in range(self.base)]
        options.update({k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in given.items()})
        game = load(rules, options, players)
        self.koloda: Game = game
        self.table = Table(game)
        goal = game.flow.won is not None
        layout = game.layout
        chances = self.base if self.chance == "seed" else max(game.cards.size, game.num_players)
        # against the house each player wins or loses alone: the returns add up to no fixed sum
        house = game.spec.house is not None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.spelling.num_distinct_actions(),
            max_chance_outcomes=chances, num_players=game.num_players, min_utility=0.0, max_utility=1.0,
            utility_sum=None if house or goal else game.num_players / layout.num_sides,
            max_game_length=self.max_moves)
        kept = dict(params or {})
        if "options" in kept:       # the same options, in a form the game's string can hold
            kept["options"] = options_text(parse_options(str(kept["options"])))
        self.together = together == "simultaneous" and any(phase.together for phase in game.spec.phases)
        if game_type is None:
            game_type = _GENERIC_TOGETHER if self.together else _GENERIC
        sequential = not self.together and game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        if house or goal or sequential:
            game_type = _retyped(game_type, house or goal, sequential)
        super().__init__(game_type, info, kept)

    def new_initial_state(self) -> "KolodaState":
        return KolodaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "KolodaObserver":
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            # a view of the public cards alone, or of every seat's, is not built
            raise ValueError("koloda games observe for one seat: its own cards and the public ones")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return KolodaObserver(self, recall, params)


class _Match:
    """All a KolodaState holds: its game and the match (None before the chance node).

    OpenSpiel clones a Python state by deep-copying its attributes, and serializes it by pickling
    them: a copy shares the game (and the compiled rules) and copies the match; a pickle is the
    game's name and parameters and the match as plain data (koloda's state JSON)."""
    __slots__ = ("game", "episode", "digits", "deal", "round")

    def __init__(self, game: KolodaGame, episode: Episode | None, digits: tuple[int, ...] = (),
                 deal: dealing.Deal | None = None):
        self.game = game
        # at a simultaneous node: its choosers and their tokens (worked out once; None: not asked yet)
        self.round: Round | None | Literal[False] = False if game.together else None
        # with chance "cards", while a shuffle is dealt: the match before the move that shuffles
        self.episode = episode
        self.digits = digits        # the seed's digits drawn so far (chance_base)
        self.deal = deal            # chance "cards": the chance node the match is at (None: none)

    def copy(self) -> "_Match":
        other = _Match(self.game, None if self.episode is None else self.episode.clone(), self.digits, self.deal)
        other.round = self.round        # a Round is never changed in place: shared
        return other

    def together(self) -> Round | None:
        """The `turns: together` round the match is at the start of, if any (episode.py)."""
        if self.round is False:
            self.round = None
            if self.episode is not None and self.deal is None:
                self.round = self.episode.together_round()
        return self.round

    def moved(self) -> None:
        """The match has changed: whether it is at a simultaneous node is asked again."""
        if self.game.together:
            self.round = False

    def __deepcopy__(self, memo: dict) -> "_Match":
        return self.copy()       # a Deal is never changed in place: shared

    def __reduce__(self) -> tuple:
        return _restore, (self.game.serialize(), None if self.episode is None else self.episode.snapshot(),
                          self.digits, None if self.deal is None else self.deal.to_json())


@functools.lru_cache(maxsize=16)
def _game_named(text: str) -> KolodaGame:
    return pyspiel.load_game(text)


def _restore(game_text: str, match: dict | None, digits: tuple[int, ...] = (), deal: dict | None = None) -> _Match:
    game = _game_named(game_text)
    episode = None if match is None else Episode.restore(game.table, match)
    if episode is not None and game.chance == "cards":
        dealing.dealt(episode)
    return _Match(game, episode, tuple(digits),
                  None if deal is None else dealing.Deal.from_json(game.table, game.max_moves, deal))


class KolodaState(pyspiel.State):
    """Before the chance node a match has no seed yet; after it, an Episode of koloda's compact view."""

    def __init__(self, game: KolodaGame, match: _Match | None = None):
        super().__init__(game)
        if match is None:
            match = _Match(game, None)
            if game.chance == "cards":
                self._took(match, dealing.begin(game.table, game.max_moves))
        self._match = match

    @staticmethod
    def _took(match: _Match, node: Episode | dealing.Deal) -> None:
        """Chance "cards": the match goes on at `node`, a chance node (the match before the move
        stays the one the seats see) or the match itself."""
        if isinstance(node, dealing.Deal):
            match.deal = node
            if node.base is not None:
                match.episode = node.base
        else:
            match.deal, match.episode = None, node

    @property
    def episode(self) -> Episode | None:
        return self._match.episode

    @property
    def _koloda_game(self) -> KolodaGame:
        return self._match.game

    # OpenSpiel asks these several times a step: each reads the match once
    def current_player(self) -> int:
        match = self._match
        if match.episode is None or match.deal is not None:
            return pyspiel.PlayerId.CHANCE
        if match.round is not None and match.together() is not None:
            return pyspiel.PlayerId.SIMULTANEOUS
        return match.episode.current_player()       # koloda's TERMINAL is OpenSpiel's

    def _legal_actions(self, player: int) -> list[int]:
        episode = self._match.episode
        assert episode is not None
        together = self._match.together() if self._match.round is not None else None
        if together is not None:
            # a seat that does not choose in this round (skipped) has one move, `wait`, token 0
            return list(together.legal.get(player, (0,)))
        return episode.legal_actions()

    def _apply_actions(self, actions: list[int]) -> None:
        """A simultaneous node: every seat's token at once, played in the engine's order."""
        match = self._match
        together = match.together()
        episode = match.episode
        assert together is not None and episode is not None
        tokens = {seat: int(actions[seat]) for seat, _ in together.order}
        if self._koloda_game.chance == "cards":
            last = together.order[-1][0]
            for seat, _ in together.order:
                if seat == last:
                    self._took(match, dealing.play(episode, tokens[seat]))
                else:
                    episode.play_together(Round(((seat, together.legal[seat]),)), {seat: tokens[seat]})
        else:
            episode.play_together(together, tokens)
        match.moved()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deal = self._match.deal
        return self._koloda_game.outcomes if deal is None else deal.outcomes()

    def _apply_action(self, action: int) -> None:
        self._match.moved()
        match = self._match
        if self._koloda_game.chance == "cards":
            if match.deal is not None:
                self._took(match, dealing.deal(match.deal, int(action)))
            else:
                assert match.episode is not None
                self._took(match, dealing.play(match.episode, int(action)))
            return
        if self.episode is None:
            game, match = self._koloda_game, self._match
            if len(match.digits) + 1 < game.digits:      # a digit of the seed, not its last
                match.digits += (int(action),)
                return
            seed = 0
            for digit in match.digits + (int(action),):     # the first digit drawn is the most significant
                seed = seed * game.base + digit
            match.digits = ()
            self._match.episode = Episode(game.table, seed, game.max_moves)
        else:
            self.episode.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._match.deal is not None:
            return self._match.deal.outcome_text(action)
        if player == pyspiel.PlayerId.CHANCE or self.episode is None:
            return f"seed digit {action}" if self._koloda_game.digits else f"seed {action}"
        together = self._match.together() if self._match.round is not None else None
        if together is not None and player not in together.legal:
            return "wait"
        return self.episode.action_to_string(action)

    def is_terminal(self) -> bool:
        match = self._match
        return match.episode is not None and match.deal is None and match.episode.is_terminal()

    def returns(self) -> list[float]:
        if self.episode is None or not self.episode.is_terminal():
            return [0.0] * self._koloda_game.num_players()
        return self.episode.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "KolodaState":
        """A state `player_id` cannot tell from this one: the cards they cannot place dealt anew.
        The sampler (a uniform number in [0, 1) each call) decides the deal."""
        if self.episode is None or self._match.deal is not None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return KolodaState(self._koloda_game, _Match(self._koloda_game, self.episode.resample(player_id, rng)))

    def __str__(self) -> str:
        return "(no seed yet)" if self.episode is None else str(self.episode.native)


class KolodaObserver:
    """What a seat sees, as OpenSpiel's observers give it: a flat tensor and a string.

    With perfect recall: the information state (koloda's information-state tensor; the string
    adds every move as the seat saw it); without: the observation."""

    def __init__(self, game: KolodaGame, recall: bool, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.recall = recall
        spelling = game.table.spelling
        shape = tuple(spelling.information_state_tensor_shape() if recall else spelling.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: KolodaState, player: int) -> None:
        episode = state.episode
        if episode is None:
            self.tensor.fill(0)
            return
        values = episode.information_state_tensor(player) if self.recall else episode.observation_tensor(player)
        self.tensor[:] = values

    def string_from(self, state: KolodaState, player: int) -> str:
        episode = state.episode
        if episode is None:
            return f"P{player + 1}: before the deal"
        return episode.information_state_string(player) if self.recall else episode.observation_string(player)


assert TERMINAL == pyspiel.PlayerId.TERMINAL     # current_player passes koloda's on

_REGISTERED: dict[str, str] = {}      # the games `register` made: short name -> rule file
_GENERIC = _game_type("koloda", "koloda: any rule file", _PARAMETERS, 1, _MAX_PLAYERS)
# the type a rule file with a `turns: together` phase is given when loaded as "koloda"
_GENERIC_TOGETHER = _game_type("koloda", "koloda: any rule file", _PARAMETERS, 1, _MAX_PLAYERS, together=True)
pyspiel.register_game(_GENERIC, KolodaGame)


def register(rules: str) -> str:
    """Register one rule file (a shipped name or a path) as the OpenSpiel game "koloda_<name>",
    whose parameters are its options (with their defaults), `players`, `seeds` and `max_moves`.
    Returns the name to give `pyspiel.load_game`."""
    sample = load(rules)
    spec = sample.spec
    short = "koloda_" + "".join(ch if ch.isalnum() else "_" for ch in spec.name)
    if short in _REGISTERED:
        if _REGISTERED[short] != rules:
            raise ValueError(f"`{short}` is already registered, for {_REGISTERED[short]}")
        return short
    parameters: dict[str, Any] = {"players": sample.num_players, "seeds": DEFAULT_SEEDS,
                                  "max_moves": DEFAULT_MAX_STEPS, "chance_base": 0, "chance": "seed",
                                  "together": "simultaneous"}
    for name, option in spec.options.items():
        if name in parameters:
            raise ValueError(f"{spec.name}'s option `{name}` has the name of a parameter of every koloda game: "
                             f"load it as pyspiel.load_game(\"koloda\", {{\"rules\": ..., \"options\": \"{name}=...\"}})")
        parameters[name] = option.default
    game_type = _game_type(short, f"koloda: {sample.title}", parameters, spec.min_players, spec.max_players,
                           together=any(phase.together for phase in spec.phases), goal=sample.flow.won is not None)

    class Registered(KolodaGame):
        def __init__(self, params: dict[str, Any] | None = None):
            super().__init__(params, game_type, rules)

    Registered.__name__ = Registered.__qualname__ = f"KolodaGame_{short}"
    pyspiel.register_game(game_type, Registered)
    _REGISTERED[short] = rules
    return short


def load_game(rules: str, players: int | None = None, seeds: int = DEFAULT_SEEDS,
              max_moves: int = DEFAULT_MAX_STEPS, chance_base: int = 0, chance: str = "seed",
              together: str = "simultaneous", **options: Any) -> pyspiel.Game:
    """`load_game("kunkin", players=2, limit=50)`: the same as pyspiel.load_game("koloda", {...})."""
    text = ", ".join(f"{k}={v}" for k, v in options.items())
    return pyspiel.load_game("koloda", {"rules": rules, "players": players or 0, "options": text,
                                        "seeds": seeds, "max_moves": max_moves, "chance_base": chance_base,
                                        "chance": chance, "together": together})

