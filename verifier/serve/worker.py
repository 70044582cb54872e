"""Runs: each scenario the page is given is decided in a worker process, within limits.

The server never decides a claim itself. A :class:`Pool` keeps a fixed number of worker
processes (started with ``spawn``: nothing is forked from a server full of threads, and no
socket file is made); each takes one :class:`Job` at a time and answers with an
:class:`Outcome` made of plain data and the results' markup, drawn in the worker by the HTML
report's renderer. The limits are those of the command line: ``--timeout`` seconds per
engine, ``--max-states``, the explorer's memory budget, and past them a verdict is
``unknown``. Behind them are two backstops: the address space a worker may add is capped
(``RLIMIT_AS``), and a run that outlasts :attr:`RunLimits.seconds` has its worker killed
and replaced. Either way the visitor gets an answer that says so.

At most ``size`` runs go at once and ``waiting`` more wait for a worker; a run beyond
those is refused at once (:meth:`Pool.run` returns None: the page answers "busy").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import threading
import traceback
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path
from typing import TYPE_CHECKING

from verifier.engines.base import DEFAULT_MEMORY_LIMIT, DEFAULT_STATE_LIMIT

if TYPE_CHECKING:
    from verifier.errors import VerifierError

__all__ = ["SCENARIO_NAME", "Decided", "Job", "Outcome", "Pool", "Problem", "RunLimits", "run_job"]

SCENARIO_NAME = "scenario.yaml"
"""The name a scenario from the page has in messages (``scenario.yaml:3:8: error: ...``)."""
ASKED_NAME = "ask"
"""The heading of the results of the claim asked in the ask box."""
RECYCLE_AFTER = 500
"""Runs after which a worker is replaced by a fresh one (what caches it grew is dropped)."""
STARTUP_SECONDS = 120.0
"""How long a new worker may take to import the verifier before it is taken for broken."""
_READY = "ready"
_SLACK = 512 * 1024 * 1024
"""Address space a worker may add beyond the explorer's budget (the solver, the page)."""


@dataclass(frozen=True, slots=True)
class RunLimits:
    """What bounds one run: ``timeout`` seconds per engine for each claim and ``max_states``
    (as ``verifier check --timeout --max-states``), ``seconds`` for the whole run (then its
    worker is killed), and ``memory``, the bytes of address space a worker may add."""

    timeout: float = 10.0
    max_states: int = DEFAULT_STATE_LIMIT
    seconds: float = 60.0
    memory: int = DEFAULT_MEMORY_LIMIT + _SLACK
    debug: bool = False
    """Print an internal error's traceback on the server's standard error."""


@dataclass(frozen=True, slots=True)
class Job:
    """A scenario's text, and the claim asked in the ask box ("" for none); ``why`` asks,
    when that claim fails, for the rules that forbid it (``verifier ask --explain``)."""

    text: str
    claim: str = ""
    why: bool = False


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a run gave no results: bad input (``input``), a limit of the server (``limit``)
    or a bug (``internal``). ``message`` is the command line's one line
    (``scenario.yaml:3:8: error: ...``), ``detail`` that and the line with a caret."""

    kind: str
    message: str
    detail: str = ""
    path: str | None = None
    line: int | None = None
    col: int | None = None


@dataclass(frozen=True, slots=True)
class Decided:
    """One claim's verdict, as plain data: its id, text, verdict, expectation and status
    (``ok``, ``EXPECTED HOLDS``, ``decided``, ``undecided``, ``DISAGREE``)."""

    id: str
    claim: str
    verdict: str
    expected: str | None
    status: str
    as_expected: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a run answers: the results' markup, each claim's verdict, the asked claim's, and
    the problem that stopped the scenario (``problem``) or only the asked claim
    (``ask_problem``)."""

    html: str = ""
    claims: tuple[Decided, ...] = ()
    asked: Decided | None = None
    problem: Problem | None = None
    ask_problem: Problem | None = None
    model: str = ""
    game: str = ""


def _problem(exc: VerifierError) -> Problem:
    detail = exc.render()
    message = detail.split("\n", 1)[0]
    return Problem("input", message, detail, exc.path, exc.line, exc.col)


