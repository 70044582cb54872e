"""The SMT engine's transition relation read into a plain program (:mod:`verifier.engines.
program`), for engines that evaluate it on many concrete states at once.

Built as :class:`~verifier.engines.smt.encode.Unrolling` builds its relation: every
action's checks and step run on a state whose every element is a variable. The elements
some action changes become the program's columns; every other element keeps its start value
along every continuation, so its variable is read as that constant. The terms are read
once, each distinct term one instruction after its arguments.
"""

from __future__ import annotations

from typing import Any

import z3

from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.state import State
from verifier.engines.program import Column, Op, Program, Unsupported
from verifier.engines.smt.logic import Z3Logic
from verifier.system import System

__all__ = ["compile_claim", "compile_relation"]

_OPS: dict[int, Op] = {
    z3.Z3_OP_ITE: Op.ITE,
    z3.Z3_OP_AND: Op.AND,
    z3.Z3_OP_OR: Op.OR,
    z3.Z3_OP_NOT: Op.NOT,
    z3.Z3_OP_IMPLIES: Op.IMPLIES,
    z3.Z3_OP_XOR: Op.XOR,
    z3.Z3_OP_EQ: Op.EQ,
    z3.Z3_OP_IFF: Op.EQ,
    z3.Z3_OP_SLT: Op.LT,
    z3.Z3_OP_SLEQ: Op.LE,
    z3.Z3_OP_SGT: Op.GT,
    z3.Z3_OP_SGEQ: Op.GE,
    z3.Z3_OP_BADD: Op.ADD,
    z3.Z3_OP_BSUB: Op.SUB,
    z3.Z3_OP_BNEG: Op.NEG,
    z3.Z3_OP_BASHR: Op.SHR,
    z3.Z3_OP_BSHL: Op.SHL,
}
"""z3's operations that have an instruction (``distinct`` of two is :attr:`Op.NE`)."""

_ARITY = {Op.NOT: 1, Op.NEG: 1, Op.SUB: 2, Op.SHR: 2, Op.SHL: 2, Op.ITE: 3}
"""The operations of a fixed number of arguments (the others take one or more)."""


def _name(ctx: Any, decl: Any) -> str:
    return str(z3.Z3_get_symbol_string(ctx, z3.Z3_get_decl_name(ctx, decl)))


def _elements(system: System, start: State) -> list[tuple[int, int | None]]:
    """Every element of the state vector: its field's position and its index (None for a
    scalar)."""
    out: list[tuple[int, int | None]] = []
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


def _at(state: State, element: tuple[int, int | None]) -> Any:
    position, index = element
    return state[position] if index is None else state[position][index]


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, bool | int) or isinstance(b, bool | int):
        return type(a) is type(b) and bool(a == b)
    return bool(a.eq(b))


def compile_relation(system: System, start: State) -> Program:
    """The relation of ``system`` from ``start`` as a program; :class:`Unsupported` when it
    uses an operation the program has no instruction for."""
    bits = system.layout.bits
    logic = Z3Logic(bits)
    fields = system.layout.fields

    def variable(position: int, index: int | None) -> Any:
        name = fields[position].name if index is None else f"{fields[position].name}[{index}]"
        return z3.Bool(name) if fields[position].boolean else z3.BitVec(name, bits)

    elements = _elements(system, start)
    generic = _state(system, start, variable)
    guards: list[Any] = []
    afters: list[State] = []
    changing: set[tuple[int, int | None]] = set()
    for action in system.actions:
        guards.append(logic.and_(*(c.ok for c in system.checks(logic, generic, action))))
        afters.append(system.step(logic, generic, action))
        changing.update(e for e in elements if not _same(_at(generic, e), _at(afters[-1], e)))
    kept = [e for e in elements if e in changing]
    # An element no action changes keeps its start value: read as that constant.
    builder = _Builder(
        {_at(generic, e).get_id(): j for j, e in enumerate(kept)},
        {_at(generic, e).get_id(): _at(start, e) for e in elements if e not in changing},
    )
    builder.alive.append(generic)
    code_guards = tuple(builder.value(guard) for guard in guards)
    changes = tuple(
        tuple(
            (j, builder.value(_at(after, e)))
            for j, e in enumerate(kept)
            if not _same(_at(after, e), _at(generic, e))
        )
        for after in afters
    )
    columns = tuple(Column(p, i, fields[p].boolean) for p, i in kept)
    where = {(c.position, c.index): j for j, c in enumerate(columns)}
    layout = system.layout
    return Program(
        bits=bits,
        columns=columns,
        code=tuple(builder.code),
        guards=code_guards,
        changes=changes,
        mode=where.get((layout.position("mode"), None)),
        overflow=where.get((layout.position("overflow"), None)),
    )


