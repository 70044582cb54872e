"""Claim-directed exploration decides as the whole graph does.

The explorer takes its exploration only as far as each claim needs, shares it among claims,
and the ``auto`` engine visits states with the fewest moves first. Each shortcut is checked
here against a plain breadth-first search of the whole graph, written out below on its own
(the explorer's algorithm before it learned to stop early): the same verdicts on random
scenarios, the same traces in breadth-first order, and, in the fewest-moves order, traces
that are legal, show the claim, and have no more moves than the shortest ones.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from bench.pools import write_pool
from tests.conftest import ROOT, Run
from tests.test_differential import Case, cases, load, walked
from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Mode, State
from verifier.engines.auto import AutoEngine
from verifier.engines.base import Limits, Search
from verifier.engines.explore import MOVES, ExplorerEngine, explore
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Verdict, decide
from verifier.system import Action, System

MAX_STATES = 40_000


def whole_graph(system: System, start: State) -> tuple[list[State], dict[State, object], bool]:
    """Every state breadth first, final states in the order they are taken from the queue:
    the reference the shortcuts are held to."""
    parent: dict[State, tuple[State, Action] | None] = {start: None}
    queue = deque([start])
    terminals: list[State] = []
    faithful = True
    while queue:
        state = queue.popleft()
        if READ.overflow(state):
            faithful = False
            continue
        if READ.mode(state) == Mode.DONE:
            terminals.append(state)
            continue
        moved = False
        for action in system.enabled_actions(state):
            moved = True
            nxt = system.step(CONCRETE, state, action)
            if nxt not in parent:
                parent[nxt] = (state, action)
                queue.append(nxt)
        faithful = faithful and moved
    return terminals, parent, faithful  # type: ignore[return-value]


def path_to(parent: dict[State, object], state: State) -> list[Action]:
    actions: list[Action] = []
    link = parent[state]
    while link is not None:
        previous, action = link  # type: ignore[misc]
        actions.append(action)
        link = parent[previous]
    return actions[::-1]


class Compared:
    """An engine that asks the reference and each shortcut the same question, holds the
    shortcuts to the reference's answer, and gives that answer."""

    name = "compared"

    def __init__(self, system: System, state: State, start: int) -> None:
        self.system, self.state, self.start = system, state, start
        self.terminals, self.parent, self.faithful = whole_graph(system, state)
        self.shared = ExplorerEngine(system, state, start, MAX_STATES)
        self.fewest = ExplorerEngine(system, state, start, MAX_STATES, order="fewest-moves")

    def search(self, body: ast.Formula, want: bool) -> Search:
        system, state, start = self.system, self.state, self.start
        shows = [
            t
            for t in self.terminals
            if bool(truth(CONCRETE, system.world, t, body, start, state)) == want
        ]
        shortest = path_to(self.parent, shows[0]) if shows else None
        engine = ExplorerEngine(system, state, start, MAX_STATES)
        fresh = engine.search(body, want)
        for found, renames in ((fresh, engine), (self.shared.search(body, want), self.shared)):
            assert found.found is not None or found.complete is self.faithful
            if not renames.classes or shortest is None or found.found is None:
                assert found.found == shortest
                continue
            # Interchangeable cards are explored in one order: a representative's actions
            # come in the order of its renamed cards, so the witness is a shortest one that
            # may use one copy where the full exploration's first uses another.
            assert len(found.found) == len(shortest)
            final = system.run(state, found.found)
            assert READ.mode(final) == Mode.DONE
            assert bool(truth(CONCRETE, system.world, final, body, start, state)) == want
        by_fewest = self.fewest.search(body, want)
        if shortest is None:
            assert by_fewest.found is None and by_fewest.complete is self.faithful
        else:
            assert by_fewest.found is not None
            final = system.run(state, by_fewest.found)
            assert READ.mode(final) == Mode.DONE
            assert bool(truth(CONCRETE, system.world, final, body, start, state)) == want
            assert len(by_fewest.found) >= len(shortest)
            moves = sum(a.kind in MOVES for a in by_fewest.found)
            assert moves <= sum(a.kind in MOVES for a in shortest)
        return Search(shortest, shortest is not None or self.faithful, "", {})


def compare(case: Case) -> None:
    data, claims, walk = case
    texts = [c for c in claims if isinstance(c, str)]
    if not texts:
        return
    sc = load(data)
    prepared = prepare(sc)
    system = prepared.system
    state = walked(system, prepared.history.state, walk)
    if explore(system, state, MAX_STATES).stopped_by:
        return  # too big for the reference; the limits are tested elsewhere
    start = READ.an(state)
    compared = Compared(system, state, start)
    auto = AutoEngine(system, state, start, Limits(max_states=MAX_STATES))
    for text in texts:
        formula = parse_for(sc, text)
        reference = decide(compared, formula)
        assert decide(auto, formula).verdict is reference.verdict, text


