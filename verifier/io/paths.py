"""Files a scenario refers to (``rules:`` paths, ``library:``): where they may be, how they load.

Scenarios travel between people, so a path written in one is confined: it resolves from the
scenario's folder and must stay (symbolic links resolved) inside that folder's tree, unless
the user allows it (``--allow-outside``). The current folder is no root of its own: run from
``/`` or a home folder, it would let a scenario reach any file there. And a referenced
file that is not YAML of the expected kind is reported at the scenario's line that names
it, with the file's position but never its text: the verifier must not become a way to
print someone else's files.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from verifier.errors import Span, VerifierError
from verifier.io.schema import validate
from verifier.io.source import Document, parse_document

__all__ = ["ALLOW_OUTSIDE_HINT", "load_referenced", "quoted", "resolve_reference"]

M = TypeVar("M", bound=BaseModel)

ALLOW_OUTSIDE_HINT = "use --allow-outside to allow it"

_SHOWN = 120  # characters of a reference shown in a message


def quoted(reference: str) -> str:
    """A reference in quotes for a message: shortened when it is very long, and control
    characters escaped (``\\x00``) so that a message cannot drive the terminal."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in reference[:_SHOWN])
    if len(reference) <= _SHOWN:
        return f"'{shown}'"
    return f"'{shown}…' ({len(reference)} characters)"


def resolve_reference(
    reference: str,
    folder: Path,
    what: str,
    missing: str,
    span: Span,
    error: type[VerifierError],
    allow_outside: bool,
) -> Path:
    """The file ``reference`` (written in a scenario in ``folder``) names.

    ``what`` names the kind of reference in messages ("rules file"), ``missing`` is the
    message when there is no such file. Refused when it leaves the scenario's folder's tree,
    unless ``allow_outside``.
    """
    shown = quoted(reference)
    try:
        path = folder / reference
        if not allow_outside:
            target = path.resolve()
            if not target.is_relative_to(folder.resolve()):
                raise error(
                    f"{what} {shown} is outside the scenario's folder ({ALLOW_OUTSIDE_HINT})",
                    span,
                )
        try:
            info = path.stat()
        except (FileNotFoundError, NotADirectoryError):
            # Where it looked: relative names are read from the scenario's own folder.
            raise error(f"{missing} (looked for {path})", span) from None
        if not stat.S_ISREG(info.st_mode):
            raise error(missing, span)
    except OSError as exc:  # a name too long, a loop of links, no permission
        raise error(f"{what} {shown} cannot be read: {_reason(exc)}", span) from None
    except ValueError as exc:  # a NUL character in the name
        raise error(f"{what} {shown} cannot be read: {exc}", span) from None
    return path


def load_referenced(
    path: Path,
    what: str,
    shown: str,
    kind: str,
    schema: type[M],
    span: Span,
    error: type[VerifierError],
) -> tuple[Document, M]:
    """Load the file a scenario refers to as ``schema``; every failure is reported at
    ``span`` (the scenario's line), never with the referenced file's text.

    ``kind`` is what the file should be ("a rule system"); problems that the file's own
    content causes once it is of that kind are the caller's to report, in place.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise error(f"{what} {shown} is not a text file (not UTF-8)", span) from None
    except OSError as exc:
        raise error(f"{what} {shown} cannot be read: {_reason(exc)}", span) from None
    try:
        doc = parse_document(text, str(path))
    except VerifierError as exc:
        raise error(f"{what} {shown} is not valid YAML{_at(exc)}", span) from None
    try:
        spec = validate(schema, doc, error)
    except VerifierError as exc:
        raise error(f"{what} {shown} is not {kind}{_at(exc)}", span) from None
    return doc, spec


def _at(exc: VerifierError) -> str:
    """The position of a problem in the referenced file, without the file's text."""
    if exc.span is None:
        return ""
    return f" (the problem is at line {exc.span.line}, column {exc.span.col})"


def _reason(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()