def compile_claim(
    system: System, start: State, program: Program, formula: ast.Formula, activations: int
) -> Program:
    """A claim's value at a final state, as a program over ``program``'s columns (its one
    guard is the value), built as the SMT engine builds it: the claim's meaning run on z3
    terms, over a state whose columns are variables and whose other elements are the
    start's values. :class:`Unsupported` as for :func:`compile_relation`."""
    bits = system.layout.bits
    fields = system.layout.fields
    columns = {(c.position, c.index): j for j, c in enumerate(program.columns)}
    variables: dict[int, int] = {}
    alive: list[Any] = []

    def element(position: int, index: int | None) -> Any:
        if (position, index) not in columns:
            return _at(start, (position, index))
        name = fields[position].name if index is None else f"{fields[position].name}[{index}]"
        made = z3.Bool(name) if fields[position].boolean else z3.BitVec(name, bits)
        alive.append(made)
        variables[made.get_id()] = columns[(position, index)]
        return made

    state = _state(system, start, element)
    value = truth(Z3Logic(bits), system.world, state, formula, activations, start)
    builder = _Builder(variables, {})
    builder.alive.extend(alive)
    root = builder.value(value)
    return Program(bits, program.columns, tuple(builder.code), (root,), ((),), None, None)


class _Builder:
    """Reads z3 terms into instructions, each distinct term once, after its arguments.

    Terms are walked through z3's C interface (no Python object per term visited): a term's
    id names it while it lives, and every term walked lives as long as the roots kept in
    :attr:`alive`.
    """

    def __init__(self, columns: dict[int, int], constants: dict[int, bool | int]) -> None:
        self.columns = columns
        self.fixed = constants
        self.code: list[tuple[Op, tuple[int, ...], int]] = []
        self.slots: dict[int, int] = {}
        self.constants: dict[tuple[bool, int], int] = {}
        self.alive: list[Any] = []
        self.ctx = z3.main_ctx().ref()

    def value(self, term: Any) -> int:
        """The instruction that computes ``term`` (a z3 term or a Python value)."""
        if isinstance(term, bool | int):
            return self._constant(term)
        self.alive.append(term)
        ctx, slots = self.ctx, self.slots
        root = term.as_ast()
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            key = z3.Z3_get_ast_id(ctx, node)
            if key in slots:
                continue
            if ready:
                slots[key] = self._instruction(node, key)
            else:
                stack.append((node, True))
                if key not in self.columns and key not in self.fixed:
                    count = z3.Z3_get_app_num_args(ctx, node)
                    stack.extend((z3.Z3_get_app_arg(ctx, node, i), False) for i in range(count))
        return slots[z3.Z3_get_ast_id(ctx, root)]

    def _constant(self, value: bool | int) -> int:
        key = (isinstance(value, bool), int(value))
        if key not in self.constants:
            self.constants[key] = len(self.code)
            self.code.append((Op.CONST, (), int(value)))
        return self.constants[key]

    def _instruction(self, node: Any, key: int) -> int:
        ctx = self.ctx
        if key in self.columns:
            self.code.append((Op.COLUMN, (), self.columns[key]))
            return len(self.code) - 1
        if key in self.fixed:
            return self._constant(self.fixed[key])
        if z3.Z3_get_ast_kind(ctx, node) not in (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST):
            raise Unsupported("a term that is not an application")
        decl = z3.Z3_get_app_decl(ctx, node)
        kind = z3.Z3_get_decl_kind(ctx, decl)
        if kind in (z3.Z3_OP_TRUE, z3.Z3_OP_FALSE):
            return self._constant(kind == z3.Z3_OP_TRUE)
        if kind == z3.Z3_OP_BNUM:
            width = z3.Z3_get_bv_sort_size(ctx, z3.Z3_get_sort(ctx, node))
            value = int(z3.Z3_get_numeral_string(ctx, node))
            return self._constant(value - (1 << width) if value >> (width - 1) else value)
        count = z3.Z3_get_app_num_args(ctx, node)
        args = tuple(
            self.slots[z3.Z3_get_ast_id(ctx, z3.Z3_get_app_arg(ctx, node, i))] for i in range(count)
        )
        if kind == z3.Z3_OP_DISTINCT and len(args) == 2:
            op = Op.NE
        elif kind in _OPS:
            op = _OPS[kind]
        else:
            raise Unsupported(f"no instruction for {_name(ctx, decl)}")
        arity = _ARITY.get(op)
        if (arity is not None and len(args) != arity) or len(args) < 1:
            raise Unsupported(f"{_name(ctx, decl)} of {len(args)} arguments")
        self.code.append((op, args, 0))
        return len(self.code) - 1
