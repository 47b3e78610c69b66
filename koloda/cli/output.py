"""What the command line prints to the terminal, and the failure a user can act on."""
from __future__ import annotations

from typing import IO, Any

import click

from koloda.ui.safe import console as safe_console, shown

console = safe_console()
err_console = safe_console(stderr=True)


class Failure(click.ClickException):
    """A problem the user can act on: printed plainly, exit code 1."""

    def show(self, file: IO[Any] | None = None) -> None:
        err_console.print(f"[bold red]error:[/bold red] {shown(self.message)}", markup=True, soft_wrap=True)
