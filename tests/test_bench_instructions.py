"""bench/instructions.py: the instructions of the play alone, and a plain word where valgrind is missing.
A stand-in `valgrind` on PATH prints a count that grows with the number of games, as callgrind's does."""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.benchscripts import bench_script

ROOT = Path(__file__).resolve().parent.parent


def _bench():
    return bench_script("instructions")


def _fake_valgrind(folder: Path, load: int, per_game: int) -> None:
    """valgrind --tool=callgrind --callgrind-out-file=F python SCRIPT GAME SEED GAMES: prints a count."""
    tool = folder / "valgrind"
    tool.write_text(f'#!/bin/sh\necho "==1== Collected : $(({load} + ${{7}} * {per_game}))" >&2\n',
                    encoding="utf-8")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)


def test_the_count_is_the_play_less_the_load(tmp_path, monkeypatch, capsys):
    _fake_valgrind(tmp_path, 900_000_000, 250_000_000)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    bench = _bench()
    monkeypatch.setattr(bench.sys, "executable", shutil.which("true"))     # the load before each count
    assert bench.main(["kunkin", "--games", "4", "--against", str(ROOT)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("kunkin: 4 random games from seed 200")
    assert [line.split()[0] for line in lines[1:]] == ["1,000", "1,000"]     # 4 x 250 million, each tree


def test_without_valgrind_it_says_so(monkeypatch, capsys):
    bench = _bench()
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    assert bench.main(["kunkin"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_a_run_that_fails_is_reported(tmp_path, monkeypatch):
    tool = tmp_path / "valgrind"
    tool.write_text('#!/bin/sh\necho "no such game" >&2\nexit 1\n', encoding="utf-8")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    bench = _bench()
    monkeypatch.setattr(bench.sys, "executable", shutil.which("true"))
    with pytest.raises(SystemExit, match="the run failed(.|\n)*no such game"):
        bench.main(["nonesuch", "--games", "1"])
