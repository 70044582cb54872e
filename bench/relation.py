"""How big the transition relation is, as one shared expression graph, on the trap pools.

    python bench/relation.py [SIZES]

For each pool size (``bench/pools.py``; default 6,12,24,40), runs every action's checks and
step once on z3 terms over a state whose every element is a variable (the SMT engine's
interpretation of the one rule text, :mod:`verifier.engines.smt.logic`), and counts the
distinct terms of all guards (each action's checks conjoined) and of the values it changes,
together (z3 shares equal terms): about what the array step evaluates. The
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


def generic_state(system: Any, start: Any) -> tuple[Any, list[Any]]:
    """A state whose every element is a z3 variable, and those variables in order."""
    bits = system.layout.bits
    fields: list[Any] = []
    variables: list[Any] = []
    for position, field in enumerate(system.layout.fields):

        def variable(name: str, boolean: bool = field.boolean) -> Any:
            made = z3.Bool(name) if boolean else z3.BitVec(name, bits)
            variables.append(made)
            return made

        if field.over is None:
            fields.append(variable(field.name))
        else:
            count = len(start[position])
            fields.append(tuple(variable(f"{field.name}[{i}]") for i in range(count)))
    return tuple(fields), variables


def flatten(state: Any) -> list[Any]:
    """A state's elements in order (array fields spread out)."""
    out: list[Any] = []
    for value in state:
        out.extend(value if isinstance(value, tuple) else (value,))
    return out


def relation(system: Any, start: Any) -> tuple[list[Any], list[list[tuple[int, Any]]], list[Any]]:
    """Per action, its guard (its checks conjoined) and the elements it changes (position,
    new value), all over :func:`generic_state`'s variables, which come third."""
    logic = Z3Logic(system.layout.bits)
    state, variables = generic_state(system, start)
    guards: list[Any] = []
    changes: list[list[tuple[int, Any]]] = []
    for action in system.actions:
        guards.append(logic.and_(*(c.ok for c in system.checks(logic, state, action))))
        after = flatten(system.step(logic, state, action))
        changes.append(
            [
                (j, value)
                for j, (value, before) in enumerate(zip(after, variables, strict=True))
                if isinstance(value, bool | int) or not value.eq(before)
            ]
        )
    return guards, changes, variables


def in_order(guards: list[Any], changes: list[list[tuple[int, Any]]]) -> list[Any]:
    """The distinct terms of the guards and new values, each after its arguments."""
    roots = guards + [value for changed in changes for _, value in changed]
    order: list[Any] = []
    seen: set[int] = set()
    stack = [(root, False) for root in reversed(roots) if not isinstance(root, bool | int)]
    while stack:
        term, ready = stack.pop()
        key = term.get_id()
        if ready:
            if key not in seen:
                seen.add(key)
                order.append(term)
        elif key not in seen:
            stack.append((term, True))
            stack.extend((child, False) for child in term.children())
    return order


def measure(size: int) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory() as folder:
        scenario = load_scenario(write_pool(Path(folder), size))
    prepared = prepare(scenario)
    system, start = prepared.system, prepared.history.state
    began = time.perf_counter()
    guards, changes, variables = relation(system, start)
    return {
        "cards": size,
        "actions": len(system.actions),
        "elements": len(variables),
        "terms": len(in_order(guards, changes)),
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
