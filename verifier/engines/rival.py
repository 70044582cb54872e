"""The SMT engine beside the explorer, in a process of its own: the ``auto`` engine's race.

A claim the explorer has not decided within :data:`RACE_AFTER` seconds is handed to an SMT
engine in a second process, forked from this one (it has the rule system and the scenario
already), while the explorer goes on; the first of the two to decide gives the answer. The
explorer is told it was overtaken by :class:`Overtaken`, raised from a timer's signal
between two of its bytecodes, so its loops need no check of their own; an exploration
interrupted that way is left unfinished, and the rival answers the scenario's later claims.

The rival process serves one claim at a time through a pipe and keeps its unrolling between
claims. It ignores Ctrl-C (the command line's process handles it and ends at once), holds
none of that process's files, is killed by the kernel when that process ends, however it
ends, and gives z3 the explorer's memory budget (past it, the rival answers ``unknown`` and
ends). A rival that fails or dies answers nothing: the claim is then the explorer's alone.

The race is run only where a fork is safe and a second core is there
(:func:`verifier.engines.helper.available`; ``VERIFIER_CORES=1`` turns it off).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, Pipe
from typing import Any

from verifier.claims import ast
from verifier.core.state import State
from verifier.engines.base import DEFAULT_MEMORY_LIMIT, Limits, Search
from verifier.engines.helper import detach
from verifier.system import System

__all__ = ["RACE_AFTER", "Overtaken", "Rival", "racing"]

RACE_AFTER = 2.0
"""Seconds the explorer has a claim to itself before the rival is asked too."""

POLL = 0.05
"""Seconds between two looks at the rival's pipe while the explorer works."""

_PR_SET_PDEATHSIG = 1


class Overtaken(BaseException):
    """The rival decided the claim first: raised into the explorer's search from outside,
    between two bytecodes, so (like Ctrl-C's exception) no ``except Exception`` takes it."""


class Rival:
    """An SMT engine in a forked process, asked one claim at a time."""

    def __init__(
        self, system: System, start: State, start_activations: int, limits: Limits
    ) -> None:
        mine, theirs = Pipe()
        parent = os.getpid()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # pragma: no cover - the child's coverage is not collected
            mine.close()
            code = 0
            try:
                _orphaned_dies(parent)
                detach(theirs)
                _serve(theirs, system, start, start_activations, limits)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        theirs.close()
        self.pid = pid
        self.connection = mine
        self._answer: Search | None = None
        self.lost = False
        self._ended = False

    def ask(self, body: ast.Formula, want: bool) -> None:
        """Start deciding a claim (the rival must be idle)."""
        try:
            self.connection.send((body, want))
        except (OSError, ValueError):
            self.lost = True
            return
        self._answer = None

    def answered(self) -> bool:
        """Whether the claim asked has its answer (or the rival is lost)."""
        if self._answer is not None or self.lost:
            return True
        try:
            if not self.connection.poll():
                return False
            self._answer = self.connection.recv()
        except (OSError, EOFError, ValueError):
            self.lost = True
        return True

    def decided(self) -> bool:
        """Whether the answer in hand decides the claim."""
        answer = self._answer
        return answer is not None and (answer.found is not None or answer.complete)

    def answer(self) -> Search | None:
        """The answer to the claim asked, waiting for it (None: the rival is lost)."""
        while not self.answered():
            with contextlib.suppress(OSError, ValueError):
                self.connection.poll(None)
        answer, self._answer = self._answer, None
        return answer

    def close(self) -> None:
        """End the process (at once: it may be deep in a query). Once only: its number,
        once reaped, may be another process's."""
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError, ChildProcessError):
            os.waitpid(self.pid, 0)
        self.connection.close()
        self.lost = True


@contextlib.contextmanager
def racing(rival_of: Callable[[], Rival | None]) -> Iterator[None]:
    """While the block runs (the explorer's search), call ``rival_of()`` once
    :data:`RACE_AFTER` seconds have passed (it gives a rival asked the block's claim, or
    None), and raise :class:`Overtaken` into the block as soon as that rival's answer
    decides the claim."""
    state: dict[str, Any] = {"rival": None, "done": False}

    def tick(signum: int, frame: Any) -> None:
        if state["done"]:
            return
        rival = state["rival"]
        if rival is None:
            state["done"] = True  # a tick that comes while the rival starts does nothing
            rival = state["rival"] = rival_of()
            state["done"] = rival is None
            return
        if rival.answered():
            state["done"] = True
            if rival.decided():
                raise Overtaken

    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only: no race here
        return
    previous = signal.signal(signal.SIGALRM, tick)
    # A timer the program had set is put back afterwards, for what is left of it.
    delay, interval = signal.setitimer(signal.ITIMER_REAL, RACE_AFTER, POLL)
    began = time.monotonic()
    try:
        yield
    finally:
        state["done"] = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if delay > 0:
            left = max(0.001, delay - (time.monotonic() - began))
            signal.setitimer(signal.ITIMER_REAL, left, interval)


def _orphaned_dies(parent: int) -> None:  # pragma: no cover - in the child
    """Have the kernel end this process when the one that forked it ends."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it ended before the request was made
        os._exit(0)


def _serve(
    connection: Connection,
    system: System,
    start: State,
    start_activations: int,
    limits: Limits,
) -> None:  # pragma: no cover - in the child
    """Answer claims until the pipe closes."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    import z3

    from verifier.engines.smt.engine import SmtEngine

    z3.set_param("memory_max_size", max(1, DEFAULT_MEMORY_LIMIT // 1_000_000))
    engine: SmtEngine | None = None
    while True:
        try:
            body, want = connection.recv()
        except (EOFError, OSError):
            return
        began = time.perf_counter()
        try:
            if engine is None:
                engine = SmtEngine.limited(system, start, start_activations, limits)
            found = engine.search(body, want)
        except z3.Z3Exception:
            # Past the memory budget; z3 is not asked again after that.
            detail = "the SMT engine beside the explorer stopped at its memory budget"
            connection.send(Search(None, False, detail, {}))
            return
        stats = {**found.stats, "rival_seconds": round(time.perf_counter() - began, 4)}
        connection.send(Search(found.found, found.complete, found.detail, stats))
