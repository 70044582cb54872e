"""``verifier sweep``: load a sweep, decide what the cache does not hold, write and sum up."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import click

from verifier.errors import InputError
from verifier.io.output import check_target, write_output
from verifier.report.progress import StatusLine
from verifier.sweep.cache import CACHE_SUFFIX, Cache
from verifier.sweep.decide import ERROR, Row
from verifier.sweep.execute import default_workers, on_dask, on_pool
from verifier.sweep.expand import Settings, jobs
from verifier.sweep.load import Sweep, load_sweep
from verifier.sweep.results import check_format, output_bytes, sorted_rows, summary_lines

__all__ = ["Options", "run_sweep", "sweep_command"]

OK, BAD_INPUT, UNKNOWN, INTERNAL = 0, 2, 3, 4


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line asks of a sweep."""

    workers: int | None = None
    scheduler: str | None = None
    out: str | None = None
    cache: str | None = None
    force: bool = False
    settings: Settings = field(default_factory=Settings)
    allow_outside: bool = False


class SweepProgress(StatusLine):
    """The line a sweep keeps on standard error, as the check command's: instances done,
    from the cache, rate."""

    def __init__(self) -> None:
        super().__init__()
        self.began = time.monotonic()

    def __call__(self, done: int, cached: int, total: int) -> None:
        seconds = time.monotonic() - self.began
        rate = (done - cached) / seconds if seconds > 0 else 0.0
        self.show(
            f"sweeping: {done:,}/{total:,} instance runs, {cached:,} from the cache, "
            f"{rate:,.1f}/s, {seconds:.0f} s (Ctrl-C stops; the cache keeps what is done)",
            final=done >= total,
        )


def cache_folder(options: Options) -> str | None:
    """Where the cache is: ``--cache``, else ``OUT.cache`` next to ``--out``, else none."""
    if options.cache is not None:
        return options.cache
    if options.out is not None:
        return options.out + CACHE_SUFFIX
    return None


def run_sweep(
    sweep: Sweep, options: Options, told: Callable[[int, int, int], None] | None = None
) -> tuple[list[Row], int, int]:
    """Decide every instance of ``sweep`` under every model; the sorted rows, the number of
    instances, and how many instance runs came from the cache."""
    pending = jobs(sweep, options.settings)
    instances = len({job.instance for job in pending})
    cache = Cache(cache_folder(options))
    rows: list[Row] = []
    cached = 0
    try:
        todo = []
        for job in pending:
            found = cache.get(job.key)
            if found is None:
                todo.append(job)
            else:
                rows.extend(found)
                cached += 1
        done = cached
        if told is not None:
            told(done, cached, len(pending))
        workers = options.workers or default_workers()
        runs = (
            on_dask(todo, options.scheduler, workers)
            if options.scheduler is not None
            else on_pool(todo, workers)
        )
        for job, decided in runs:
            cache.put(job.key, decided)
            rows.extend(decided)
            done += 1
            if told is not None:
                told(done, cached, len(pending))
    finally:
        cache.close()
    return sorted_rows(sweep, rows), instances, cached


def _status(rows: list[Row]) -> int:
    if any(r.verdict == ERROR and r.reason.startswith("internal error") for r in rows):
        return INTERNAL
    if any(r.verdict == ERROR for r in rows):
        return BAD_INPUT
    if any(r.verdict == "unknown" for r in rows):
        return UNKNOWN
    return OK


def sweep_command(path: str, options: Options, quiet: bool) -> int:
    """Run the sweep in ``path`` as the command line asks; returns the exit status."""
    if options.scheduler is not None and not options.scheduler.strip():
        raise InputError("--scheduler takes an address (tcp://HOST:8786) or local-cluster")
    if options.out is not None:
        check_format(options.out)
        check_target(options.out, options.force)
    folder = cache_folder(options)
    if folder is not None and Path(folder).is_symlink():
        raise InputError(f"'{folder}' is a symbolic link; refusing to write into it")
    sweep = load_sweep(path, options.allow_outside)
    line = None if quiet or not sys.stderr.isatty() else SweepProgress()
    try:
        rows, instances, cached = run_sweep(sweep, options, line)
    finally:
        if line is not None:
            line.clear()
    if options.out is not None:
        write_output(options.out, output_bytes(sweep, rows, options.out), options.force)
    click.echo("\n".join(summary_lines(sweep, rows, instances, cached)))
    if options.out is not None:
        click.echo(f"wrote {len(rows)} row(s) to {options.out}")
    return _status(rows)
