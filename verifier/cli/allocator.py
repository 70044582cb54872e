"""The C allocator told to keep the memory the array step frees, and use it again.

glibc gives an allocation of more than 128 KiB its own mapping (the bound rises to the
size of the largest such block freed, up to 32 MiB) and returns the free memory at the top
of its heap beyond 128 KiB to the system; a new array then takes fresh pages, a page fault
for each 4 KiB. The array step makes and frees arrays of several megabytes at every chunk
of every level (a level's rows, a chunk's successors and keys). Kept in the heap (blocks up
to 32 MiB, and up to 256 MiB free at its top), the full board's exploration through the
command line took 1.55 to 1.70 s instead of 1.70 to 1.90 (its peak memory 0 to 20 MB
more). Only the program does this, for its commands that end (never a long-running
server's process, nor a program that imports the package).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys

__all__ = ["reuse_freed_memory"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameters (``malloc.h``)."""

MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 256 * 1024 * 1024


def _glibc() -> bool:
    """Whether this process runs on glibc (whose ``mallopt`` takes these parameters)."""
    if not sys.platform.startswith("linux"):
        return False
    with contextlib.suppress(ValueError, OSError, AttributeError):
        version = os.confstr("CS_GNU_LIBC_VERSION")
        return bool(version) and str(version).startswith("glibc")
    return False


def reuse_freed_memory() -> bool:
    """Keep freed memory in the heap for the arrays made next (glibc only); whether the
    allocator took the settings."""
    if not _glibc():
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    kept = int(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) == 1
    return int(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)) == 1 and kept
