"""A person at the terminal: sees their own view, picks a move by number or by name."""
from __future__ import annotations

from rich.console import Console

from koloda.dsl.labels import help_in
from koloda.interpreter.core.movetext import read_move
from koloda.interpreter.words.refusal import why_refused
from koloda.interpreter.core.state import State
from koloda.ui import names
from koloda.ui.moves import grouped, grouped_lines, listed_moves, move_groups, starting
from koloda.ui.safe import console as safe_console, plain, shown
from koloda.ui.table import render


class QuitGame(Exception):
    """The player asked to stop."""


def match_move(state: State, text: str) -> tuple[int | None, str]:
    """The legal action a typed line names, or None and why not (for a move of the game that is not
    legal now: which of its rules it breaks)."""
    legal = listed_moves(state)
    entry = text.strip()
    if entry.isascii() and entry.isdigit():
        if len(entry) > 6:
            return None, f"there is no move {entry[:6]}…: choose 1..{len(legal)}"
        k = int(entry)
        if 1 <= k <= len(legal):
            return legal[k - 1], ""
        return None, f"there is no move {k}: choose 1..{len(legal)}"
    found, whole = read_move(entry, legal, state.game.action_to_string, state.current)
    if len(found) == 1:
        return found[0], ""
    said = entry if len(entry) <= 40 else entry[:40] + "…"
    if found:
        shown_moves = ", ".join(f"{legal.index(a) + 1}. {state.game.action_to_string(a)}" for a in found[:6])
        more = f", and {len(found) - 6} more" if len(found) > 6 else ""
        return None, f"`{said}` fits {len(found)} moves: {shown_moves}{more}; say which (number or full name)"
    # not a legal move: say why, in the rule file's words, when the line names a move of the game
    return None, why_refused(state, entry, language=names.language()) or f"`{said}` is not a legal move now"


class HumanAgent:
    name = "human"

    def __init__(self, console: Console | None = None):
        self.console = console or safe_console()

    def show_moves(self, state: State, full: bool = False, only: str = "") -> None:
        """The legal moves, numbered: a long list grouped by action unless `full` (one a line);
        `only`: those that start with these words."""
        legal = listed_moves(state)
        groups = [] if full or only else move_groups(state)
        if groups and grouped(groups, len(legal)):
            self.console.print(f"[dim]{len(legal)} moves, by kind (`moves` lists them one a line):[/dim]")
            for line in grouped_lines(groups, self.console.width):
                self.console.print(line, soft_wrap=True)
            return
        listed = starting(state, only) if only else [(k, state.action_to_string(a)) for k, a in enumerate(legal, 1)]
        if not listed:
            self.console.print(f"[yellow]no legal move starts with `{shown(only[:40])}`[/yellow]")
        for k, text in listed:
            self.console.print(f"  [bold]{k:>2}[/bold]  {shown(text)}")

    def show_help(self, state: State) -> None:
        """The rule text of this step (from the rule file) and the legal moves."""
        game = state.game
        phase_spec = game.spec.phases[state.phase]
        step = f" · {shown(names.step(state.step))}" if len(phase_spec.steps) > 1 else ""
        self.console.print(f"[bold]{shown(names.title(game))}[/bold] · {shown(names.phase(game, state.phase))}{step}")
        lang = names.language()
        if phase_spec.help:
            self.console.print(plain(help_in(phase_spec.help, lang).strip()), markup=False)
        for name, _ in phase_spec.steps[state.step]:
            action = phase_spec.actions[name]
            if action.help:
                label = names.action(game, state.phase, name)
                self.console.print(f"  [bold]{shown(label)}[/bold]: {shown(help_in(action.help, lang).strip())}")
        self.console.print("Legal moves:")
        self.show_moves(state, full=True)
        self.console.print("Type a move's number, or its name such as `play QS` (10 is `10H` or `TH`); "
                           "`moves` lists the moves again, one a line; `quit` saves and stops.")

    def choose(self, state: State) -> int:
        player = state.current_player()
        self.console.print()
        self.console.print(render(state.game, state, player))
        self.show_moves(state)
        while True:
            try:
                entry = self.console.input("[bold green]your move[/bold green] (number or name, `help`, `quit`): ")
            except EOFError:
                raise QuitGame() from None
            entry = entry.strip()
            if not entry:
                continue
            if entry.lower() in ("quit", "exit"):
                raise QuitGame()
            if entry.lower() in ("help", "?"):
                self.show_help(state)
                continue
            command, _, words = entry.partition(" ")
            if command.lower() in ("moves", "all") and not starting(state, command):     # not a move's name
                self.show_moves(state, full=True, only=words.strip())
                continue
            action, why = match_move(state, entry)
            if action is not None:
                return action
            self.console.print(f"[yellow]{shown(why)}[/yellow]")
