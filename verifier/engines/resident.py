"""The process's resident memory, which bounds an exploration's work."""

from __future__ import annotations

import os

__all__ = ["private_bytes", "resident_bytes"]


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux), or None where it cannot be read cheaply."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def _rollup_kib(pid: int, names: tuple[str, ...]) -> int:
    """The sum of the fields ``names`` of process ``pid``'s ``/proc/PID/smaps_rollup`` (Linux),
    in KiB; 0 where it cannot be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            lines = rollup.read().splitlines()
    except OSError:
        return 0
    kib = 0
    for line in lines:
        name, _, rest = line.partition(":")
        if name in names and rest.split():
            kib += int(rest.split()[0])
    return kib


def private_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` that no other process shares (a helper's
    own, what it shares with the process it was forked from aside); 0 where unknown."""
    return _rollup_kib(pid, ("Private_Clean", "Private_Dirty")) * 1024
