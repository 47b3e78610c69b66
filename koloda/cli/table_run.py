"""A game at the table: each seat chooses in turn, every move is told, saved and logged.

The engine, the bots and the table are imported inside the functions, as in cli/main.py: the
command line starts without them."""
from __future__ import annotations

import json
import secrets
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from koloda.cli.output import Failure, console
from koloda.dsl.errors import RuleError
from koloda.ui.safe import shown

if TYPE_CHECKING:
    from koloda.interpreter.game import Game
    from koloda.interpreter.core.state import State
    from koloda.session import Session


def scores_text(state: State) -> str:
    return ", ".join(f"P{p + 1} {v}" for p, v in enumerate(state.scores()))


def default_save(game_name: str) -> Path:
    from koloda.session import default_save_dir
    # two games started in the same second must not share a save
    return default_save_dir() / f"{game_name}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}.save.json"


def run(session: Session, save_path: Path | None, log_file: str | None, delay: float, max_moves: int = 0) -> None:
    """The table: each seat chooses in turn; the game is saved after every move."""
    from koloda.ui import names
    from koloda.ui.table import said_lines, taken_lines
    from koloda.agents.human import QuitGame
    from koloda.agents.outside import AgentFailure
    from koloda.agents.registry import make_agent
    from koloda.ui.table import deal_summary, render
    g, state, seats = session.game, session.state, session.seats
    agents = [make_agent(s, session.seed * 31 + i + len(session.moves), console, interactive=True)
              for i, s in enumerate(seats)]
    humans = [i for i, s in enumerate(seats) if s.split(":")[0] == "human"]
    log = _open_log(log_file, session)
    console.print(f"[bold]{shown(names.title(g))}[/bold] · seed {session.seed} · seats: " +
                  ", ".join(f"P{i + 1} {shown(s)}" for i, s in enumerate(seats)))
    try:
        if save_path is not None:
            session.save(save_path)
            console.print(f"[dim]saving after every move to {shown(save_path)}[/dim]")
    except OSError as exc:
        raise Failure(f"cannot save to {save_path}: {exc.strerror}") from None
    viewer = humans[0] if humans else None

    ended_deals: list[State] = []
    at_keyboard = [humans[0] if len(humans) == 1 else -1]      # who last played here, when people share it

    def deal_over(ended: State) -> None:
        # kept as it was when scored, and shown after the move that ended it
        if humans and ended is state:        # not the states bots imagine
            ended_deals.append(ended.clone())
    stop_listening = g.on_deal_scored(deal_over)
    try:
        while not state.is_terminal():
            if max_moves and len(session.moves) >= max_moves:
                raise Failure(f"the game has not ended after {len(session.moves)} moves, so it was stopped "
                              f"(--max-moves {max_moves}): the rules may never end it"
                              + (f". It is saved in {save_path}" if save_path is not None else ""))
            player = state.current_player()
            if len(humans) > 1 and player in humans and player != at_keyboard[0]:
                _hand_over(player, at_keyboard)
            action = agents[player].choose(state)
            session.play(action)
            # a move that ended the deal is told as the table was then, before the next deal's shuffle
            told = ended_deals[0] if ended_deals else state
            console.print(f"[dim]P{player + 1}[/dim] {shown(g.describe(told, action, viewer))}")
            for line in taken_lines(g, told, viewer):     # a trick taken: its cards, who played each
                console.print(line)
            for line in said_lines(state, viewer):       # what the rules told the viewer in this move
                console.print(line)
            for ended in ended_deals:
                console.print(deal_summary(g, ended))
                console.print(f"Scores after deal {ended.deal_number}: " + scores_text(ended))
            ended_deals.clear()
            if save_path is not None:
                session.save(save_path)
            if log:
                log.write(session.transcript_move(player, action) + "\n")
                log.flush()
            if humans and player not in humans and delay > 0:
                time.sleep(delay)
    except (QuitGame, KeyboardInterrupt) as stop:
        for told_line in _stopped_lines(seats, save_path, log_file):
            # a command on a line of its own, never broken: it is to be copied
            console.print(told_line, soft_wrap=True)
        sys.exit(0 if isinstance(stop, QuitGame) else 130)
    except RuleError as exc:
        raise Failure(exc.format()) from None
    except AgentFailure as exc:       # a program playing a seat failed: the game cannot go on
        raise Failure(str(exc)) from None
    finally:
        stop_listening()
        if log:
            if state.is_terminal():
                log.write(session.transcript_end() + "\n")
            log.close()
    console.print(render(g, state, humans[0] if humans else None))
    console.print("[bold]Game over.[/bold] Scores: " + scores_text(state))
    if state.capped:
        console.print(f"Deal {state.deal_number} reached the rules' turn cap ({state.deal_turns} turns): "
                      + ("the match ends there." if g.flow.won is not None else "the match ends drawn."))
    console.print(_result(g, state.returns()))


