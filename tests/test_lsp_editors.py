"""docs/editors.md as an editor reads it: the Neovim snippet, run in whatever Neovim is installed
(skipped without one), starts `koloda lsp` and gets its diagnostics; the Helix entry is valid TOML
that starts the server."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import koloda

DOCS = Path(koloda.__file__).parent.parent / "docs" / "editors.md"
RULES = Path(koloda.__file__).parent / "rules"

# waits for the server's diagnostics on the buffer and writes them where the test reads them
CHECK = """
local found = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local v = vim.version()
local lines = { string.format("nvim %d.%d.%d", v.major, v.minor, v.patch), "found " .. tostring(found) }
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("%d:%d %s", d.lnum + 1, d.col + 1, d.message))
end
vim.fn.writefile(lines, vim.env.KOLODA_NVIM_OUT)
vim.cmd("qa!")
"""


def _block(section: str, language: str) -> str:
    text = DOCS.read_text("utf-8")
    part = text[text.index(f"## {section}"):]
    found = re.search(rf"```{language}\n(.*?)```", part, re.S)
    assert found, f"no {language} block under {section}"
    return found.group(1)


def test_the_neovim_snippet_starts_koloda_lsp_and_shows_its_diagnostics(tmp_path):
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("Neovim is not installed")
    pytest.importorskip("pygls")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "koloda"                     # the `koloda` of this tree, whatever is installed
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m koloda.cli.main "$@"\n', encoding="utf-8")
    command.chmod(0o755)
    text = (RULES / "pony.yaml").read_text("utf-8").replace("c.suit == pile.top.suit", "c.suitt == pile.top.suit", 1)
    (tmp_path / "pony.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "init.lua").write_text(_block("Neovim", "lua"), encoding="utf-8")
    (tmp_path / "check.lua").write_text(CHECK, encoding="utf-8")
    out = tmp_path / "out.txt"
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), KOLODA_NVIM_OUT=str(out),
               PATH=os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")]),
               PYTHONPATH=os.pathsep.join([str(Path(koloda.__file__).parent.parent), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([nvim, "--headless", "-u", "init.lua", "-c", "luafile check.lua", "pony.yaml"], cwd=tmp_path,
                   env=env, timeout=180, stdin=subprocess.DEVNULL, capture_output=True)
    said = out.read_text("utf-8").splitlines()
    assert said[1] == "found true", said
    at = text.index("c.suitt") + len("c.")
    line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    assert any(entry.startswith(f"{line}:{col} ") and "`suitt`" in entry for entry in said[2:]), said


def test_the_helix_entry_starts_koloda_lsp_for_yaml_beside_yaml_language_server():
    config = tomllib.loads(_block("Helix", "toml"))
    server = config["language-server"]["koloda"]
    assert [server["command"], *server["args"]] == ["koloda", "lsp", "--stdio"]
    [yaml] = [entry for entry in config["language"] if entry["name"] == "yaml"]
    assert yaml["language-servers"] == ["yaml-language-server", "koloda"]
