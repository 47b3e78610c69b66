"""The expression parser's tables, built once and kept in the user's cache folder.

Building Lark's LALR tables from grammar.lark takes most of a tenth of a second in every new
process; reading them back takes a few milliseconds. The cache file is named by a hash of all
that the tables depend on (the grammar, the parser's options, Lark's and Python's versions), so
a changed grammar never meets old tables. A cache folder that cannot be made or written, and a
cache file that is damaged, half written or not the user's own, are passed over: the parser is
then built from the grammar as before, and nothing is reported.

The folder is `$KOLODA_CACHE` if set (set and empty: no cache file at all), otherwise
`$XDG_CACHE_HOME/koloda`, otherwise `~/.cache/koloda`.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

import lark
from lark import Lark

from koloda.dsl.cachedir import FOLDER_MODE, cache_dir, trusted, write_entry

__all__ = ["cache_dir", "cache_key", "cache_file", "cached_parser", "FOLDER_MODE"]


def cache_key(grammar: str, options: dict[str, Any]) -> str:
    what = repr((grammar, sorted(options.items()), lark.__version__, sys.version_info[:2]))
    return hashlib.sha256(what.encode("utf-8")).hexdigest()


def cache_file(key: str) -> Path | None:
    folder = cache_dir()
    return folder / f"parser-{key[:32]}.lark" if folder is not None else None


def cached_parser(grammar: str, **options: Any) -> Lark:
    """`Lark(grammar, **options)` (LALR), from the cache file when there is a good one; written there when not."""
    key = cache_key(grammar, options)
    path = cache_file(key)
    parser = _read(path, key) if path is not None else None
    if parser is None:
        parser = Lark(grammar, **options)
        if path is not None:
            _write(path, key, parser)
    return parser


def _read(path: Path, key: str) -> Lark | None:
    try:
        with path.open("rb") as f:
            # Lark keeps its tables as a pickle: only a file the user alone could have written is read
            if not trusted(os.fstat(f.fileno())) or f.readline() != key.encode("ascii") + b"\n":
                return None
            return Lark.load(f)
    except Exception:        # noqa: BLE001 — missing, unreadable, cut short or damaged: build it instead
        return None


def _write(path: Path, key: str, parser: Lark) -> None:
    """The tables after a line of their key, written so that a reader never meets half a file."""
    def tables(f: BinaryIO) -> None:
        f.write(key.encode("ascii") + b"\n")
        parser.save(f)
    write_entry(path, tables)
