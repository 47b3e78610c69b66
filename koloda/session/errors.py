"""What goes wrong with a save or a transcript, said so that the user can act on it."""
from __future__ import annotations

import json
from dataclasses import dataclass


class SaveError(Exception):
    """A save or transcript that cannot be used, with a message for the user."""


@dataclass(frozen=True)
class Source:
    """The file being read and what it should be (`save` or `transcript`), to name both in a refusal."""
    where: str
    kind: str

    def invalid(self, reason: str) -> SaveError:
        return SaveError(f"{self.where} is not a valid {self.kind}: {reason}")


def shown(value: object, width: int = 40) -> str:
    """A value from the file as JSON, cut short: a hostile file must not flood the terminal or
    put control characters on it."""
    return printable(json.dumps(value, ensure_ascii=False), width)


def printable(text: str, width: int = 40) -> str:
    """Text from the file with what cannot be printed escaped (`\\u001b`), cut to `width`."""
    text = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text[:width * 7])
    return text if len(text) <= width else text[:width - 1] + "…"
