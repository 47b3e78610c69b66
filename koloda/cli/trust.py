"""What a save's or transcript's integrity check says, told at the table (koloda/session/integrity.py).

A save changed since koloda wrote it (its seats swapped, a bot's settings edited, its moves) is
said to be so, with what changed; at a terminal the person is asked whether to go on with it as
it is, elsewhere it is refused unless `--accept-edited` says go on. A save with no check (written
by an earlier koloda) or with one made under another key (another machine or account) goes on
with a line saying so: the user's saves are their work.

Imported by the commands that use it (cli/main.py), as it imports the sessions."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from koloda.cli.output import Failure, console
from koloda.session.integrity import CHANGED, FOREIGN as FOREIGN_KEY, UNCHECKED, Verdict
from koloda.ui.safe import plain

UNCHECKED_SAVE = ("This save was written by an earlier koloda and carries no integrity check; "
                  "it is saved with one from now on.")
FOREIGN = ("its integrity check was made with another key (on another machine or account), "
           "so koloda cannot check it here")


def check_save(verdict: Verdict | None, path: Path, accept_edited: bool) -> None:
    """Go on (after a line, if one is due), or raise the Failure that refuses the save."""
    if verdict is None or verdict.status not in (CHANGED, FOREIGN_KEY, UNCHECKED):
        return
    if verdict.status == UNCHECKED:
        console.print(UNCHECKED_SAVE, style="dim", markup=False, soft_wrap=True)
        return
    if verdict.status == FOREIGN_KEY:
        console.print(f"This save's {FOREIGN}.", style="yellow", markup=False, soft_wrap=True)
        return
    changes = "; ".join(verdict.changes)
    if accept_edited:
        console.print(f"{plain(path)} was changed after koloda saved it: {changes}. Going on with it as it is "
                      "(--accept-edited).", style="yellow", markup=False, soft_wrap=True)
        return
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Failure(f"{plain(path)} was changed after koloda saved it: {changes}. To go on with it as it is: "
                      f"koloda resume --accept-edited {plain(shlex.quote(str(path)))}")
    console.print(f"{plain(path)} was changed after koloda saved it: {changes}.", style="yellow", markup=False,
                  soft_wrap=True)
    if not click.confirm("Go on with the game as the file has it now?", default=False):
        raise Failure("not resumed; the save is left as it is")


def replay_note(verdict: Verdict, whole: bool) -> str | None:
    """A line after a replay whose transcript could not be checked; None when it was (or was cut short)."""
    if verdict.status == FOREIGN_KEY:
        return f"The transcript's {FOREIGN}."
    if verdict.status == UNCHECKED and whole:
        return "The transcript was written by an earlier koloda and carries no integrity check."
    return None
