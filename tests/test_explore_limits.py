"""The explorer's memory budget: past it the exploration stops, and verdicts are unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.pools import write_pool
from verifier.engines.explore import ExplorerEngine, explore
from verifier.engines.resident import resident_bytes
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare


@pytest.mark.full
@pytest.mark.skipif(resident_bytes() is None, reason="resident memory is read from /proc")
def test_an_exploration_past_its_memory_budget_stops_and_says_so(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    start = prepared.history.state
    stopped = explore(prepared.system, start, max_bytes=0)
    assert stopped.stopped_by == "memory"
    assert not stopped.faithful
    whole = explore(prepared.system, start)
    assert whole.complete and whole.states > stopped.states
    # Unreduced, the engine goes on with the exploration it is given (reduced, it would
    # start one of its own, whose reductions the claim allows).
    engine = ExplorerEngine(prepared.system, start, prepared.history.activations, reduce=False)
    engine.exploration = stopped
    found = engine.search(parse_for(prepared.scenario, "chain_length > 8"), True)
    assert found.found is None and not found.complete
    assert found.detail.startswith("the exploration reached its memory limit after")


@pytest.mark.full
def test_the_progress_depth_never_goes_back() -> None:
    # The fewest-moves order visits a shallow state after a deep one; the depth the progress
    # line tells is the deepest reached so far.
    from tests.conftest import ROOT
    from verifier.engines.explore import Exploration, reporter
    from verifier.io.scenario import load_scenario
    from verifier.run.check import prepare

    told: list[float] = []
    seen: list[int] = []
    tell = reporter(lambda figures: told.append(figures["depth"]))
    assert tell is not None

    def progress(ex: Exploration) -> None:
        seen.append(ex.depth(ex.last) if ex.last is not None else 0)
        tell(ex)

    board = ROOT / "bench" / "boards" / "damage-step.yaml"
    prepared = prepare(load_scenario(board, allow_outside=True))
    Exploration(
        prepared.system, prepared.history.state, 6_000, progress=progress, order="fewest-moves"
    ).run()
    assert len(told) >= 4
    assert seen != sorted(seen)  # the order itself goes back and forth in depth
    assert told == sorted(told) and told[-1] == max(seen)
