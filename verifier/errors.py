"""Errors: one base for what the user got wrong, one subclass per phase; each knows where in
which file it happened. :class:`InternalError` (a bug) deliberately has another base, so that
no handler of bad input can take a bug for the user's mistake."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "ClaimError",
    "InputError",
    "InternalError",
    "ModelError",
    "ScenarioError",
    "Span",
    "VerifierError",
    "printable",
    "unprintable",
]

# Characters a terminal or a report would act on rather than show: C0 controls but the tab
# (escape sequences, line breaks inside a name), DEL, the C1 controls, and the bidirectional
# formatting characters that reorder what follows them.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def unprintable(text: str, allowed: str = "") -> re.Match[str] | None:
    """The first character of ``text`` that may not be printed as it is (those in
    ``allowed`` aside), or None."""
    for found in _UNPRINTABLE.finditer(text):
        if found.group() not in allowed:
            return found
    return None


def printable(text: str, keep: str = "") -> str:
    """``text`` with every character a terminal or a report would act on (those in ``keep``
    aside) written as an escape (``\\x1b``, ``\\u202e``): names are data, shown, never
    obeyed."""

    def escape(found: re.Match[str]) -> str:
        char = found.group()
        if char in keep:
            return char
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _UNPRINTABLE.sub(escape, text)


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a source: 1-based line and column, and the text of that line."""

    path: str
    line: int
    col: int
    text: str | None = field(default=None, compare=False)

    def shifted(self, columns: int) -> Span:
        """The same line, ``columns`` further to the right."""
        return Span(self.path, self.line, self.col + columns, self.text)

    def line_text(self) -> str | None:
        """The source line, read from the file when it was not kept."""
        if self.text is not None:
            return self.text
        try:
            lines = Path(self.path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
        if 1 <= self.line <= len(lines):
            return lines[self.line - 1]
        return None

    def __str__(self) -> str:
        return f"{printable(self.path)}:{self.line}:{self.col}"


class VerifierError(Exception):
    """Base of every error the verifier reports to its user: bad input, never a bug.

    ``message`` says what is wrong; ``path``, ``line`` and ``col`` (1-based) say where, or
    are None when the problem has no place in a file (a missing file, a bad option).
    """

    kind = "error"

    def __init__(self, message: str, span: Span | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span

    @property
    def path(self) -> str | None:
        return None if self.span is None else self.span.path

    @property
    def line(self) -> int | None:
        return None if self.span is None else self.span.line

    @property
    def col(self) -> int | None:
        return None if self.span is None else self.span.col

    def render(self) -> str:
        """``path:line:col: error: message``, then the line and a caret under the column."""
        message = printable(self.message)
        if self.span is None:
            return f"{self.kind}: {message}"
        head = f"{self.span}: {self.kind}: {message}"
        text = self.span.line_text()
        if text is None:
            return head
        # An escaped character takes more columns than it did: the caret follows the line.
        before = printable(text[: max(self.span.col, 1) - 1])
        caret = " " * len(before) + "^"
        return f"{head}\n    {printable(text)}\n    {caret}"


class InputError(VerifierError):
    """A file cannot be read or is not well-formed YAML."""


class ModelError(VerifierError):
    """A rule-system file names an unknown primitive or an impossible combination."""


class ScenarioError(VerifierError):
    """A scenario names something that does not exist, or its history is not legal."""


class ClaimError(VerifierError):
    """A claim does not parse, or names a card or player that does not exist."""


class InternalError(Exception):
    """A bug in the verifier, never the user's fault (exit status 4, not 2).

    Not a :class:`VerifierError`: code that catches bad input must let it through.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
