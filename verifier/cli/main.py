"""The program: the command group, run so that Ctrl-C stops it at once, even inside the
solver."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import NoReturn

import click

from verifier.cli.allocator import reuse_freed_memory
from verifier.cli.common import (
    BAD_INPUT,
    INTERNAL,
    INTERRUPT_MESSAGE,
    INTERRUPTED,
    OK,
    cli,
    internal_message,
)
from verifier.errors import VerifierError

_WAKEUP: list[socket.socket] = []


def _stop_at_once_on_interrupt() -> None:
    """Make Ctrl-C stop the program at once, even while the solver runs.

    Python runs its signal handlers between bytecodes, so a Ctrl-C that arrives while z3
    (or any long C call) works would wait for it to return, minutes perhaps. The signal is
    instead written to a socket that a watching thread reads: it prints one line and ends
    the process with status 130 whatever the main thread is doing.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # not the main thread of the main interpreter
        return
    _WAKEUP.append(writer)  # the socket must outlive this function
    signal.signal(signal.SIGINT, lambda signum, frame: None)

    def watch() -> None:
        while True:
            data = reader.recv(64)
            if not data:
                return
            if signal.SIGINT in data:
                with contextlib.suppress(OSError, ValueError, RuntimeError):
                    sys.stdout.flush()
                os.write(2, ("\r\x1b[K" if sys.stderr.isatty() else "").encode())
                os.write(2, (INTERRUPT_MESSAGE + "\n").encode())
                _stop_workers()
                os._exit(INTERRUPTED)

    threading.Thread(target=watch, name="interrupt", daemon=True).start()


def _stop_workers() -> None:
    """Stop the worker processes a sweep started, so that none goes on after the command
    (a worker busy in the solver would finish its job first)."""
    processes = sys.modules.get("multiprocessing")
    if processes is None:
        return
    with contextlib.suppress(Exception):
        for child in processes.active_children():
            child.kill()


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; errors become one located message and exit status 2.

    Run as the program (no ``argv``), Ctrl-C stops it at once, and it ends without the
    interpreter's teardown (:func:`_leave`)."""
    if argv is not None:
        _run(list(argv))
    _stop_at_once_on_interrupt()
    # The rules, the relation's writing and the explorer make millions of short-lived
    # objects and nearly no cycles: collected every 700 allocations (the default), the
    # young ones took a tenth of a full board's time; every 50,000, a third of that.
    gc.set_threshold(50_000, 20, 100)
    if sys.argv[1:2] != ["serve"]:  # a server keeps the allocator's defaults
        reuse_freed_memory()
    try:
        _run(sys.argv[1:])
    except SystemExit as exc:
        _leave(exc.code)


def _leave(code: object) -> NoReturn:
    """End the process with ``code`` (as :func:`sys.exit` takes it): the output flushed,
    any worker processes stopped, and the interpreter's teardown skipped. Freeing a large
    exploration object by object took a fifth of a second or more after its answer was
    printed; the system takes the memory back at once."""
    status = 0
    if isinstance(code, int):
        status = code
    elif code is not None:
        with contextlib.suppress(Exception):
            print(code, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    _stop_workers()
    os._exit(status)


def _run(args: list[str]) -> NoReturn:
    """The command line on ``args``; always ends in :class:`SystemExit`."""
    debug = "--debug" in args
    try:
        cli.main(args=args, prog_name="verifier", standalone_mode=False)
    except VerifierError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(BAD_INPUT)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(BAD_INPUT)
    except (click.exceptions.Abort, KeyboardInterrupt):
        # Ctrl-C (click turns it into Abort): one line, and the shells' status for it.
        click.echo(INTERRUPT_MESSAGE, err=True)
        sys.exit(INTERRUPTED)
    except SystemExit:
        raise
    except Exception as exc:  # InternalError, or any other bug
        click.echo(internal_message(exc), err=True)
        if debug:
            traceback.print_exc()
        else:
            click.echo("run with --debug to see the traceback", err=True)
        sys.exit(INTERNAL)
    sys.exit(OK)
