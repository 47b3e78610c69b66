"""The moves of a game so far, shared between a state and its clones.

A history is a chain of links, each a move and the link before it, that is never changed once
made: a clone takes the chain as it is (one pointer, however long the game), and the moves either
side makes afterwards hang new links off the end that only it sees. It reads like the list of
(player, action) pairs it stands for.
"""
from __future__ import annotations

from typing import Iterable, Iterator, overload

Move = tuple[int, int]          # (player, action id)


class History:
    __slots__ = ("_last", "_size")

    def __init__(self, moves: Iterable[Move] = ()):
        last: tuple | None = None            # (the link before, move), or None for no move yet
        size = 0
        for move in moves:
            last = (last, move)
            size += 1
        self._last, self._size = last, size

    def append(self, move: Move) -> None:
        self._last = (self._last, move)
        self._size += 1

    def copy(self) -> "History":
        """The same moves, to go on from separately: shares every link, copies none."""
        other = History.__new__(History)
        other._last, other._size = self._last, self._size
        return other

    def __len__(self) -> int:
        return self._size

    @property
    def tail(self) -> tuple | None:
        """The last link: (the link before, the last move), or None before any move. The same object
        for a history and its copies until either goes on, so it names this very sequence of moves
        (hold it to keep that name from being reused)."""
        return self._last

    def _back(self, count: int) -> list[Move]:
        """The last `count` moves, the earliest first."""
        out: list[Move] = []
        link = self._last
        for _ in range(min(count, self._size)):
            link, move = link       # type: ignore[misc]   # a link is (the link before, move)
            out.append(move)
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Move]:
        return iter(self._back(self._size))

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._size)
            if step == 1 and stop == self._size:           # the recent moves: read from the end only
                return self._back(max(0, stop - start))
            return self._back(self._size)[index]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("history index out of range")
        return self._back(self._size - index)[0]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._size == other._size and (self._last is other._last or list(self) == list(other))
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]   # it changes as moves are made

    def __reduce__(self):
        return History, (list(self),)       # a flat list: a long chain would nest too deep to pickle

    def __repr__(self) -> str:
        return f"History({list(self)!r})"
