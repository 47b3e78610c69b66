"""Text from outside — a rule file, an option, a file name, a save, what a person typed — shown as
it is: never read as rich markup or emoji codes, and never driving the terminal."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from koloda.dsl.errors import CONTROL_CHARACTERS


def shown(text: object) -> str:
    """`text` made safe to put inside a markup string."""
    return escape(plain(text))


def plain(text: object) -> str:
    """`text` made safe to print with markup off (control characters shown as escapes: `\\x1b`
    cannot clear a screen)."""
    return CONTROL_CHARACTERS.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def console(stderr: bool = False) -> Console:
    """A console that substitutes no emoji codes (`:x:` stays `:x:`) and highlights nothing."""
    return Console(stderr=stderr, highlight=False, emoji=False)
