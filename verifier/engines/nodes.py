"""The logic interface over program instructions: the rules run on it write a program.

A third interpretation of :class:`verifier.core.logic.Logic`, beside the concrete one (the
explorer's step) and the z3 one (the SMT engine's): every value that is not a Python
constant is a :class:`Node`, an instruction of a :class:`Graph`, built once per distinct
operation and arguments (so structurally equal values are the same node) and folded where
its arguments allow, as :class:`~verifier.engines.smt.logic.Z3Logic` folds. Running a rule on
nodes writes the straight-line program (:mod:`verifier.engines.program`) that computes its
result, without building z3 terms and reading them back.

Integers are two's-complement values of the graph's width: ``+``, ``-`` and ``>>`` on nodes
mean what they mean on z3 bit-vectors of that width (a sum wraps), and :meth:`ProgramLogic.add`
and :meth:`ProgramLogic.sub` say whether the exact result fits, with the overflow conditions z3
uses for ``BVAddNoOverflow`` and its kin.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verifier.core.logic import Term, fits
from verifier.engines.program import Op

__all__ = ["Graph", "Node", "ProgramLogic"]

_COMMUTATIVE = frozenset({Op.EQ, Op.NE})
_FLIPPED = {Op.LT: Op.GT, Op.LE: Op.GE, Op.GT: Op.LT, Op.GE: Op.LE}
_REFLEXIVE = {Op.EQ: True, Op.NE: False, Op.LE: True, Op.GE: True, Op.LT: False, Op.GT: False}


class Graph:
    """Instructions, each distinct one once, in an order where arguments come first."""

    def __init__(self) -> None:
        self.code: list[tuple[Op, tuple[int, ...], int]] = []
        self.nodes: list[Node | None] = []
        self._table: dict[tuple[Op, tuple[int, ...], int], int] = {}

    def column(self, column: int, boolean: bool) -> Node:
        """The value of the row's element ``column``."""
        return self.make(Op.COLUMN, (), boolean, column)

    def index(self, value: Term) -> int:
        """The instruction that computes ``value`` (a node of this graph or a constant)."""
        if isinstance(value, Node):
            if value.graph is not self:
                raise ValueError("a node of another graph")
            return value.index
        if not isinstance(value, bool | int):
            raise TypeError(f"not a value of the program: {type(value).__name__}")
        return self._instruction(Op.CONST, (), int(value))

    def make(self, op: Op, args: tuple[Term, ...], boolean: bool, constant: int = 0) -> Node:
        """The node of ``op`` over ``args`` (made once)."""
        indices = tuple(self.index(a) for a in args)
        if op in _COMMUTATIVE:
            indices = tuple(sorted(indices))
        i = self._instruction(op, indices, constant)
        node = self.nodes[i]
        if node is None:
            node = self.nodes[i] = Node(self, i, boolean)
        return node

    def _instruction(self, op: Op, args: tuple[int, ...], constant: int) -> int:
        key = (op, args, constant)
        i = self._table.get(key)
        if i is None:
            i = self._table[key] = len(self.code)
            self.code.append(key)
            self.nodes.append(None)
        return i


def _compare(op: Op, a: Any, b: Any) -> Any:
    """``a op b`` where ``a`` is a node: folded when both are the same value."""
    if isinstance(b, Node) and b is a:
        return _REFLEXIVE[op]
    if isinstance(b, Node) and b.index < a.index and op in _FLIPPED:
        op, a, b = _FLIPPED[op], b, a  # one node for ``a < b`` and ``b > a``
    node: Node = a.graph.make(op, (a, b), True)
    return node


class Node:
    """A value the program computes: an instruction of :attr:`graph`, at :attr:`index`."""

    __slots__ = ("boolean", "graph", "index")

    def __init__(self, graph: Graph, index: int, boolean: bool) -> None:
        self.graph = graph
        self.index = index
        self.boolean = boolean

    __hash__ = object.__hash__  # a node is made once: identity is structural equality

    def __eq__(self, other: object) -> Any:
        return _compare(Op.EQ, self, other)

    def __ne__(self, other: object) -> Any:
        return _compare(Op.NE, self, other)

    def __lt__(self, other: Any) -> Any:
        return _compare(Op.LT, self, other)

    def __le__(self, other: Any) -> Any:
        return _compare(Op.LE, self, other)

    def __gt__(self, other: Any) -> Any:
        return _compare(Op.GT, self, other)

    def __ge__(self, other: Any) -> Any:
        return _compare(Op.GE, self, other)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, int) and other == 0:
            return self
        return self.graph.make(Op.ADD, (self, other), False)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, int) and other == 0:
            return self
        return self.graph.make(Op.SUB, (self, other), False)

    def __rsub__(self, other: Any) -> Any:
        return self.graph.make(Op.SUB, (other, self), False)

    def __neg__(self) -> Any:
        return self.graph.make(Op.NEG, (self,), False)

    def __rshift__(self, other: Any) -> Any:
        return self.graph.make(Op.SHR, (self, other), False)

    def __lshift__(self, other: Any) -> Any:
        return self.graph.make(Op.SHL, (self, other), False)

    def __bool__(self) -> bool:
        # As a z3 term: an equation is true only of two structurally equal sides, which
        # are folded to True before a node is made; any other value has no truth of its own.
        if self.graph.code[self.index][0] is Op.EQ:
            return False
        raise TypeError("a symbolic value has no truth value: a rule branched on the state")

    def __repr__(self) -> str:
        op, args, constant = self.graph.code[self.index]
        return f"Node({op.name}, {args}, {constant})"


