"""Agents from outside: a program that plays a seat over JSON lines on its standard input and output.

`--seat "cmd:python my_bot.py"` starts the program (no shell: the command is split as a shell
would split it) once for the game, and asks it for each of the seat's moves (docs/ai.md):

  koloda -> program, one line each, the first time only:
    {"type": "start", "protocol": "koloda-agent/1", "game": "pony", "title": "Pony", "players": 2,
     "seat": 0, "options": {...}, "time": 10.0}
  koloda -> program, at each of the seat's moves:
    {"type": "move", "seat": 0, "n": 1, "observation": {what the seat sees},
     "legal": [{"id": 2, "text": "play 9♣", "plain": "play 9C"}, ...], "time": 10.0}
  program -> koloda, one line:
    {"move": 2}          (or {"text": "play 9C"}: a move written as at the table; `"seat"` and
                          `"n"` may be given back, and must then be the request's)

The program has `time` seconds for each answer (30 more for its first, to get ready), and the
time runs while koloda writes the request: a program that does not read fails it too. When the
game is over (or koloda stops), its standard input is closed and it should end; two seconds
later it is killed with everything it started (agents/child.py). A program that ends, answers
what is not JSON or not a legal move, answers twice or out of turn, writes an endless line or
does not answer in time stops the game with an AgentFailure that says so, in one line.
"""
from __future__ import annotations

import json
import queue
import shlex
import time
import weakref
from typing import Any

from koloda.agents.child import TOO_LONG, Child
from koloda.agents.views import compact_view
from koloda.dsl.jsontext import Bounds, JsonRefused, read_json
from koloda.interpreter.base.errors import IllegalAction
from koloda.interpreter.core.state import State

PROTOCOL = "koloda-agent/1"
DEFAULT_SECONDS = 10.0
# the first answer may take this much longer: a program may load a model or start a server first
STARTUP_SECONDS = 30.0
GRACE_SECONDS = 2.0              # after its input is closed, before what is left of it is killed
LONGEST_ANSWER = 1 << 16         # bytes: an answer is a few dozen; a longer line is no move
_ONE_LINE = "each `move` request takes one line, and nothing else does (not the `start` message)"
_ANSWER = Bounds(chars=LONGEST_ANSWER, depth=8, containers=64, digits=100)


class AgentFailure(Exception):
    """An outside program failed to play its seat: the message says how, for the person running it."""


