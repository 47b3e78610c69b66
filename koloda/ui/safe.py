"""Text from outside — a rule file, an option, a file name, a save, what a person typed — shown as
it is: never read as rich markup or emoji codes, and never driving the terminal."""
from __future__ import annotations

import re

from rich.console import Console
from rich.markup import escape

# Control characters (but line ends and tab) are shown as escapes: `\x1b` cannot clear a screen.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: object) -> str:
    """`text` made safe to put inside a markup string."""
    return escape(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text)))


def plain(text: object) -> str:
    """`text` made safe to print with markup off (control characters escaped)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def console(stderr: bool = False) -> Console:
    """A console that substitutes no emoji codes (`:x:` stays `:x:`) and highlights nothing."""
    return Console(stderr=stderr, highlight=False, emoji=False)
