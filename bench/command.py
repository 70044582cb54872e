"""The command line run as a user runs it, measured from outside.

``python -m verifier ARGS`` in a fresh process: its wall time (interpreter start-up and
exit included, as a user waits for them), its own peak resident set (from ``wait4``, so
the program runs exactly as installed, ending the way it ends for a user), its exit
status and its output.
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

ROOT = Path(__file__).resolve().parent.parent


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


def run(arguments: list[str], timeout: float, cwd: Path = ROOT) -> Ran:
    """``python -m verifier *arguments``, killed after ``timeout`` seconds."""
    command = [sys.executable, "-m", "verifier", *arguments]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            process.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - began
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Ran(
            status=process.returncode,
            seconds=seconds,
            peak_mb=usage.ru_maxrss / 1024,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            timed_out=killed.is_set(),
        )
