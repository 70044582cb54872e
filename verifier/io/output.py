"""Writing the files commands produce (graphs, witnesses, generated scenarios).

An existing file is never overwritten without ``--force``, a symbolic link is never written
through (the last component is opened with ``O_NOFOLLOW``; a folder of witnesses is opened
the same way and written relative to it; and no folder of the path as written may be a
symbolic link either), and a target that cannot be written is a clean
:class:`~verifier.errors.InputError` (exit status 2), not a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from verifier.errors import InputError

__all__ = ["check_target", "open_folder", "write_output"]


def _is_link(path: Path) -> bool:
    return path.is_symlink()


def _link(shown: str) -> InputError:
    return InputError(f"'{shown}' is a symbolic link; refusing to write through it")


def _linked_parent(path: Path) -> None:
    """Refuse a path one of whose folders, as written, is a symbolic link (a link to a
    folder elsewhere would take the file there)."""
    for parent in reversed(path.parents):
        if parent != Path(parent.anchor) and parent != Path() and _is_link(parent):
            raise InputError(
                f"'{parent}' is a symbolic link; refusing to write through it (in '{path}')"
            )


def check_target(path: str | Path, force: bool) -> None:
    """Refuse, before any work is done, a target that :func:`write_output` would refuse."""
    target = Path(path)
    _linked_parent(target)
    if _is_link(target):
        raise _link(str(path))
    if target.is_dir():
        raise InputError(f"'{path}' is a directory")
    if target.exists() and not force:
        raise InputError(f"'{path}' exists; use --force to overwrite")
    parent = target.parent
    if not parent.is_dir():
        raise InputError(f"cannot write '{path}': no folder '{parent}'")


def open_folder(path: str | Path) -> int:
    """Create the folder ``path`` if need be and open it without following a symbolic link;
    the caller closes the descriptor it returns."""
    folder = Path(path)
    _linked_parent(folder)
    if _is_link(folder):
        raise InputError(f"'{path}' is a symbolic link; refusing to write into it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except FileExistsError:
        raise InputError(f"'{path}' exists and is not a folder") from None
    except OSError as exc:
        if exc.errno in {errno.ELOOP, errno.ENOTDIR}:
            raise InputError(f"'{path}' is not a folder (or is a symbolic link)") from None
        raise InputError(f"cannot write into '{path}': {exc.strerror}") from None


def write_output(
    path: str | Path,
    data: bytes | str,
    force: bool,
    folder: int | None = None,
    shown: str | None = None,
) -> None:
    """Write ``data`` to ``path`` (relative to the open ``folder`` when given; ``shown`` is
    how messages name it).

    Without ``force`` the file must not exist (``O_EXCL``); with it an existing regular file
    is truncated. Either way a symbolic link is refused (``O_NOFOLLOW``), and so is anything
    that is not a regular file.
    """
    shown = str(path) if shown is None else shown
    if folder is None:
        _linked_parent(Path(path))
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    flags |= os.O_TRUNC if force else os.O_EXCL
    if force:
        # O_TRUNC would empty a FIFO's or device's reader; look before truncating.
        try:
            mode = os.stat(path, dir_fd=folder, follow_symlinks=False).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as exc:
            raise InputError(f"cannot write '{shown}': {exc.strerror}") from None
        if mode is not None and stat.S_ISLNK(mode):
            raise _link(shown)
        if mode is not None and not stat.S_ISREG(mode):
            raise InputError(f"'{shown}' is not a regular file")
    try:
        fd = os.open(path, flags, 0o644, dir_fd=folder)
    except FileExistsError:
        try:
            mode = os.stat(path, dir_fd=folder, follow_symlinks=False).st_mode
        except OSError:
            mode = 0
        if stat.S_ISLNK(mode):
            raise _link(shown) from None
        raise InputError(f"'{shown}' exists; use --force to overwrite") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link(shown) from None
        raise InputError(f"cannot write '{shown}': {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(f"'{shown}' is not a regular file")
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as exc:
        raise InputError(f"cannot write '{shown}': {exc.strerror}") from None
