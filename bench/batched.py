"""A trial of the batched step: the transition relation evaluated per level over arrays.

    python bench/batched.py [SIZES]     (needs NumPy, which the project does not depend on)

For each trap pool (``bench/pools.py``; default 6,8,10), the relation is built once from
the one rule text, as the SMT engine builds it (every action's checks and step run on z3
terms over a state whose every element is a variable), and then evaluated breadth first,
one level at a time: every term is one array operation over all the level's states, the
successors of each action are rows of a matrix, and new rows are kept by their bytes. Final
states and states past a capacity are not expanded, as in the explorer. For the sizes the
explorer decides, the set of states reached is compared with the explorer's own (a plain
breadth-first exploration with no reduction): they must be equal, state for state.

This is a measurement, not an engine: it keeps no parents (so no witness), no claim, no
limits.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import z3

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pools import write_pool
from bench.relation import flatten, in_order, relation
from verifier.core.state import Capacity, Mode
from verifier.engines.explore import Exploration
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare

CHUNK = 2048
"""States evaluated together (every term's array is this long)."""


def _wrap(values: Any, bits: int) -> Any:
    """Two's-complement wrap to ``bits``, as the bit-vectors of the relation do."""
    half = 1 << (bits - 1)
    return ((values + half) & ((1 << bits) - 1)) - half


class Program:
    """The relation's terms as plain instructions, each after its arguments (read from z3
    once: reading z3 terms on every level costs more than evaluating them)."""

    def __init__(self, system: Any, start: Any) -> None:
        self.bits = system.layout.bits
        self.guards, self.changes, variables = relation(system, start)
        columns = {variable.get_id(): j for j, variable in enumerate(variables)}
        self.terms = in_order(self.guards, self.changes)
        self.code: list[tuple[int, int, tuple[int, ...], Any]] = []
        for term in self.terms:
            key, kind, constant = term.get_id(), term.decl().kind(), None
            if key in columns:
                kind, constant = _COLUMN, columns[key]
            elif kind == z3.Z3_OP_BNUM:
                constant = term.as_signed_long()
            elif kind not in _OPERATIONS and kind not in _ARITHMETIC:
                raise NotImplementedError(f"no array operation for {term.decl().name()}")
            elif kind == z3.Z3_OP_DISTINCT and term.num_args() != 2:
                raise NotImplementedError("no array operation for distinct of more than two")
            self.code.append((key, kind, tuple(c.get_id() for c in term.children()), constant))
        layout = system.layout
        self.mode = len(flatten(start[: layout.position("mode")]))
        self.overflow = len(flatten(start[: layout.position("overflow")]))
        self.dtype = np.int16 if self.bits <= 16 else np.int32 if self.bits <= 32 else np.int64

    def row(self, state: Any) -> Any:
        """A concrete state as a row of the level's matrix."""
        return np.array([int(v) for v in flatten(state)], dtype=self.dtype)

    def evaluate(self, rows: Any) -> dict[int, Any]:
        """Every term's value over ``rows`` (one state a row)."""
        values: dict[int, Any] = {}
        bits = self.bits
        for key, kind, ids, constant in self.code:
            if kind == _COLUMN:
                values[key] = rows[:, constant]
            elif kind == z3.Z3_OP_BNUM:
                values[key] = constant
            elif kind == z3.Z3_OP_BSUB:
                values[key] = _wrap(
                    np.asarray(values[ids[0]], dtype=np.int64) - values[ids[1]], bits
                )
            elif kind == z3.Z3_OP_BADD:
                first = np.asarray(values[ids[0]], dtype=np.int64)
                values[key] = _wrap(first + sum(values[i] for i in ids[1:]), bits)
            else:
                values[key] = _OPERATIONS[kind](*(values[i] for i in ids))
        return values


_COLUMN = -1
"""The instruction kind of a state element read from the row."""

_ARITHMETIC = frozenset({z3.Z3_OP_BNUM, z3.Z3_OP_BADD, z3.Z3_OP_BSUB})
"""Kinds :meth:`Program.evaluate` handles itself (constants, and sums that wrap)."""


def _all(*xs: Any) -> Any:
    return np.logical_and.reduce(np.broadcast_arrays(*xs))


def _any(*xs: Any) -> Any:
    return np.logical_or.reduce(np.broadcast_arrays(*xs))


_OPERATIONS: dict[int, Any] = {
    z3.Z3_OP_TRUE: lambda: True,
    z3.Z3_OP_FALSE: lambda: False,
    z3.Z3_OP_ITE: np.where,
    z3.Z3_OP_AND: _all,
    z3.Z3_OP_OR: _any,
    z3.Z3_OP_NOT: np.logical_not,
    z3.Z3_OP_IMPLIES: lambda a, b: np.logical_or(np.logical_not(a), b),
    z3.Z3_OP_EQ: np.equal,
    z3.Z3_OP_DISTINCT: np.not_equal,
    z3.Z3_OP_SLT: np.less,
    z3.Z3_OP_SLEQ: np.less_equal,
    z3.Z3_OP_SGT: np.greater,
    z3.Z3_OP_SGEQ: np.greater_equal,
}


def explore(program: Program, start: Any) -> tuple[set[bytes], float]:
    """Every state reached from ``start``, level by level; and the seconds it took."""
    began = time.perf_counter()
    first = program.row(start)
    seen = {first.tobytes()}
    level = first[None, :]
    done, none = int(Mode.DONE), int(Capacity.NONE)
    while len(level):
        found: list[Any] = []
        for at in range(0, len(level), CHUNK):
            rows = level[at : at + CHUNK]
            values = program.evaluate(rows)
            for guard, changes in zip(program.guards, program.changes, strict=True):
                mask = np.broadcast_to(
                    values[guard.get_id()] if not isinstance(guard, bool) else guard, (len(rows),)
                )
                if not mask.any():
                    continue
                following = rows[mask].copy()
                for column, value in changes:
                    new = value if isinstance(value, bool | int) else values[value.get_id()]
                    following[:, column] = new[mask] if np.ndim(new) else new
                found.append(following)
        if not found:
            break
        successors = np.concatenate(found)
        fresh = []
        for row in successors:
            key = row.tobytes()
            if key not in seen:
                seen.add(key)
                fresh.append(row)
        if not fresh:
            break
        level = np.array(fresh)
        go = (level[:, program.mode] != done) & (level[:, program.overflow] == none)
        level = level[go]
    return seen, time.perf_counter() - began


def main() -> None:
    sizes = [int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "6,8,10").split(",")]
    print(
        "| cards | terms | states | batched s | batched states/s "
        "| explorer s | explorer states/s | same states |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|:--|")
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            scenario = load_scenario(write_pool(Path(folder), size))
        prepared = prepare(scenario)
        system, start = prepared.system, prepared.history.state
        program = Program(system, start)
        times, reached = [], set()
        for _ in range(3):
            reached, seconds = explore(program, start)
            times.append(seconds)
        batched = statistics.median(times)
        explorer_s, explorer_rate, same = "-", "-", "-"
        if size <= 8:
            ex = Exploration(system, start, max_states=2_000_000)
            began = time.perf_counter()
            ex.run()
            took = time.perf_counter() - began
            theirs = {program.row(s).tobytes() for s in ex.parent}
            explorer_s = f"{took:.2f}"
            explorer_rate = f"{len(theirs) / took:,.0f}"
            same = "yes" if theirs == reached else f"NO ({len(theirs)} against {len(reached)})"
        print(
            f"| {size} | {len(program.terms):,} | {len(reached):,} | {batched:.2f} "
            f"| {len(reached) / batched:,.0f} | {explorer_s} | {explorer_rate} | {same} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