def _stopped_lines(seats: list[str], save_path: Path | None, log_file: str | None) -> list[str]:
    """What a person who stops a game is told: whether it was saved, and how to go on with it or why
    it cannot be."""
    programs = [f"P{i + 1}" for i, s in enumerate(seats) if s.split(":")[0] in ("cmd", "py")]
    # a save does not start programs (koloda/agents/registry.py): anyone could write a command into one
    why = (f"{' and '.join(programs)} {'is a program' if len(programs) == 1 else 'are programs'} (`cmd:` or `py:`), "
           "and a saved game never starts programs, since anyone could write a command into a save")
    if save_path is not None:
        lines = [f"\nGame saved in {shown(save_path)}."]
        if programs:
            lines.append(f"It cannot be resumed: {why}.")
        else:
            lines.append(f"Go on with:\n  {shown(_resume_command(save_path))}")
    elif programs:
        lines = [f"\nThe game was not saved, and cannot be resumed: {why}."]
    else:
        lines = ["\nThe game was not saved: a game between bots is saved only when asked (`--save FILE`)."]
    if log_file is not None:
        lines.append(f"Its moves so far are in {shown(log_file)}: `koloda replay {shown(shlex.quote(log_file))}` "
                     "shows them.")
    return lines


def _result(game: Game, returns: list[float]) -> str:
    """`Winner: P2`; partners win together (`Winners: P1+P3`); several players level at the top share.
    Against the house, each player's own result: `P1 beat the dealer`. With a goal (`won:`), the
    players who reached it, or nobody; a solitaire is won or lost."""
    if game.spec.house is not None:
        from koloda.ui.house import against_house_text
        return against_house_text(game.spec.house.label, returns)
    if game.flow.won is not None and game.num_players == 1:
        return "Won: the rules' goal is reached." if returns[0] > 0 else "Lost: the rules' goal (`won:`) is not reached."
    if game.flow.won is not None and not any(returns):
        return "Nobody won: nobody reached the rules' goal (`won:`)."
    if game.flow.won is not None and all(returns):
        return "Everybody won: every player reached the rules' goal (`won:`)."
    if game.num_players == 1:
        return "One player: the score is the result."
    best = [p for p in range(len(returns)) if returns[p] == max(returns)]
    if len(best) == len(returns):
        return "A draw: every player shares the win."
    sides = sorted({game.side_of(p) for p in best})
    if game.num_sides < game.num_players and all(p in best for p in range(len(returns)) if game.side_of(p) in sides):
        teams = [game.owner_label(t, True) for t in sides]
        if len(teams) == 1:
            return f"Winners: {teams[0]}"
        return "Winners: " + " and ".join(teams) + " (a shared win)"
    if len(best) > 1:
        return "Winners: " + " and ".join(f"P{p + 1}" for p in best) + " (a shared win)"
    return f"Winner: P{best[0] + 1}"


def _resume_command(save_path: Path) -> str:
    """`koloda resume ID` for a save in the save folder, else with the file (quoted for a shell if need be)."""
    from koloda.session import default_save_dir
    folder = default_save_dir()
    try:
        in_folder = save_path.parent.resolve() == folder.resolve() and save_path.name.endswith(".save.json")
    except OSError:
        in_folder = False
    return "koloda resume " + (save_path.name.removesuffix(".save.json") if in_folder else shlex.quote(str(save_path)))


def _hand_over(player: int, at_keyboard: list[int]) -> None:
    """Hot seat: the screen is cleared and the next person takes the keyboard before their hand is shown."""
    from koloda.agents.human import QuitGame
    if at_keyboard[0] >= 0:
        console.print(f"\n[bold]Pass the keyboard to P{player + 1}[/bold] and press Enter.")
        try:
            console.input()
        except EOFError:
            raise QuitGame() from None
        console.clear()
    at_keyboard[0] = player


def holds_something(path: Path) -> bool:
    try:
        return path.exists() and path.stat().st_size > 0
    except OSError:
        return False


def _open_log(log_file: str | None, session: Session) -> TextIO | None:
    if log_file is None:
        return None
    path = Path(log_file)
    fresh = not path.exists() or path.stat().st_size == 0
    try:
        log = open(path, "a", encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot write the transcript {log_file}: {exc.strerror}") from None
    if fresh:
        # a new transcript of a resumed game starts from the beginning, so it replays on its own
        log.write(session.transcript_header() + "\n")
        replay_state = session.game.new_initial_state(session.seed, session.deck, session.dealer)
        for action in session.moves:
            player = replay_state.current_player()
            replay_state.apply_action(action)
            log.write(json.dumps({"type": "move", "n": replay_state.moves, "player": player, "action": action,
                                  "text": session.game.action_to_string(action)}) + "\n")
        return log
    from koloda.session.transcript import recorded_fingerprint, recorded_seats, rules_record, seats_record
    rules_were = recorded_fingerprint(path)
    if rules_were is not None and rules_were != session.game.fingerprint:
        # resumed under a later version of the rules, in which every move so far plays the same: the
        # transcript says so, so that it replays under the rules it ends under
        log.write(rules_record(rules_were, session.game.fingerprint, len(session.moves)) + "\n")
        console.print(f"[yellow]{shown(log_file)} was written under an earlier version of the rules; the "
                      "change is written into it as a line of its own.[/yellow]", soft_wrap=True)
    was = recorded_seats(path)
    if was is not None and was != session.seats:
        # a save accepted as edited: the transcript says so, or its end record's check would not match it
        log.write(seats_record(was, session.seats, len(session.moves)) + "\n")
        console.print(f"[yellow]{shown(log_file)} records other seats ({shown(', '.join(was))}); the change "
                      "is written into it as a line of its own.[/yellow]", soft_wrap=True)
    return log
