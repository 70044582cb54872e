"""The process's resident memory, which bounds an exploration's work."""

from __future__ import annotations

import os

__all__ = ["resident_bytes"]


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux), or None where it cannot be read cheaply."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")
