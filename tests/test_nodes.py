"""The rules run on program nodes compute what they compute on plain values.

:mod:`verifier.engines.nodes` is the logic the array step's relation is written with
(:mod:`verifier.engines.relation`); the array step's tests hold the whole relation to the
interpreted explorer. Here, its pieces: sums and differences with their overflow flags on
every pair of 4-bit values, the connectives' folding, and a node's identity.
"""

from __future__ import annotations

import numpy as np
import pytest

from verifier.core.logic import CONCRETE
from verifier.engines.arrays import evaluate
from verifier.engines.nodes import Graph, Node, ProgramLogic
from verifier.engines.program import Column, Op, Program, needed

BITS = 4
VALUES = range(-(1 << (BITS - 1)), 1 << (BITS - 1))


def _run(graph: Graph, roots: list[object], rows: np.ndarray) -> list[list[int]]:
    columns = (Column(0, None, False), Column(1, None, False))
    program = Program(BITS, columns, tuple(graph.code), (), (), None, None)
    values = evaluate(program, rows)
    out = []
    for root in roots:
        value = values[graph.index(root)]  # type: ignore[arg-type]
        out.append(np.broadcast_to(value, (len(rows),)).astype(int).tolist())
    return out


@pytest.mark.parametrize("name", ["add", "sub"])
def test_sums_and_differences_wrap_and_say_whether_they_fit(name: str) -> None:
    graph = Graph()
    logic = ProgramLogic(graph, BITS)
    a, b = graph.column(0, False), graph.column(1, False)
    value, fits = getattr(logic, name)(a, b, BITS)
    pairs = [(x, y) for x in VALUES for y in VALUES]
    rows = np.array(pairs, dtype=np.int8)
    got_value, got_fits = _run(graph, [value, fits], rows)
    for k, (x, y) in enumerate(pairs):
        exact, ok = getattr(CONCRETE, name)(x, y, BITS)
        assert bool(got_fits[k]) is ok, (x, y)
        if ok:
            assert got_value[k] == exact, (x, y)
        else:  # wrapped, as a bit-vector
            assert got_value[k] == (exact + 8) % 16 - 8, (x, y)


def test_constants_fold_and_a_node_is_made_once() -> None:
    graph = Graph()
    logic = ProgramLogic(graph, BITS)
    a, b = graph.column(0, False), graph.column(1, False)
    assert (a == b) is (b == a)  # one node, whichever side it is asked from
    assert (a < b) is (b > a)
    same = a
    assert (a == same) is True and (a < same) is False
    assert logic.and_(True, a == b, a == b) is (a == b)
    assert logic.and_(a == b, False) is False and logic.or_(a == 1, True) is True
    assert logic.ite(True, a, b) is a and logic.ite(a == 1, b, b) is b
    assert logic.add(3, 4, BITS) == (7, True) and logic.add(7, 1, BITS) == (8, False)
    assert a + 0 is a and logic.is_false(a == b) is False
    assert isinstance(logic.count([a == 1, True, b == 2]), Node)
    assert logic.count([True, False, True]) == 2


def test_a_node_has_no_truth_value_of_its_own() -> None:
    graph = Graph()
    a, b = graph.column(0, False), graph.column(1, False)
    assert bool(a == b) is False  # as a z3 equation: two different sides are two terms
    assert a not in [b]
    with pytest.raises(TypeError, match="no truth value"):
        bool(a < b)
    with pytest.raises(ValueError, match="another graph"):
        Graph().index(a)


def test_the_relation_keeps_only_what_it_needs() -> None:
    graph = Graph()
    a = graph.column(0, False)
    graph.make(Op.NOT, (a == 1,), True)  # made, but no root needs it
    code, renumbered = needed(graph.code, [graph.index(a + 1)])
    assert [op for op, _, _ in code] == [Op.COLUMN, Op.CONST, Op.ADD]
    assert set(renumbered) == {graph.index(a), graph.index(1), graph.index(a + 1)}
