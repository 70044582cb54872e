"""The command line run as a user runs it, measured from outside.

``python -m verifier ARGS`` in a fresh process: its wall time (interpreter start-up and
exit included, as a user waits for them), its peak resident set (from ``wait4``, so the
program runs exactly as installed, ending the way it ends for a user; with what its
helper processes hold of their own beside it, sampled every :data:`SAMPLE` seconds), its
exit status and its output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from verifier.engines.resident import private_bytes

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = 0.1
"""Seconds between two readings of the memory of the process and of its helper processes
(which ``wait4`` does not add: they run beside it)."""


@dataclass(frozen=True)
class Ran:
    """What one run of the command line did."""

    status: int
    """The exit status; -N when killed by signal N (as :mod:`subprocess` reports it)."""
    seconds: float
    peak_mb: float
    stdout: str
    stderr: str
    timed_out: bool


def run(
    arguments: list[str], timeout: float, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> Ran:
    """``python -m verifier *arguments``, killed after ``timeout`` seconds; ``env``: more
    environment variables."""
    command = [sys.executable, "-m", "verifier", *arguments]
    environment = {**os.environ, **(env or {})}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, env=environment)
        killed, done = threading.Event(), threading.Event()
        together = [0]  # the most the process and its helpers held at once, in KiB

        def kill() -> None:
            killed.set()
            process.kill()

        def sample() -> None:
            while not done.wait(SAMPLE):
                together[0] = max(together[0], _tree_kib(process.pid))

        timer = threading.Timer(timeout, kill)
        sampler = threading.Thread(target=sample, daemon=True)
        timer.start()
        sampler.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
            done.set()
        seconds = time.perf_counter() - began
        sampler.join()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            status=process.returncode,
            seconds=seconds,
            peak_mb=max(usage.ru_maxrss, together[0]) / 1024,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            timed_out=killed.is_set(),
        )


def _tree_kib(pid: int) -> int:
    """The resident memory of process ``pid`` and what its children hold of their own
    (what they share with it counted once), in KiB; 0 where it cannot be read. (Only the
    children's memory is read page by page, which holds their page tables a moment.)"""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            total = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as children:
            helpers = [int(c) for c in children.read().split()]
    except (OSError, ValueError, IndexError):
        return 0
    return total + sum(private_bytes(child) for child in helpers) // 1024
