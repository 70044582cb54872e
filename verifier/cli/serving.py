"""Running at scale and for others: ``sweep`` (many instances), ``serve`` (the web page)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

import click

from verifier.cli.common import (
    BAD_INPUT,
    MAX_WORKERS,
    Count,
    Seconds,
    allow_outside_option,
    cli,
    debug,
    engine_option,
    force_option,
    max_states_option,
    quiet_option,
    timeout_option,
)


@cli.command("sweep")
@allow_outside_option
@click.argument("path")
@click.option(
    "--workers",
    type=Count(MAX_WORKERS),
    default=None,
    help="Worker processes (default: every core; with local-cluster, its workers).",
)
@click.option(
    "--scheduler",
    default=None,
    help="Run on a Dask cluster: a scheduler's address (tcp://HOST:8786), or local-cluster.",
)
@click.option("--out", default=None, help="Write one row per instance and claim (.csv, .parquet).")
@click.option(
    "--cache",
    default=None,
    help="The cache folder (default: OUT.cache next to --out; no cache without either).",
)
@force_option
@engine_option
@timeout_option
@max_states_option()
@quiet_option
def sweep_cmd(
    path: str,
    workers: int | None,
    scheduler: str | None,
    out: str | None,
    cache: str | None,
    force: bool,
    engine: str,
    timeout: float | None,
    max_states: int,
    allow_outside: bool,
    quiet: bool,
) -> None:
    """Decide a sweep (a *.sweep.yaml file): its claims for every choice of cards, under each
    of its models, on a process pool or a Dask cluster.

    Exit status 2 when an instance does not load, 3 when a verdict is unknown, 4 on an
    internal error in an instance; the other instances are decided all the same.
    """
    from verifier.sweep.command import Options, sweep_command
    from verifier.sweep.expand import Settings

    settings = Settings(engine, timeout, max_states)
    options = Options(workers, scheduler, out, cache, force, settings, allow_outside)
    sys.exit(sweep_command(path, options, quiet))


SERVE_EXTRA = "verifier serve needs the serve extra: pip install 'chain-verifier[serve]'"


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Runs decided at once, each in a worker process (default: the CPUs, at most 4).",
)
@click.option(
    "--queue",
    "waiting",
    type=click.IntRange(0, 10_000),
    default=16,
    show_default=True,
    help="Runs that may wait for a worker; beyond them a run is answered `busy` (503).",
)
@click.option(
    "--timeout",
    type=Seconds(),
    default=10.0,
    show_default=True,
    help="Seconds per engine for each claim before `unknown`.",
)
@max_states_option()
@click.option(
    "--run-seconds",
    type=Seconds(),
    default=60.0,
    show_default=True,
    help="The most one run may take in all; its worker is then stopped.",
)
def serve_cmd(
    host: str,
    port: int,
    workers: int | None,
    waiting: int,
    timeout: float,
    max_states: int,
    run_seconds: float,
) -> None:
    """Serve the web page: write a scenario, run it, share the question as a link.

    Scenarios name rule systems and card libraries by name only (no files); each run goes
    to a worker process with these limits, and nothing is written. Stop it with Ctrl-C.
    """
    import importlib.util

    if any(importlib.util.find_spec(m) is None for m in ("starlette", "uvicorn")):
        click.echo(f"error: {SERVE_EXTRA}", err=True)
        sys.exit(BAD_INPUT)
    from verifier.serve.app import Settings, serve
    from verifier.serve.worker import RunLimits

    # The server stops itself on Ctrl-C, its runs with it (not the checks' immediate exit).
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    limits = RunLimits(timeout, max_states, run_seconds, debug=debug())
    count = workers if workers is not None else max(1, min(4, os.cpu_count() or 1))
    click.echo(f"verifier serve: http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    serve(Settings(host, port, count, waiting, limits))
