"""Running a sweep's jobs: on a local process pool, or on a Dask distributed cluster.

Both hand each job to :func:`~verifier.sweep.decide.decide_job` in another process and yield
the rows as jobs finish; the order in which they finish does not matter, since the sweep
sorts its rows. ``local-cluster`` starts a Dask cluster of worker processes here, which
stops with the sweep; an address connects to a scheduler that is already running.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from verifier.errors import InputError
from verifier.sweep.decide import Row, decide_job, quiet_worker
from verifier.sweep.expand import Job

__all__ = ["LOCAL_CLUSTER", "default_workers", "on_dask", "on_pool"]

LOCAL_CLUSTER = "local-cluster"
DASK_HINT = "pip install 'chain-verifier[dask]'"
_CONNECT_SECONDS = 10
_QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def default_workers() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def on_pool(jobs: Sequence[Job], workers: int) -> Iterator[tuple[Job, tuple[Row, ...]]]:
    """Decide ``jobs`` on a pool of ``workers`` processes, started afresh (``spawn``: the
    command's own threads are not copied into them)."""
    if not jobs:
        return
    _quiet_tracker()
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=quiet_worker)
    try:
        futures = {pool.submit(decide_job, job): job for job in jobs}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _quiet_tracker() -> None:
    """Ctrl-C ends the command at once (status 130, its workers stopped); the helper process
    that tracks the pool's semaphores then removes them, and would warn of each as "leaked".
    It takes this process's warning options when it starts, so it is told not to."""
    if _QUIET_TRACKER not in sys.warnoptions:
        sys.warnoptions.append(_QUIET_TRACKER)


def _dask() -> Any:
    try:
        from dask import distributed
    except ImportError:
        raise InputError(f"--scheduler needs Dask: {DASK_HINT}") from None
    return distributed


@contextlib.contextmanager
def _client(scheduler: str, workers: int) -> Iterator[Any]:
    distributed = _dask()
    import logging

    if scheduler == LOCAL_CLUSTER:
        _quiet_tracker()
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    try:
        client = distributed.Client(scheduler, timeout=_CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at '{scheduler}': {exc}") from None
    with client:
        yield client


def on_dask(
    jobs: Sequence[Job], scheduler: str, workers: int
) -> Iterator[tuple[Job, tuple[Row, ...]]]:
    """Decide ``jobs`` on the Dask cluster at ``scheduler`` (or a local one of ``workers``
    processes); every worker needs this package installed, and the sweep's files at the same
    paths."""
    if not jobs:
        return
    with _client(scheduler, workers) as client:
        distributed = _dask()
        futures = client.map(decide_job, list(jobs), pure=False)
        by_future = dict(zip(futures, jobs, strict=True))
        for future in distributed.as_completed(futures):
            yield by_future[future], future.result()
