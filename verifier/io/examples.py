"""Copying the bundled examples and card libraries out of the package (``verifier examples``).

The copy follows the rules of every file the verifier writes (:mod:`verifier.io.output`):
nothing is written over an existing file without ``--force`` (and then only over regular
files), no symbolic link is written through, and every target is checked before the first
file is written, so a refused copy leaves the folder as it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from verifier.errors import InputError
from verifier.io.bundled import bundled_examples
from verifier.io.output import open_folder, write_output

__all__ = ["copy_examples", "example_files"]


def example_files() -> list[Path]:
    """The bundled examples' files, relative to their folder, in order."""
    folder = bundled_examples()
    if folder is None:
        raise InputError("this installation carries no examples")
    return sorted(
        p.relative_to(folder)
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in {".yaml", ".json"}
    )


def copy_examples(destination: str, force: bool) -> list[Path]:
    """Copy the bundled examples into ``destination`` (created if need be); the files
    written, relative to it."""
    source = bundled_examples()
    files = example_files()
    assert source is not None
    target = Path(destination)
    if not force:
        existing = [f for f in files if os.path.lexists(target / f)]
        if existing:
            shown = target / existing[0]
            more = f" (and {len(existing) - 1} more of the examples)" if len(existing) > 1 else ""
            raise InputError(f"'{shown}' exists{more}; use --force to overwrite")
    folders: dict[Path, int] = {Path("."): open_folder(target)}
    try:
        for relative in files:
            parent = relative.parent
            if parent not in folders:
                folders[parent] = _subfolder(folders[Path(".")], parent, target)
            data = (source / relative).read_bytes()
            write_output(
                relative.name, data, force, folder=folders[parent], shown=str(target / relative)
            )
    finally:
        for fd in folders.values():
            os.close(fd)
    return files


def _subfolder(root: int, relative: Path, target: Path) -> int:
    """Open (creating it if need be) the folder ``relative`` under the open folder ``root``,
    following no symbolic link."""
    fd = os.dup(root)
    try:
        for part in relative.parts:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, dir_fd=fd)
            try:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError:
                raise InputError(
                    f"'{target / relative}' is not a folder (or is a symbolic link)"
                ) from None
            os.close(fd)
            fd = inner
    except InputError:
        os.close(fd)
        raise
    return fd
