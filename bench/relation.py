"""How big the transition relation is, as one shared expression graph, on the trap pools.

    python bench/relation.py [SIZES]

For each pool size (``bench/pools.py``; default 6,12,24,40), runs every action's checks and
step once on z3 terms over a state whose every element is a variable (the SMT engine's
interpretation of the one rule text, :mod:`verifier.engines.smt.logic`), and counts the
distinct terms of all guards and successor values together (z3 shares equal terms). The
figure says how much work one step of every action is when the rules are not interpreted
anew for each state: it is what a step specialised per scenario would evaluate.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import z3

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pools import write_pool
from verifier.engines.smt.logic import Z3Logic
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare


def _terms(roots: list[Any]) -> int:
    """The distinct z3 terms reachable from ``roots``."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        term = stack.pop()
        key = term.get_id()
        if key not in seen:
            seen.add(key)
            stack.extend(term.children())
    return len(seen)


def measure(size: int) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory() as folder:
        scenario = load_scenario(write_pool(Path(folder), size))
    prepared = prepare(scenario)
    system, start = prepared.system, prepared.history.state
    logic = Z3Logic(system.layout.bits)
    began = time.perf_counter()
    generic: list[Any] = []
    elements = 0
    for position, field in enumerate(system.layout.fields):

        def variable(name: str, boolean: bool = field.boolean) -> Any:
            return z3.Bool(name) if boolean else z3.BitVec(name, system.layout.bits)

        if field.over is not None:
            count = len(start[position])
            generic.append(tuple(variable(f"{field.name}[{i}]") for i in range(count)))
            elements += count
        else:
            generic.append(variable(field.name))
            elements += 1
    state = tuple(generic)
    roots: list[Any] = []
    for action in system.actions:
        roots += [c.ok for c in system.checks(logic, state, action)]
        after = system.step(logic, state, action)
        for value in after:
            roots += list(value) if isinstance(value, tuple) else [value]
    symbolic = [r for r in roots if not isinstance(r, bool | int)]
    return {
        "cards": size,
        "actions": len(system.actions),
        "elements": elements,
        "terms": _terms(symbolic),
        "seconds": round(time.perf_counter() - began, 2),
    }


def main() -> None:
    sizes = [int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "6,12,24,40").split(",")]
    print("| cards | actions | state elements | distinct terms | built in s |")
    print("|---:|---:|---:|---:|---:|")
    for size in sizes:
        m = measure(size)
        print(
            f"| {m['cards']} | {m['actions']} | {m['elements']} | {m['terms']:,} | {m['seconds']} |"
        )


if __name__ == "__main__":
    main()
