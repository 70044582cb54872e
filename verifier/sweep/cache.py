"""The sweep's cache: a folder with one JSON file of rows per decided instance, named by its
cache key, so an interrupted sweep resumes where it stopped.

The folder is the one the user names (``--cache``) or ``OUT.cache`` next to ``--out``; it is
opened without following a symbolic link and every entry is written relative to it (never
through a link). An entry that does not read back (a run stopped while writing it) is
decided again.
"""

from __future__ import annotations

import json
import os
import re

from verifier.io.output import open_folder, write_output
from verifier.sweep.decide import ERROR, Row

__all__ = ["CACHE_SUFFIX", "Cache"]

CACHE_SUFFIX = ".cache"
"""The cache folder next to ``--out`` is its name with this suffix (``results.csv.cache``)."""
_KEY = re.compile(r"[0-9a-f]{64}")
_MAX_ENTRY = 16 * 1024 * 1024


class Cache:
    """Rows by cache key, in a folder; ``None`` keeps nothing."""

    def __init__(self, folder: str | None) -> None:
        self.shown = folder
        self.fd = open_folder(folder) if folder is not None else None

    def get(self, key: str) -> tuple[Row, ...] | None:
        if self.fd is None or not _KEY.fullmatch(key):
            return None
        try:
            fd = os.open(f"{key}.json", os.O_RDONLY | os.O_NOFOLLOW, dir_fd=self.fd)
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as handle:
                data = json.loads(handle.read(_MAX_ENTRY))
            return tuple(Row.from_json(entry) for entry in data)
        except (OSError, ValueError, TypeError, KeyError):
            return None

    def put(self, key: str, rows: tuple[Row, ...]) -> None:
        """Keep ``rows`` unless one is an internal error (a bug, which a fix should not find
        cached)."""
        if self.fd is None or not _KEY.fullmatch(key):
            return
        if any(r.verdict == ERROR and r.reason.startswith("internal error") for r in rows):
            return
        data = json.dumps([r.to_json() for r in rows], ensure_ascii=False)
        shown = os.path.join(self.shown or "", f"{key}.json")
        write_output(f"{key}.json", data, force=True, folder=self.fd, shown=shown)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
