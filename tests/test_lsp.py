"""`koloda lsp` spoken to as an editor speaks to it: JSON-RPC over the standard streams of the command."""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import koloda
from tests.lspwire import read_frames

RULES = Path(koloda.__file__).parent / "rules"
WAIT = 60.0          # only a hang waits this long


class Client:
    """A minimal editor: sends requests and notifications, reads answers and what the server publishes."""

    def __init__(self, folder: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(koloda.__file__).parent.parent),
                                                           os.environ.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen([sys.executable, "-m", "koloda.cli.main", "lsp", "--stdio"], cwd=folder,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=env)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        for message in read_frames(out):
            self.messages.put(message)

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def request(self, method: str, params: dict) -> object:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        answer = self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)
        assert "error" not in answer, answer
        return answer["result"]

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def wait(self, wanted) -> dict:
        while True:
            message = self.messages.get(timeout=WAIT)
            if wanted(message):
                return message

    def diagnostics(self, uri: str) -> list[dict]:
        found = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri)
        return found["params"]["diagnostics"]

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.resolve().as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": path.read_text("utf-8") if text is None else text}})
        return uri

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.process.wait(timeout=WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("lsp")
    shutil.copy(RULES / "pony.yaml", where / "pony.yaml")
    (where / "pony-seven.yaml").write_text("extends: pony\noptions:\n  seven_draws: true\n", encoding="utf-8")
    return where


@pytest.fixture(scope="module")
def client(folder: Path):
    pytest.importorskip("pygls")
    c = Client(folder)
    answer = c.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
    assert answer["capabilities"]["completionProvider"]["triggerCharacters"]
    c.notify("initialized", {})
    yield c
    c.close()


def _position(text: str, needle: str, offset: int = 0) -> dict:
    """The LSP position of `needle`'s first character (plus offset) in the text."""
    at = text.index(needle) + offset
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


def test_an_expression_typo_is_reported_where_it_stands_as_it_is_typed(client, folder):
    text = (folder / "pony.yaml").read_text("utf-8")
    uri = client.open(folder / "pony.yaml", text)
    assert client.diagnostics(uri) == []                       # the shipped file is clean
    typo = text.replace("c.suit == pile.top.suit", "c.suitt == pile.top.suit", 1)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": typo}]})
    [found] = client.diagnostics(uri)
    start = _position(typo, "c.suitt", 2)
    assert found["range"]["start"] == start
    assert found["range"]["end"] == {"line": start["line"], "character": start["character"] + len("suitt")}
    assert "`suitt`" in found["message"] and "did you mean `suit`?" in found["message"]
    assert found["severity"] == 1 and found["source"] == "koloda"


def test_several_errors_are_reported_at_once_even_in_unsaved_text(client, folder):
    text = (folder / "pony.yaml").read_text("utf-8")
    broken = text.replace("move stock.top to pile", "move stock.top to piles", 1).replace(
        "passes = 0", "passes = tru", 1)
    uri = client.open(folder / "pony.yaml", broken)
    found = client.diagnostics(uri)
    lines = {d["range"]["start"]["line"] for d in found}
    assert {_position(broken, "piles")["line"], _position(broken, "tru\n")["line"]} <= lines
    assert (folder / "pony.yaml").read_text("utf-8") == text          # checked as held, not read from the disk


def test_a_yaml_error_is_located(client, folder):
    uri = client.open(folder / "pony.yaml", "game: x\nzones:\n  hand: {each: player\n")
    [found] = client.diagnostics(uri)
    assert found["range"]["start"]["line"] in (2, 3) and "YAML" in found["message"] + found.get("code", "")


def _labels(answer) -> list[str]:
    items = answer["items"] if isinstance(answer, dict) else answer
    return [i["label"] for i in items]


def _reopen(client, folder: Path, text: str | None = None) -> tuple[str, str]:
    text = text if text is not None else (folder / "pony.yaml").read_text("utf-8")
    uri = client.open(folder / "pony.yaml", text)
    client.diagnostics(uri)
    return uri, text


def test_completion_after_a_zone_offers_its_attributes(client, folder):
    uri, text = _reopen(client, folder)
    # complete `pile.` in a guard: the text up to the dot
    at = _position(text, "pile.top.rank", len("pile."))
    labels = _labels(client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at}))
    assert {"top", "bottom", "size", "cards", "owner"} <= set(labels)
    assert "suit" not in labels                            # a zone has no suit: that is a card's


