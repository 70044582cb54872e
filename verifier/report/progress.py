"""A progress line: one line on standard error, rewritten in place while work runs."""

from __future__ import annotations

import sys
import time

__all__ = ["StatusLine"]

WIDTH = 120
"""The most characters a progress line shows, so that it stays on one terminal line."""


class StatusLine:
    """A line on standard error that :meth:`show` rewrites at most twice a second (always
    when ``final``) and :meth:`clear` erases; the callers show it only on a terminal."""

    def __init__(self) -> None:
        self.shown = False
        self.last = 0.0

    def show(self, line: str, final: bool = False) -> None:
        now = time.monotonic()
        if now - self.last < 0.5 and not final:
            return
        self.last = now
        sys.stderr.write("\r" + line[:WIDTH] + "\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False
