"""Every test runs with its own, empty saves folder (no test reads or writes the real one), in English.
The cache folder (parser tables, compiled generated code) is one of the test run's own, shared by its tests
(and the commands they start)."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_RUN_FOLDER: str | None = None


def pytest_configure(config):
    """Before any test module is imported (some load games while they are collected): the caches and
    the state folders of this run, and matplotlib's, in a temporary folder, never the user's home."""
    global _RUN_FOLDER
    _RUN_FOLDER = tempfile.mkdtemp(prefix="koloda-tests-")
    for name, sub in (("KOLODA_HOME", "saves"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"),
                      ("KOLODA_CACHE", "cache/koloda"), ("MPLCONFIGDIR", "matplotlib"), ("XDG_CONFIG_HOME", "config")):
        os.environ[name] = os.path.join(_RUN_FOLDER, sub)


def pytest_unconfigure(config):
    if _RUN_FOLDER is not None:
        shutil.rmtree(_RUN_FOLDER, ignore_errors=True)


@pytest.fixture(scope="session")
def _parser_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("koloda-cache")


@pytest.fixture(autouse=True)
def _private_saves(tmp_path_factory, monkeypatch, _parser_cache):
    home = tmp_path_factory.mktemp("koloda-home")
    monkeypatch.setenv("KOLODA_HOME", str(home / "saves"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("KOLODA_CACHE", str(_parser_cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    return home


@pytest.fixture(autouse=True)
def _english(monkeypatch):
    """The table in English, whatever language the person running the tests chose."""
    monkeypatch.delenv("KOLODA_LANG", raising=False)


@pytest.fixture
def pexpect():
    """pexpect, an optional test dependency, for the tests at a real terminal: without it only the
    tests that ask for this fixture are skipped."""
    return pytest.importorskip("pexpect")


@pytest.fixture
def local_ray(tmp_path, monkeypatch):
    """A Ray of this machine for one test. Ray keeps its sockets and logs under a temporary folder
    whose path must stay short (socket paths are limited to about 100 bytes), and a token under
    HOME: both go to folders of this test."""
    ray = pytest.importorskip("ray")
    short = tempfile.mkdtemp(prefix="kr")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=short)
    yield ray
    ray.shutdown()
    shutil.rmtree(short, ignore_errors=True)
