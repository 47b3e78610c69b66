"""`koloda fmt` and `koloda new`: tools for writing rule files. No game logic here.

Like the commands in main.py, each imports what it uses inside its function, so that `koloda --help`
starts without the engine or ruamel.yaml (an extra: pip install 'koloda[fmt]')."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from koloda.cli.output import Failure, console
from koloda.ui.safe import plain


def _yaml_error(text: str, name: str) -> str | None:
    """What is wrong with a file that is not YAML, told as `check` tells it: file:line:col, the line, a caret."""
    from koloda.dsl.errors import RuleError
    from koloda.dsl.loader import parse_yaml
    try:
        parse_yaml(text, name)
    except RuleError as exc:
        return exc.format()
    return None


@click.command(name="fmt")
@click.argument("files", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Change nothing; list the files that are not in the layout and exit 1.")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; show what the layout would change.")
def fmt(files: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Write rule files in the canonical layout: keys in the documented order, one effect a line,
    quotes only where needed; comments kept, the game unchanged (docs/authoring.md)."""
    try:
        from koloda.authoring.fmt import FormatError, format_text
    except ImportError:
        raise Failure("koloda fmt needs ruamel.yaml: pip install 'koloda[fmt]'") from None
    changed, failed = [], 0
    for name in files:
        path = Path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            console.print(plain(f"{name}: cannot read it: {getattr(exc, 'strerror', None) or 'not UTF-8 text'}"),
                          markup=False, soft_wrap=True)
            failed += 1
            continue
        try:
            new = format_text(text)
        except FormatError as exc:
            console.print(plain(_yaml_error(text, name) or f"{name}: {exc}"), markup=False, soft_wrap=True)
            failed += 1
            continue
        if new == text:
            continue
        changed.append(name)
        if show_diff:
            sys.stdout.write("".join(difflib.unified_diff(text.splitlines(keepends=True), new.splitlines(keepends=True),
                                                          name, f"{name} (formatted)")))
        elif check:
            console.print(plain(f"{name} would be reformatted"), markup=False, soft_wrap=True)
        else:
            path.write_text(new, encoding="utf-8")
            console.print(plain(f"{name} reformatted"), markup=False, soft_wrap=True)
    if check or show_diff:
        if changed:
            console.print(f"{len(changed)} file{'s' * (len(changed) != 1)} not in the layout (`koloda fmt FILE` "
                          "lays them out)", markup=False)
    if failed or (check and changed):
        sys.exit(1)


@click.command(name="new")
@click.argument("name")
@click.option("--like", default=None, metavar="GAME", help="Start from a shipped game's rules (default: a small "
                                                          "shedding game).")
@click.option("--dir", "folder", default=".", show_default=True, metavar="DIR", help="Where to write the files.")
def new(name: str, like: str | None, folder: str) -> None:
    """Start a game: NAME.yaml, a rule file that checks and plays, and test_NAME.py, its scenarios."""
    from koloda.authoring.starter import StarterError, create
    try:
        rules, tests = create(name, like, Path(folder))
    except StarterError as exc:
        raise Failure(str(exc)) from None
    except OSError as exc:
        raise Failure(f"cannot write into {folder}: {exc.strerror}") from None
    console.print(plain(f"wrote {rules} and {tests}: `koloda check {rules}`, `koloda play {rules}`, "
                        f"`python -m pytest {tests}`"), markup=False, soft_wrap=True)
