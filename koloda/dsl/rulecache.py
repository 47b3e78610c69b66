"""Checked rules kept on disk, so that loading a rule file again skips reading, parsing and checking it.

Reading a rule file's YAML, checking it against the schema, parsing its expressions and checking
them takes most of a load; the result (the Spec and the resolved rules, warnings included) follows
from nothing but the text of the files read and the code that reads them. So an entry is found by
a hash of the rule file's bytes, its name in messages, where it is, and the engine (koloda's
version, the modification time and size of every file of the language's code, as Python's own
`__pycache__` does, and the versions of PyYAML, Lark and jsonschema). The entry lists every other file read
(`extends:`, `import:`) with a hash of its bytes, and every name those keys gave with the file it
led to: before an entry is used, each name is looked up again and each file is read and hashed
again, so a changed file, a new file in the folder that a name now leads to, or a run from
another folder (file names in messages differ) is never served from an old entry. Only rules that
checked without errors are kept (their warnings with them); a file with errors is checked afresh
each time, so its messages are always the checker's own.

The folder is the parser's (dsl/cachedir.py): KOLODA_CACHE (set and empty: no cache), else
$XDG_CACHE_HOME/koloda, else ~/.cache/koloda; entries are kept under `checked/`. An entry is a
pickle, and reading a pickle can run code: as for the parser's tables and the compiled code, a
file is read only if it belongs to the user and nobody else may write it, and the folder is made
for its owner only (what `koloda list` shows of a file is kept the same way, under `about/`). An
entry that cannot be read, is damaged or cannot be written is passed over silently: the file is
then read and checked as without a cache. KOLODA_RULE_CACHE=0 turns this cache alone off.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import io
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from koloda.dsl.cachedir import cache_dir, trusted, write_entry
from koloda.dsl.paths import Reads, display_name, reference

# The kinds of entry, each in its own folder: a file's checked rules (Spec and resolved rules), and
# what `koloda list` shows of it (dsl/about.py), which is kept without checking the file whole.
CHECKED = "checked"
ABOUT = "about"
# Each edit of a rule file that checks clean writes a new entry; past this many of a kind, the
# least recently written are removed, so the folder stays within tens of megabytes.
MAX_ENTRIES = 300
_ENGINE = Path(__file__).parent          # the language's code: a change to any of it is a new engine
_fingerprint: str | None = None


def engine_fingerprint() -> str:
    """Python's version, and by size and modification time each file of the language's code, the
    package's `__init__.py` (which holds koloda's version) and those of PyYAML, Lark and jsonschema
    (which hold theirs: found, not imported, as `koloda list` needs neither Lark nor jsonschema)."""
    global _fingerprint
    if _fingerprint is None:
        parts = [sys.version]
        with os.scandir(_ENGINE) as entries:
            files = [Path(e.path) for e in entries if e.name.endswith((".py", ".json", ".lark"))]
        found = [importlib.util.find_spec(name) for name in ("yaml", "lark", "jsonschema")]
        libraries = [Path(spec.origin) for spec in found if spec is not None and spec.origin]
        for path in [*libraries, _ENGINE.parent / "__init__.py", *sorted(files)]:
            st = path.stat()
            parts.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
        _fingerprint = "\0".join(parts)
    return _fingerprint


def enabled() -> bool:
    """KOLODA_RULE_CACHE=0 checks every file afresh (to profile or measure the checker), keeping the other caches."""
    return os.environ.get("KOLODA_RULE_CACHE", "1") != "0"


def entry_path(path: Path, data: bytes, kind: str = CHECKED) -> Path | None:
    """Where the entry of this kind for the rule file at `path` with these bytes is kept; None without a cache."""
    folder = cache_dir()
    if folder is None or not enabled():
        return None
    key = hashlib.sha256("\0".join([engine_fingerprint(), str(path), display_name(path), ""]).encode(
        "utf-8", "surrogateescape") + data).hexdigest()
    return folder / kind / f"{key}.pickle"


def lookup(path: Path, kind: str = CHECKED) -> Any | None:
    """What `store` kept of this kind for the rule file at `path`, if every file it read is as it was;
    else None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        where = entry_path(path, data, kind)
        if where is None:
            return None
        with open(where, "rb") as f:
            if not trusted(os.fstat(f.fileno())):      # a pickle can run code
                return None
            files, references, checked = pickle.load(f)
        if not all(reference(name, relative_to, what) == found for name, relative_to, what, found in references):
            return None
        for read_path, shown, digest in files[1:]:       # the first is `path`, whose bytes are in the key
            if display_name(read_path) != shown or _digest(read_path.read_bytes()) != digest:
                return None
        return checked
    except Exception:        # noqa: BLE001 — missing, unreadable, damaged or from another engine: check afresh
        return None


def store(path: Path, reads: Reads, checked: Any, kind: str = CHECKED) -> None:
    """Keep `checked`, what was made of `path` by reading the files `reads` tells, for `lookup`."""
    if not reads.files or reads.files[0][0] != path:
        return
    try:
        where = entry_path(path, reads.files[0][2].encode("utf-8"), kind)
        if where is None:
            return
        files = [(p, shown, _digest(text.encode("utf-8"))) for p, shown, text in reads.files]
        buffer = io.BytesIO()
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((files, reads.references, checked))
        if write_entry(where, lambda f: f.write(buffer.getvalue())):
            _prune(where.parent)
    except Exception:        # noqa: BLE001 — what cannot be kept only costs the next load its time
        pass


class _Pickler(pickle.Pickler):
    """Frozen dataclasses with slots (the syntax trees' nodes, spans) as their class and field values:
    read back by `_rebuilt`, they load in about 60 % of the time dataclasses' own `__setstate__`
    takes, which looks up the class's fields again for every node."""

    def reducer_override(self, obj: Any) -> Any:
        names = _field_names(type(obj))
        if names is None:
            return NotImplemented
        return _rebuilt, (type(obj), tuple(getattr(obj, name) for name in names))


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """The fields of a class made by `@dataclass(frozen=True, slots=True)` itself; None for any other."""
    names = _FIELDS.get(cls, ())
    if names == ():
        names = None
        params = cls.__dict__.get("__dataclass_params__")
        if "__dataclass_fields__" in cls.__dict__ and "__slots__" in cls.__dict__ and params and params.frozen:
            names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELDS[cls] = names
    return names


def _rebuilt(cls: type, values: tuple) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in zip(_field_names(cls) or (), values):
        object.__setattr__(obj, name, value)          # frozen: its own __setattr__ refuses
    return obj


def _prune(folder: Path) -> None:
    """Remove the oldest entries beyond MAX_ENTRIES (another process may be removing them too)."""
    with os.scandir(folder) as found:
        entries = [(e.stat().st_mtime_ns, e.path) for e in found if e.name.endswith(".pickle")]
    if len(entries) <= MAX_ENTRIES:
        return
    for _, old in sorted(entries)[:len(entries) - MAX_ENTRIES]:
        try:
            os.unlink(old)
        except OSError:
            pass


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()