def test_completion_offers_names_options_and_effects_by_position(client, folder):
    uri, text = _reopen(client, folder)
    after_option = _position(text, "option.hand", len("option."))
    labels = _labels(client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": after_option}))
    assert set(labels) == {"deck", "hand", "limit", "jack_finish_doubles", "seven_draws", "eight_skips",
                           "queen_needs_king"}
    effect_start = _position(text, "  - shuffle stock", len("  - "))
    labels = _labels(client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": effect_start}))
    assert {"move", "shuffle", "deal", "ask", "say"} <= set(labels)          # effects first, then names
    assert {"stock", "pile", "hand", "penalty", "playable", "value", "hearts", "Q"} <= set(labels)
    top_key = {"line": text.count("\n", 0, text.index("\nzones:")) + 1, "character": 0}
    labels = _labels(client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": top_key}))
    assert {"zones", "phases", "define", "options"} <= set(labels) and "move" not in labels


def test_completion_after_a_card_offers_card_attributes(client, folder):
    uri, text = _reopen(client, folder)
    at = _position(text, "c.rank == J", len("c."))
    labels = _labels(client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at}))
    assert {"rank", "suit", "color", "by"} <= set(labels) and "top" not in labels


def test_hover_shows_a_built_in_s_reference_and_an_option_s_help(client, folder):
    uri, text = _reopen(client, folder)
    shown = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": _position(text, "any(playable", 1)})
    assert "any(" in shown["contents"]["value"] and "true if any item" in shown["contents"]["value"]
    shown = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": _position(text, "option.hand", len("option.h"))})
    assert "cards dealt to each player" in shown["contents"]["value"] and "default 5" in shown["contents"]["value"]
    shown = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": _position(text, "penalty: {each", 1)})
    assert "variable of each player: int" in shown["contents"]["value"]


def test_go_to_definition_of_a_function_and_of_what_a_variant_extends(client, folder):
    uri, text = _reopen(client, folder)
    use = text.index("playable(c)", text.index("can_play()"))
    found = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                       "position": _position(text, text[use:use + 12], 2)})
    assert found["uri"] == uri
    assert found["range"]["start"] == _position(text, "playable(card c)")
    variant = folder / "pony-seven.yaml"
    v_uri = client.open(variant)
    client.diagnostics(v_uri)
    found = client.request("textDocument/definition", {"textDocument": {"uri": v_uri},
                                                       "position": {"line": 0, "character": len("extends: p")}})
    assert found["uri"] == (folder / "pony.yaml").resolve().as_uri()       # the file beside it wins


def test_document_symbols_list_phases_actions_and_functions(client, folder):
    uri, text = _reopen(client, folder)
    found = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    top = {s["name"]: s for s in found}
    assert {"playable", "can_play", "play", "stock", "limit"} <= set(top)
    actions = {c["name"] for c in top["play"]["children"]}
    assert {"play", "draw", "pass"} & actions
    assert top["playable"]["selectionRange"]["start"] == _position(text, "playable(card c)")


# ------------------------------------------------------------------ every shipped game, without the protocol
@pytest.mark.parametrize("path", sorted(RULES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_game_checks_clean_and_is_answered_everywhere(path):
    pytest.importorskip("pygls")          # the modules below need none of it, but they ship with the extra
    from koloda.dsl.pipeline import check_text
    from koloda.lsp.complete import complete
    from koloda.lsp.navigate import hover, symbols, word_at
    text = path.read_text("utf-8")
    result = check_text(str(path), text)
    assert result.spec is not None and result.errors == []
    outline = symbols(result.spec, path)
    kinds = {s.kind for s in outline}
    assert "phase" in kinds or "extends:" in text
    lines = text.split("\n")
    described = 0
    for n, line in enumerate(lines):
        complete(lines, n, len(line), result.spec, result.rules)          # never fails, whatever the line
        found = word_at(line, len(line) - len(line.lstrip()))
        if found is not None:
            described += hover(lines, n, found[1], result.spec, result.rules) is not None
    assert described > 0


def test_without_the_extra_the_command_says_what_to_install(monkeypatch):
    from click.testing import CliRunner
    from koloda.cli.main import main
    for name in ("koloda.lsp.server", "pygls", "pygls.lsp", "pygls.lsp.server"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "pygls", None)         # as if it were not installed
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code != 0
    assert "pip install 'koloda[lsp]'" in result.output and "Traceback" not in result.output


def test_while_keys_are_struck_only_the_last_text_is_checked(client, folder):
    uri, text = _reopen(client, folder)
    for version, typed in enumerate(["c.s", "c.su", "c.sui", "c.suix"], start=10):
        changed = text.replace("c.suit == pile.top.suit", f"{typed} == pile.top.suit", 1)
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": changed}]})
    found = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
    assert found["version"] == 13 and "`suix`" in found["diagnostics"][0]["message"]


@pytest.mark.parametrize("before,expected", [
    ("  trumps(): 4 if kind == ", {"suit_game", "grand", "null_game"}),
    ("  trumps(): 4 if kind != gr", {"suit_game", "grand", "null_game"}),
    ("      - set kind to ", {"suit_game", "grand", "null_game"}),
    ("  x(): kind in [grand, ", {"suit_game", "grand", "null_game"}),
])
def test_completion_offers_a_word_variable_s_words_where_its_value_goes(before, expected):
    pytest.importorskip("pygls")
    from koloda.dsl.pipeline import check_text
    from koloda.lsp.complete import complete
    path = RULES / "skat.yaml"
    text = path.read_text("utf-8")
    result = check_text(str(path), text)
    lines = text.split("\n") + [before]
    found = [n.name for n in complete(lines, len(lines) - 1, len(before), result.spec, result.rules)]
    assert set(found[:len(expected)]) == expected           # the words first
    assert "trump" in found                                  # then the other names that may stand there
    # a number variable's value is no word: nothing is offered first that is a word of `kind`
    plain = "  x(): declarer == "
    found = [n.name for n in complete(lines[:-1] + [plain], len(lines) - 1, len(plain), result.spec, result.rules)]
    assert "grand" not in found
