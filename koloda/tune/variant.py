"""A chosen variant written out as a rule file: `extends:` the base with its options' defaults set,
so that `koloda check`, `play` and `compare` take it as it is (docs/language.md, `extends`)."""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from koloda.dsl.paths import shipped_names
from koloda.tune.space import PLAYERS


class VariantError(ValueError):
    """A variant file that cannot be written where asked (the message says why)."""


def _value(text: str) -> str:
    if text in ("true", "false") or text.lstrip("-").isdigit():
        return text
    return json.dumps(text, ensure_ascii=False)      # a YAML text, quoted as JSON quotes it


def base_reference(game_ref: str, folder: Path) -> str:
    """What `extends:` says for the base from a file in `folder`: a shipped game's name, or the
    path from there (a rule file reads only its own folder and below, docs/language.md)."""
    if game_ref in shipped_names() and not Path(game_ref).exists():
        return game_ref
    relative = os.path.relpath(Path(game_ref).resolve(), folder.resolve())
    if relative.startswith(".."):
        raise VariantError(f"a variant of {game_ref} must be written in its folder or one above it "
                           f"(an `extends:` cannot lead out of the variant's folder): give --out {Path(game_ref).parent}")
    return Path(relative).as_posix()


def variant_text(game_name: str, base: str, options: dict[str, str], players: int | None, rank: int,
                 about: Sequence[str]) -> str:
    lines = [f"# Variant {rank} of {base}, found by koloda tune:", *(f"#   {a}" for a in about),
             f"game: {game_name}-tuned-{rank}", f"extends: {_value(base)}"]
    if players is not None:
        lines.append(f"players: {{default: {players}}}")
    if options:
        lines.append("options:")
        lines += [f"  {name}: {{default: {_value(value)}}}" for name, value in options.items()]
    return "\n".join(lines) + "\n"


def write_variant(folder: Path, game_ref: str, game_name: str, options: dict[str, str], players: int | None,
                  rank: int, about: Sequence[str]) -> Path:
    """Write variant `rank` into `folder`; `players`: its number of players when the search chose it."""
    base = base_reference(game_ref, folder)
    stem = game_name if base == game_ref and "/" not in base else Path(game_ref).stem
    path = folder / f"{stem}-tuned-{rank}.yaml"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(variant_text(game_name, base, {k: v for k, v in options.items() if k != PLAYERS},
                                     players, rank, about), encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"cannot write {path}: {exc.strerror}") from None
    return path
