"""One measurement, run in a fresh process so its peak memory is its own.

    python bench/measure.py ENGINE SIZE [TIMEOUT]

prints a JSON object: seconds, peak_mb, the verdict, and the engine's own figures.
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pools import write_pool
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare
from verifier.run.verdict import decide


def main() -> None:
    engine, size = sys.argv[1], int(sys.argv[2])
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as folder:
        scenario = load_scenario(write_pool(Path(folder), size))
    prepared = prepare(scenario)
    began = time.perf_counter()
    if engine == "explore":
        from verifier.engines.explore import ExplorerEngine

        limits = {} if timeout is None else {"seconds": timeout}
        decider = ExplorerEngine(
            prepared.system, prepared.history.state, prepared.history.activations, **limits
        )
    else:
        from verifier.engines.smt.engine import SmtEngine

        decider = SmtEngine(
            prepared.system, prepared.history.state, prepared.history.activations, timeout
        )
    decision = decide(decider, scenario.claims[0].formula)
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "engine": engine,
                "size": size,
                "seconds": seconds,
                "peak_mb": peak,
                "verdict": decision.verdict.value,
                **decision.stats,
            }
        )
    )


if __name__ == "__main__":
    main()
