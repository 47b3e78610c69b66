"""Compiled generated code, kept on disk so that the next load of the same game skips Python's compile().

Writing the source takes a few milliseconds and is done at every load (the
module's namespace holds objects of this load: functions, tables, places in
the file); compiling it takes several times longer, and its result depends
on nothing but the source and the Python that compiles it. So the cache is
keyed by a hash of exactly those: the generated source (which follows from
the rule file, its options, the number of players and the engine that wrote
it), the file name given to compile(), the Python version and its bytecode
magic number.

The folder is the parser's (dsl/cachedir.py): KOLODA_CACHE (set and empty:
no cache), else $XDG_CACHE_HOME/koloda, else ~/.cache/koloda; the code is kept
under `generated/`. It is made for its owner only, and a cached
file is used only if it belongs to the user and nobody else may write it: it
is code that will run, like Python's own __pycache__. A cache that cannot be
read, is corrupt or cannot be written is passed over silently: the code is
then compiled, as without a cache.
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
import warnings
from pathlib import Path
from types import CodeType

from koloda.dsl.cachedir import cache_dir, trusted, write_entry


def enabled() -> bool:
    return os.environ.get("KOLODA_CODE_CACHE", "1") != "0"


def compiled(source: str, filename: str) -> CodeType:
    """compile(source, filename, "exec"), from the cache when it holds it. Warnings are errors."""
    folder = cache_dir()
    if folder is None or not enabled():
        return _compile(source, filename)
    key = hashlib.sha256("\0".join([sys.version, importlib.util.MAGIC_NUMBER.hex(), filename, source])
                         .encode("utf-8", "surrogatepass")).hexdigest()
    path = folder / "generated" / f"{key}.code"
    code = _read(path)
    if code is not None:
        return code
    code = _compile(source, filename)
    _write(path, code)
    return code


def _compile(source: str, filename: str) -> CodeType:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return compile(source, filename, "exec")


def _read(path: Path) -> CodeType | None:
    try:
        with open(path, "rb") as f:
            if not trusted(os.fstat(f.fileno())):
                return None                  # someone else could have written it
            code = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _write(path: Path, code: CodeType) -> None:
    write_entry(path, lambda f: f.write(marshal.dumps(code)))
