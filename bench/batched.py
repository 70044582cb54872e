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
from verifier.core.state import Capacity, Mode
from verifier.engines.explore import Exploration
from verifier.engines.smt.logic import Z3Logic
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare

CHUNK = 2048
"""States evaluated together (every term's array is this long)."""


def _wrap(values: Any, bits: int) -> Any:
    """Two's-complement wrap to ``bits``, as the bit-vectors of the relation do."""
    half = 1 << (bits - 1)
    return ((values + half) & ((1 << bits) - 1)) - half


class Program:
    """The relation's terms in an order where each comes after its arguments."""

    def __init__(self, system: Any, start: Any) -> None:
        self.bits = system.layout.bits
        logic = Z3Logic(self.bits)
        columns: dict[int, int] = {}  # a variable's term id -> its column
        generic: list[Any] = []
        self.shape: list[int | None] = []  # per field: None for a scalar, else its length
        column = 0
        for position, field in enumerate(system.layout.fields):

            def variable(name: str, boolean: bool = field.boolean) -> Any:
                return z3.Bool(name) if boolean else z3.BitVec(name, self.bits)

            if field.over is None:
                made = variable(field.name)
                columns[made.get_id()] = column
                column += 1
                generic.append(made)
                self.shape.append(None)
            else:
                count = len(start[position])
                items = tuple(variable(f"{field.name}[{i}]") for i in range(count))
                for item in items:
                    columns[item.get_id()] = column
                    column += 1
                generic.append(items)
                self.shape.append(count)
        self.width = column
        state = tuple(generic)
        flat_generic = _flatten(state)
        self.actions = system.actions
        self.guards: list[Any] = []
        self.changes: list[list[tuple[int, Any]]] = []  # per action: (column, new value)
        for action in self.actions:
            self.guards.append(logic.and_(*(c.ok for c in system.checks(logic, state, action))))
            after = _flatten(system.step(logic, state, action))
            changed = [
                (j, value)
                for j, (value, before) in enumerate(zip(after, flat_generic, strict=True))
                if isinstance(value, bool | int) or not value.eq(before)
            ]
            self.changes.append(changed)
        roots = [g for g in self.guards] + [v for ch in self.changes for _, v in ch]
        self.order: list[Any] = []
        seen: set[int] = set()
        for root in roots:
            if not isinstance(root, bool | int):
                self._visit(root, seen)
        self.columns = columns
        self.compile()

    def _visit(self, root: Any, seen: set[int]) -> None:
        stack = [(root, False)]
        while stack:
            term, ready = stack.pop()
            key = term.get_id()
            if ready:
                if key not in seen:
                    seen.add(key)
                    self.order.append(term)
                continue
            if key in seen:
                continue
            stack.append((term, True))
            stack.extend((child, False) for child in term.children())

    def compile(self) -> None:
        """The terms as plain instructions (kind, argument ids, constant), read from z3 once."""
        self.code: list[tuple[int, int, tuple[int, ...], Any]] = []
        for term in self.order:
            key = term.get_id()
            kind = term.decl().kind()
            constant: Any = None
            if key in self.columns:
                kind, constant = -1, self.columns[key]
            elif kind == z3.Z3_OP_BNUM:
                constant = term.as_signed_long()
            elif kind not in _OPERATIONS or (kind == z3.Z3_OP_DISTINCT and term.num_args() != 2):
                raise NotImplementedError(f"no array operation for {term.decl().name()}")
            self.code.append((key, kind, tuple(c.get_id() for c in term.children()), constant))

    def evaluate(self, rows: Any) -> dict[int, Any]:
        """Every term's value over ``rows`` (one state a row)."""
        values: dict[int, Any] = {}
        bits = self.bits
        for key, kind, ids, constant in self.code:
            if kind == -1:
                values[key] = rows[:, constant]
            elif kind == z3.Z3_OP_BNUM:
                values[key] = constant
            elif kind in (z3.Z3_OP_BADD, z3.Z3_OP_BSUB):
                first = np.asarray(values[ids[0]], dtype=np.int64)
                if kind == z3.Z3_OP_BSUB:
                    values[key] = _wrap(first - values[ids[1]], bits)
                else:
                    values[key] = _wrap(first + sum(values[i] for i in ids[1:]), bits)
            else:
                values[key] = _OPERATIONS[kind](*(values[i] for i in ids))
        return values


def _all(*xs: Any) -> Any:
    return np.logical_and.reduce(np.broadcast_arrays(*xs))


def _any(*xs: Any) -> Any:
    return np.logical_or.reduce(np.broadcast_arrays(*xs))


_OPERATIONS: dict[int, Any] = {
    z3.Z3_OP_TRUE: lambda: True,
    z3.Z3_OP_FALSE: lambda: False,
    z3.Z3_OP_BNUM: None,
    z3.Z3_OP_BADD: None,
    z3.Z3_OP_BSUB: None,
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


def _flatten(state: Any) -> list[Any]:
    out: list[Any] = []
    for value in state:
        out.extend(value if isinstance(value, tuple) else (value,))
    return out


def _row(state: Any) -> Any:
    return np.array([int(v) for v in _flatten(state)], dtype=np.int16)


def explore(
    program: Program, start: Any, mode_col: int, overflow_col: int
) -> tuple[set[bytes], float]:
    """Every state reached from ``start``, level by level; and the seconds it took."""
    began = time.perf_counter()
    first = _row(start)
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
        go = (level[:, mode_col] != done) & (level[:, overflow_col] == none)
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
        layout = system.layout
        columns = [0]
        for shape in program.shape:
            columns.append(columns[-1] + (1 if shape is None else shape))
        mode_col = columns[layout.position("mode")]
        overflow_col = columns[layout.position("overflow")]
        times, reached = [], set()
        for _ in range(3):
            reached, seconds = explore(program, start, mode_col, overflow_col)
            times.append(seconds)
        batched = statistics.median(times)
        explorer_s, explorer_rate, same = "-", "-", "-"
        if size <= 8:
            ex = Exploration(system, start, max_states=2_000_000)
            began = time.perf_counter()
            ex.run()
            took = time.perf_counter() - began
            theirs = {_row(s).tobytes() for s in ex.parent}
            explorer_s = f"{took:.2f}"
            explorer_rate = f"{len(theirs) / took:,.0f}"
            same = "yes" if theirs == reached else f"NO ({len(theirs)} against {len(reached)})"
        print(
            f"| {size} | {len(program.order):,} | {len(reached):,} | {batched:.2f} "
            f"| {len(reached) / batched:,.0f} | {explorer_s} | {explorer_rate} | {same} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
