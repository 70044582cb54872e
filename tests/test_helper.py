"""The helper process steps chunks as the explorer would: the same states, in the same
order, with the same witnesses; a helper that fails or dies is done without, and none
outlives its exploration or its program.

:mod:`verifier.engines.helper` computes the successors of a breadth-first level's chunks
in a forked process while the explorer files the chunks before them. Small chunks make
every level of a pool many chunks, so the helper takes part from the first levels on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.pools import write_pool
from bench.reductions import FULL
from verifier.engines import helper as helper_module
from verifier.engines.arrays import Levels
from verifier.engines.helper import available
from verifier.engines.relation import compile_relation
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare

needs_helper = pytest.mark.skipif(not available(), reason="no second core, or no fork here")


def _pool(tmp_path: Path, size: int = 6):  # type: ignore[no-untyped-def]
    prepared = prepare(load_scenario(write_pool(tmp_path, size)))
    system, start = prepared.system, prepared.history.state
    return system, start, compile_relation(system, start)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@needs_helper
def test_the_helper_steps_the_pool_as_the_explorer_does(tmp_path: Path) -> None:
    system, start, program = _pool(tmp_path)
    alone = Levels(system, start, program, chunk=16, helper=False).run()
    helped = Levels(system, start, program, chunk=16).run()
    assert alone.helped == 0
    assert helped.helped > 50  # it computed many of the chunks
    assert helped.states == alone.states == 2_669
    assert helped.reached() == alone.reached()  # the same states, numbered alike
    assert helped.terminals == alone.terminals
    assert [helped.path(s) for s in helped.terminals] == [alone.path(s) for s in alone.terminals]
    assert helped.deadlocks == alone.deadlocks
    # At the default chunk size too (a level of one chunk is halved with the helper).
    assert Levels(system, start, program).run().reached() == alone.reached()


@needs_helper
def test_a_helper_that_fails_is_done_without(tmp_path: Path) -> None:
    system, start, program = _pool(tmp_path)
    here = os.getpid()

    class Failing(Levels):
        def stepped(self, rows):  # type: ignore[no-untyped-def]
            if os.getpid() != here:
                raise MemoryError("in the helper")
            return super().stepped(rows)

    alone = Levels(system, start, program, chunk=16, helper=False).run()
    failing = Failing(system, start, program, chunk=16).run()
    assert failing.helped == 0
    assert failing._ahead is not None and failing._ahead.helper is None  # given up
    assert failing.reached() == alone.reached()
    assert failing.terminals == alone.terminals


@needs_helper
def test_a_helper_that_dies_is_done_without(tmp_path: Path) -> None:
    system, start, program = _pool(tmp_path)
    alone = Levels(system, start, program, chunk=16, helper=False).run()
    levels = Levels(system, start, program, chunk=16)
    while levels._ahead is None and not levels.finished:
        levels._level(None)
    assert levels._ahead is not None and levels._ahead.helper is not None
    pid = levels._ahead.helper.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    levels.run()
    assert levels._ahead.helper is None
    assert levels.reached() == alone.reached()
    assert levels.terminals == alone.terminals


@needs_helper
def test_no_helper_outlives_its_exploration(tmp_path: Path) -> None:
    system, start, program = _pool(tmp_path)
    levels = Levels(system, start, program, chunk=16).run()
    assert levels._ahead is not None and levels._ahead.helper is not None
    pid = levels._ahead.helper.pid
    assert pid is not None and alive(pid)
    del levels  # no cycle holds it: it goes at once, and its helper with it
    assert not alive(pid)  # ended and reaped


def test_no_helper_where_one_core_is_asked_for_or_off_the_main_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system, start, program = _pool(tmp_path)
    monkeypatch.setenv("VERIFIER_CORES", "1")
    assert not available()
    assert Levels(system, start, program, chunk=16).run().helped == 0
    monkeypatch.delenv("VERIFIER_CORES")
    seen: list[bool] = []
    thread = threading.Thread(target=lambda: seen.append(available()))
    thread.start()
    thread.join()
    assert seen == [False]
    monkeypatch.setattr(helper_module.sys, "platform", "darwin")
    assert not available()


@needs_helper
def test_the_memory_budget_counts_the_helper(tmp_path: Path) -> None:
    system, start, program = _pool(tmp_path)
    levels = Levels(system, start, program, chunk=16)
    while levels._ahead is None and not levels.finished:
        levels._level(None)
    assert levels._ahead is not None and levels._ahead.helper is not None
    assert levels._ahead.helper.resident() > 0


@needs_helper  # Linux only, as the helper: the children are read from /proc
def test_ctrl_c_leaves_no_helper_behind() -> None:
    """The command line stops at once on Ctrl-C; its helper ends with it."""
    command = [sys.executable, "-m", "verifier", "ask", "--engine", "explore"]
    command += ["--allow-outside", str(FULL[0]), FULL[1]]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    children: list[int] = []
    while not children and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
        children = children_of(process.pid)
    assert children, "the board's exploration started no helper"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    deadline = time.monotonic() + 10
    while any(alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(alive(c) for c in children)


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(name))
    return found


def test_a_sweeps_workers_explore_on_one_core_each() -> None:
    """A sweep has a worker a core: none of them starts a helper beside it."""
    code = (
        "from verifier.sweep.decide import quiet_worker\n"
        "from verifier.engines.helper import available\n"
        "quiet_worker()\n"
        "print(available())\n"
    )
    command = [sys.executable, "-c", code]
    ran = subprocess.run(command, check=True, capture_output=True, text=True, timeout=60)
    assert ran.stdout == "False\n", ran.stderr
