"""Agents from outside: a program that plays a seat over JSON lines on its standard input and output.

`--seat "cmd:python my_bot.py"` starts the program (no shell: the command is split as a shell
would split it) once for the game, and asks it for each of the seat's moves (docs/ai.md):

  koloda -> program, one line each, the first time only:
    {"type": "start", "protocol": "koloda-agent/1", "game": "pony", "title": "Pony", "players": 2,
     "seat": 0, "options": {...}, "time": 10.0}
  koloda -> program, at each of the seat's moves:
    {"type": "move", "seat": 0, "observation": {what the seat sees},
     "legal": [{"id": 2, "text": "play 9♣", "plain": "play 9C"}, ...], "time": 10.0}
  program -> koloda, one line:
    {"move": 2}          (or {"text": "play 9C"}: a move written as at the table)

The program has `time` seconds for each answer (30 more for its first, to get ready). When the game is over (or koloda stops), its
standard input is closed and it should end. A program that ends, answers what is not JSON or not
a legal move, or does not answer in time stops the game with an AgentFailure that says so.
"""
from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections import deque
from typing import IO, Any

from koloda.interpreter.errors import IllegalAction
from koloda.interpreter.state import State

PROTOCOL = "koloda-agent/1"
DEFAULT_SECONDS = 10.0
# the first answer may take this much longer: a program may load a model or start a server first
STARTUP_SECONDS = 30.0
_LONGEST_ANSWER = 1 << 20        # a line longer than this is not a move


class AgentFailure(Exception):
    """An outside program failed to play its seat: the message says how, for the person running it."""


class OutsideAgent:
    name = "cmd"

    def __init__(self, command: str, seconds: float = DEFAULT_SECONDS):
        self.command = command
        self.seconds = seconds
        try:
            self.args = shlex.split(command)
        except ValueError as exc:
            raise AgentFailure(f"cannot read the command `{command}`: {exc}") from None
        if not self.args:
            raise AgentFailure("`cmd:` needs a command to run, as in `cmd:python my_bot.py`")
        self.process: subprocess.Popen | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=5)     # the program's last lines on standard error
        self.seat: int | None = None

    # ------------------------------------------------------------ the program
    def _start(self, state: State) -> subprocess.Popen:
        try:
            process = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        except OSError as exc:
            raise AgentFailure(f"cannot start `{self.command}`: {exc.strerror or exc}") from None
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=_read, args=(process.stdout, self.lines), daemon=True).start()
        threading.Thread(target=_keep, args=(process.stderr, self.errors), daemon=True).start()
        # the program is told the game is over when this agent is dropped, or at exit
        weakref.finalize(self, _stop, process)
        self.process = process
        game = state.game
        self._send({"type": "start", "protocol": PROTOCOL, "game": game.name, "title": game.title,
                    "players": state.n, "seat": self.seat, "options": game.options, "time": self.seconds})
        return process

    def _send(self, message: dict) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._ended() from None

    def _ended(self) -> AgentFailure:
        assert self.process is not None
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        said = f"; its last words: {' | '.join(self.errors)}" if self.errors else ""
        how = "closed its output" if code is None else f"ended (exit code {code})"
        return AgentFailure(f"{self._who()} {how} instead of answering{said}")

    def _who(self) -> str:
        return f"P{(self.seat or 0) + 1}'s program `{self.command}`"

    # ------------------------------------------------------------ a move
    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        seconds = self.seconds
        if self.process is None:
            self.seat = state.current_player()
            self._start(state)
            seconds += STARTUP_SECONDS
        seat = state.current_player()
        self._send({"type": "move", "seat": seat, "observation": state.observation(seat),
                    "legal": [{"id": a, "text": state.action_to_string(a), "plain": state.action_to_string(a, plain=True)}
                              for a in legal],
                    "time": self.seconds})
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                assert self.process is not None
                self.process.kill()          # it may be stuck: it is not waited for again
                raise AgentFailure(f"{self._who()} did not answer within {seconds:g} seconds") from None
            if line is None:
                raise self._ended()
            if line.strip():                 # a blank line is no answer yet
                return self._move(line, state, legal)

    def _move(self, line: str, state: State, legal: list[int]) -> int:
        shown = line.strip()[:80]
        try:
            answer: Any = json.loads(line)
        except ValueError:
            raise AgentFailure(f"{self._who()} answered `{shown}`, which is not a JSON line such as {{\"move\": 12}}") \
                from None
        if isinstance(answer, dict) and isinstance(answer.get("text"), str) and "move" not in answer:
            try:
                return state.string_to_action(answer["text"])
            except IllegalAction:
                raise AgentFailure(f"{self._who()} answered `{shown}`, which is not a legal move now") from None
        move = answer.get("move") if isinstance(answer, dict) else None
        if isinstance(move, bool) or not isinstance(move, int):
            raise AgentFailure(f"{self._who()} answered `{shown}`: the answer is {{\"move\": ID}} with one of "
                               f"the legal ids, or {{\"text\": \"...\"}}")
        if move not in legal:
            raise AgentFailure(f"{self._who()} answered move {move}, which is not one of the legal ids "
                               f"({', '.join(map(str, legal[:12]))}{'…' if len(legal) > 12 else ''})")
        return move

    def close(self) -> None:
        if self.process is not None:
            _stop(self.process)


def _read(stream: IO[str], lines: queue.Queue) -> None:
    """The program's answers, line by line; None when it closes its output."""
    try:
        for line in stream:
            lines.put(line[:_LONGEST_ANSWER])
    except (OSError, ValueError):
        pass
    lines.put(None)


def _keep(stream: IO[str], last: deque) -> None:
    try:
        for line in stream:
            if line.strip():
                last.append(line.strip()[:200])
    except (OSError, ValueError):
        pass


def _stop(process: subprocess.Popen) -> None:
    """Close the program's input (the game is over); end it if it does not end by itself."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
