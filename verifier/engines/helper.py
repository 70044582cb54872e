"""A second core for the array step: a helper process computes the successors of chunks
of rows while the explorer files the chunks before them.

Filing a chunk (keying its successors, deduplicating them against every state reached,
numbering them) must happen in order, in one process; computing a chunk's successors
needs only the chunk and the relation. So the explorer hands the next chunks to a process
forked from itself (it has the relation and its specialisations already), two at a time,
and files the one before meanwhile: the same successors, in the same order, as when it
computes them itself, so the same states, numbers and witnesses.

Rows go to the helper and successors come back through shared memory (two slots each
way); only their sizes go through the pipe. The helper lives as long as the exploration:
it ends when its pipe closes (the exploration is closed or collected, or the process
ends, however it ends), and it ignores Ctrl-C, which the explorer's process handles. A
helper that fails or dies is not waited for: :class:`Lost` tells the explorer, which
computes the chunk itself from then on.

The helper is started only where it can be forked safely and helps: Linux, two or more
cores available to the process, from the main thread, and not turned off with the
environment variable ``VERIFIER_CORES=1``.
"""

from __future__ import annotations

import contextlib
import gc
import math
import mmap
import os
import signal
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, Pipe
from typing import Any

import numpy as np

from verifier.engines.resident import private_bytes

__all__ = ["Ahead", "Found", "Helper", "Lost", "available", "detach"]

Found = tuple[Any, ...]
"""What is computed of a chunk: arrays (the array step's
:meth:`~verifier.engines.arrays.Levels.stepped`)."""

SLOTS = 2
"""Chunks the helper may have at a time (a slot of shared memory each way for each)."""

MEMORY_EVERY = 0.1
"""Seconds between two readings of the helper's memory."""

_ALIGN = 64
"""Each array in a slot starts at a multiple of this many bytes."""


class Lost(Exception):
    """The helper failed or ended: the chunks it had are to be computed here."""


def available() -> bool:
    """Whether a helper can be started here: it would run on a core of its own
    (``VERIFIER_CORES=1`` says there is one), and forking this process is safe: Linux,
    from the main thread, any other thread a daemon (the command line's, which waits for
    Ctrl-C, holds nothing the helper needs)."""
    if os.environ.get("VERIFIER_CORES", "").strip() == "1":
        return False
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    main = threading.main_thread()
    if threading.current_thread() is not main:
        return False
    if any(t is not main and not t.daemon for t in threading.enumerate()):
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return cores >= 2


