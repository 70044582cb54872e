"""The explorer's throughput, interpreted step against array step, side by side.

    python bench/throughput.py [--runs 3] [--pools 8,10,12]

For each trap pool (``bench/pools.py``), both explorations of the whole graph in this one
process, alternating run by run: the interpreted breadth-first :class:`Exploration` and the
array step's :class:`Levels` (``verifier/engines/arrays.py``), without reduction and with
the symmetry reduction of the pool's interchangeable traps (the interpreted one's and the
rows' own). The array step's time includes building its relation (``build s``, also shown
alone). Both must reach the same number of states; a pool that passes the explorer's
default state limit (1,000,000) is not run without reduction. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pools import write_pool
from verifier.engines.array_symmetry import RowSymmetry
from verifier.engines.arrays import Levels
from verifier.engines.explore import Exploration
from verifier.engines.relation import compile_relation
from verifier.engines.symmetry import Symmetry, interchangeable
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare


def interpreted(system: Any, start: Any, reduce: bool) -> tuple[int, float]:
    classes = interchangeable(system.world) if reduce else ()
    canonical = Symmetry(system.world, classes).canonical if classes else None
    began = time.perf_counter()
    ex = Exploration(system, start, canonical=canonical, max_bytes=None).run()
    assert ex.complete
    return ex.states, time.perf_counter() - began


def arrays(system: Any, start: Any, reduce: bool) -> tuple[int, float, float]:
    began = time.perf_counter()
    program = compile_relation(system, start)
    built = time.perf_counter() - began
    classes = interchangeable(system.world) if reduce else ()
    symmetry = RowSymmetry(system.world, classes, program, start) if classes else None
    levels = Levels(system, start, program, max_bytes=None, symmetry=symmetry).run()
    assert levels.complete
    return levels.states, time.perf_counter() - began, built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pools", default="8,10,12")
    parser.add_argument("--unreduced-up-to", type=int, default=8)
    args = parser.parse_args()
    print(
        "| pool | reduction | states | interpreted s | interpreted states/s "
        "| arrays s | build s | arrays states/s | arrays ÷ interpreted (rate) |"
    )
    print("|:--|:--|---:|---:|---:|---:|---:|---:|---:|")
    for size in (int(s) for s in args.pools.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            prepared = prepare(load_scenario(write_pool(Path(folder), size)))
        system, start = prepared.system, prepared.history.state
        for reduce in (False, True):
            if not reduce and size > args.unreduced_up_to:
                continue
            plain: list[float] = []
            fast: list[float] = []
            builds: list[float] = []
            states = 0
            for _ in range(args.runs):
                states, seconds = interpreted(system, start, reduce)
                plain.append(seconds)
                reached, seconds, built = arrays(system, start, reduce)
                assert reached == states, (size, reduce, reached, states)
                fast.append(seconds)
                builds.append(built)
            p, f = statistics.median(plain), statistics.median(fast)
            print(
                f"| {size} | {'symmetry' if reduce else 'none'} | {states:,} | {p:.2f} "
                f"| {states / p:,.0f} | {f:.2f} | {statistics.median(builds):.2f} "
                f"| {states / f:,.0f} | {p / f:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
