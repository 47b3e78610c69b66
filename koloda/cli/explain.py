"""`koloda explain`: a game's rules printed back as a rulebook, or what two variants change.

The rulebook is imported inside the command, so that `koloda --help` starts without the engine.
"""
from __future__ import annotations

import sys

import click

from koloda.cli.output import Failure
from koloda.dsl.errors import RuleError, RuleErrors

LANGUAGES = ("en", "ru")      # koloda.rulebook.LANGUAGES, not imported here (see above); a test keeps them equal


def _pairs(text: str, where: str) -> dict[str, str]:
    found = {}
    for pair in text.split(","):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise Failure(f"{where}: `{pair}` is not key=value")
        found[key.strip()] = value.strip()
    return found


def _variant(text: str, game: str | None, options: dict[str, str]) -> tuple[str, dict[str, str], str]:
    """A side of `--diff`: a game or file, or (with GAME) options `k=v,k=v` for GAME; its name as shown."""
    if "=" in text and game is not None:
        given = {**options, **_pairs(text, "--diff")}
        return game, given, f"{game} {text}"
    return text, options, text


@click.command()
@click.argument("game", required=False)
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="A table option (repeatable).")
@click.option("--lang", "language", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="The language of the rulebook.")
@click.option("--diff", "diff", nargs=2, metavar="A B", default=None,
              help="Say what B changes from A: two games or rule files, or (after GAME) two option sets "
                   "written key=value,key=value.")
def explain(game: str | None, options: tuple[str, ...], language: str, diff: tuple[str, str] | None) -> None:
    """Print a game's rules in words: deck, deal, phases, moves and their conditions, scoring, the end."""
    from koloda.rulebook import rulebook
    from koloda.rulebook.compare import difference
    given: dict[str, str] = {}
    for pair in options:
        given.update(_pairs(pair, "--option"))
    try:
        if diff is None:
            if game is None:
                raise Failure("name a game or a rule file (or give --diff A B)")
            click.echo(rulebook(game, given, language).markdown(), nl=False)
            return
        (ga, oa, na), (gb, ob, nb) = (_variant(d, game, given) for d in diff)
        text, count = difference(rulebook(ga, oa, language), rulebook(gb, ob, language), na, nb, language)
        click.echo(text, nl=False)
    except (RuleErrors, RuleError) as exc:
        errors = exc.errors if isinstance(exc, RuleErrors) else [exc]
        raise Failure("\n".join(e.format() for e in errors)) from None
    sys.exit(0)
