"""How the array step steps a chunk of rows: the relation's instructions evaluated over
arrays (one NumPy operation an instruction, over every row at once), and each action's
successors computed from them (:class:`Plan`).

The guards are evaluated over every row; an action's changes only over the rows it is legal
in, from the guards' values there where they share them. A choice whose condition is the
same on every row takes its branch as it is, and a column an action writes with its own
value is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from verifier.engines.operations import operation
from verifier.engines.program import Op, Program, cone

__all__ = ["Plan", "evaluate"]


def evaluate(
    program: Program,
    rows: Any,
    which: Sequence[int] | None = None,
    values: list[Any] | None = None,
) -> list[Any]:
    """The instructions' values over ``rows`` (one state a row): an array, or a scalar
    where it is the same for every row. ``which``: only these instructions (in order, their
    arguments among them or already in ``values``), written into ``values`` (None where not
    computed yet); by default every one, into a new list."""
    steps = _steps(program)
    if values is None:
        values = [None] * len(steps)
    for i in range(len(steps)) if which is None else which:
        if values[i] is not None:
            continue  # computed already, for another action
        kind, compute, args = steps[i]
        # Calls by the number of arguments: no list is made for them.
        if kind == _CHOICE:
            values[i] = _choice(values[args[0]], values[args[1]], values[args[2]])
        elif kind == _TWO:
            values[i] = compute(values[args[0]], values[args[1]])
        elif kind == _THREE:
            values[i] = compute(values[args[0]], values[args[1]], values[args[2]])
        elif kind == _COLUMN:
            values[i] = rows[:, args]
        elif kind == _ONE:
            values[i] = compute(values[args[0]])
        elif kind == _TRUTH:
            values[i] = rows[:, args] != 0
        elif kind == _CONSTANT:
            values[i] = args
        else:
            values[i] = compute(*[values[a] for a in args])
    return values


_STEPS: dict[int, tuple[Program, list[tuple[int, Any, Any]]]] = {}
"""Each program's instructions as functions, by the program's identity (the program kept
alive with them, so the identity is not reused)."""


def _steps(program: Program) -> list[tuple[int, Any, Any]]:
    """Per instruction, its kind, the function that computes it from its arguments' values,
    and those arguments; a column: :data:`_COLUMN` (or :data:`_TRUTH`, a truth value) and
    the column; a constant: :data:`_CONSTANT` and the value."""
    known = _STEPS.get(id(program))
    if known is not None and known[0] is program:
        return known[1]
    bits = program.bits
    steps: list[tuple[int, Any, Any]] = []
    for op, args, constant in program.code:
        if op is Op.COLUMN:
            boolean = program.columns[constant].boolean
            steps.append((_TRUTH if boolean else _COLUMN, None, constant))
        elif op is Op.CONST:
            steps.append((_CONSTANT, None, constant))
        elif op is Op.ITE and len(args) == 3:
            steps.append((_CHOICE, None, args))
        else:
            kind = _ARITY.get(len(args), _MANY)
            steps.append((kind, operation(op, len(args), bits), args))
    if len(_STEPS) > 64:
        _STEPS.clear()
    _STEPS[id(program)] = (program, steps)
    return steps


# The kinds of instruction (an operation's by its number of arguments; a choice's apart).
_COLUMN, _TRUTH, _CONSTANT, _CHOICE, _ONE, _TWO, _THREE, _MANY = range(8)
_ARITY = {1: _ONE, 2: _TWO, 3: _THREE}


def _choice(condition: Any, then: Any, other: Any) -> Any:
    """``then`` where ``condition`` holds, else ``other``: one of them as it is where the
    condition is the same for every row (most of the choices an action's changes make are
    false on every row it is legal in: a card its effect does not touch)."""
    if np.ndim(condition):
        if not condition.any():
            return other
        if condition.all():
            return then
        return np.where(condition, then, other)
    return then if condition else other


_READS = frozenset({Op.COLUMN, Op.CONST})
"""Instructions as cheap to compute again over the legal rows as to take from the guards'."""


class Plan:
    """How a program steps rows: what its guards need, and what each action's changes need.

    The guards are evaluated over every row; an action's changes only over the rows it is
    legal in (fewer elements for every instruction they need), from the guards' values
    there where they share them."""

    def __init__(self, program: Program) -> None:
        self.program = program
        code = program.code
        self.guarding = cone(code, program.guards)
        guarding = set(self.guarding)
        self.changing: list[list[int]] = []  # per action: what its changes compute anew
        self.shared: list[list[int]] = []  # and the guards' values they read
        for changes in program.changes:
            needs = cone(code, (slot for _, slot in changes))
            anew = [i for i in needs if i not in guarding or code[i][0] in _READS]
            read = {a for i in anew for a in code[i][1]} | {slot for _, slot in changes}
            self.changing.append(anew)
            computed = set(anew)
            self.shared.append([i for i in needs if i in read and i not in computed])

    def successors(self, rows: Any) -> tuple[Any, Any, Any]:
        """The successors of ``rows`` by every action legal in some of them, action by
        action (each in the rows' order): the successors, the rows (their positions) they
        come from, and the actions (their numbers)."""
        program = self.program
        guards = evaluate(program, rows, self.guarding)
        count = len(rows)
        legal: list[tuple[int, Any]] = []
        for taken, guard in enumerate(program.guards):
            value = guards[guard]
            if np.ndim(value):
                where = np.flatnonzero(value)
                if len(where):
                    legal.append((taken, where))
            elif value:
                legal.append((taken, np.arange(count)))
        total = sum(len(where) for _, where in legal)
        out = np.empty((total, rows.shape[1]), dtype=rows.dtype)
        parents = np.empty(total, dtype=np.int64)
        actions = np.empty(total, dtype=np.int64)
        at = 0
        for taken, where in legal:
            block = out[at : at + len(where)]
            np.take(rows, where, axis=0, out=block)
            parents[at : at + len(where)] = where
            actions[at : at + len(where)] = taken
            at += len(where)
            values: list[Any] = [None] * len(program.code)
            for i in self.shared[taken]:
                value = guards[i]
                values[i] = value.take(where) if np.ndim(value) else value
            evaluate(program, block, self.changing[taken], values)
            # Every value written is computed before the first write: a column read as it
            # is (a view of the block) is copied first; one written to itself is left.
            written = []
            for column, slot in program.changes[taken]:
                value = values[slot]
                if isinstance(value, np.ndarray) and value.base is not None:
                    if _column_of(value, block) == column:
                        continue
                    if np.shares_memory(value, block):
                        value = value.copy()
                written.append((column, value))
            for column, value in written:
                block[:, column] = value
        return out, parents, actions


def _column_of(value: Any, block: Any) -> int | None:
    """The column of ``block`` that ``value`` is a view of, as it is; else None."""
    if value.ndim != 1 or len(value) != len(block) or value.dtype != block.dtype:
        return None
    if len(block) > 1 and value.strides[0] != block.strides[0]:
        return None
    offset = int(value.ctypes.data) - int(block.ctypes.data)
    column, rest = divmod(offset, int(block.itemsize))
    if rest or not 0 <= column < block.shape[1]:
        return None
    return column
