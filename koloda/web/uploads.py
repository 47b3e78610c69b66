"""Rule files pasted or uploaded in the lobby (`koloda serve --allow-upload`): each is checked as
`koloda check` checks a file, within the same limits for a hostile file, and every error is shown
at its line:col. A file is kept alone in a folder named by its hash, so what it `extends:` or
`import:`s can only be a shipped game or library (dsl/paths.py reads nothing outside the file's
own folder), and the server reads no other file for it."""
from __future__ import annotations

import hashlib
import re
import tempfile
from pathlib import Path

from koloda.api import load_spec
from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.limits import MAX_FILE_BYTES
from koloda.session import write_atomically

MAX_UPLOADS = 50            # rule files one server takes
_NAME = re.compile(r"[^A-Za-z0-9_-]+")
_FILE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")        # the name an error shows the file under


class Uploads:
    def __init__(self, folder: Path | None):
        # in the save folder, so that rooms of an uploaded game resume after a restart
        self.folder = folder / "web" / "uploads" if folder is not None else Path(tempfile.mkdtemp(prefix="koloda-"))
        self.count = 0

    def add(self, text: object, file_name: object, games: dict[str, str]) -> tuple[str | None, list[str]]:
        """Check a rule file; if it checks, offer it in `games`. Returns (its name, []) or (None, errors)."""
        if not isinstance(text, str) or not text.strip():
            return None, ["paste a rule file, or choose one"]
        shown_name = _FILE_NAME.sub("-", file_name if isinstance(file_name, str) else "").strip("-")[:60] or "upload"
        if not shown_name.endswith((".yaml", ".yml")):
            shown_name += ".yaml"
        data = text.encode("utf-8", errors="replace")
        if len(data) > MAX_FILE_BYTES:
            return None, [f"{shown_name}: a rule file is at most {MAX_FILE_BYTES:,} bytes"]
        if self.count >= MAX_UPLOADS:
            return None, [f"this server takes at most {MAX_UPLOADS} rule files"]
        digest = hashlib.sha256(data).hexdigest()[:16]
        path = self.folder / digest / "rules.yaml"
        write_atomically(path, data.decode("utf-8"))
        try:
            spec, _ = load_spec(str(path))
        except (RuleErrors, RuleError) as exc:
            errors = exc.errors if isinstance(exc, RuleErrors) else [exc]
            # the file by the name it was given: the server's folders are not the uploader's business
            return None, [e.format().replace(str(path), shown_name).replace(path.name, shown_name) for e in errors]
        if spec.library:
            return None, [f"{shown_name}: `{spec.name}` is a library for `import:`, not a game to play"]
        name = f"{_NAME.sub('-', spec.name)[:40]}-{digest[:6]}"
        if name not in games:
            self.count += 1
            games[name] = str(path)
        return name, []
