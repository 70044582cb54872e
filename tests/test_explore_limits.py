"""The explorer's memory budget: past it the exploration stops, and verdicts are unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.pools import write_pool
from verifier.engines.explore import ExplorerEngine, _resident_bytes, explore
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare


@pytest.mark.skipif(_resident_bytes() is None, reason="resident memory is read from /proc")
def test_an_exploration_past_its_memory_budget_stops_and_says_so(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    start = prepared.history.state
    stopped = explore(prepared.system, start, max_bytes=0)
    assert stopped.stopped_by == "memory"
    assert not stopped.faithful
    whole = explore(prepared.system, start)
    assert whole.complete and whole.states > stopped.states
    engine = ExplorerEngine(prepared.system, start, prepared.history.activations)
    engine.exploration = stopped
    found = engine.search(parse_for(prepared.scenario, "chain_length > 8"), True)
    assert found.found is None and not found.complete
    assert found.detail.startswith("the exploration reached its memory limit after")
