"""The transition relation as a program (:mod:`verifier.engines.program`), for engines that
evaluate it on many concrete states at once.

Built as the SMT engine builds its relation (:class:`~verifier.engines.smt.encode.Unrolling`):
every action's checks and step run on a state whose elements are symbolic, here nodes of a
:class:`~verifier.engines.nodes.Graph` (:class:`~verifier.engines.nodes.ProgramLogic`), so
the rules write the program themselves. A first run, every element a node, finds the
elements some action changes: they become the program's columns. Every other element keeps
its start value along every continuation, so a second run reads it as that constant, and the
logic folds what it decides. Only the instructions the guards, the changes or the claim need
are kept.
"""

from __future__ import annotations

from typing import Any

from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.state import State
from verifier.engines.nodes import Graph, ProgramLogic
from verifier.engines.program import Column, Op, Program, needed
from verifier.system import System

__all__ = ["compile_claim", "compile_relation"]

Element = tuple[int, int | None]
"""An element of the state vector: its field's position and its index (None for a scalar)."""


def _elements(system: System, start: State) -> list[Element]:
    out: list[Element] = []
    for position, field in enumerate(system.layout.fields):
        if field.over is None:
            out.append((position, None))
        else:
            out.extend((position, i) for i in range(len(start[position])))
    return out


def _state(system: System, start: State, make: Any) -> State:
    """A state with ``make(position, index)`` for each element."""
    fields: list[Any] = []
    for position, field in enumerate(system.layout.fields):
        if field.over is None:
            fields.append(make(position, None))
        else:
            fields.append(tuple(make(position, i) for i in range(len(start[position]))))
    return tuple(fields)


def _at(state: State, element: Element) -> Any:
    position, index = element
    return state[position] if index is None else state[position][index]


def _runs(system: System, state: State, logic: ProgramLogic) -> tuple[list[Any], list[State]]:
    """Every action's legality and next state, from ``state``."""
    guards: list[Any] = []
    afters: list[State] = []
    for action in system.actions:
        guards.append(logic.and_(*(c.ok for c in system.checks(logic, state, action))))
        afters.append(system.step(logic, state, action))
    return guards, afters


def compile_relation(system: System, start: State) -> Program:
    """The relation of ``system`` from ``start`` as a program."""
    bits = system.layout.bits
    fields = system.layout.fields
    elements = _elements(system, start)

    graph = Graph()
    everything = _state(
        system,
        start,
        lambda p, i: graph.make(Op.COLUMN, (), fields[p].boolean, len(graph.code)),
    )
    _, afters = _runs(system, everything, ProgramLogic(graph, bits))
    changing = {e for e in elements for after in afters if _at(after, e) is not _at(everything, e)}
    kept = [e for e in elements if e in changing]

    graph = Graph()
    where = {e: j for j, e in enumerate(kept)}

    def element(position: int, index: int | None) -> Any:
        j = where.get((position, index))
        if j is None:
            return _at(start, (position, index))
        return graph.column(j, fields[position].boolean)

    generic = _state(system, start, element)
    guards, afters = _runs(system, generic, ProgramLogic(graph, bits))
    roots = [graph.index(g) for g in guards]
    writes = [
        [
            (j, graph.index(_at(after, e)))
            for j, e in enumerate(kept)
            if _at(after, e) is not _at(generic, e)
        ]
        for after in afters
    ]
    roots.extend(i for written in writes for _, i in written)
    code, renumbered = needed(graph.code, roots)
    columns = tuple(Column(p, i, fields[p].boolean) for p, i in kept)
    layout = system.layout
    return Program(
        bits=bits,
        columns=columns,
        code=code,
        guards=tuple(renumbered[graph.index(g)] for g in guards),
        changes=tuple(tuple((j, renumbered[i]) for j, i in written) for written in writes),
        mode=where.get((layout.position("mode"), None)),
        overflow=where.get((layout.position("overflow"), None)),
    )


def compile_claim(
    system: System, start: State, program: Program, formula: ast.Formula, activations: int
) -> Program:
    """A claim's value at a final state, as a program over ``program``'s columns (its one
    guard is the value): the claim's meaning run on nodes, over a state whose columns are
    nodes and whose other elements are the start's values."""
    bits = system.layout.bits
    fields = system.layout.fields
    where = {(c.position, c.index): j for j, c in enumerate(program.columns)}
    graph = Graph()

    def element(position: int, index: int | None) -> Any:
        j = where.get((position, index))
        if j is None:
            return _at(start, (position, index))
        return graph.column(j, fields[position].boolean)

    state = _state(system, start, element)
    value = truth(ProgramLogic(graph, bits), system.world, state, formula, activations, start)
    root = graph.index(value)
    code, renumbered = needed(graph.code, [root])
    return Program(bits, program.columns, code, (renumbered[root],), ((),), None, None)