class OutsideAgent:
    name = "cmd"

    def __init__(self, command: str, seconds: float = DEFAULT_SECONDS, tensors: bool = False):
        self.command = command
        self.seconds = seconds
        self.tensors = tensors          # `cmd:tensors:…`: the compact view's tensors and tokens too
        try:
            self.args = shlex.split(command)
        except ValueError as exc:
            raise AgentFailure(f"cannot read the command `{command}`: {exc}") from None
        if not self.args:
            raise AgentFailure("`cmd:` needs a command to run, as in `cmd:python my_bot.py`")
        self.child: Child | None = None
        self.seat: int | None = None
        self.asked = 0                  # move requests sent: the n-th carries `"n": n`

    @property
    def process(self) -> Any:
        return self.child.process if self.child is not None else None

    # ------------------------------------------------------------ the program
    def _start(self, state: State) -> Child:
        try:
            child = Child(self.args, LONGEST_ANSWER)
        except OSError as exc:
            raise AgentFailure(f"cannot start `{self.command}`: {exc.strerror or exc}") from None
        # the program is told the game is over when this agent is dropped, or at exit
        weakref.finalize(self, child.end, GRACE_SECONDS)
        self.child = child
        game = state.game
        start = {"type": "start", "protocol": PROTOCOL, "game": game.name, "title": game.title,
                 "players": state.n, "seat": self.seat, "options": game.options, "time": self.seconds}
        if self.tensors:
            spelling, observer = compact_view(game)
            start["tensors"] = {"observation": observer.observation_size, "information_state": observer.information_size,
                                "vocabulary": spelling.size}
        self._send(start)
        return child

    def _send(self, message: dict) -> None:
        assert self.child is not None
        self.child.send(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")

    def _fail(self, message: str) -> AgentFailure:
        """The program misbehaved: it is ended with all it started, and the failure says how."""
        if self.child is not None:
            self.child.kill()
        return AgentFailure(f"{self._who()} {message}")

    def _ended(self) -> AgentFailure:
        assert self.child is not None
        code = self.child.exit_code(1.0)
        errors = self.child.last_words(1.0)
        said = f"; its last words: {' | '.join(errors)}" if errors else ""
        how = "closed its output" if code is None else f"ended (exit code {code})"
        return self._fail(f"{how} instead of answering{said}")

    def _who(self) -> str:
        return f"P{(self.seat or 0) + 1}'s program `{self.command}`"

    # ------------------------------------------------------------ a move
    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        seconds = self.seconds
        if self.child is None:
            self.seat = state.current_player()
            self._start(state)
            seconds += STARTUP_SECONDS
        assert self.child is not None
        self._refuse_unasked()
        deadline = time.monotonic() + seconds      # writing the request is inside the time too
        seat = state.current_player()
        self.asked += 1
        request = {"type": "move", "seat": seat, "n": self.asked, "observation": state.observation(seat),
                   "legal": [{"id": a, "text": state.action_to_string(a), "plain": state.action_to_string(a, plain=True)}
                             for a in legal],
                   "time": self.seconds}
        if self.tensors:
            request["tensors"] = _tensors(state, seat, legal)
        self._send(request)
        while True:
            try:
                batch = self.child.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                if self.child.unread:
                    raise self._fail(f"did not read its input within {seconds:g} seconds") from None
                raise self._fail(f"did not answer within {seconds:g} seconds") from None
            if batch is None:
                raise self._ended()
            if batch is TOO_LONG:
                raise self._fail(f"wrote a line longer than {LONGEST_ANSWER:,} bytes: an answer is one short line")
            answers = [line for line in batch if line.strip()]      # a blank line is no answer yet
            if len(answers) > 1:
                raise self._fail(f"wrote {len(answers)} lines where one answer was due (`{_shown(answers[0], 40)}` "
                                 f"and `{_shown(answers[1], 40)}`): {_ONE_LINE}")
            if answers:
                return self._move(answers[0], state, legal, seat)

    def _refuse_unasked(self) -> None:
        """Lines written since the last answer are answers to no request (a second answer to the last
        one, say): taken as the answer to the next, they would play a move chosen for another position."""
        assert self.child is not None
        while True:
            try:
                batch = self.child.lines.get_nowait()
            except queue.Empty:
                return
            if batch is None or batch is TOO_LONG:
                self.child.lines.put(batch)       # told when the next answer is waited for
                return
            answers = [line for line in batch if line.strip()]
            if answers:
                when = "before it was asked for a move" if self.asked == 0 else \
                    f"after its answer to request {self.asked}"
                raise self._fail(f"wrote `{_shown(answers[0])}` {when}: {_ONE_LINE}")

    def _move(self, line: bytes, state: State, legal: list[int], seat: int) -> int:
        shown = _shown(line)
        try:
            answer: Any = read_json(line.decode("utf-8"), _ANSWER)
        except UnicodeDecodeError:
            raise self._fail(f"answered `{shown}`, which is not UTF-8 text") from None
        except JsonRefused as exc:
            if exc.line is not None:
                raise self._fail(f"answered `{shown}`, which is not a JSON line such as {{\"move\": 12}}") from None
            raise self._fail(f"answered `{shown}`, which cannot be taken: {exc.reason}") from None
        if not isinstance(answer, dict):
            raise self._fail(f"answered `{shown}`: the answer is {{\"move\": ID}} with one of the legal ids, "
                             "or {\"text\": \"...\"}")
        if "seat" in answer and answer["seat"] != seat:
            raise self._fail(f"answered `{shown}` for another seat: it was asked for P{seat + 1}'s move "
                             f"(seat {seat})")
        if "n" in answer and answer["n"] != self.asked:
            raise self._fail(f"answered `{shown}` to another request: this is request {self.asked}")
        if "move" in answer and "text" in answer:
            raise self._fail(f"answered `{shown}`, with both a move and a text: give one of them")
        if isinstance(answer.get("text"), str):
            try:
                return state.string_to_action(answer["text"])
            except IllegalAction:
                raise self._fail(f"answered `{shown}`, which is not a legal move now") from None
        move = answer.get("move")
        if isinstance(move, bool) or not isinstance(move, int):
            raise self._fail(f"answered `{shown}`: the answer is {{\"move\": ID}} with one of "
                             f"the legal ids, or {{\"text\": \"...\"}}")
        if move not in legal:
            raise self._fail(f"answered move {move}, which is not one of the legal ids "
                             f"({', '.join(map(str, legal[:12]))}{'…' if len(legal) > 12 else ''})")
        return move

    def close(self) -> None:
        if self.child is not None:
            self.child.end(GRACE_SECONDS)


def _tensors(state: State, seat: int, legal: list[int]) -> dict:
    """The compact view of the request (docs/compact.md): the seat's tensors, and each legal move's
    tokens, in the order of `legal`."""
    spelling, observer = compact_view(state.game)
    return {"observation": observer.observation(state, seat), "information_state": observer.information_state(state, seat),
            "tokens": [list(spelling.spell(a)) for a in legal]}


def _shown(line: bytes, width: int = 80) -> str:
    """An answer as it may be shown: cut short, what cannot be printed escaped."""
    text = line[:width * 4].decode("utf-8", "replace").strip()
    text = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)
    return text if len(text) <= width else text[:width - 1] + "…"
