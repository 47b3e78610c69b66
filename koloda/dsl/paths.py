"""Where rule files are: a shipped game or library by its name, a path given, and what `extends:` or
`import:` names. Nothing here reads YAML, so `koloda list` can ask its cache without PyYAML."""
from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import NamedTuple

from koloda.dsl.errors import RuleError, did_you_mean

RULES_PACKAGE = "koloda.rules"


def shipped_path(name: str) -> Path | None:
    if "/" in name or len(name) > 100:
        return None
    path = Path(str(resources.files(RULES_PACKAGE).joinpath(f"{name}.yaml")))
    try:
        return path if path.is_file() else None
    except OSError:
        return None


def shipped_names() -> list[str]:
    folder = Path(str(resources.files(RULES_PACKAGE)))
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.stem.startswith("_"))


def library_names() -> list[str]:
    folder = Path(str(resources.files(RULES_PACKAGE).joinpath("lib")))
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def resolve(name_or_path: str) -> Path:
    """A rule file given on the command line or to `koloda.load`: a shipped game's name, or a path.
    (What a rule file names in `extends:` or `import:` is found by `reference`, within bounds.)"""
    try:
        return _resolve(name_or_path)
    except OSError as exc:
        raise RuleError(f"cannot read `{name_or_path[:80]}`: {exc.strerror or 'not a file name'}") from None


def _resolve(name_or_path: str) -> Path:
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        if not candidate.is_file():
            raise RuleError(f"no such rule file: {name_or_path}")
        return candidate
    shipped = shipped_path(name_or_path)
    if shipped is not None:
        return shipped
    # a game written here by name, as `koloda new my-game` names it: `my-game` is `my-game.yaml`
    for suffix in (".yaml", ".yml"):
        local = Path(name_or_path + suffix)
        if "/" not in name_or_path and local.is_file():
            return local
    hint = did_you_mean(name_or_path, shipped_names())
    raise RuleError(f"no shipped game or rule file named `{name_or_path}`", hint=hint)


def display_name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):         # outside the working folder, or no working folder at all
        return str(path)


class Reads(NamedTuple):
    """What reading a rule file looked at, for the cache of checked rules (dsl/rulecache.py) to ask
    again: each file read (its path, its name in messages, its text), and each name that
    `extends:` or `import:` gave with the file it led to (a new file in the folder can change that)."""
    files: list[tuple[Path, str, str]]
    references: list[tuple[str, Path, str, Path]]


def reference(name: str, relative_to: Path, kind: str) -> Path:
    """Where `extends: NAME` or `import: [NAME]` leads: a shipped game or library by its name, or a
    file in the including file's own folder or below it. Nothing else is read: a rule file has no
    access to other files (no absolute paths, no `..`, no links that lead out of the folder)."""
    folder = relative_to.parent.resolve()
    candidate = Path(name)
    if len(name) > 255 or candidate.is_absolute() or ".." in candidate.parts or "\\" in name:
        raise RuleError(f"`{name[:60]}`: a rule file may name a shipped {kind} or a file in its own folder, "
                        "not a path outside it")
    try:
        for near in (folder / candidate, (folder / candidate).with_suffix(".yaml")):
            if near.suffix in (".yaml", ".yml") and near.is_file():
                if not near.resolve().is_relative_to(folder):
                    raise RuleError(f"`{name}` leads outside the folder of the file that names it")
                return near
    except (OSError, ValueError):
        raise RuleError(f"`{name[:60]}` cannot be read as a file name") from None
    shipped = library_path(name) if kind == "library" else shipped_path(name)
    if shipped is not None:
        return shipped
    known = library_names() if kind == "library" else shipped_names()
    raise RuleError(f"no {'library' if kind == 'library' else 'shipped game or rule file'} named `{name}`",
                    hint=did_you_mean(name, known))


def library_path(name: str) -> Path | None:
    if "/" in name:
        return None
    path = Path(str(resources.files(RULES_PACKAGE).joinpath("lib", f"{name}.yaml")))
    return path if path.is_file() else None