@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    max_examples=12,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(cases())
def test_claim_directed_search_decides_as_the_whole_graph_on_yugioh(case: Case) -> None:
    compare(case)


@pytest.mark.full
@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    max_examples=8,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(cases("cmc"))
def test_claim_directed_search_decides_as_the_whole_graph_on_cmc(case: Case) -> None:
    compare(case)


@pytest.mark.slow
def test_claim_directed_search_on_many_scenarios() -> None:
    count = int(os.environ.get("DIFF_EXAMPLES", "300"))
    for game in ("yugioh", "cmc"):

        @settings(
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            max_examples=count,
        )
        @given(cases(game, large=True))
        def many(case: Case) -> None:
            compare(case)

        many()


@pytest.mark.full
def test_a_witness_ends_the_exploration_early(tmp_path: Path) -> None:
    # Eight set traps: the whole graph is 42,379 states (3,419 up to renamings of the
    # interchangeable traps); one answer shows can_respond(B).
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    start = prepared.history.state
    formula = parse_for(prepared.scenario, "can_respond(B)")
    whole = parse_for(prepared.scenario, "always chain_length <= 8")
    for reduce, states in ((False, 42_379), (True, 3_419)):
        for order, most in (("breadth", 5_000), ("fewest-moves", 1_000)):
            engine = ExplorerEngine(prepared.system, start, 0, order=order, reduce=reduce)
            assert decide(engine, formula).verdict is Verdict.HOLDS
            assert engine.exploration.states < most and not engine.exploration.finished
        # A claim that needs every state still gets them all: past 5,000 states of the
        # fewest-moves order, explored beside the search by the array step, which settles it.
        decision = decide(engine, whole)
        assert decision.verdict is Verdict.HOLDS and decision.stats["states"] == states
        assert (engine.decider is not None) is (states > 5_000)


def test_an_exploration_stopped_by_its_state_limit_says_what_to_try(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    engine = ExplorerEngine(prepared.system, prepared.history.state, 0, 1_000)
    found = engine.search(parse_for(prepared.scenario, "chain_length > 8"), True)
    assert found.found is None and not found.complete
    assert found.detail == (
        "the exploration reached its state limit (1000; --max-states raises it, "
        "--engine smt decides without visiting states)"
    )


def test_auto_names_the_engine_that_decided(run: Callable[..., Run]) -> None:
    import json

    path = str(ROOT / "examples/yugioh/raigeki-imperial-order-dark-bribe.yaml")
    claims = json.loads(run("check", "--json", path).out)["claims"]
    assert {c["engine"] for c in claims} == {"auto: explore"}
    assert all(c["stats"]["decided_by"] == "explore" for c in claims)


@pytest.mark.full
def test_auto_asks_the_smt_engine_when_the_explorer_stops(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 4)))
    formula = parse_for(prepared.scenario, "always chain_length <= 4")
    auto = AutoEngine(prepared.system, prepared.history.state, 0, Limits(max_states=20))
    decision = decide(auto, formula)
    assert decision.verdict is Verdict.HOLDS
    assert decision.stats["decided_by"] == "smt"
    assert str(decision.stats["first_tried"]).startswith("explorer: the exploration reached")


def test_no_progress_line_when_standard_error_is_not_a_terminal(run: Callable[..., Run]) -> None:
    path = str(ROOT / "examples/yugioh/raigeki-imperial-order-dark-bribe.yaml")
    assert run("check", path).err == ""


def test_the_progress_line_tells_states_rate_depth_and_memory(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from verifier import cli

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert cli.progress(quiet=True) is None
    line = cli.progress(quiet=False)
    assert line is not None
    line({"states": 12345, "rate": 6000.0, "depth": 7, "memory": 3e8, "seconds": 2})
    line.clear()
    err = capsys.readouterr().err
    assert "exploring: 12,345 states, 6,000/s, depth 7, 300 MB" in err
    assert err.endswith("\r\x1b[K")


@pytest.mark.full
@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_ctrl_c_stops_at_once_with_status_130(tmp_path: Path, engine: str) -> None:
    # Sixteen set traps: either engine would take minutes (the SMT engine inside z3, where
    # Python's own handler would wait for the solver to return; the explorer, by then, in
    # its array step).
    pool = write_pool(tmp_path, 16)
    command = [sys.executable, "-m", "verifier", "check", "--engine", engine, str(pool)]
    child = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(3)
    assert child.poll() is None
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        _, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert time.monotonic() - sent < 5
    assert child.returncode == 130
    assert err.strip() == "interrupted (Ctrl-C): stopped; the claims not yet reported are undecided"
