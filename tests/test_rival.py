"""The ``auto`` engine's race: the SMT engine beside the explorer, in a process of its own.

A claim the explorer has not decided within ``RACE_AFTER`` seconds goes to an SMT engine
in a forked process too; the first to decide answers. The explorer is slowed down here (its
search sleeps first) so that the SMT engine wins or loses on purpose; the verdicts are the
scenario's expected ones either way, and no process outlives the race, the engine, the
program or a Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.pools import write_pool
from tests.test_helper import alive, children_of
from verifier.api import Options, decide, decide_claim
from verifier.claims import ast
from verifier.engines import rival
from verifier.engines.auto import AutoEngine
from verifier.engines.base import Limits
from verifier.engines.explore import ExplorerEngine
from verifier.engines.helper import available
from verifier.io.scenario import load_scenario
from verifier.run import verdict
from verifier.run.check import prepare
from verifier.run.verdict import Verdict

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "examples" / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"
BOARD = ROOT / "bench" / "boards" / "damage-step.yaml"
RUSH = 'can_activate(A, "Rush Recklessly")'

needs_race = pytest.mark.skipif(not available(), reason="no second core, or no fork here")


def _gone(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not any(alive(p) for p in pids)


@pytest.fixture
def slow_explorer(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The explorer sleeps ``SLEEP`` seconds before each search; the race starts after
    0.2 s. Yields the process ids of the rivals started."""
    search = ExplorerEngine.search

    def slow(self: ExplorerEngine, body: Any, want: bool) -> Any:
        time.sleep(float(os.environ["SLEEP"]))
        return search(self, body, want)

    started: list[int] = []
    init = rival.Rival.__init__

    def recorded(self: rival.Rival, *args: Any) -> None:
        init(self, *args)
        started.append(self.pid)

    monkeypatch.setattr(ExplorerEngine, "search", slow)
    monkeypatch.setattr(rival.Rival, "__init__", recorded)
    monkeypatch.setattr(rival, "RACE_AFTER", 0.2)
    yield started


@needs_race
def test_a_claim_the_explorer_takes_long_over_is_answered_by_the_smt_engine(
    slow_explorer: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLEEP", "120")
    scenario = load_scenario(SEED)
    prepared = prepare(scenario)
    history = prepared.history
    engine = AutoEngine(prepared.system, history.state, history.activations, Limits())
    began = time.monotonic()
    decisions = [verdict.decide(engine, claim.formula) for claim in scenario.claims]
    assert time.monotonic() - began < 60  # the explorer's sleep was cut short
    assert [d.verdict.value for d in decisions] == [c.expect for c in scenario.claims]
    assert {d.stats["decided_by"] for d in decisions} == {"smt"}
    first, *later = decisions
    assert "overtaken after" in str(first.stats["first_tried"])
    assert all("overtaken on an earlier claim" in str(d.stats["first_tried"]) for d in later)
    assert len(slow_explorer) == 1  # one rival answered every claim
    del engine
    assert _gone(slow_explorer)


@needs_race
def test_the_explorer_deciding_first_ends_the_rival_busy_on_the_claim(
    slow_explorer: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The rival needs a minute for this witness; the explorer, once awake, a second.
    monkeypatch.setenv("SLEEP", "1")
    checked = decide_claim(BOARD, RUSH, Options(allow_outside=True))
    (result,) = checked.results
    assert result.verdict == Verdict.HOLDS
    assert result.engine == "auto: explore"
    assert len(slow_explorer) == 1
    assert _gone(slow_explorer)


def test_no_race_on_one_core(slow_explorer: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_CORES", "1")
    monkeypatch.setenv("SLEEP", "0.5")
    checked = decide(SEED, Options())
    assert all(r.as_expected and r.engine == "auto: explore" for r in checked.results)
    assert slow_explorer == []


def _engine(path: Path = SEED) -> tuple[rival.Rival, tuple[Any, bool]]:
    scenario = load_scenario(path, allow_outside=True)
    prepared = prepare(scenario)
    history = prepared.history
    made = rival.Rival(prepared.system, history.state, history.activations, Limits(seconds=60))
    formula = scenario.claims[0].formula
    if isinstance(formula, ast.Quantified):
        return made, (formula.body, formula.kind == "exists")
    return made, (formula, False)  # a claim without a quantifier is an "always"


@needs_race
def test_the_rival_answers_as_the_smt_engine_does() -> None:
    made, claim = _engine()
    made.ask(*claim)  # claim-1 holds: no continuation is a counterexample
    answer = made.answer()
    made.close()
    assert answer is not None and answer.found is None and answer.complete
    assert str(answer.stats["argument"]).startswith("bounded: complete at")
    assert _gone([made.pid])


@needs_race
def test_a_rival_that_dies_answers_nothing() -> None:
    made, claim = _engine()
    os.kill(made.pid, signal.SIGKILL)
    made.ask(*claim)
    assert made.answer() is None
    assert made.lost


@needs_race
def test_a_rival_past_its_memory_budget_answers_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    # 40 MB for z3: the Damage Step board's relation needs more (z3 itself may crash at
    # a few MB, which leaves a rival that answers nothing, as a dead one).
    monkeypatch.setattr(rival, "DEFAULT_MEMORY_LIMIT", 40_000_000)
    made, claim = _engine(BOARD)
    made.ask(*claim)
    answer = made.answer()
    made.close()
    assert answer is not None
    assert answer.found is None and not answer.complete
    assert "memory budget" in answer.detail


@needs_race
def test_ctrl_c_leaves_no_rival_behind(tmp_path: Path) -> None:
    """Ten Set Traps without reductions keep the explorer busy past the race's start; the
    command line stops at once on Ctrl-C, and the SMT engine beside it ends with it."""
    pool = write_pool(tmp_path, 10)
    command = [sys.executable, "-m", "verifier", "check", "--no-reduce", str(pool)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(rival.RACE_AFTER + 2.0)
    children = children_of(process.pid)
    assert process.poll() is None and children, "no rival beside the explorer"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert _gone(children)


def test_a_timer_the_program_had_set_is_put_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rival, "RACE_AFTER", 0.05)
    asked: list[bool] = []

    def own(signum: int, frame: Any) -> None:
        raise AssertionError("the program's timer went off during the race")

    previous = signal.signal(signal.SIGALRM, own)
    signal.setitimer(signal.ITIMER_REAL, 30.0)
    try:
        with rival.racing(lambda: _noted(asked)):
            time.sleep(0.3)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert signal.getsignal(signal.SIGALRM) is own
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert asked == [True]  # the race started within the block, once
    assert 29.0 < left < 30.0


def test_off_the_main_thread_there_is_no_race(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rival, "RACE_AFTER", 0.05)
    asked: list[bool] = []

    def block() -> None:
        with rival.racing(lambda: _noted(asked)):
            time.sleep(0.3)

    thread = threading.Thread(target=block)
    thread.start()
    thread.join()
    assert asked == []


def _noted(asked: list[bool]) -> None:
    """A start of the race that notes it was asked for, and gives no rival."""
    asked.append(True)