class Helper:
    """A forked process that computes ``compute(rows)`` for the chunks handed to it, in
    the order they are handed, up to two at a time."""

    def __init__(self, compute: Callable[[Any], Found], width: int, dtype: Any, chunk: int) -> None:
        self.width, self.dtype = width, np.dtype(dtype)
        row = width * self.dtype.itemsize
        self._inputs = [mmap.mmap(-1, chunk * row) for _ in range(SLOTS)]
        # Room for two successors a row with their keys (more comes through the pipe).
        self._size = 2 * chunk * (3 * row + 32)
        self._outputs = [mmap.mmap(-1, self._size) for _ in range(SLOTS)]
        mine, theirs = Pipe()
        with warnings.catch_warnings():
            # Python 3.12 warns of forking beside threads; :func:`available` allowed it.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the helper: it never returns from here
            code = 1
            try:
                # What it inherited is never collected (a collection would touch, and so
                # copy, every page it shares with the explorer).
                gc.freeze()
                mine.close()
                detach(theirs)
                self._serve(theirs, compute)
                code = 0
            finally:
                os._exit(code)
        theirs.close()
        self.pid: int | None = pid
        self._connection = mine
        self._slot = 0
        self._waiting: deque[int] = deque()  # the slots of the chunks handed, in order
        self._read_at, self._resident = -math.inf, 0

    def ready(self) -> bool:
        """Whether the first chunk not taken back is computed (its result can be taken
        back without waiting)."""
        try:
            return bool(self._connection.poll(0))
        except (OSError, ValueError):
            return True  # taking it back tells what happened

    @property
    def busy(self) -> int:
        """How many chunks it has that were not taken back yet."""
        return len(self._waiting)

    def submit(self, parts: Sequence[Any], count: int) -> None:
        """Hand it the chunk of the first ``count`` rows of ``parts`` (arrays of rows, one
        after the other). At most two chunks may be waiting."""
        assert len(self._waiting) < SLOTS, "a chunk a slot"
        slot = self._slot
        rows = np.frombuffer(self._inputs[slot], dtype=self.dtype, count=count * self.width)
        rows = rows.reshape(count, self.width)
        at = 0
        for part in parts:
            take = min(len(part), count - at)
            rows[at : at + take] = part[:take]
            at += take
            if at == count:
                break
        assert at == count, "parts shorter than the chunk"
        self._send((slot, count))
        self._waiting.append(slot)
        self._slot = (slot + 1) % SLOTS

    def result(self) -> Found:
        """The successors of the first chunk handed and not taken back. They are views of
        shared memory, valid until the second :meth:`submit` after this call."""
        slot = self._waiting.popleft()
        try:
            kind, what = self._connection.recv()
        except (EOFError, OSError) as exc:
            raise Lost(str(exc)) from exc
        if kind == "failed":
            raise Lost(what)
        if kind == "sent":
            return what  # type: ignore[no-any-return]
        output = self._outputs[slot]
        return tuple(
            np.frombuffer(output, dtype, int(np.prod(shape)), at).reshape(shape)
            for dtype, shape, at in what
        )

    def resident(self) -> int:
        """Its own resident memory in bytes: what it does not share with this process
        (read at most every :data:`MEMORY_EVERY` seconds)."""
        now = time.monotonic()
        if self.pid is not None and now - self._read_at >= MEMORY_EVERY:
            self._read_at, self._resident = now, private_bytes(self.pid)
        return self._resident

    def close(self) -> None:
        """End it (it ends when its pipe closes) and wait for it. Idempotent."""
        if self.pid is None:
            return
        pid, self.pid = self.pid, None
        self._connection.close()
        self._waiting.clear()
        with contextlib.suppress(ChildProcessError):  # reaped already
            os.waitpid(pid, 0)

    def _send(self, message: Any) -> None:
        try:
            self._connection.send(message)
        except (OSError, ValueError) as exc:
            raise Lost(str(exc)) from exc

    # -- in the helper -------------------------------------------------------------------

    def _serve(self, connection: Connection, compute: Callable[[Any], Found]) -> None:
        """Compute each chunk handed, until the pipe closes."""
        while True:
            try:
                slot, count = connection.recv()
            except (EOFError, OSError):
                return
            rows = np.frombuffer(self._inputs[slot], self.dtype, count * self.width)
            try:
                found = compute(rows.reshape(count, self.width))
            except Exception as exc:  # the explorer computes it again, and reports it
                connection.send(("failed", f"{type(exc).__name__}: {exc}"))
                continue
            placed = self._place(self._outputs[slot], found)
            connection.send(("sent", found) if placed is None else ("placed", placed))
            del rows, found  # not held while it waits

    def _place(self, output: mmap.mmap, found: Found) -> list[Any] | None:
        """Write ``found`` into ``output``: each array's type, shape and place; None
        where they do not fit."""
        placed: list[Any] = []
        at = 0
        for array in found:
            at = -(-at // _ALIGN) * _ALIGN
            if at + array.nbytes > self._size:
                return None
            view = np.frombuffer(output, array.dtype, array.size, at)
            view[:] = array.reshape(-1)
            placed.append((array.dtype.str, array.shape, at))
            at += array.nbytes
        return placed


def detach(connection: Connection) -> None:
    """In the helper: leave Ctrl-C and the signal wake-up to the explorer's process, and
    hold none of its files open (a reader of its output waits for every holder to close
    it): only ``connection`` is kept, the standard streams go to ``/dev/null``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    keep = connection.fileno()
    null = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(null, stream)
    os.closerange(3, keep)
    os.closerange(keep + 1, max(keep + 1, _highest_descriptor() + 1))


def _highest_descriptor() -> int:
    """The highest open file descriptor (from ``/proc/self/fd``; else a safe bound)."""
    try:
        return max(int(name) for name in os.listdir("/proc/self/fd"))
    except (OSError, ValueError):
        return 1024


Chunk = tuple[int, int]
"""A chunk: its level and where it starts in the level's rows."""


class Ahead:
    """The chunks of a breadth-first exploration computed ahead of their filing: by the
    helper, two at a time, and here while the chunk to file next is not back yet.

    Chunks are filed in order (a level's, then the next's); the rows of the next level's
    come from filing this one's (``going``: the arrays of rows found so far), so a chunk
    of them can be computed once that many are found. ``compute`` is what is computed of a
    chunk of rows (the same here and in the helper)."""

    def __init__(
        self,
        helper: Helper,
        compute: Callable[[Any], Found],
        join: Callable[[Found, Found, int], Found],
        chunk: int,
    ) -> None:
        self.helper: Helper | None = helper
        self.compute, self.join, self.chunk = compute, join, chunk
        self._handed: deque[Chunk] = deque()  # handed to the helper, in order
        self._own: dict[Chunk, Found] = {}  # computed here ahead of their filing
        self._next: Chunk | None = None  # the first chunk neither handed nor computed
        self.helped = 0  # chunks (and halves) the helper computed

    @classmethod
    def start(
        cls,
        compute: Callable[[Any], Found],
        join: Callable[[Found, Found, int], Found],
        width: int,
        dtype: Any,
        chunk: int,
    ) -> Ahead | None:
        """A helper and its chunks, where a helper can be started (:func:`available`).
        ``join(first, second, n)``: what is computed of two runs of rows one after the
        other, the first of ``n`` rows, from what is computed of each."""
        if not available():
            return None
        return cls(Helper(compute, width, dtype, chunk), compute, join, chunk)

    def take(self, level: int, rows: Any, at: int, going: list[Any]) -> Found:
        """What is computed of the chunk of ``rows`` (the level's) that starts at ``at``:
        the helper's or computed ahead here; while the helper's is not back, the next
        chunks are computed here."""
        key = (level, at)
        while True:
            own = self._own.pop(key, None)
            if own is not None:
                return own
            helper = self.helper
            if helper is None or not self._handed or self._handed[0] != key:
                break
            self.hand_on(level, rows, going, key)
            if helper.ready() or not self._compute_next(level, rows, going):
                self._handed.popleft()
                try:
                    found = helper.result()
                except Lost:
                    self._lose()
                    break
                self.helped += 1
                return found
        if self._next is None or self._next <= key:
            self._next = (level, at + self.chunk)
        return self._halves(rows[at : at + self.chunk])

    def _halves(self, rows: Any) -> Found:
        """What is computed of ``rows``: the first half here, the second by the helper
        meanwhile, where it has nothing else to do and each half is an eighth of a chunk
        or more."""
        helper, half = self.helper, len(rows) // 2
        if helper is None or helper.busy or half < self.chunk // 8:
            return self.compute(rows)
        try:
            helper.submit([rows[half:]], len(rows) - half)
        except Lost:
            self._lose()
            return self.compute(rows)
        first = self.compute(rows[:half])
        try:
            second = helper.result()
            self.helped += 1
        except Lost:
            self._lose()
            second = self.compute(rows[half:])
        return self.join(first, second, half)

    def hand_on(self, level: int, rows: Any, going: list[Any], filing: Chunk) -> None:
        """Keep the helper two chunks ahead, as far as the rows are there; but the chunk
        to be filed next (``filing``), if not handed yet, is left to be computed here
        meanwhile."""
        while self.helper is not None and self.helper.busy < SLOTS:
            found = self._rows_of_next(level, rows, going)
            if found is None:
                return
            if self._next == filing:
                self._advance()  # :meth:`take` computes it
                continue
            try:
                self.helper.submit(*found)
            except Lost:
                self._lose()
                return
            assert self._next is not None
            self._handed.append(self._next)
            self._advance()

    def forget(self) -> None:
        """Drop every chunk computed ahead: the level they were for will not come."""
        try:
            while self._handed:
                self._handed.popleft()
                if self.helper is not None:
                    self.helper.result()
        except Lost:
            self._lose()
        self._own.clear()
        self._next = None

    def _compute_next(self, level: int, rows: Any, going: list[Any]) -> bool:
        """Compute the next chunk here, if its rows are there."""
        found = self._rows_of_next(level, rows, going)
        if found is None:
            return False
        parts, count = found
        assert self._next is not None
        self._own[self._next] = self.compute(_first(parts, count))
        self._advance()
        return True

    def _rows_of_next(
        self, level: int, rows: Any, going: list[Any]
    ) -> tuple[list[Any], int] | None:
        """The rows of the next chunk to compute (arrays, and how many of their rows), or
        None where they are not all found yet. (``_next`` is moved past this level's end.)"""
        if self._next is None:
            self._next = (level, 0)
        ahead, at = self._next
        if ahead == level and at >= len(rows):
            self._next = ahead, at = level + 1, 0
        if ahead == level:
            return [rows[at : at + self.chunk]], min(self.chunk, len(rows) - at)
        if ahead == level + 1 and sum(len(part) for part in going) - at >= self.chunk:
            return _from(going, at), self.chunk
        return None

    def _advance(self) -> None:
        assert self._next is not None
        self._next = (self._next[0], self._next[1] + self.chunk)

    def _lose(self) -> None:
        """The helper failed: the chunks it had are computed here."""
        if self.helper is not None:
            self.helper.close()
        self.helper = None
        self._handed.clear()


def _first(parts: list[Any], count: int) -> Any:
    """The first ``count`` rows of the arrays of rows ``parts``, one after the other (a
    view of the first where it has them all)."""
    if len(parts[0]) >= count:
        return parts[0][:count]
    taken: list[Any] = []
    for part in parts:
        taken.append(part[:count])
        count -= len(taken[-1])
        if not count:
            break
    return np.concatenate(taken)


def _from(parts: list[Any], at: int) -> list[Any]:
    """The arrays of rows ``parts``, one after the other, from their ``at``-th row on."""
    out = []
    for part in parts:
        if at < len(part):
            out.append(part[at:])
        at = max(0, at - len(part))
    return out
