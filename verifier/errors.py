"""Errors: one base for what the user got wrong, one subclass per phase; each knows where in
which file it happened. :class:`InternalError` (a bug) deliberately has another base, so that
no handler of bad input can take a bug for the user's mistake."""

from __future__ import annotations

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
]


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
        return f"{self.path}:{self.line}:{self.col}"


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
        if self.span is None:
            return f"{self.kind}: {self.message}"
        head = f"{self.span}: {self.kind}: {self.message}"
        text = self.span.line_text()
        if text is None:
            return head
        caret = " " * (max(self.span.col, 1) - 1) + "^"
        return f"{head}\n    {text}\n    {caret}"


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