def _internal(exc: BaseException, debug: bool) -> Problem:
    from verifier.errors import InternalError

    text = exc.message if isinstance(exc, InternalError) else str(exc)
    message = f"internal error: {type(exc).__name__}: {text}"
    print(f"verifier serve: {message}", file=sys.stderr)
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    return Problem("internal", message, message)


_OUT_OF_MEMORY = Problem(
    "limit",
    "error: the run needed more memory than this server gives one run; "
    "ask about fewer cards, or use `verifier check` on your own machine",
)


def run_job(job: Job, limits: RunLimits) -> Outcome:
    """Decide ``job`` here and now (what a worker does with each job it is given)."""
    from verifier.errors import VerifierError

    try:
        return _decide(job, limits)
    except VerifierError as exc:
        return Outcome(problem=_problem(exc))
    except MemoryError:
        return Outcome(problem=_OUT_OF_MEMORY)
    except Exception as exc:  # a bug: said in one line, the traceback only in the log
        return Outcome(problem=_internal(exc, limits.debug))


def _decide(job: Job, limits: RunLimits) -> Outcome:
    from verifier.api import Options, decide, decide_claim
    from verifier.errors import VerifierError
    from verifier.io.bundled import bundled_examples
    from verifier.io.scenario import InMemory, parse_for
    from verifier.report.html import FileSection, html_results
    from verifier.report.reasons import can_explain
    from verifier.report.text import status
    from verifier.run.check import ClaimResult
    from verifier.run.verdict import Verdict

    # The folder is never read: a scenario from the page names no file (names_only).
    folder = bundled_examples() or Path(os.sep)
    source = InMemory(SCENARIO_NAME, job.text, folder)
    options = Options("auto", limits.timeout, limits.max_states, names_only=True)
    checked = decide(source, options)
    scenario = checked.scenario
    sections = [FileSection.of(SCENARIO_NAME, scenario, checked.results)]
    explainable = {
        id(r)
        for r, entry in zip(checked.results, scenario.claims, strict=True)
        if can_explain(entry.formula)
    }
    asked: ClaimResult | None = None
    ask_problem = None
    if job.claim:
        try:
            formula = parse_for(scenario, job.claim)
            ask = decide_claim(source, job.claim, replace(options, explain=job.why))
            [asked] = ask.results
            sections.append(FileSection.of(ASKED_NAME, ask.scenario, ask.results))
            if can_explain(formula) and not job.why:
                explainable.add(id(asked))
        except VerifierError as exc:
            ask_problem = _problem(exc)

    def why(r: ClaimResult) -> bool:
        return id(r) in explainable and r.verdict is Verdict.FAILS and not r.because

    def plain(r: ClaimResult) -> Decided:
        return Decided(r.id, r.claim, r.verdict.value, r.expected, status(r), r.as_expected)

    return Outcome(
        html=html_results(sections, why, why_form="editor"),
        claims=tuple(plain(r) for r in checked.results),
        asked=None if asked is None else plain(asked),
        ask_problem=ask_problem,
        model=scenario.model.name,
        game=scenario.model.game,
    )


# -- the worker process ---------------------------------------------------------------------


def _address_space() -> int | None:
    """The bytes of address space this process holds now (Linux), or None."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _limit_memory(extra: int) -> None:
    """Let this process add at most ``extra`` bytes of address space to what it has."""
    try:
        import resource
    except ImportError:  # not a POSIX system: the explorer's own budget still holds
        return
    now = _address_space()
    if now is None:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = now + extra if hard == resource.RLIM_INFINITY else min(now + extra, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _work(conn: Connection, limits: RunLimits) -> None:
    """A worker: decide each job the server sends, until it sends None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    # Everything a run may need is imported before the limit, so that it counts the run only.
    import verifier.api
    import verifier.report.html
    import verifier.report.reasons  # noqa: F401  (the solver, for "why")

    _limit_memory(limits.memory)
    conn.send(_READY)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            outcome = run_job(job, limits)
        except MemoryError:
            outcome = Outcome(problem=_OUT_OF_MEMORY)
        conn.send(outcome)


