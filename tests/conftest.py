"""Every test runs with its own, empty saves and cache folders: no test reads or writes the real ones."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_saves(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("koloda-home")
    monkeypatch.setenv("KOLODA_HOME", str(home / "saves"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("KOLODA_CACHE", str(home / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache-home"))
    return home


@pytest.fixture
def pexpect():
    """pexpect, an optional test dependency, for the tests at a real terminal: without it only the
    tests that ask for this fixture are skipped."""
    return pytest.importorskip("pexpect")