def _concrete(value: Any) -> bool:
    return isinstance(value, bool | int)


class ProgramLogic:
    """Connectives, choices and integers that build nodes of ``graph``, or Python values
    when they can."""

    symbolic = True

    def __init__(self, graph: Graph, bits: int) -> None:
        self.graph = graph
        self.bits = bits

    def and_(self, *xs: Term) -> Term:
        terms: list[Node] = []
        for x in xs:
            if isinstance(x, Node):
                if all(x is not t for t in terms):
                    terms.append(x)
            elif not x:
                return False
        if not terms:
            return True
        return terms[0] if len(terms) == 1 else self.graph.make(Op.AND, tuple(terms), True)

    def or_(self, *xs: Term) -> Term:
        terms: list[Node] = []
        for x in xs:
            if isinstance(x, Node):
                if all(x is not t for t in terms):
                    terms.append(x)
            elif x:
                return True
        if not terms:
            return False
        return terms[0] if len(terms) == 1 else self.graph.make(Op.OR, tuple(terms), True)

    def not_(self, x: Term) -> Term:
        if isinstance(x, Node):
            return self.graph.make(Op.NOT, (x,), True)
        return not x

    def ite(self, c: Term, a: Term, b: Term) -> Term:
        if not isinstance(c, Node):
            return a if c else b
        if a is b:
            return a
        if _concrete(a) and _concrete(b) and a == b and type(a) is type(b):
            return a
        boolean = a.boolean if isinstance(a, Node) else isinstance(a, bool)
        return self.graph.make(Op.ITE, (c, a, b), boolean)

    def pick(self, values: Sequence[Term], index: Term, default: Term) -> Term:
        if not isinstance(index, Node):
            assert isinstance(index, int)
            return values[index] if 0 <= index < len(values) else default
        result = default
        for i in range(len(values) - 1, -1, -1):
            result = self.ite(index == i, values[i], result)
        return result

    def select(self, mask: Sequence[Term], values: Sequence[Term], default: Term) -> Term:
        result = default
        for m, v in zip(reversed(mask), reversed(values), strict=True):
            result = self.ite(m, v, result)
        return result

    def count(self, xs: Sequence[Term]) -> Term:
        total = 0
        parts: list[Term] = []
        for x in xs:
            if isinstance(x, Node):
                parts.append(self.graph.make(Op.ITE, (x, 1, 0), False))
            elif x:
                total += 1
        if not parts:
            return total
        if total:
            parts.append(total)
        return parts[0] if len(parts) == 1 else self.graph.make(Op.ADD, tuple(parts), False)

    def add(self, a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        if isinstance(a, bool | int) and isinstance(b, bool | int):
            return a + b, fits(a + b, bits)
        total = self.graph.make(Op.ADD, (a, b), False)
        # z3's BVAddNoOverflow (signed) and BVAddNoUnderflow: two positives sum to a
        # positive, two negatives to a negative.
        over = self.and_(_less(0, a), _less(0, b), self.not_(_less(0, total)))
        under = self.and_(_less(a, 0), _less(b, 0), self.not_(_less(total, 0)))
        return total, self.not_(self.or_(over, under))

    def sub(self, a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        if isinstance(a, bool | int) and isinstance(b, bool | int):
            return a - b, fits(a - b, bits)
        difference = self.graph.make(Op.SUB, (a, b), False)
        # A difference of two values of unlike signs has the sign of the first.
        over = self.and_(self.not_(_less(a, 0)), _less(b, 0), _less(difference, 0))
        under = self.and_(_less(a, 0), self.not_(_less(b, 0)), self.not_(_less(difference, 0)))
        return difference, self.not_(self.or_(over, under))

    @staticmethod
    def half(x: Term) -> Term:
        return x >> 1

    @staticmethod
    def is_false(x: Term) -> bool:
        if isinstance(x, Node):
            return False
        return not x


def _less(a: Term, b: Term) -> Term:
    """``a < b`` (signed), for a constant or a node on either side."""
    return a < b