class _Worker:
    """One worker process and the pipe to it, replaced when it is killed or worn out."""

    def __init__(self, context: SpawnContext, limits: RunLimits) -> None:
        self._context = context
        self._limits = limits
        self._process: SpawnProcess | None = None
        self._conn: Connection | None = None
        self._ready = False
        self._runs = 0

    def start(self) -> None:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=_work, args=(theirs, self._limits), name="verifier-serve-run", daemon=True
        )
        process.start()
        theirs.close()
        self._process, self._conn, self._ready, self._runs = process, ours, False, 0

    def stop(self) -> None:
        """End the process: asked to, then killed if it does not."""
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            conn.close()
        if process is not None:
            process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join()
            process.close()

    def kill(self) -> None:
        if self._process is not None:
            self._process.kill()
        self.stop()

    def run(self, job: Job) -> Outcome:
        if self._process is None:
            self.start()
        assert self._conn is not None
        conn = self._conn
        try:
            if not self._ready:
                if not conn.poll(STARTUP_SECONDS) or conn.recv() != _READY:
                    raise EOFError
                self._ready = True
            conn.send(job)
            if not conn.poll(self._limits.seconds):
                self.kill()
                self.start()
                seconds = self._limits.seconds
                return Outcome(
                    problem=Problem(
                        "limit",
                        f"error: the run was stopped after {seconds:g} s, the most this server "
                        "gives one run; ask fewer claims at a time, or use `verifier check`",
                    )
                )
            outcome: Outcome = conn.recv()
        except (EOFError, OSError):  # the worker died: the memory cap, or a crash
            self.kill()
            self.start()
            return Outcome(problem=_OUT_OF_MEMORY)
        self._runs += 1
        if self._runs >= RECYCLE_AFTER:
            self.stop()
            self.start()
        return outcome


class Pool:
    """``size`` workers and room for ``waiting`` runs to wait for one."""

    def __init__(self, size: int, waiting: int, limits: RunLimits) -> None:
        self.size = size
        self.capacity = size + waiting
        self.limits = limits
        context = multiprocessing.get_context("spawn")
        self._workers = [_Worker(context, limits) for _ in range(size)]
        self._free: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._threads = concurrent.futures.ThreadPoolExecutor(size, "verifier-serve")
        self._lock = threading.Lock()
        self._admitted = 0
        self._running = 0
        self.finished = 0
        """Runs answered since the pool started (each admitted run is answered once)."""
        self.refused = 0
        """Runs refused because the pool was full."""

    def start(self) -> None:
        """Start the workers (they import the verifier while the server starts)."""
        for worker in self._workers:
            worker.start()
            self._free.put(worker)

    def close(self) -> None:
        """Stop the workers; a run still going is killed."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        for worker in self._workers:
            worker.kill()

    def figures(self) -> dict[str, int]:
        """Workers, runs going, runs waiting, runs answered, runs refused."""
        with self._lock:
            running, admitted = self._running, self._admitted
            return {
                "workers": self.size,
                "running": running,
                "waiting": admitted - running,
                "finished": self.finished,
                "refused": self.refused,
            }

    async def run(self, job: Job) -> Outcome | None:
        """Decide ``job`` in a worker; None at once when ``capacity`` runs are admitted."""
        with self._lock:
            if self._admitted >= self.capacity:
                self.refused += 1
                return None
            self._admitted += 1
        try:
            future = self._threads.submit(self._run, job)
        except RuntimeError:  # shutting down
            self._release(None)
            return None
        # The slot is given back when the run ends, not when its visitor leaves: a visitor
        # who goes away cancels a run still waiting, and a run going finishes first.
        future.add_done_callback(self._release)
        return await asyncio.wrap_future(future)

    def _release(self, _: concurrent.futures.Future[Outcome] | None) -> None:
        with self._lock:
            self._admitted -= 1

    def _run(self, job: Job) -> Outcome:
        worker = self._free.get()
        with self._lock:
            self._running += 1
        try:
            return worker.run(job)
        finally:
            with self._lock:
                self._running -= 1
                self.finished += 1
            self._free.put(worker)
