"""A program specialised to one value of a column computes what the program computes on the
rows holding that value: the same legal actions and the same successors, from fewer
instructions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import sampled_scenarios
from verifier.engines.arrays import Levels, evaluate
from verifier.engines.program import Column, Op, Program
from verifier.engines.relation import compile_relation
from verifier.engines.specialize import specialized
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare


def _successors(program: Program, rows: Any) -> list[tuple[Any, Any]]:
    """Per action: where it is legal, and the successors there."""
    values = evaluate(program, rows)
    out = []
    for guard, changes in zip(program.guards, program.changes, strict=True):
        legal = np.broadcast_to(np.asarray(values[guard], dtype=bool), (len(rows),))
        following = rows[legal].astype(np.int64)
        for column, slot in changes:
            value = values[slot]
            following[:, column] = value[legal] if np.ndim(value) else value
        out.append((legal.copy(), following))
    return out


def _same(program: Program, rows: Any, column: int) -> int:
    """Check every value ``column`` takes in ``rows``; the instructions saved."""
    saved = 0
    for value in np.unique(rows[:, column]).tolist():
        part = rows[rows[:, column] == value]
        special = specialized(program, column, value)
        assert special.columns == program.columns
        for (legal, following), (legal2, following2) in zip(
            _successors(program, part), _successors(special, part), strict=True
        ):
            assert (legal == legal2).all()
            assert (following == following2).all()
        saved += len(program.code) - len(special.code)
    return saved


MODE, X = 0, 1
CODE: list[tuple[Op, tuple[int, ...], int]] = [
    (Op.COLUMN, (), MODE),  # 0
    (Op.COLUMN, (), X),  # 1
    (Op.CONST, (), 1),  # 2
    (Op.CONST, (), 2),  # 3
    (Op.EQ, (0, 2), 0),  # 4: mode == 1
    (Op.EQ, (0, 3), 0),  # 5: mode == 2
    (Op.GT, (1, 2), 0),  # 6: x > 1
    (Op.AND, (4, 6), 0),  # 7: the first action's guard
    (Op.AND, (5, 6), 0),  # 8: the second's
    (Op.ADD, (1, 2), 0),  # 9: x + 1
    (Op.ITE, (4, 9, 1), 0),  # 10: x + 1 in mode 1, else x
    (Op.ADD, (0, 2), 0),  # 11: mode + 1
]


def _toy() -> Program:
    columns = (Column(0, None, False), Column(1, None, False))
    changes = (((X, 10), (MODE, 2)), ((MODE, 11),))
    return Program(8, columns, tuple(CODE), (7, 8), changes, MODE, None)


def test_a_known_column_folds_the_guards_choices_and_writes() -> None:
    program = _toy()
    special = specialized(program, MODE, 1)
    ops = [op for op, _, _ in special.code]
    assert Op.ITE not in ops and Op.EQ not in ops  # the mode is known: chosen, compared
    first, second = special.guards
    assert special.code[second] == (Op.CONST, (), 0)  # illegal in mode 1
    assert special.changes[1] == ()
    # Writing 1 to the mode where it holds 1 changes nothing: dropped.
    assert [column for column, _ in special.changes[0]] == [X]
    assert special.code[first][0] is Op.GT
    rows = np.array([[m, x] for m in range(4) for x in range(-3, 4)], dtype=np.int8)
    assert _same(program, rows, MODE) > 0


def test_a_value_no_action_allows_leaves_no_instruction_to_run() -> None:
    special = specialized(_toy(), MODE, 3)
    assert all(special.code[g] == (Op.CONST, (), 0) for g in special.guards)
    assert special.changes == ((), ())
    assert len(special.code) == 1


@pytest.mark.parametrize("path", sampled_scenarios())
def test_the_relation_specialised_to_each_mode_steps_as_the_relation(path: Path) -> None:
    prepared = prepare(load_scenario(path))
    system, start = prepared.system, prepared.history.state
    program = compile_relation(system, start)
    assert program.mode is not None  # every example's continuations change the mode
    levels = Levels(system, start, program, 1_500, max_bytes=None).run()
    rows = levels.rows(levels.reached())
    assert _same(program, rows, program.mode) > 0
